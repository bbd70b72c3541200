import { sql, type Insertable, type Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import type { NotificationDeliveryRow, NotificationEventRow, NotificationEventTable } from './notification-tables.ts';

/** What routing reads of a notification target. */
export interface RoutedTarget {
  id: number;
  type: number;
  level: number;
}

/**
 * Whom a delivery goes to: a notification target, or a webhook (system-wide: one delivery per
 * webhook and organization, so an organization's events are grouped apart from another's).
 */
export interface DeliveryTo {
  channel: 'target' | 'webhook';
  id: number;
  organizationId: number;
}

/** SQL of the notification engine (docs/notifications.md): events, deliveries, their claims and the robot marks. */
export function notificationRepo(db: Kysely<Database>) {
  return {
    /** The robot with its building and floor names (null when unknown or deleted). */
    robotFacts(robotId: number) {
      return db
        .selectFrom('robots')
        .innerJoin('buildings', 'buildings.id', 'robots.building_id')
        .select([
          'robots.id',
          'robots.organization_id',
          'robots.building_id',
          'robots.floor_id',
          'robots.name',
          'robots.serial_no',
          'buildings.name as building_name',
          'buildings.time_zone',
        ])
        .where('robots.id', '=', robotId)
        .where('robots.deleted_at', 'is', null)
        .executeTakeFirst();
    },

    buildingFacts(buildingId: number) {
      return db
        .selectFrom('buildings')
        .select(['id', 'organization_id', 'name', 'time_zone'])
        .where('id', '=', buildingId)
        .executeTakeFirst();
    },

    async floorName(floorId: number): Promise<string | null> {
      const f = await db.selectFrom('floors').select('name').where('id', '=', floorId).executeTakeFirst();
      return f?.name ?? null;
    },

    /**
     * The targets an event of this organization and building (null: none) may reach: the building's
     * and the organization-wide ones (no building).
     */
    targetsFor(organizationId: number, buildingId: number | null): Promise<RoutedTarget[]> {
      return db
        .selectFrom('notification_targets')
        .select(['id', 'type', 'level'])
        .where('organization_id', '=', organizationId)
        .where((eb) =>
          buildingId === null
            ? eb('building_id', 'is', null)
            : eb.or([eb('building_id', 'is', null), eb('building_id', '=', buildingId)]),
        )
        .orderBy('id')
        .execute();
    },

    /**
     * The enabled webhooks (system-wide) whose minimum level an event of `level` reaches and that
     * receive its kind (`event_kinds` null: every kind; else a comma-separated list).
     */
    async webhooksFor(level: number, kind: string): Promise<Array<{ id: number }>> {
      const rows = await db
        .selectFrom('webhooks')
        .select(['id', 'event_kinds'])
        .where('status', '=', 1)
        .where('level', '<=', level)
        .orderBy('id')
        .execute();
      return rows
        .filter((r) => r.event_kinds === null || r.event_kinds.split(',').includes(kind))
        .map((r) => ({ id: r.id }));
    },

    target(id: number) {
      return db.selectFrom('notification_targets').selectAll().where('id', '=', id).executeTakeFirst();
    },

    /** Inserts an event; answers its id, or null when an event with the same dedupe key exists. */
    async insertEvent(values: Insertable<NotificationEventTable>): Promise<number | null> {
      const row = await db
        .insertInto('notification_events')
        .values(values)
        .onConflict((oc) => oc.column('dedupe_key').doNothing())
        .returning('id')
        .executeTakeFirst();
      return row?.id ?? null;
    },

    /**
     * Adds the event to the target's delivery of this cause that no worker has taken yet (still
     * pending, never attempted, no lease). The conditional update is the guard: a delivery claimed in
     * the meantime is not joined. Answers whether it joined one. Run it in the event's transaction.
     */
    async joinOpen(to: DeliveryTo, groupKey: string, eventId: number): Promise<boolean> {
      const open = await db
        .selectFrom('notification_deliveries')
        .select('id')
        .where('channel', '=', to.channel)
        .where('organization_id', '=', to.organizationId)
        .where('target_id', '=', to.id)
        .where('group_key', '=', groupKey)
        .where('status', '=', 'pending')
        .where('attempts', '=', 0)
        .where('lease_owner', 'is', null)
        .orderBy('id', 'desc')
        .limit(1)
        .executeTakeFirst();
      if (!open) return false;
      const r = await db
        .updateTable('notification_deliveries')
        .set((eb) => ({ event_count: eb('event_count', '+', 1) }))
        .where('id', '=', open.id)
        .where('status', '=', 'pending')
        .where('attempts', '=', 0)
        .where('lease_owner', 'is', null)
        .executeTakeFirst();
      if (Number(r.numUpdatedRows) !== 1) return false;
      await db.insertInto('notification_delivery_events').values({ delivery_id: open.id, event_id: eventId }).execute();
      return true;
    },

    /** When the target's latest delivery of this cause was first due (null: none). */
    async lastDueAt(to: DeliveryTo, groupKey: string): Promise<string | null> {
      const r = await db
        .selectFrom('notification_deliveries')
        .select('due_at')
        .where('channel', '=', to.channel)
        .where('organization_id', '=', to.organizationId)
        .where('target_id', '=', to.id)
        .where('group_key', '=', groupKey)
        .orderBy('due_at', 'desc')
        .limit(1)
        .executeTakeFirst();
      return r?.due_at ?? null;
    },

    /** A new delivery of one event to one target, due at `dueAt` (in the event's transaction). */
    async insertDelivery(d: {
      to: DeliveryTo;
      groupKey: string;
      eventId: number;
      dueAt: string;
      now: string;
    }): Promise<number> {
      const row = await db
        .insertInto('notification_deliveries')
        .values({
          organization_id: d.to.organizationId,
          channel: d.to.channel,
          target_id: d.to.id,
          group_key: d.groupKey,
          status: 'pending',
          event_count: 1,
          attempts: 0,
          due_at: d.dueAt,
          next_attempt_at: d.dueAt,
          lease_owner: null,
          lease_until: null,
          last_error: null,
          created_at: d.now,
          sent_at: null,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      await db
        .insertInto('notification_delivery_events')
        .values({ delivery_id: row.id, event_id: d.eventId })
        .execute();
      return row.id;
    },

    /** Deliveries to claim: pending, due, and not held by a living lease; the oldest due first. */
    claimable(now: string, limit: number) {
      return db
        .selectFrom('notification_deliveries')
        .select('id')
        .where('status', '=', 'pending')
        .where('next_attempt_at', '<=', now)
        .where((eb) => eb.or([eb('lease_until', 'is', null), eb('lease_until', '<', now)]))
        .orderBy('next_attempt_at')
        .orderBy('id')
        .limit(limit)
        .execute();
    },

    /** Takes a delivery for `owner` until `leaseUntil`; one server wins. */
    async claim(id: number, owner: string, now: string, leaseUntil: string): Promise<boolean> {
      const r = await db
        .updateTable('notification_deliveries')
        .set({ lease_owner: owner, lease_until: leaseUntil })
        .where('id', '=', id)
        .where('status', '=', 'pending')
        .where('next_attempt_at', '<=', now)
        .where((eb) => eb.or([eb('lease_until', 'is', null), eb('lease_until', '<', now)]))
        .executeTakeFirst();
      return Number(r.numUpdatedRows) === 1;
    },

    delivery(id: number): Promise<NotificationDeliveryRow | undefined> {
      return db.selectFrom('notification_deliveries').selectAll().where('id', '=', id).executeTakeFirst();
    },

    /** The events of a delivery, in the order they happened. */
    eventsOf(deliveryId: number): Promise<NotificationEventRow[]> {
      return db
        .selectFrom('notification_delivery_events')
        .innerJoin('notification_events', 'notification_events.id', 'notification_delivery_events.event_id')
        .selectAll('notification_events')
        .where('notification_delivery_events.delivery_id', '=', deliveryId)
        .orderBy('notification_events.occurred_at')
        .orderBy('notification_events.id')
        .execute();
    },

    /** Records an attempt's outcome while `owner` still holds the delivery; false when it lost it. */
    async settle(
      id: number,
      owner: string,
      values: {
        status: string;
        attempts: number;
        next_attempt_at?: string;
        last_error: string | null;
        sent_at?: string;
      },
    ): Promise<boolean> {
      const r = await db
        .updateTable('notification_deliveries')
        .set({ ...values, lease_owner: null, lease_until: null })
        .where('id', '=', id)
        .where('lease_owner', '=', owner)
        .where('status', '=', 'pending')
        .executeTakeFirst();
      return Number(r.numUpdatedRows) === 1;
    },

    /** Links a delivery-log row (an attempt) to its delivery. */
    async linkAttempt(outboxId: number, deliveryId: number): Promise<void> {
      await db.updateTable('outbox').set({ notification_delivery_id: deliveryId }).where('id', '=', outboxId).execute();
    },

    /** A robot's mark (null when never set). */
    async mark(robotId: number, mark: string) {
      return (
        (await db
          .selectFrom('notification_marks')
          .select(['value', 'at'])
          .where('robot_id', '=', robotId)
          .where('mark', '=', mark)
          .executeTakeFirst()) ?? null
      );
    },

    /**
     * Compare-and-set of a robot's mark: from `from` (null: never set) to `next`. Answers whether
     * this call changed it (several servers hearing the same robot: one wins).
     */
    async transition(robotId: number, mark: string, from: string | null, next: string, at: string): Promise<boolean> {
      if (from === null) {
        const r = await db
          .insertInto('notification_marks')
          .values({ robot_id: robotId, mark, value: next, at })
          .onConflict((oc) => oc.columns(['robot_id', 'mark']).doNothing())
          .executeTakeFirst();
        return Number(r.numInsertedOrUpdatedRows ?? 0) === 1;
      }
      const r = await db
        .updateTable('notification_marks')
        .set({ value: next, at })
        .where('robot_id', '=', robotId)
        .where('mark', '=', mark)
        .where('value', '=', from)
        .executeTakeFirst();
      return Number(r.numUpdatedRows) === 1;
    },

    /** A robot's marks whose name starts with `prefix`, with their values. */
    async marks(robotId: number, prefix: string): Promise<Map<string, string>> {
      const rows = await db
        .selectFrom('notification_marks')
        .select(['mark', 'value'])
        .where('robot_id', '=', robotId)
        .where('mark', 'like', `${prefix}%`)
        .execute();
      return new Map(rows.map((r) => [r.mark, r.value]));
    },

    /** Robots offline since before `before` and not yet notified. */
    offlineSince(before: string) {
      return db
        .selectFrom('notification_marks')
        .select(['robot_id', 'at'])
        .where('mark', '=', 'connection')
        .where('value', '=', 'offline')
        .where('at', '<=', before)
        .execute();
    },

    /**
     * Retention: settled deliveries (sent, stored, failed) made before `before`, and the events made
     * before it that no delivery lists any more. Answers the rows deleted.
     */
    async prune(before: string): Promise<number> {
      const d = await db
        .deleteFrom('notification_deliveries')
        .where('status', '<>', 'pending')
        .where('created_at', '<', before)
        .executeTakeFirst();
      const e = await db
        .deleteFrom('notification_events')
        .where('created_at', '<', before)
        .where((eb) =>
          eb.not(
            eb.exists(
              eb
                .selectFrom('notification_delivery_events')
                .select('notification_delivery_events.event_id')
                .whereRef('notification_delivery_events.event_id', '=', 'notification_events.id'),
            ),
          ),
        )
        .executeTakeFirst();
      return Number(d.numDeletedRows) + Number(e.numDeletedRows);
    },

    /** For tests and the docs' counts: deliveries by status. */
    async countByStatus(): Promise<Record<string, number>> {
      const rows = await db
        .selectFrom('notification_deliveries')
        .select(['status', sql<number>`count(*)`.as('n')])
        .groupBy('status')
        .execute();
      return Object.fromEntries(rows.map((r) => [r.status, Number(r.n)]));
    },
  };
}

export type NotificationRepo = ReturnType<typeof notificationRepo>;
