import { sql, type Kysely } from 'kysely';
import { idColumn, type Dialect } from '../dialect.ts';

/** Robot link (issue 4): the robot registry, its setting history, and robots awaiting registration. */
export async function up(db: Kysely<unknown>, dialect: Dialect): Promise<void> {
  const id = idColumn(dialect);

  await id(db.schema.createTable('robots'))
    .addColumn('organization_id', 'integer', (c) => c.notNull().references('organizations.id'))
    .addColumn('building_id', 'integer', (c) => c.notNull().references('buildings.id'))
    /** The initial floor (spec "initial floor"); the live floor comes from the robot's position. */
    .addColumn('floor_id', 'integer', (c) => c.notNull().references('floors.id'))
    .addColumn('group_id', 'integer', (c) => c.references('robot_groups.id').onDelete('set null'))
    .addColumn('serial_no', 'varchar(24)', (c) => c.notNull())
    .addColumn('name', 'varchar(40)', (c) => c.notNull())
    .addColumn('model', 'varchar(16)', (c) => c.notNull())
    .addColumn('version', 'varchar(32)', (c) => c.notNull().defaultTo(''))
    .addColumn('hardware_revision', 'varchar(3)', (c) => c.notNull().defaultTo(''))
    .addColumn('status', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('long_term_rec_auto_start', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('video_mode', 'varchar(16)', (c) => c.notNull().defaultTo('medium'))
    .addColumn('notes', 'varchar(1000)', (c) => c.notNull().defaultTo(''))
    /** VDA 5050 manufacturer topic level; the serial is the serialNumber level. */
    .addColumn('manufacturer', 'varchar(40)', (c) => c.notNull())
    .addColumn('mqtt_username', 'varchar(64)', (c) => c.notNull())
    /** SHA-256 of the issued broker password (random, 32 bytes): shown once, never stored in clear. */
    .addColumn('mqtt_password_hash', 'varchar(64)', (c) => c.notNull())
    .addColumn('last_communication_at', 'varchar(32)')
    .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
    .addColumn('updated_at', 'varchar(32)', (c) => c.notNull())
    .addColumn('deleted_at', 'varchar(32)')
    .execute();
  // Unique among live rows: a deleted robot's serial can be registered again.
  const live = sql<boolean>`deleted_at is null`;
  await db.schema.createIndex('robots_serial_live').on('robots').column('serial_no').unique().where(live).execute();
  await db.schema.createIndex('robots_username').on('robots').column('mqtt_username').unique().where(live).execute();
  await db.schema.createIndex('robots_scope').on('robots').columns(['organization_id', 'building_id']).execute();

  await id(db.schema.createTable('robot_setting_history'))
    .addColumn('robot_id', 'integer', (c) => c.notNull().references('robots.id').onDelete('cascade'))
    .addColumn('organization_id', 'integer', (c) => c.notNull().references('organizations.id'))
    .addColumn('field', 'varchar(40)', (c) => c.notNull())
    .addColumn('old_value', 'varchar(1000)')
    .addColumn('new_value', 'varchar(1000)')
    .addColumn('operator_id', 'integer', (c) => c.references('operators.id').onDelete('set null'))
    .addColumn('changed_at', 'varchar(32)', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('robot_setting_history_robot')
    .on('robot_setting_history')
    .columns(['robot_id', 'changed_at'])
    .execute();

  await id(db.schema.createTable('pending_robots'))
    .addColumn('username', 'varchar(64)', (c) => c.notNull().unique())
    .addColumn('client_id', 'varchar(128)', (c) => c.notNull())
    .addColumn('ip', 'varchar(64)', (c) => c.notNull().defaultTo(''))
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('first_seen_at', 'varchar(32)', (c) => c.notNull())
    .addColumn('last_seen_at', 'varchar(32)', (c) => c.notNull())
    .execute();
}
