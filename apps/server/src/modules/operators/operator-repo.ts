import type { Operator } from '@portal/contract';
import { sql, type InferResult, type Insertable, type Kysely, type Updateable } from 'kysely';
import type { Principal } from '../../context.ts';
import type { Database, OperatorTable } from '../../db/schema.ts';
import { findById, rowExists, updateVersioned } from '../../db/rows.ts';
import { compiledPage } from '../../lib/compiled-list.ts';
import { applyFilter, applyOrder, countOf, type ParsedFilter } from '../../lib/filter.ts';
import { filterSpec, ID_FIELD, TENANT_FIELDS, TIMESTAMP_FIELDS } from '../../lib/filter-spec.ts';
import { scopeWhere, type TenantScope } from '../../lib/scope.ts';

/** Allow-list of `GET /operators?filter=` (docs/architecture-decisions.md "API"). */
export const operatorFilter = filterSpec(
  'operators',
  {
    ...ID_FIELD,
    loginId: 'string',
    firstName: 'string',
    lastName: 'string',
    type: 'integer',
    ...TENANT_FIELDS,
    status: 'integer',
    flowEditRestricted: 'boolean',
    exportRestricted: 'boolean',
    lockedUntil: 'date',
    lastLoginAt: 'date',
    ...TIMESTAMP_FIELDS,
  },
  { defaultOrder: 'lastName ASC' },
);

const COLUMNS = [
  'operators.id',
  'operators.login_id',
  'operators.first_name',
  'operators.last_name',
  'operators.type',
  'operators.organization_id',
  'organizations.name as organization_name',
  'operators.building_id',
  'buildings.name as building_name',
  'operators.flow_edit_restricted',
  'operators.export_restricted',
  'operators.status',
  'operators.auth_mode',
  'operators.locked_until',
  'operators.must_change_password',
  'operators.last_login_at',
  'operators.created_at',
  'operators.updated_at',
] as const;

