import { isDataAdmin, OperatorType } from '@portal/contract';
import type { Principal } from '../../context.ts';
import { AppError, forbidden } from '../../lib/errors.ts';

/**
 * Rules shared by the data-management services of organizations, operators and the audit log.
 * (Candidates for lib/ once another module needs them.)
 */

// The versioned-update helpers are lib/versioned.ts's; re-exported for the modules that import them here.
export { nextVersion, staleUpdate } from '../../lib/versioned.ts';

/** Organization administrators (own organization) and system administrators (all); nobody else. */
export function assertAdministrator(p: Pick<Principal, 'type'>): void {
  if (!isDataAdmin(p.type)) {
    throw forbidden('Only organization and system administrators may do this');
  }
}

export function assertSystemAdministrator(p: Pick<Principal, 'type'>): void {
  if (p.type !== OperatorType.systemAdmin) throw forbidden('Only system administrators may do this');
}

/** A unique-index violation on SQLite (better-sqlite3) or PostgreSQL: a race lost to another insert. */
export function isUniqueViolation(err: unknown): boolean {
  const code = (err as { code?: unknown } | null)?.code;
  return code === 'SQLITE_CONSTRAINT_UNIQUE' || code === '23505';
}

export const duplicate = (path: string, what: string) =>
  new AppError('DUPLICATE', `${what} already exists`, [{ path, message: 'validation.duplicate' }]);

/** '' optional texts are stored as null. */
export const orNull = (v: string | undefined): string | null => (v === undefined || v === '' ? null : v);
