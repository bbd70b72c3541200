import type { WorkPlan, WorkPlanTemplate } from '@portal/contract';
import type { Kysely, Selectable } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { deleteById, insertReturningId, rowExists, updateVersioned } from '../../db/rows.ts';
import { applyFilter, applyWhere, type ParsedFilter } from '../../lib/filter.ts';
import { filterSpec, ID_FIELD, TENANT_FIELDS, TIMESTAMP_FIELDS } from '../../lib/filter-spec.ts';
import { isSystemAdmin } from '@portal/contract';
import { scopeWhere, type TenantScope } from '../../lib/scope.ts';
import type { WorkPlanTable, WorkPlanTemplateTable } from './work-plan-tables.ts';

/** Allow-list of `GET /work-plans?filter=`; ordered by name. */
export const workPlanFilter = filterSpec(
  'work_plans',
  {
    ...ID_FIELD,
    name: 'string',
    floorId: 'integer',
    type: 'integer',
    status: 'integer',
    icon: 'string',
    templateId: 'integer',
    ...TENANT_FIELDS,
    ...TIMESTAMP_FIELDS,
  },
  { defaultOrder: 'name ASC', defaultLimit: 50, maxLimit: 500 },
);

/** Allow-list of `GET /work-plan-templates?filter=`; ordered by name. */
export const workPlanTemplateFilter = filterSpec(
  'work_plan_templates',
  {
    ...ID_FIELD,
    name: 'string',
    type: 'integer',
    organizationId: 'integer',
    builtinKey: 'string',
    ...TIMESTAMP_FIELDS,
  },
  { defaultOrder: 'name ASC', defaultLimit: 50, maxLimit: 500 },
);

export type WorkPlanRow = Selectable<WorkPlanTable> & { building_name: string; floor_name: string };
export type WorkPlanColumns = Omit<Selectable<WorkPlanTable>, 'id' | 'created_at' | 'updated_at'>;
export type WorkPlanTemplateRow = Selectable<WorkPlanTemplateTable>;
export type WorkPlanTemplateColumns = Omit<WorkPlanTemplateRow, 'id' | 'created_at' | 'updated_at' | 'builtin_key'>;

export const toWorkPlan = (r: WorkPlanRow): WorkPlan => ({
  id: r.id,
  organizationId: r.organization_id,
  buildingId: r.building_id,
  buildingName: r.building_name,
  floorId: r.floor_id,
  floorName: r.floor_name,
  name: r.name,
  description: r.description,
  icon: r.icon,
  type: r.type,
  status: r.status,
  definition: JSON.parse(r.definition),
  templateId: r.template_id,
  createdAt: r.created_at,
  updatedAt: r.updated_at,
});

export const toWorkPlanTemplate = (r: WorkPlanTemplateRow): WorkPlanTemplate => ({
  id: r.id,
  organizationId: r.organization_id,
  builtinKey: r.builtin_key,
  name: r.name,
  description: r.description,
  type: r.type,
  definition: JSON.parse(r.definition),
  createdAt: r.created_at,
  updatedAt: r.updated_at,
});

