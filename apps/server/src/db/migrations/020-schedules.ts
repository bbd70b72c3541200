import type { Kysely } from 'kysely';
import { idColumn, type Dialect } from '../dialect.ts';

/**
 * Schedules (issue 15; docs/api-schedules.md): entries that start a flow on a robot at wall-clock
 * times of the building's zone, and the log of every occurrence that came due.
 *
 * `schedules.next_due_at` is the next occurrence's start (ISO 8601 UTC, null when none is left): the
 * dispatcher of every server reads the due ones through its index and claims one occurrence by a
 * conditional update of that column, in the transaction that inserts its log line; the log's unique
 * `(schedule_id, due_at)` is the second guard, so an occurrence is claimed once across servers.
 * A log line being started holds a lease (`lease_owner`, `lease_until`): a server killed between the
 * claim and the run's start leaves it to be taken over by the next tick of any server.
 */
export async function up(db: Kysely<unknown>, dialect: Dialect): Promise<void> {
  const id = idColumn(dialect);

  await id(db.schema.createTable('schedules'))
    .addColumn('organization_id', 'integer', (c) => c.notNull().references('organizations.id').onDelete('cascade'))
    .addColumn('building_id', 'integer', (c) => c.notNull().references('buildings.id').onDelete('cascade'))
    .addColumn('flow_id', 'integer', (c) => c.notNull().references('flows.id').onDelete('cascade'))
    .addColumn('robot_id', 'integer', (c) => c.notNull().references('robots.id').onDelete('cascade'))
    .addColumn('title', 'varchar(256)', (c) => c.notNull())
    .addColumn('description', 'varchar(1000)', (c) => c.notNull())
    /** Wall-clock `YYYY-MM-DDTHH:mm` of the building's zone. */
    .addColumn('start_local', 'varchar(16)', (c) => c.notNull())
    .addColumn('end_local', 'varchar(16)', (c) => c.notNull())
    .addColumn('repeat', 'varchar(16)', (c) => c.notNull())
    /** JSON number[] (0 Sunday … 6). */
    .addColumn('weekdays', 'varchar(32)', (c) => c.notNull())
    .addColumn('repeat_until', 'varchar(10)')
    .addColumn('priority', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('skip_holidays', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('enabled', 'integer', (c) => c.notNull().defaultTo(1))
    /** JSON ScheduleException[]. */
    .addColumn('exceptions', 'text', (c) => c.notNull())
    .addColumn('next_due_at', 'varchar(32)')
    .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
    .addColumn('updated_at', 'varchar(32)', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('schedules_next_due').on('schedules').column('next_due_at').execute();
  await db.schema.createIndex('schedules_building').on('schedules').columns(['building_id', 'id']).execute();
  await db.schema.createIndex('schedules_robot').on('schedules').column('robot_id').execute();
  await db.schema.createIndex('schedules_flow').on('schedules').column('flow_id').execute();

  await id(db.schema.createTable('schedule_logs'))
    .addColumn('schedule_id', 'integer', (c) => c.references('schedules.id').onDelete('set null'))
    .addColumn('organization_id', 'integer', (c) => c.notNull().references('organizations.id').onDelete('cascade'))
    .addColumn('building_id', 'integer', (c) => c.notNull())
    .addColumn('robot_id', 'integer')
    .addColumn('flow_id', 'integer')
    .addColumn('flow_run_id', 'integer')
    .addColumn('title', 'varchar(256)', (c) => c.notNull())
    .addColumn('priority', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('due_at', 'varchar(32)', (c) => c.notNull())
    /** The occurrence's end (the END_TIME stop of a flow without moves). */
    .addColumn('end_at', 'varchar(32)', (c) => c.notNull())
    .addColumn('started_at', 'varchar(32)')
    .addColumn('ended_at', 'varchar(32)')
    /** 'pending' (claimed, not started yet) while leased; then running, done, fail, cancel, unknown. */
    .addColumn('result', 'varchar(16)', (c) => c.notNull())
    .addColumn('reason', 'varchar(32)')
    .addColumn('detail', 'varchar(1000)', (c) => c.notNull())
    .addColumn('lease_owner', 'varchar(64)')
    .addColumn('lease_until', 'varchar(32)')
    .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
    .addUniqueConstraint('schedule_logs_occurrence', ['schedule_id', 'due_at'])
    .execute();
  await db.schema.createIndex('schedule_logs_due').on('schedule_logs').columns(['due_at', 'id']).execute();
  await db.schema
    .createIndex('schedule_logs_building_due')
    .on('schedule_logs')
    .columns(['building_id', 'due_at'])
    .execute();
  await db.schema.createIndex('schedule_logs_robot_due').on('schedule_logs').columns(['robot_id', 'due_at']).execute();
  await db.schema.createIndex('schedule_logs_flow_due').on('schedule_logs').columns(['flow_id', 'due_at']).execute();
  await db.schema.createIndex('schedule_logs_result').on('schedule_logs').columns(['result', 'lease_until']).execute();
  await db.schema.createIndex('schedule_logs_run').on('schedule_logs').column('flow_run_id').execute();
}
