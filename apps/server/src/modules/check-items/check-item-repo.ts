import type {
  CheckItem,
  CheckItemStatusCode,
  CheckItemType,
  MarkerType,
  MeterType,
  ReadingService,
} from '@portal/contract';
import type { Kysely, Selectable } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { deleteById, insertReturningId, rowExists, updateVersioned } from '../../db/rows.ts';
import { applyFilter, applyWhere, type ParsedFilter } from '../../lib/filter.ts';
import { filterSpec, ID_FIELD, TENANT_FIELDS, TIMESTAMP_FIELDS } from '../../lib/filter-spec.ts';
import { scopeWhere, type TenantScope } from '../../lib/scope.ts';
import type { CheckItemTable } from './check-item-tables.ts';

/** Allow-list of `GET /check-items?filter=`; ordered by name. */
export const checkItemFilter = filterSpec(
  'check_items',
  {
    ...ID_FIELD,
    name: 'string',
    floorId: 'integer',
    type: 'string',
    status: 'integer',
    meterType: 'string',
    readingService: 'string',
    qrCodeNumber: 'string',
    alerting: 'boolean',
    thresholdRuleId: 'integer',
    ...TENANT_FIELDS,
    ...TIMESTAMP_FIELDS,
  },
  { defaultOrder: 'name ASC', defaultLimit: 50, maxLimit: 500 },
);

export type CheckItemRow = Selectable<CheckItemTable> & { building_name: string; floor_name: string };
export type CheckItemColumns = Omit<Selectable<CheckItemTable>, 'id' | 'created_at' | 'updated_at'>;

export const toCheckItem = (r: CheckItemRow): CheckItem => ({
  id: r.id,
  organizationId: r.organization_id,
  buildingId: r.building_id,
  buildingName: r.building_name,
  floorId: r.floor_id,
  floorName: r.floor_name,
  name: r.name,
  type: r.type as CheckItemType,
  status: r.status as CheckItemStatusCode,
  meterType: r.meter_type as MeterType | null,
  readingService: r.reading_service as ReadingService | null,
  qrCodeNumber: r.qr_code_number,
  taskId: r.task_id,
  deviceId: r.device_id,
  alerting: r.alerting === 1,
  thresholdRuleId: r.threshold_rule_id,
  x: r.x === null ? null : Number(r.x),
  y: r.y === null ? null : Number(r.y),
  z: Number(r.z),
  direction: Number(r.direction),
  markerType: r.marker_type as MarkerType,
  areaDetectionMarker: r.area_detection_marker === 1,
  definition: r.definition,
  createdAt: r.created_at,
  updatedAt: r.updated_at,
});

/** SQL of check items. Reads are within the caller's scope unless said otherwise. */
export function checkItemRepo(db: Kysely<Database>) {
  const scoped = (p: TenantScope) =>
    db
      .selectFrom('check_items')
      .where((eb) =>
        scopeWhere(p, eb, { organization: 'check_items.organization_id', building: 'check_items.building_id' }),
      );
  const withNames = (p: TenantScope) =>
    scoped(p)
      .innerJoin('buildings', 'buildings.id', 'check_items.building_id')
      .innerJoin('floors', 'floors.id', 'check_items.floor_id')
      .selectAll('check_items')
      .select(['buildings.name as building_name', 'floors.name as floor_name']);

  return {
    byId: (p: TenantScope, id: number): Promise<CheckItemRow | undefined> =>
      withNames(p).where('check_items.id', '=', id).executeTakeFirst(),
    byIds: (p: TenantScope, ids: number[]): Promise<CheckItemRow[]> =>
      withNames(p).where('check_items.id', 'in', ids).execute(),
    async page(p: TenantScope, f: ParsedFilter): Promise<{ ids: number[]; total: number }> {
      const [idRows, count] = await Promise.all([
        applyFilter(scoped(p).select('id'), f).execute(),
        applyWhere(scoped(p), f.where)
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .executeTakeFirstOrThrow(),
      ]);
      return { ids: idRows.map((r) => r.id), total: Number(count.n) };
    },
    exists: (id: number, trx: Kysely<Database> = db) => rowExists(trx, 'check_items', id),
    insert: (columns: CheckItemColumns, now: string, trx: Kysely<Database>): Promise<number> =>
      insertReturningId(trx, 'check_items', { ...columns, created_at: now, updated_at: now }),
    updateVersioned: (
      id: number,
      base: string,
      columns: CheckItemColumns & { updated_at: string },
      trx: Kysely<Database>,
    ): Promise<bigint> => updateVersioned(trx, 'check_items', id, base, columns),
    remove: (id: number, trx: Kysely<Database>): Promise<boolean> => deleteById(trx, 'check_items', id),

    // ------------------------------------------------------------ what an item names
    building: (id: number) =>
      db.selectFrom('buildings').select(['id', 'organization_id']).where('id', '=', id).executeTakeFirst(),
    floor: (id: number) =>
      db.selectFrom('floors').select(['id', 'building_id']).where('id', '=', id).executeTakeFirst(),
    thresholdRule: (id: number) =>
      db.selectFrom('threshold_rules').select(['id', 'organization_id']).where('id', '=', id).executeTakeFirst(),
  };
}

/**
 * The check items that judge their value by a threshold rule (id and name, by name; at most `limit`):
 * for a rule's "in use" answer. Deleting a rule leaves these items without one (migration 029).
 */
export const checkItemsUsingRule = (db: Kysely<Database>, ruleId: number, limit = 20) =>
  db
    .selectFrom('check_items')
    .select(['id', 'name'])
    .where('threshold_rule_id', '=', ruleId)
    .orderBy('name')
    .orderBy('id')
    .limit(limit)
    .execute();
