import type { Kysely } from 'kysely';
import { idColumn, type Dialect } from '../dialect.ts';

/**
 * Triggers and their firings (issue 17; docs/api-triggers.md).
 *
 * A trigger belongs to a building (and its organization): an event type with conditions (JSON,
 * versioned schema) leading to a target type with its settings (JSON). `updated_at` is its version.
 *
 * A firing is one trigger matched by one notification event, written in the event's transaction
 * (unique `(trigger_id, event_id)`: exactly one per pair) as `pending`; the trigger worker of any
 * server claims it by a lease, carries out the target action and settles it (`done` or `failed`,
 * with the error and what it made). `stage` marks a flow start in progress, so a server taking over
 * an expired lease does not start a second run. Firings keep the trigger's name and outlive it
 * (`trigger_id` set null; no foreign key to the event, which notification retention may delete).
 */
export async function up(db: Kysely<unknown>, dialect: Dialect): Promise<void> {
  const id = idColumn(dialect);

  await id(db.schema.createTable('triggers'))
    .addColumn('organization_id', 'integer', (c) => c.notNull().references('organizations.id').onDelete('cascade'))
    .addColumn('building_id', 'integer', (c) => c.notNull().references('buildings.id').onDelete('cascade'))
    .addColumn('name', 'varchar(64)', (c) => c.notNull())
    /** 1 enabled, 0 disabled. */
    .addColumn('status', 'integer', (c) => c.notNull())
    /** 0 schedule, 1 robot status, 2 data threshold (10, 11, 12 are not accepted yet). */
    .addColumn('event_type', 'integer', (c) => c.notNull())
    /** JSON TriggerConditions (version 1). */
    .addColumn('conditions', 'text', (c) => c.notNull())
    /** 0 flow, 1 notification, 2 report, 3 web API. */
    .addColumn('target_type', 'integer', (c) => c.notNull())
    /** JSON TriggerTarget (version 1). */
    .addColumn('target', 'text', (c) => c.notNull())
    .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
    .addColumn('updated_at', 'varchar(32)', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('triggers_building_name').on('triggers').columns(['building_id', 'name', 'id']).execute();
  await db.schema
    .createIndex('triggers_building_event')
    .on('triggers')
    .columns(['building_id', 'status', 'event_type'])
    .execute();

  await id(db.schema.createTable('trigger_firings'))
    .addColumn('organization_id', 'integer', (c) => c.notNull().references('organizations.id').onDelete('cascade'))
    .addColumn('building_id', 'integer', (c) => c.notNull())
    .addColumn('trigger_id', 'integer', (c) => c.references('triggers.id').onDelete('set null'))
    .addColumn('trigger_name', 'varchar(64)', (c) => c.notNull())
    .addColumn('event_id', 'integer', (c) => c.notNull())
    .addColumn('event_kind', 'varchar(32)', (c) => c.notNull())
    .addColumn('robot_id', 'integer')
    .addColumn('target_type', 'integer', (c) => c.notNull())
    /** pending, done, failed. */
    .addColumn('status', 'varchar(16)', (c) => c.notNull())
    /** null, or `starting` while a flow run is being started. */
    .addColumn('stage', 'varchar(16)')
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('next_attempt_at', 'varchar(32)', (c) => c.notNull())
    .addColumn('lease_owner', 'varchar(64)')
    .addColumn('lease_until', 'varchar(32)')
    .addColumn('error', 'text')
    .addColumn('flow_run_id', 'integer')
    .addColumn('run_robot_id', 'integer')
    .addColumn('report_id', 'integer')
    .addColumn('notification_event_id', 'integer')
    .addColumn('webhook_delivery_id', 'integer')
    .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
    .addColumn('done_at', 'varchar(32)')
    .execute();
  await db.schema
    .createIndex('trigger_firings_trigger_event')
    .on('trigger_firings')
    .columns(['trigger_id', 'event_id'])
    .unique()
    .execute();
  await db.schema
    .createIndex('trigger_firings_due')
    .on('trigger_firings')
    .columns(['status', 'next_attempt_at', 'id'])
    .execute();
  await db.schema
    .createIndex('trigger_firings_building_created')
    .on('trigger_firings')
    .columns(['building_id', 'created_at', 'id'])
    .execute();
}
