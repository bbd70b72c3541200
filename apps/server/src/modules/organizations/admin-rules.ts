import { OperatorType } from '@portal/contract';
import type { Principal } from '../../context.ts';
import { AppError, forbidden } from '../../lib/errors.ts';

/**
 * Rules shared by the data-management services of organizations, operators and the audit log.
 * (Candidates for lib/ once another module needs them.)
 */

/** Organization administrators (own organization) and system administrators (all); nobody else. */
export function assertAdministrator(p: Pick<Principal, 'type'>): void {
  if (p.type !== OperatorType.orgAdmin && p.type !== OperatorType.systemAdmin) {
    throw forbidden('Only organization and system administrators may do this');
  }
}

export function assertSystemAdministrator(p: Pick<Principal, 'type'>): void {
  if (p.type !== OperatorType.systemAdmin) throw forbidden('Only system administrators may do this');
}

/**
 * The `updatedAt` a change writes: now, but always different from the version it replaces, so two
 * edits in the same millisecond cannot both match the same stored version.
 */
export function nextVersion(now: Date, previous: string): string {
  const iso = now.toISOString();
  if (iso > previous) return iso;
  const prev = Date.parse(previous);
  return Number.isNaN(prev) ? iso : new Date(Math.max(prev, now.getTime()) + 1).toISOString();
}

/** A unique-index violation on SQLite (better-sqlite3) or PostgreSQL: a race lost to another insert. */
export function isUniqueViolation(err: unknown): boolean {
  const code = (err as { code?: unknown } | null)?.code;
  return code === 'SQLITE_CONSTRAINT_UNIQUE' || code === '23505';
}

export const staleUpdate = (what: string) =>
  new AppError('STALE_UPDATE', `The ${what} was changed elsewhere; reload and try again`);

export const duplicate = (path: string, what: string) =>
  new AppError('DUPLICATE', `${what} already exists`, [{ path, message: 'validation.duplicate' }]);

/** '' optional texts are stored as null. */
export const orNull = (v: string | undefined): string | null => (v === undefined || v === '' ? null : v);
