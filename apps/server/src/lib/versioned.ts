import { AppError } from './errors.ts';

/**
 * Versioned edits (docs/architecture-decisions.md "Concurrent edits"): an update carries the `updatedAt` it was
 * based on; the repository writes only where the stored version still equals it, and a stale one is
 * 409 STALE_UPDATE, never a silent overwrite.
 */

/**
 * The new version of a row: now, but always later than the version it replaces, so two edits in
 * the same millisecond still differ and the second stale one is refused.
 */
export function nextVersion(now: Date, previous?: string | null): string {
  const prev = previous ? Date.parse(previous) : Number.NaN;
  return new Date(Number.isNaN(prev) || now.getTime() > prev ? now.getTime() : prev + 1).toISOString();
}

export const staleUpdate = (what: string) =>
  new AppError('STALE_UPDATE', `The ${what} was changed by someone else; reload it and try again`);

/**
 * Checks the outcome of a conditional update (`... WHERE id = ? AND updated_at = ?`): one row written
 * is success; none means the row is gone (404 from `missing`) or was changed since (409).
 */
export async function expectVersioned(
  written: bigint | number,
  what: string,
  stillExists: () => Promise<boolean>,
  missing: () => Error,
): Promise<void> {
  if (Number(written) === 1) return;
  throw (await stillExists()) ? staleUpdate(what) : missing();
}
