import { isSystemAdmin, OperatorType } from '@portal/contract';
import type { ExpressionBuilder, ExpressionWrapper, SqlBool } from 'kysely';
import type { Principal } from '../context.ts';

/**
 * Tenancy (docs/architecture-decisions.md "Data"): every query of tenant data goes through these. System admins
 * see every organization; other operators their own organization; general operators only their
 * own building.
 */
export type TenantScope = Pick<Principal, 'organizationId' | 'buildingId' | 'type'>;

/** Condition on a table with `organization_id` and a building column (`id` for buildings). */
export function scopeWhere<DB, TB extends keyof DB>(
  scope: TenantScope,
  eb: ExpressionBuilder<DB, TB>,
  columns: { organization: string; building?: string },
): ExpressionWrapper<DB, TB, SqlBool> {
  // Column names come from code, never from input; the casts only bridge Kysely's string typing.
  const ref = (c: string) => eb.ref(c as never);
  const parts: ExpressionWrapper<DB, TB, SqlBool>[] = [];
  if (!isSystemAdmin(scope.type)) {
    parts.push(eb(ref(columns.organization), '=', scope.organizationId as never));
    if (scope.type === OperatorType.general && columns.building) {
      parts.push(eb(ref(columns.building), '=', (scope.buildingId ?? -1) as never));
    }
  }
  return eb.and(parts);
}

export const canSeeOrganization = (scope: TenantScope, organizationId: number): boolean =>
  isSystemAdmin(scope.type) || scope.organizationId === organizationId;

export const canSeeBuilding = (scope: TenantScope, b: { id: number; organizationId: number }): boolean =>
  canSeeOrganization(scope, b.organizationId) && (scope.type !== OperatorType.general || scope.buildingId === b.id);

/** May the scope reach this robot (its organization, and for general operators its building)? */
export const robotInScope = (scope: TenantScope, r: { organizationId: number; buildingId: number }): boolean =>
  canSeeBuilding(scope, { id: r.buildingId, organizationId: r.organizationId });
