import type { Kysely } from 'kysely';
import { idColumn, type Dialect } from '../dialect.ts';

/**
 * Robot features of teleoperation: photos robots took (the bytes are a stored file; the row says
 * whose robot, which camera, who asked) and thermal camera presets per robot (spec section 9: the
 * same name overwrites, at most THERMAL_PRESET_LIMIT per robot).
 */
export async function up(db: Kysely<unknown>, dialect: Dialect): Promise<void> {
  const id = idColumn(dialect);

  await id(db.schema.createTable('robot_photos'))
    .addColumn('robot_id', 'integer', (c) => c.notNull().references('robots.id').onDelete('cascade'))
    .addColumn('organization_id', 'integer', (c) => c.notNull().references('organizations.id'))
    /** Where the robot was when it took the photo. */
    .addColumn('building_id', 'integer', (c) => c.notNull().references('buildings.id').onDelete('cascade'))
    .addColumn('camera', 'varchar(16)', (c) => c.notNull())
    /** The photo goes with its file (a building's files go with the building). */
    .addColumn('file_key', 'varchar(64)', (c) => c.notNull().references('files.key').onDelete('cascade'))
    .addColumn('width', 'integer', (c) => c.notNull())
    .addColumn('height', 'integer', (c) => c.notNull())
    .addColumn('taken_at', 'varchar(32)', (c) => c.notNull())
    .addColumn('operator_id', 'integer', (c) => c.references('operators.id').onDelete('set null'))
    .addColumn('action_id', 'varchar(200)', (c) => c.notNull())
    // One photo per takePhoto action: a redelivered message, or the same message seen by every
    // server of a cluster, is stored once.
    .addUniqueConstraint('robot_photos_action', ['robot_id', 'action_id'])
    .execute();
  await db.schema
    .createIndex('robot_photos_robot_taken')
    .on('robot_photos')
    .columns(['robot_id', 'taken_at'])
    .execute();
  await db.schema.createIndex('robot_photos_file').on('robot_photos').column('file_key').execute();

  await id(db.schema.createTable('robot_thermal_presets'))
    .addColumn('robot_id', 'integer', (c) => c.notNull().references('robots.id').onDelete('cascade'))
    .addColumn('name', 'varchar(40)', (c) => c.notNull())
    .addColumn('color_map', 'varchar(16)', (c) => c.notNull())
    .addColumn('range_min', 'double precision', (c) => c.notNull())
    .addColumn('range_max', 'double precision', (c) => c.notNull())
    .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
    .addColumn('updated_at', 'varchar(32)', (c) => c.notNull())
    .addUniqueConstraint('robot_thermal_presets_name', ['robot_id', 'name'])
    .execute();
}