/** SQL of operator management. Deleted operators (soft delete) are never seen here. */
export function operatorRepo(db: Kysely<Database>) {
  /** Live operators of the caller's scope, with their organization and building names. */
  const scoped = (p: TenantScope, trx: Kysely<Database> = db) =>
    trx
      .selectFrom('operators')
      .innerJoin('organizations', 'organizations.id', 'operators.organization_id')
      .leftJoin('buildings', 'buildings.id', 'operators.building_id')
      .where('operators.deleted_at', 'is', null)
      .where((eb) => scopeWhere(p, eb, { organization: 'operators.organization_id' }));

  /** The same operators without the joins: what paging and counting need (filters name only operator columns). */
  const live = (p: TenantScope) =>
    db
      .selectFrom('operators')
      .where('operators.deleted_at', 'is', null)
      .where((eb) => scopeWhere(p, eb, { organization: 'operators.organization_id' }));

  /**
   * How many live operators the scope sees, from the counts the triggers of migration 025 keep (a row
   * per organization) rather than counting the operators: the total of the list without a where.
   */
  const liveCount = (p: TenantScope) =>
    db
      .selectFrom('live_counts')
      .where('live_counts.table_name', '=', 'operators')
      .where((eb) => scopeWhere(p, eb, { organization: 'live_counts.organization_id' }))
      .select(sql<number | string>`coalesce(sum(live_counts.n), 0)`.as('n'));

  return {
    /**
     * One page with its total, in one statement: the page's ids come from the operators alone (an
     * index walk, see migration 002), then only those rows are joined to their organization and
     * building names.
     */
    list(p: Principal, f: ParsedFilter) {
      const build = (s: TenantScope, sf: ParsedFilter) => {
        const ids = applyFilter(live(s).select('operators.id'), sf);
        const page = applyOrder(scoped(s).select(COLUMNS).where('operators.id', 'in', ids), sf.order);
        return { page, count: sf.where ? countOf(live(s), sf.where) : liveCount(s) };
      };
      type Row = InferResult<ReturnType<typeof build>['page']>[number];
      return compiledPage<Row>(db as never, 'operators', p, f, build as never);
    },
    find(p: Principal, id: number, trx: Kysely<Database> = db) {
      return scoped(p, trx)
        .select(COLUMNS)
        .select('operators.password_hash')
        .where('operators.id', '=', id)
        .executeTakeFirst();
    },
    /** Whether the live operator is still there: after a failed versioned update, 409 stale vs 404. */
    async exists(p: Principal, id: number) {
      return !!(await scoped(p).select('operators.id').where('operators.id', '=', id).executeTakeFirst());
    },
    /** Who holds a login ID (live or deleted, any organization), other than `exceptId`. */
    loginIdHolder(loginId: string, exceptId: number | null) {
      let q = db
        .selectFrom('operators')
        .select(['id', 'organization_id', 'deleted_at'])
        .where('login_id', '=', loginId);
      if (exceptId !== null) q = q.where('id', '!=', exceptId);
      return q.executeTakeFirst();
    },
    organizationExists: (id: number): Promise<boolean> => rowExists(db, 'organizations', id),
    buildingOf: (buildingId: number) => findById(db, 'buildings', buildingId, ['id', 'organization_id']),
    insert(values: Insertable<OperatorTable>) {
      return db.insertInto('operators').values(values).returning(['id', 'organization_id']).executeTakeFirstOrThrow();
    },
    /**
     * Writes a live operator only while its stored version is still `basedOn`; answers the rows
     * written (0 or 1).
     */
    updateVersioned: (trx: Kysely<Database>, id: number, values: Updateable<OperatorTable>, basedOn: string) =>
      updateVersioned(trx, 'operators', id, basedOn, values, { deleted_at: null }),
    /** Writes an operator's state (lock, unlock, forced password change) whatever its version. */
    async update(id: number, values: Updateable<OperatorTable>, trx: Kysely<Database> = db) {
      await trx.updateTable('operators').set(values).where('id', '=', id).execute();
    },
    /** Marks a live operator deleted with the given values; answers whether it was there. */
    async softDelete(trx: Kysely<Database>, id: number, values: Updateable<OperatorTable> & { deleted_at: string }) {
      const gone = await trx
        .updateTable('operators')
        .set(values)
        .where('id', '=', id)
        .where('deleted_at', 'is', null)
        .executeTakeFirst();
      return Number(gone.numUpdatedRows) === 1;
    },
    /** Ends every session of the operator (all at once), except one kept when given. */
    revokeSessions(trx: Kysely<Database>, operatorId: number, at: string, keepSessionId?: number) {
      let q = trx
        .updateTable('sessions')
        .set({ revoked_at: at })
        .where('operator_id', '=', operatorId)
        .where('revoked_at', 'is', null);
      if (keepSessionId !== undefined) q = q.where('id', '!=', keepSessionId);
      return q.execute();
    },
  };
}
export type OperatorRepo = ReturnType<typeof operatorRepo>;
export type OperatorListRow = Awaited<ReturnType<OperatorRepo['list']>>['rows'][number];

export const toOperator = (r: OperatorListRow): Operator => ({
  id: r.id,
  loginId: r.login_id,
  firstName: r.first_name,
  lastName: r.last_name,
  type: r.type as Operator['type'],
  organizationId: r.organization_id,
  organizationName: r.organization_name,
  buildingId: r.building_id,
  buildingName: r.building_name,
  flowEditRestricted: r.flow_edit_restricted === 1,
  exportRestricted: r.export_restricted === 1,
  status: r.status as Operator['status'],
  authMode: r.auth_mode === 'email' || r.auth_mode === 'sms' ? r.auth_mode : 'none',
  lockedUntil: r.locked_until,
  mustChangePassword: r.must_change_password === 1,
  lastLoginAt: r.last_login_at,
  createdAt: r.created_at,
  updatedAt: r.updated_at,
});
