import type { FieldError, FieldValues, Path, UseFormSetError } from 'react-hook-form';
import { isApiError } from '@/lib/api-client';

/**
 * THE way to put the server's field errors under their fields (react-hook-form): each detail of a 400
 * VALIDATION_FAILED (its `validation.*` key, translated under the field) or, when the screen gives its
 * sentence for it, a 409 DUPLICATE goes to the field of its path, or of the path's first segment
 * (`arms.0.x` → `arms` unless `arms.0.x` is a field). True when at least one field got an error.
 */
export function applyServerErrors<T extends FieldValues>(
  error: unknown,
  setError: UseFormSetError<T>,
  fields: readonly Path<T>[],
  duplicateText?: string,
): boolean {
  if (!isApiError(error)) return false;
  if (error.code !== 'VALIDATION_FAILED' && (error.code !== 'DUPLICATE' || duplicateText === undefined)) return false;
  let placed = false;
  for (const d of error.details) {
    const top = d.path.split('.')[0];
    const field = fields.find((f) => f === d.path) ?? fields.find((f) => f === top);
    if (!field) continue;
    if (error.code === 'DUPLICATE') setError(field, { type: 'duplicate', message: duplicateText });
    else setError(field, { type: 'server', message: d.message });
    placed = true;
  }
  return placed;
}

/** The text under a field: a duplicate's sentence as is, a schema or server message translated. */
export const fieldErrorText = (
  error: FieldError | undefined,
  translate: (m: string | undefined) => string | undefined,
) => (error?.type === 'duplicate' ? error.message : translate(error?.message));

export const hasCode = (error: unknown, code: string): boolean => isApiError(error) && error.code === code;

/** True for a 400 VALIDATION_FAILED with field details (shown under the fields, not as an alert). */
export const hasFieldErrors = (error: unknown): boolean =>
  isApiError(error) && error.code === 'VALIDATION_FAILED' && error.details.length > 0;
