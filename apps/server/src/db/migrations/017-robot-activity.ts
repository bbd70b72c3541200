import type { Kysely } from 'kysely';
import { idColumn, type Dialect } from '../dialect.ts';

/**
 * The robot activity log (issue 13; docs/api-activity.md): one row per thing that happened to a
 * robot, with a syslog level, a kind and a code, and parameters (JSON) from which the browser writes
 * the text. `robot_activity_marks` holds each robot's last known condition per mark (connection,
 * emergency stop, each error type, low battery, OS version): a transition is written to the log
 * only by the server whose conditional update of the mark succeeds, so several servers hearing the
 * same robot write it once, and a restart does not write a condition again.
 */
export async function up(db: Kysely<unknown>, dialect: Dialect): Promise<void> {
  const id = idColumn(dialect);

  await id(db.schema.createTable('robot_activity'))
    .addColumn('robot_id', 'integer', (c) => c.notNull().references('robots.id').onDelete('cascade'))
    .addColumn('organization_id', 'integer', (c) => c.notNull().references('organizations.id').onDelete('cascade'))
    /** The robot's building when it happened. */
    .addColumn('building_id', 'integer', (c) => c.notNull())
    .addColumn('at', 'varchar(32)', (c) => c.notNull())
    .addColumn('level', 'integer', (c) => c.notNull())
    .addColumn('kind', 'varchar(32)', (c) => c.notNull())
    .addColumn('code', 'varchar(64)', (c) => c.notNull())
    /** JSON object, bounded when recorded (at most 16 keys, texts of at most 200 characters). */
    .addColumn('params', 'text', (c) => c.notNull())
    .execute();
  // The page of one robot, newest first (and its filters by level and kind, read along the robot's rows).
  await db.schema
    .createIndex('robot_activity_robot_at')
    .on('robot_activity')
    .columns(['robot_id', 'at', 'id'])
    .execute();
  // Retention by age.
  await db.schema.createIndex('robot_activity_at').on('robot_activity').column('at').execute();

  await db.schema
    .createTable('robot_activity_marks')
    .addColumn('robot_id', 'integer', (c) => c.notNull().references('robots.id').onDelete('cascade'))
    .addColumn('mark', 'varchar(120)', (c) => c.notNull())
    .addColumn('value', 'varchar(120)', (c) => c.notNull())
    .addColumn('at', 'varchar(32)', (c) => c.notNull())
    .addPrimaryKeyConstraint('robot_activity_marks_pk', ['robot_id', 'mark'])
    .execute();
}