/** SQL of work plans and templates. Reads are within the caller's scope unless said otherwise. */
export function workPlanRepo(db: Kysely<Database>) {
  const scoped = (p: TenantScope) =>
    db
      .selectFrom('work_plans')
      .where((eb) =>
        scopeWhere(p, eb, { organization: 'work_plans.organization_id', building: 'work_plans.building_id' }),
      );
  const withNames = (p: TenantScope) =>
    scoped(p)
      .innerJoin('buildings', 'buildings.id', 'work_plans.building_id')
      .innerJoin('floors', 'floors.id', 'work_plans.floor_id')
      .selectAll('work_plans')
      .select(['buildings.name as building_name', 'floors.name as floor_name']);
  /** Templates a caller sees: the shared ones (no organization) and their organization's (all for system admins). */
  const templates = (p: TenantScope) =>
    db
      .selectFrom('work_plan_templates')
      .where((eb) =>
        isSystemAdmin(p.type)
          ? eb.and([])
          : eb.or([eb('organization_id', 'is', null), eb('organization_id', '=', p.organizationId)]),
      );

  return {
    byId: (p: TenantScope, id: number): Promise<WorkPlanRow | undefined> =>
      withNames(p).where('work_plans.id', '=', id).executeTakeFirst(),
    byIds: (p: TenantScope, ids: number[]): Promise<WorkPlanRow[]> =>
      withNames(p).where('work_plans.id', 'in', ids).execute(),
    async page(p: TenantScope, f: ParsedFilter): Promise<{ ids: number[]; total: number }> {
      const [idRows, count] = await Promise.all([
        applyFilter(scoped(p).select('id'), f).execute(),
        applyWhere(scoped(p), f.where)
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .executeTakeFirstOrThrow(),
      ]);
      return { ids: idRows.map((r) => r.id), total: Number(count.n) };
    },
    exists: (id: number, trx: Kysely<Database> = db) => rowExists(trx, 'work_plans', id),
    insert: (columns: WorkPlanColumns, now: string, trx: Kysely<Database>): Promise<number> =>
      insertReturningId(trx, 'work_plans', { ...columns, created_at: now, updated_at: now }),
    updateVersioned: (
      id: number,
      base: string,
      columns: WorkPlanColumns & { updated_at: string },
      trx: Kysely<Database>,
    ): Promise<bigint> => updateVersioned(trx, 'work_plans', id, base, columns),
    remove: (id: number, trx: Kysely<Database>): Promise<boolean> => deleteById(trx, 'work_plans', id),

    // ------------------------------------------------------------ templates
    templateById: (p: TenantScope, id: number): Promise<WorkPlanTemplateRow | undefined> =>
      templates(p).selectAll().where('id', '=', id).executeTakeFirst(),
    templatesByIds: (p: TenantScope, ids: number[]): Promise<WorkPlanTemplateRow[]> =>
      templates(p).selectAll().where('id', 'in', ids).execute(),
    async templatePage(p: TenantScope, f: ParsedFilter): Promise<{ ids: number[]; total: number }> {
      const [idRows, count] = await Promise.all([
        applyFilter(templates(p).select('id'), f).execute(),
        applyWhere(templates(p), f.where)
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .executeTakeFirstOrThrow(),
      ]);
      return { ids: idRows.map((r) => r.id), total: Number(count.n) };
    },
    templateExists: (id: number, trx: Kysely<Database> = db) => rowExists(trx, 'work_plan_templates', id),
    insertTemplate: (columns: WorkPlanTemplateColumns, now: string, trx: Kysely<Database>): Promise<number> =>
      insertReturningId(trx, 'work_plan_templates', {
        ...columns,
        builtin_key: null,
        created_at: now,
        updated_at: now,
      }),
    updateTemplateVersioned: (
      id: number,
      base: string,
      columns: WorkPlanTemplateColumns & { updated_at: string },
      trx: Kysely<Database>,
    ): Promise<bigint> => updateVersioned(trx, 'work_plan_templates', id, base, columns),
    removeTemplate: (id: number, trx: Kysely<Database>): Promise<boolean> => deleteById(trx, 'work_plan_templates', id),

    // ------------------------------------------------------------ what a work plan names
    building: (id: number) =>
      db.selectFrom('buildings').select(['id', 'organization_id']).where('id', '=', id).executeTakeFirst(),
    floor: (id: number) =>
      db.selectFrom('floors').select(['id', 'building_id']).where('id', '=', id).executeTakeFirst(),
    organizationExists: (id: number) => rowExists(db, 'organizations', id),
    /** The work plans of a building (what a flow's `launchWorkPlan` step may name). */
    idsOfBuilding: async (buildingId: number): Promise<Set<number>> =>
      new Set(
        (await db.selectFrom('work_plans').select('id').where('building_id', '=', buildingId).execute()).map(
          (r) => r.id,
        ),
      ),
  };
}
export type WorkPlanRepo = ReturnType<typeof workPlanRepo>;
