import { OperatorType, type Flow } from '@portal/contract';
import type { Kysely, Selectable } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { deleteById, insertReturningId, updateVersioned } from '../../db/rows.ts';
import { applyFilter, applyWhere, type ParsedFilter } from '../../lib/filter.ts';
import { filterSpec, ID_FIELD, TENANT_FIELDS, TIMESTAMP_FIELDS } from '../../lib/filter-spec.ts';
import { scopeWhere, type TenantScope } from '../../lib/scope.ts';
import type { FlowTable } from './flow-tables.ts';

/** Allow-list of `GET /flows?filter=`; ordered by display order unless asked otherwise. */
export const flowFilter = filterSpec(
  'flows',
  {
    ...ID_FIELD,
    name: 'string',
    floorId: 'integer',
    flowGroupId: 'integer',
    displayOrder: 'integer',
    enabled: 'boolean',
    ...TENANT_FIELDS,
    ...TIMESTAMP_FIELDS,
  },
  { defaultOrder: 'displayOrder ASC' },
);

export type FlowRow = Selectable<FlowTable>;
export type FlowColumns = Omit<FlowRow, 'id' | 'created_at' | 'updated_at' | 'display_order' | 'enabled'>;

export const toFlow = (r: FlowRow): Flow => ({
  id: r.id,
  organizationId: r.organization_id,
  buildingId: r.building_id,
  floorId: r.floor_id,
  flowGroupId: r.flow_group_id,
  name: r.name,
  description: r.description,
  displayOrder: r.display_order,
  enabled: r.enabled === 1,
  definition: JSON.parse(r.definition),
  createdAt: r.created_at,
  updatedAt: r.updated_at,
});

/** Waypoint and route ids of a map document's JSON text (nothing else of it is read). */
function mapIds(text: string): { waypoints: Set<number>; routes: Set<number> } {
  const doc = JSON.parse(text) as { waypoints?: Array<{ id?: unknown }>; routes?: Array<{ id?: unknown }> };
  const ids = (list: Array<{ id?: unknown }> | undefined) =>
    new Set((list ?? []).map((x) => x.id).filter((v): v is number => typeof v === 'number'));
  return { waypoints: ids(doc.waypoints), routes: ids(doc.routes) };
}

