import type { Robot } from '@portal/contract';
import type { Kysely } from 'kysely';
import type { TenantScope } from '../../lib/scope.ts';
import type { Database } from '../../db/schema.ts';
import { applyFilter, applyWhere, type ParsedFilter, type ResourceFilterSpec } from '../../lib/filter.ts';
import { scopeWhere } from '../../lib/scope.ts';

/** Allow-list of `GET /robots?filter=` (ARCHITECTURE.md "API"). */
export const robotFilter: ResourceFilterSpec<'robots'> = {
  table: 'robots',
  fields: {
    id: { column: 'id', type: 'integer' },
    serialNo: { column: 'serial_no', type: 'string' },
    name: { column: 'name', type: 'string' },
    model: { column: 'model', type: 'string' },
    organizationId: { column: 'organization_id', type: 'integer' },
    buildingId: { column: 'building_id', type: 'integer' },
    floorId: { column: 'floor_id', type: 'integer' },
    groupId: { column: 'group_id', type: 'integer' },
    status: { column: 'status', type: 'integer' },
    createdAt: { column: 'created_at', type: 'date' },
    updatedAt: { column: 'updated_at', type: 'date' },
  },
  defaultOrder: 'name ASC',
};

/** Allow-list of `GET /robots/{id}/setting-history?filter=`; newest first by default. */
export const settingHistoryFilter: ResourceFilterSpec<'robot_setting_history'> = {
  table: 'robot_setting_history',
  fields: {
    id: { column: 'id', type: 'integer' },
    field: { column: 'field', type: 'string' },
    operatorId: { column: 'operator_id', type: 'integer' },
    changedAt: { column: 'changed_at', type: 'date' },
  },
  defaultOrder: 'changedAt DESC',
};

const COLUMNS = [
  'robots.id',
  'robots.serial_no',
  'robots.name',
  'robots.model',
  'robots.version',
  'robots.hardware_revision',
  'robots.organization_id',
  'robots.building_id',
  'buildings.name as building_name',
  'robots.floor_id',
  'floors.name as floor_name',
  'robots.group_id',
  'robot_groups.name as group_name',
  'robots.status',
  'robots.long_term_rec_auto_start',
  'robots.video_mode',
  'robots.notes',
  'robots.mqtt_username',
  'robots.manufacturer',
  'robots.last_communication_at',
  'robots.created_at',
  'robots.updated_at',
] as const;

/** SQL of the robot registry. Deleted robots (soft delete) are never seen here. */
export function robotRepo(db: Kysely<Database>) {
  /** Live robots of the caller's scope (general operators: their building only). */
  const live = (p: TenantScope, trx: Kysely<Database> = db) =>
    trx
      .selectFrom('robots')
      .where('robots.deleted_at', 'is', null)
      .where((eb) => scopeWhere(p, eb, { organization: 'robots.organization_id', building: 'robots.building_id' }));

  /** The same with the building, floor and group names. */
  const joined = (p: TenantScope, trx: Kysely<Database> = db) =>
    live(p, trx)
      .innerJoin('buildings', 'buildings.id', 'robots.building_id')
      .innerJoin('floors', 'floors.id', 'robots.floor_id')
      .leftJoin('robot_groups', 'robot_groups.id', 'robots.group_id')
      .select(COLUMNS);

  return {
    /** One page: ids from the robots alone, then only those rows joined to their names. */
    async page(p: TenantScope, f: ParsedFilter) {
      const ids = (await applyFilter(live(p).select('robots.id'), f).execute()).map((r) => r.id);
      if (ids.length === 0) return [];
      const rows = await joined(p).where('robots.id', 'in', ids).execute();
      const byId = new Map(rows.map((r) => [r.id, r]));
      return ids.flatMap((id) => byId.get(id) ?? []);
    },
    async count(p: TenantScope, where: ParsedFilter['where']) {
      const row = await applyWhere(live(p), where)
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .executeTakeFirstOrThrow();
      return Number(row.n);
    },
    /** Every live robot of the scope (optionally one building), by name: the fleet. */
    fleet(p: TenantScope, buildingId: number | null) {
      return joined(p)
        .$if(buildingId !== null, (q) => q.where('robots.building_id', '=', buildingId!))
        .orderBy('robots.name')
        .orderBy('robots.id')
        .execute();
    },
    find(p: TenantScope, id: number, trx: Kysely<Database> = db) {
      return joined(p, trx).where('robots.id', '=', id).executeTakeFirst();
    },
    /** The live robot of the scope with this serial number (screens addressed by serial). */
    findBySerial(p: TenantScope, serialNo: string) {
      return joined(p).where('robots.serial_no', '=', serialNo).executeTakeFirst();
    },
    /** The live robot with this serial, if any (serials are unique among live robots). */
    serialTaken(serialNo: string) {
      return db
        .selectFrom('robots')
        .select('id')
        .where('serial_no', '=', serialNo)
        .where('deleted_at', 'is', null)
        .executeTakeFirst()
        .then((r) => !!r);
    },
  };
}
export type RobotRepo = ReturnType<typeof robotRepo>;
export type RobotListRow = NonNullable<Awaited<ReturnType<RobotRepo['find']>>>;

export const toRobot = (r: RobotListRow): Robot => ({
  id: r.id,
  serialNo: r.serial_no,
  name: r.name,
  model: r.model as Robot['model'],
  version: r.version,
  hardwareRevision: r.hardware_revision,
  organizationId: r.organization_id,
  buildingId: r.building_id,
  buildingName: r.building_name,
  floorId: r.floor_id,
  floorName: r.floor_name,
  groupId: r.group_id,
  groupName: r.group_name,
  status: r.status as Robot['status'],
  longTermRecordingAutoStart: r.long_term_rec_auto_start === 1,
  videoMode: r.video_mode as Robot['videoMode'],
  notes: r.notes,
  mqttUsername: r.mqtt_username,
  manufacturer: r.manufacturer,
  lastCommunicationAt: r.last_communication_at,
  createdAt: r.created_at,
  updatedAt: r.updated_at,
});
