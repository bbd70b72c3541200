import { isDataAdmin } from '@portal/contract';
import type { Kysely } from 'kysely';
import type { AppContext, Principal } from '../../context.ts';
import type { Database } from '../../db/schema.ts';
import { forbidden, notFound } from '../../lib/errors.ts';
import { canSeeBuilding } from '../../lib/scope.ts';
import { buildingRepo } from './building-repo.ts';
import type { AuditAction, AuditTargetType } from '@portal/contract';

/** Other modules still import these from here; the one helper is lib/versioned.ts. */
export { nextVersion, staleUpdate } from '../../lib/versioned.ts';

/**
 * What buildings, their sections and floors share: who may change them, the building in the
 * caller's scope, versions for optimistic concurrency and the audit entry of a change.
 */

/** Writing building data is for organization administrators (own organization) and system admins. */
export function requireManager(p: Pick<Principal, 'type'>): void {
  if (!isDataAdmin(p.type)) throw forbidden('Only organization administrators can change buildings and floors');
}

export interface ScopedBuilding {
  id: number;
  organizationId: number;
  ipRestrictionEnabled: boolean;
}

/** The building when the caller may see it; another tenant's building is "not found" (never 403). */
export async function buildingInScope(db: Kysely<Database>, p: Principal, id: number): Promise<ScopedBuilding> {
  const b = await buildingRepo(db).findScope(id);
  if (!b || !canSeeBuilding(p, { id: b.id, organizationId: b.organization_id })) throw notFound('Building');
  return { id: b.id, organizationId: b.organization_id, ipRestrictionEnabled: b.ip_restriction_enabled === 1 };
}

/** A row's building must be visible to the caller; else the row is "not found". */
export function assertRowInScope<R extends { building_id: number; organization_id: number }>(
  p: Principal,
  row: R | undefined,
  what: string,
): R {
  if (!row || !canSeeBuilding(p, { id: row.building_id, organizationId: row.organization_id })) throw notFound(what);
  return row;
}

/** '' in an optional text is stored as null. */
export const nullIfEmpty = (v: string): string | null => (v.trim() === '' ? null : v.trim());

export type Recorder = ReturnType<typeof recorder>;

/** The audit entry of a change by the caller (docs/architecture-decisions.md: every change is recorded). */
export function recorder(audit: AppContext['audit']) {
  return (
    p: Principal,
    ip: string,
    action: AuditAction,
    target: { type: AuditTargetType; id: number | string },
    detail?: Record<string, unknown>,
    trx?: Kysely<Database>,
  ) =>
    audit.record(
      {
        operatorId: p.operatorId,
        organizationId: p.organizationId,
        action,
        targetType: target.type,
        targetId: target.id,
        ip,
        detail: detail ?? null,
      },
      trx,
    );
}