/** The flows of a building (what keeps it from being deleted or moved to another organization). */
export async function flowCountOfBuilding(db: Kysely<Database>, buildingId: number): Promise<number> {
  const row = await db
    .selectFrom('flows')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('building_id', '=', buildingId)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** SQL of flows. Reads are within the caller's scope unless said otherwise; writes take their transaction. */
export function flowRepo(db: Kysely<Database>) {
  const scoped = (p: TenantScope, trx: Kysely<Database> = db) =>
    trx
      .selectFrom('flows')
      .where((eb) => scopeWhere(p, eb, { organization: 'flows.organization_id', building: 'flows.building_id' }));
  return {
    byId: (p: TenantScope, id: number, trx?: Kysely<Database>): Promise<FlowRow | undefined> =>
      scoped(p, trx).selectAll().where('id', '=', id).executeTakeFirst(),
    byIds: (p: TenantScope, ids: number[]): Promise<FlowRow[]> =>
      scoped(p).selectAll().where('id', 'in', ids).execute(),
    async page(p: TenantScope, f: ParsedFilter): Promise<{ ids: number[]; total: number }> {
      const [idRows, count] = await Promise.all([
        applyFilter(scoped(p).select('id'), f).execute(),
        applyWhere(scoped(p), f.where)
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .executeTakeFirstOrThrow(),
      ]);
      return { ids: idRows.map((r) => r.id), total: Number(count.n) };
    },
    exists: async (id: number, trx: Kysely<Database> = db) =>
      (await trx.selectFrom('flows').select('id').where('id', '=', id).executeTakeFirst()) !== undefined,
    /** The flows of one building and floor, in display order. */
    onFloor: (buildingId: number, floorId: number, trx: Kysely<Database> = db): Promise<FlowRow[]> =>
      trx
        .selectFrom('flows')
        .selectAll()
        .where('building_id', '=', buildingId)
        .where('floor_id', '=', floorId)
        .orderBy('display_order')
        .orderBy('id')
        .execute(),
    /** The next display order on a floor (after the last). */
    async nextOrder(buildingId: number, floorId: number, trx: Kysely<Database>): Promise<number> {
      const row = await trx
        .selectFrom('flows')
        .select((eb) => eb.fn.max('display_order').as('m'))
        .where('building_id', '=', buildingId)
        .where('floor_id', '=', floorId)
        .executeTakeFirst();
      return Number(row?.m ?? 0) + 1;
    },
    insert: (
      columns: FlowColumns & { display_order: number; enabled: number },
      now: string,
      trx: Kysely<Database>,
    ): Promise<number> => insertReturningId(trx, 'flows', { ...columns, created_at: now, updated_at: now }),
    updateVersioned: (
      id: number,
      base: string,
      columns: FlowColumns & { updated_at: string },
      trx: Kysely<Database>,
    ): Promise<bigint> => updateVersioned(trx, 'flows', id, base, columns),
    /** Display order and enabled are not part of the versioned edit (list actions, no version change). */
    async setEnabled(id: number, enabled: boolean, trx: Kysely<Database>): Promise<void> {
      await trx
        .updateTable('flows')
        .set({ enabled: enabled ? 1 : 0 })
        .where('id', '=', id)
        .execute();
    },
    async setOrder(id: number, order: number, trx: Kysely<Database>): Promise<void> {
      await trx.updateTable('flows').set({ display_order: order }).where('id', '=', id).execute();
    },
    remove: (id: number, trx: Kysely<Database>): Promise<boolean> => deleteById(trx, 'flows', id),
    /** The flow uses these library commands (replacing what it used). */
    async writeCommands(flowId: number, commandIds: number[], trx: Kysely<Database>): Promise<void> {
      await trx.deleteFrom('flow_commands').where('flow_id', '=', flowId).execute();
      if (commandIds.length === 0) return;
      await trx
        .insertInto('flow_commands')
        .values(commandIds.map((command_id) => ({ flow_id: flowId, command_id })))
        .execute();
    },

    // ------------------------------------------------------------ what a definition may name
    building: (id: number) =>
      db.selectFrom('buildings').select(['id', 'organization_id']).where('id', '=', id).executeTakeFirst(),
    floorIdsOf: async (buildingId: number): Promise<Set<number>> =>
      new Set(
        (await db.selectFrom('floors').select('id').where('building_id', '=', buildingId).execute()).map((r) => r.id),
      ),
    flowGroupOf: (id: number) =>
      db.selectFrom('flow_groups').select(['id', 'building_id']).where('id', '=', id).executeTakeFirst(),
    speechTextIdsOf: async (buildingId: number): Promise<Set<number>> =>
      new Set(
        (await db.selectFrom('speech_texts').select('id').where('building_id', '=', buildingId).execute()).map(
          (r) => r.id,
        ),
      ),
    /** The building's check items with their floor (a meterCheck step's item). */
    checkItemsOf: async (buildingId: number): Promise<Map<number, { floorId: number }>> =>
      new Map(
        (
          await db.selectFrom('check_items').select(['id', 'floor_id']).where('building_id', '=', buildingId).execute()
        ).map((r) => [r.id, { floorId: r.floor_id }]),
      ),
    /** Pose definitions usable in the building: the organization's organization-wide ones and the building's. */
    poseDefIdsOf: async (organizationId: number, buildingId: number): Promise<Set<number>> =>
      new Set(
        (
          await db
            .selectFrom('pose_defs')
            .select('id')
            .where('organization_id', '=', organizationId)
            .where((eb) => eb.or([eb('building_id', 'is', null), eb('building_id', '=', buildingId)]))
            .execute()
        ).map((r) => r.id),
      ),
    /** Waypoint and route ids of the current map of each floor (floors without a map have none). */
    async mapIdsOf(floorIds: number[]) {
      const waypoints = new Map<number, Set<number>>();
      const routes = new Map<number, Set<number>>();
      for (const floorId of floorIds) {
        const row = await db
          .selectFrom('floor_map_revisions')
          .select('document')
          .where('floor_id', '=', floorId)
          .orderBy('revision', 'desc')
          .limit(1)
          .executeTakeFirst();
        const ids = row ? mapIds(row.document) : { waypoints: new Set<number>(), routes: new Set<number>() };
        waypoints.set(floorId, ids.waypoints);
        routes.set(floorId, ids.routes);
      }
      return { waypoints, routes };
    },
    /** Whether a general operator's flow editing is restricted (spec section 6). */
    async flowEditRestricted(operatorId: number): Promise<boolean> {
      const row = await db
        .selectFrom('operators')
        .select(['flow_edit_restricted', 'type'])
        .where('id', '=', operatorId)
        .executeTakeFirst();
      return row !== undefined && row.type === OperatorType.general && row.flow_edit_restricted === 1;
    },
  };
}
export type FlowRepo = ReturnType<typeof flowRepo>;
