import type { Kysely } from 'kysely';
import { idColumn, type Dialect } from '../dialect.ts';

/**
 * The notification engine's durable outbox (issue 17; docs/notifications.md).
 *
 * `notification_events`: what happened (threshold breach, low battery, emergency stop, flow run
 * failure...), with the names the message needs taken when it happened (`params`, JSON). Written
 * before anything is sent; `dedupe_key` (unique when set) makes an event that two servers notice
 * at once, or a caller that retries, one event.
 *
 * `notification_deliveries`: one message to one notification target, listing one or more events
 * (`notification_delivery_events`): the events of one cause (`group_key`) that reach the same target
 * within the grouping window share a delivery. A worker claims a due delivery (`status` pending,
 * `next_attempt_at` passed, no living lease) by a conditional update of the lease (`lease_owner`,
 * `lease_until`), so one server sends it; a failed attempt sets `next_attempt_at` with exponential
 * backoff until `attempts` reaches the limit (`failed`).
 *
 * `notification_marks`: the last condition the engine acted on per robot (battery low/ok, emergency
 * stop, each fatal error, connection), changed by compare-and-set so one server notifies and a
 * restart does not notify again.
 *
 * `outbox.notification_delivery_id`: each attempt is a row of the delivery log (the outbox), linked
 * to its delivery.
 */
export async function up(db: Kysely<unknown>, dialect: Dialect): Promise<void> {
  const id = idColumn(dialect);

  await id(db.schema.createTable('notification_events'))
    .addColumn('organization_id', 'integer', (c) => c.notNull().references('organizations.id').onDelete('cascade'))
    .addColumn('building_id', 'integer')
    .addColumn('robot_id', 'integer')
    .addColumn('kind', 'varchar(32)', (c) => c.notNull())
    .addColumn('level', 'integer', (c) => c.notNull())
    .addColumn('group_key', 'varchar(160)', (c) => c.notNull())
    .addColumn('dedupe_key', 'varchar(200)')
    /** JSON: names and details the message shows (robot, serial, building, floor, zone, ...). */
    .addColumn('params', 'text', (c) => c.notNull())
    .addColumn('occurred_at', 'varchar(32)', (c) => c.notNull())
    .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('notification_events_dedupe')
    .unique()
    .on('notification_events')
    .column('dedupe_key')
    .execute();
  await db.schema
    .createIndex('notification_events_org_created')
    .on('notification_events')
    .columns(['organization_id', 'created_at'])
    .execute();

  await id(db.schema.createTable('notification_deliveries'))
    .addColumn('organization_id', 'integer', (c) => c.notNull().references('organizations.id').onDelete('cascade'))
    /** The target when the delivery was made (a deleted target fails the delivery, no foreign key). */
    .addColumn('target_id', 'integer', (c) => c.notNull())
    .addColumn('group_key', 'varchar(160)', (c) => c.notNull())
    /** pending, sent, failed. */
    .addColumn('status', 'varchar(16)', (c) => c.notNull())
    .addColumn('event_count', 'integer', (c) => c.notNull())
    .addColumn('attempts', 'integer', (c) => c.notNull())
    /** When the first attempt was due (the grouping window counts from it); never changes. */
    .addColumn('due_at', 'varchar(32)', (c) => c.notNull())
    .addColumn('next_attempt_at', 'varchar(32)', (c) => c.notNull())
    .addColumn('lease_owner', 'varchar(64)')
    .addColumn('lease_until', 'varchar(32)')
    .addColumn('last_error', 'varchar(500)')
    .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
    .addColumn('sent_at', 'varchar(32)')
    .execute();
  await db.schema
    .createIndex('notification_deliveries_due')
    .on('notification_deliveries')
    .columns(['status', 'next_attempt_at'])
    .execute();
  await db.schema
    .createIndex('notification_deliveries_group')
    .on('notification_deliveries')
    .columns(['target_id', 'group_key', 'due_at'])
    .execute();

  await db.schema
    .createTable('notification_delivery_events')
    .addColumn('delivery_id', 'integer', (c) =>
      c.notNull().references('notification_deliveries.id').onDelete('cascade'),
    )
    .addColumn('event_id', 'integer', (c) => c.notNull().references('notification_events.id').onDelete('cascade'))
    .addPrimaryKeyConstraint('notification_delivery_events_pk', ['delivery_id', 'event_id'])
    .execute();
  await db.schema
    .createIndex('notification_delivery_events_event')
    .on('notification_delivery_events')
    .column('event_id')
    .execute();

  await db.schema
    .createTable('notification_marks')
    .addColumn('robot_id', 'integer', (c) => c.notNull())
    .addColumn('mark', 'varchar(160)', (c) => c.notNull())
    .addColumn('value', 'varchar(32)', (c) => c.notNull())
    .addColumn('at', 'varchar(32)', (c) => c.notNull())
    .addPrimaryKeyConstraint('notification_marks_pk', ['robot_id', 'mark'])
    .execute();
  await db.schema
    .createIndex('notification_marks_mark')
    .on('notification_marks')
    .columns(['mark', 'value', 'at'])
    .execute();

  await db.schema.alterTable('outbox').addColumn('notification_delivery_id', 'integer').execute();
}
