import type { Kysely } from 'kysely';
import { idColumn, type Dialect } from '../dialect.ts';

/**
 * The reference images of schedule entries (issue 15, docs/api-schedules.md "Start position"): a
 * photo per camera taken at the flow's start position when the entry was saved (or on request),
 * compared at each due time with what the camera sees before the flow starts. `robot_id` and
 * `flow_id` are those the photo was taken for: references of another robot or flow are not used.
 * The pose is the robot's reported position then (shown in the log's detail, not decisive).
 */
export async function up(db: Kysely<unknown>, dialect: Dialect): Promise<void> {
  const id = idColumn(dialect);
  await id(db.schema.createTable('schedule_references'))
    .addColumn('schedule_id', 'integer', (c) => c.notNull().references('schedules.id').onDelete('cascade'))
    .addColumn('robot_id', 'integer', (c) => c.notNull())
    .addColumn('flow_id', 'integer', (c) => c.notNull())
    .addColumn('camera', 'varchar(16)', (c) => c.notNull())
    .addColumn('file_key', 'varchar(64)', (c) => c.notNull().references('files.key'))
    .addColumn('width', 'integer', (c) => c.notNull())
    .addColumn('height', 'integer', (c) => c.notNull())
    .addColumn('pose_x', 'double precision')
    .addColumn('pose_y', 'double precision')
    .addColumn('pose_theta', 'double precision')
    .addColumn('map_id', 'varchar(256)')
    .addColumn('taken_at', 'varchar(32)', (c) => c.notNull())
    .addUniqueConstraint('schedule_references_camera', ['schedule_id', 'camera'])
    .execute();
}
