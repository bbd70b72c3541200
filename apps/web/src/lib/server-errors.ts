import type { FieldError, FieldValues, Path, UseFormSetError } from 'react-hook-form';
import { isApiError } from '@/lib/api-client';

/**
 * Puts the server's field errors under their fields: DUPLICATE gets the screen's own sentence,
 * VALIDATION_FAILED details their `validation.*` key. True when at least one field got an error.
 */
export function applyServerErrors<T extends FieldValues>(
  error: unknown,
  setError: UseFormSetError<T>,
  fields: readonly Path<T>[],
  duplicateText: string,
): boolean {
  if (!isApiError(error)) return false;
  if (error.code !== 'DUPLICATE' && error.code !== 'VALIDATION_FAILED') return false;
  let placed = false;
  for (const d of error.details) {
    const field = fields.find((f) => f === d.path);
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

/** Field messages of a 400 VALIDATION_FAILED (top-level field of each path), to put next to the inputs. */
export function fieldErrors(error: unknown): Array<{ path: string; message: string }> {
  if (!isApiError(error) || error.code !== 'VALIDATION_FAILED') return [];
  return error.details.map((d) => ({ path: d.path.split('.')[0] ?? d.path, message: d.message }));
}
