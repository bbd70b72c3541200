import { triggerConditionsSchema, triggerTargetSchema, type Trigger, type TriggerFiring } from '@portal/contract';
import type { ExpressionBuilder, Insertable, Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { deleteById, findById, insertReturningId, rowExists, updateVersioned } from '../../db/rows.ts';
import { filteredPage, type ParsedFilter } from '../../lib/filter.ts';
import { filterSpec, ID_FIELD, TIMESTAMP_FIELDS } from '../../lib/filter-spec.ts';
import { scopeWhere, type TenantScope } from '../../lib/scope.ts';
import type { TriggerFiringRow, TriggerFiringTable, TriggerRow } from './trigger-tables.ts';
// Tables the references are checked against.
import '../flows/flow-tables.ts';
import '../schedules/schedule-tables.ts';
import '../check-items/check-item-tables.ts';
import '../webhooks/webhook-tables.ts';
import '../notifications/notification-tables.ts';

/** Allow-list of `GET /triggers?filter=` (search: `name: { like: '%text%' }`). */
export const triggerFilter = filterSpec(
  'triggers',
  {
    ...ID_FIELD,
    organizationId: 'integer',
    buildingId: 'integer',
    name: 'string',
    status: 'integer',
    eventType: 'integer',
    targetType: 'integer',
    ...TIMESTAMP_FIELDS,
  },
  { defaultOrder: 'name ASC' },
);

/** Allow-list of `GET /trigger-firings?filter=`, newest first. */
export const triggerFiringFilter = filterSpec(
  'trigger_firings',
  {
    ...ID_FIELD,
    buildingId: 'integer',
    triggerId: 'integer',
    triggerName: 'string',
    eventKind: 'string',
    status: 'string',
    targetType: 'integer',
    createdAt: 'date',
  },
  { defaultOrder: 'createdAt DESC', defaultLimit: 50, maxLimit: 200 },
);

export type TriggerColumns = Omit<TriggerRow, 'id' | 'created_at' | 'updated_at'>;

export const toTrigger = (r: TriggerRow): Trigger => ({
  id: r.id,
  organizationId: r.organization_id,
  buildingId: r.building_id,
  name: r.name,
  status: r.status,
  eventType: r.event_type,
  conditions: triggerConditionsSchema.parse(JSON.parse(r.conditions)),
  targetType: r.target_type,
  target: triggerTargetSchema.parse(JSON.parse(r.target)),
  createdAt: r.created_at,
  updatedAt: r.updated_at,
});

export const toTriggerFiring = (r: TriggerFiringRow): TriggerFiring => ({
  id: r.id,
  triggerId: r.trigger_id,
  triggerName: r.trigger_name,
  buildingId: r.building_id,
  eventId: r.event_id,
  eventKind: r.event_kind,
  robotId: r.robot_id,
  targetType: r.target_type,
  status: r.status as TriggerFiring['status'],
  attempts: r.attempts,
  error: r.error,
  flowRunId: r.flow_run_id,
  runRobotId: r.run_robot_id,
  reportId: r.report_id,
  notificationEventId: r.notification_event_id,
  webhookDeliveryId: r.webhook_delivery_id,
  createdAt: r.created_at,
  doneAt: r.done_at,
});

const triggerScope = (p: TenantScope) => (eb: ExpressionBuilder<Database, 'triggers'>) =>
  scopeWhere(p, eb, { organization: 'triggers.organization_id', building: 'triggers.building_id' });
const firingScope = (p: TenantScope) => (eb: ExpressionBuilder<Database, 'trigger_firings'>) =>
  scopeWhere(p, eb, { organization: 'trigger_firings.organization_id', building: 'trigger_firings.building_id' });

/** What a firing is matched on: the notification event as recorded. */
export interface FiringEvent {
  eventId: number;
  kind: string;
  level: number;
  organizationId: number;
  buildingId: number;
  robotId: number | null;
}

/** SQL of triggers and their firings (docs/api-triggers.md). */
export function triggerRepo(db: Kysely<Database>) {
  /** Whether the row `id` of `table` has `owner` in its building or organization column. */
  const owned = async (
    table: 'flows' | 'robot_groups' | 'schedules' | 'check_items' | 'threshold_rules',
    column: 'building_id' | 'organization_id',
    id: number,
    owner: number,
  ): Promise<boolean> => {
    const r = await db
      .selectFrom(table as 'flows')
      .select('id')
      .where('id', '=', id)
      .where(column as 'building_id', '=', owner)
      .executeTakeFirst();
    return r !== undefined;
  };
  return {
    byId: (p: TenantScope, id: number): Promise<TriggerRow | undefined> =>
      db.selectFrom('triggers').selectAll().where(triggerScope(p)).where('id', '=', id).executeTakeFirst(),
    anyById: (id: number, trx: Kysely<Database> = db): Promise<TriggerRow | undefined> => findById(trx, 'triggers', id),
    page: (p: TenantScope, f: ParsedFilter) =>
      filteredPage(db.selectFrom('triggers').where(triggerScope(p)), f, (q) => q.selectAll()),
    firingPage: (p: TenantScope, f: ParsedFilter) =>
      filteredPage(db.selectFrom('trigger_firings').where(firingScope(p)), f, (q) => q.selectAll()),
    insert: (columns: TriggerColumns, now: string, trx: Kysely<Database>): Promise<number> =>
      insertReturningId(trx, 'triggers', { ...columns, created_at: now, updated_at: now }),
    updateVersioned: (
      id: number,
      base: string,
      columns: Omit<TriggerColumns, 'organization_id' | 'building_id'> & { updated_at: string },
      trx: Kysely<Database>,
    ): Promise<bigint> => updateVersioned(trx, 'triggers', id, base, columns),
    exists: (id: number, trx: Kysely<Database> = db) => rowExists(trx, 'triggers', id),
    remove: (id: number, trx: Kysely<Database>): Promise<boolean> => deleteById(trx, 'triggers', id),

    // References a trigger names: each must be of the building (or, for notification targets, of the
    // building or organization-wide). Answers whether it is.
    flowOfBuilding: (id: number, buildingId: number) => owned('flows', 'building_id', id, buildingId),
    async robotOfBuilding(id: number, buildingId: number): Promise<boolean> {
      const r = await db
        .selectFrom('robots')
        .select('id')
        .where('id', '=', id)
        .where('building_id', '=', buildingId)
        .where('deleted_at', 'is', null)
        .executeTakeFirst();
      return r !== undefined;
    },
    robotGroupOfBuilding: (id: number, buildingId: number) => owned('robot_groups', 'building_id', id, buildingId),
    scheduleOfBuilding: (id: number, buildingId: number) => owned('schedules', 'building_id', id, buildingId),
    checkItemOfBuilding: (id: number, buildingId: number) => owned('check_items', 'building_id', id, buildingId),
    ruleOfOrganization: (id: number, organizationId: number) =>
      owned('threshold_rules', 'organization_id', id, organizationId),
    /** Of the ids, those that are notification targets of the building or organization-wide ones of its organization. */
    async targetsOf(ids: number[], organizationId: number, buildingId: number): Promise<number[]> {
      if (ids.length === 0) return [];
      const rows = await db
        .selectFrom('notification_targets')
        .select('id')
        .where('id', 'in', ids)
        .where('organization_id', '=', organizationId)
        .where((eb) => eb.or([eb('building_id', 'is', null), eb('building_id', '=', buildingId)]))
        .execute();
      return rows.map((r) => r.id);
    },
    /** The webhook's status (null: no such webhook). */
    async webhookStatus(id: number): Promise<number | null> {
      const r = await db.selectFrom('webhooks').select('status').where('id', '=', id).executeTakeFirst();
      return r?.status ?? null;
    },

    // Firing: in the event's transaction.
    /** The enabled triggers of a building with one of these event types. */
    enabledOf: (buildingId: number, eventTypes: number[], trx: Kysely<Database> = db): Promise<TriggerRow[]> =>
      trx
        .selectFrom('triggers')
        .selectAll()
        .where('building_id', '=', buildingId)
        .where('status', '=', 1)
        .where('event_type', 'in', eventTypes)
        .orderBy('id')
        .execute(),
    robotGroupOf: async (robotId: number, trx: Kysely<Database> = db): Promise<number | null> =>
      (await trx.selectFrom('robots').select('group_id').where('id', '=', robotId).executeTakeFirst())?.group_id ??
      null,
    /** The threshold log line behind a breach event (its rule and check item). */
    thresholdLog: (id: number, trx: Kysely<Database> = db) =>
      trx.selectFrom('threshold_logs').select(['rule_id', 'check_item_id']).where('id', '=', id).executeTakeFirst(),
    /** The schedule of a schedule log line. */
    scheduleOfLine: async (lineId: number, trx: Kysely<Database> = db): Promise<number | null> =>
      (await trx.selectFrom('schedule_logs').select('schedule_id').where('id', '=', lineId).executeTakeFirst())
        ?.schedule_id ?? null,
    /** One firing per (trigger, event): a second insert of the pair does nothing. Answers the id or null. */
    async insertFiring(values: Insertable<TriggerFiringTable>, trx: Kysely<Database> = db): Promise<number | null> {
      const r = await trx
        .insertInto('trigger_firings')
        .values(values)
        .onConflict((oc) => oc.columns(['trigger_id', 'event_id']).doNothing())
        .returning('id')
        .executeTakeFirst();
      return r?.id ?? null;
    },

    // The worker.
    claimable: (now: string, limit: number) =>
      db
        .selectFrom('trigger_firings')
        .select('id')
        .where('status', '=', 'pending')
        .where('next_attempt_at', '<=', now)
        .where((eb) => eb.or([eb('lease_until', 'is', null), eb('lease_until', '<', now)]))
        .orderBy('next_attempt_at')
        .orderBy('id')
        .limit(limit)
        .execute(),
    /** Takes a firing for `owner` until `leaseUntil` (one server wins) and counts the attempt. */
    async claim(id: number, owner: string, now: string, leaseUntil: string): Promise<boolean> {
      const r = await db
        .updateTable('trigger_firings')
        .set((eb) => ({ lease_owner: owner, lease_until: leaseUntil, attempts: eb('attempts', '+', 1) }))
        .where('id', '=', id)
        .where('status', '=', 'pending')
        .where('next_attempt_at', '<=', now)
        .where((eb) => eb.or([eb('lease_until', 'is', null), eb('lease_until', '<', now)]))
        .executeTakeFirst();
      return Number(r.numUpdatedRows) === 1;
    },
    firing: (id: number): Promise<TriggerFiringRow | undefined> => findById(db, 'trigger_firings', id),
    /** Sets a stage while `owner` holds the firing; false when it lost it. */
    async setStage(id: number, owner: string, stage: string | null): Promise<boolean> {
      const r = await db
        .updateTable('trigger_firings')
        .set({ stage })
        .where('id', '=', id)
        .where('lease_owner', '=', owner)
        .where('status', '=', 'pending')
        .executeTakeFirst();
      return Number(r.numUpdatedRows) === 1;
    },
    /** Records the outcome while `owner` still holds the firing (releases the lease). */
    async settle(
      id: number,
      owner: string,
      values: Partial<
        Pick<
          TriggerFiringRow,
          | 'status'
          | 'stage'
          | 'error'
          | 'next_attempt_at'
          | 'flow_run_id'
          | 'run_robot_id'
          | 'report_id'
          | 'notification_event_id'
          | 'webhook_delivery_id'
          | 'done_at'
        >
      >,
    ): Promise<boolean> {
      const r = await db
        .updateTable('trigger_firings')
        .set({ ...values, lease_owner: null, lease_until: null })
        .where('id', '=', id)
        .where('lease_owner', '=', owner)
        .where('status', '=', 'pending')
        .executeTakeFirst();
      return Number(r.numUpdatedRows) === 1;
    },
    /** The notification event of a firing (its params, for texts). */
    event: (id: number) => db.selectFrom('notification_events').selectAll().where('id', '=', id).executeTakeFirst(),
    /** Candidates for "another idle robot of the building": its robots but one, by id. */
    robotsOfBuilding: (buildingId: number, except: number | null) =>
      db
        .selectFrom('robots')
        .select(['id', 'status'])
        .where('building_id', '=', buildingId)
        .where('deleted_at', 'is', null)
        .where('id', '<>', except ?? -1)
        .orderBy('id')
        .execute(),
    /** Names a report copies (building, robot, floor). */
    reportFacts: (buildingId: number, robotId: number | null) =>
      db
        .selectFrom('buildings')
        .leftJoin('robots', (j) => j.on('robots.id', '=', robotId ?? -1))
        .leftJoin('floors', 'floors.id', 'robots.floor_id')
        .select([
          'buildings.name as building_name',
          'robots.name as robot_name',
          'robots.serial_no',
          'robots.floor_id',
          'floors.name as floor_name',
        ])
        .where('buildings.id', '=', buildingId)
        .executeTakeFirst(),
    /** A report written for a firing (its flow_run_id is the firing's negative id), if any. */
    reportOfFiring: async (firingId: number): Promise<number | null> =>
      (await db.selectFrom('reports').select('id').where('flow_run_id', '=', -firingId).executeTakeFirst())?.id ?? null,
  };
}
export type TriggerRepo = ReturnType<typeof triggerRepo>;
