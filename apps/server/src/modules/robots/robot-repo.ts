import type { Robot } from '@portal/contract';
import type { Insertable, Kysely, Updateable } from 'kysely';
import type { TenantScope } from '../../lib/scope.ts';
import type { Database, RobotSettingHistoryTable, RobotTable } from '../../db/schema.ts';
import { findById, insertReturningId, updateVersioned } from '../../db/rows.ts';
import { applyFilter, applyWhere, type ParsedFilter } from '../../lib/filter.ts';
import { filterSpec, ID_FIELD, TENANT_FIELDS, TIMESTAMP_FIELDS } from '../../lib/filter-spec.ts';
import { camelRow } from '../../lib/naming.ts';
import { scopeWhere } from '../../lib/scope.ts';

/** Allow-list of `GET /robots?filter=` (docs/architecture-decisions.md "API"). */
export const robotFilter = filterSpec(
  'robots',
  {
    ...ID_FIELD,
    serialNo: 'string',
    name: 'string',
    model: 'string',
    ...TENANT_FIELDS,
    floorId: 'integer',
    groupId: 'integer',
    status: 'integer',
    ...TIMESTAMP_FIELDS,
  },
  { defaultOrder: 'name ASC' },
);

/** Allow-list of `GET /robots/{id}/setting-history?filter=`; newest first by default. */
export const settingHistoryFilter = filterSpec(
  'robot_setting_history',
  {
    ...ID_FIELD,
    field: 'string',
    operatorId: 'integer',
    changedAt: 'date',
  },
  { defaultOrder: 'changedAt DESC' },
);

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
    /** The organization of the live robot holding this serial, if one does. */
    serialHolder(serialNo: string): Promise<{ organization_id: number } | undefined> {
      return db
        .selectFrom('robots')
        .select('organization_id')
        .where('serial_no', '=', serialNo)
        .where('deleted_at', 'is', null)
        .executeTakeFirst();
    },

    // ---- placement: the building, floor and group a robot is registered in

    /** The building with its organization. */
    building: (id: number) => findById(db, 'buildings', id, ['id', 'organization_id']),
    /** The building of a floor (undefined when there is no such floor). */
    async floorBuildingId(floorId: number): Promise<number | undefined> {
      return (await findById(db, 'floors', floorId, ['building_id']))?.building_id;
    },
    /** The building of a robot group (undefined when there is no such group). */
    async groupBuildingId(groupId: number): Promise<number | undefined> {
      return (await findById(db, 'robot_groups', groupId, ['building_id']))?.building_id;
    },

    // ---- writes (run them on a transaction: `robotRepo(trx)`)

    /** Registers a robot; one that knocked with its user name before is no longer pending. Answers its id. */
    async insert(values: Insertable<RobotTable>): Promise<number> {
      const id = await insertReturningId(db, 'robots', values);
      await db.deleteFrom('pending_robots').where('username', '=', values.mqtt_username).execute();
      return id;
    },
    /** Writes the live robot only where it is still at version `updatedAt`; answers the rows written. */
    updateVersioned: (id: number, updatedAt: string, values: Updateable<RobotTable>): Promise<bigint> =>
      updateVersioned(db, 'robots', id, updatedAt, values, { deleted_at: null }),
    /** Writes the live robot whatever its version (soft delete, a new password); answers the rows written. */
    async updateLive(id: number, values: Updateable<RobotTable>): Promise<bigint> {
      const result = await db
        .updateTable('robots')
        .set(values)
        .where('id', '=', id)
        .where('deleted_at', 'is', null)
        .executeTakeFirst();
      return result.numUpdatedRows;
    },

    // ---- setting history

    /** The history follows the robot when it moves to another organization. */
    async moveHistory(robotId: number, organizationId: number): Promise<void> {
      await db
        .updateTable('robot_setting_history')
        .set({ organization_id: organizationId })
        .where('robot_id', '=', robotId)
        .execute();
    },
    async addHistory(rows: Insertable<RobotSettingHistoryTable>[]): Promise<void> {
      if (rows.length > 0) await db.insertInto('robot_setting_history').values(rows).execute();
    },
    /** One page of a robot's setting history with the names of who changed it, and the total. */
    async historyPage(robotId: number, f: ParsedFilter) {
      const scoped = db.selectFrom('robot_setting_history').where('robot_setting_history.robot_id', '=', robotId);
      const [rows, count] = await Promise.all([
        applyFilter(
          scoped
            .leftJoin('operators', 'operators.id', 'robot_setting_history.operator_id')
            .selectAll('robot_setting_history')
            .select(['operators.first_name', 'operators.last_name']),
          f,
        ).execute(),
        applyWhere(scoped, f.where)
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .executeTakeFirstOrThrow(),
      ]);
      return { rows, total: Number(count.n) };
    },

    // ---- robots awaiting registration

    /** The newest `limit` pending robots. */
    pending(limit: number) {
      return db
        .selectFrom('pending_robots')
        .selectAll()
        .orderBy('last_seen_at', 'desc')
        .orderBy('id', 'desc')
        .limit(limit)
        .execute();
    },
    /** Removes one pending robot; answers its user name, or undefined when there was none. */
    async deletePending(id: number): Promise<string | undefined> {
      const row = await db.selectFrom('pending_robots').select('username').where('id', '=', id).executeTakeFirst();
      if (!row) return undefined;
      await db.deleteFrom('pending_robots').where('id', '=', id).execute();
      return row.username;
    },
  };
}
export type RobotRepo = ReturnType<typeof robotRepo>;

export type RobotListRow = NonNullable<Awaited<ReturnType<RobotRepo['find']>>>;

export const toRobot = ({ model, status, long_term_rec_auto_start, video_mode, ...rest }: RobotListRow): Robot => ({
  ...camelRow(rest),
  model: model as Robot['model'],
  status: status as Robot['status'],
  longTermRecordingAutoStart: long_term_rec_auto_start === 1,
  videoMode: video_mode as Robot['videoMode'],
});
