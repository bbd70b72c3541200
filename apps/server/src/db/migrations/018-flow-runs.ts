import { sql, type Kysely } from 'kysely';
import { idColumn, type Dialect } from '../dialect.ts';

/**
 * Flow runs (issue 13; docs/flow-runner.md): one row per run of a flow on a robot, and one row per
 * step carried out (a loop's steps once per pass). The run row also holds what the runner needs to
 * pick the run up after a restart (cursor, the order in progress, what the current step waits for)
 * and who owns it: `owner` (a server instance) renews `lease_until`; a run whose lease ran out is
 * taken over by one server through a conditional update. At most one active run per robot is
 * enforced by a partial unique index, so two servers starting a flow on one robot cannot both win.
 */
export async function up(db: Kysely<unknown>, dialect: Dialect): Promise<void> {
  const id = idColumn(dialect);

  await id(db.schema.createTable('flow_runs'))
    .addColumn('organization_id', 'integer', (c) => c.notNull().references('organizations.id').onDelete('cascade'))
    .addColumn('building_id', 'integer', (c) => c.notNull())
    .addColumn('floor_id', 'integer', (c) => c.notNull())
    .addColumn('flow_id', 'integer', (c) => c.references('flows.id').onDelete('set null'))
    .addColumn('flow_name', 'varchar(64)', (c) => c.notNull())
    .addColumn('robot_id', 'integer', (c) => c.notNull().references('robots.id').onDelete('cascade'))
    .addColumn('robot_name', 'varchar(64)', (c) => c.notNull())
    /** JSON: the definition as run (library commands expanded). */
    .addColumn('definition', 'text', (c) => c.notNull())
    .addColumn('status', 'varchar(16)', (c) => c.notNull())
    .addColumn('started_at', 'varchar(32)', (c) => c.notNull())
    .addColumn('ended_at', 'varchar(32)')
    .addColumn('started_by', 'integer')
    .addColumn('current_step_id', 'varchar(100)')
    .addColumn('current_step_kind', 'varchar(32)')
    .addColumn('steps_started', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('error_code', 'varchar(32)')
    .addColumn('message', 'varchar(500)')
    /** JSON: where the runner is (docs/flow-runner.md "Record"). */
    .addColumn('cursor', 'text', (c) => c.notNull())
    .addColumn('owner', 'varchar(64)')
    .addColumn('lease_until', 'varchar(32)')
    /** A cancel asked on a server that does not own the run (the owner carries it out). */
    .addColumn('cancel_requested', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await sql`create unique index flow_runs_one_active on flow_runs (robot_id) where status in ('running', 'paused')`.execute(
    db,
  );
  await db.schema.createIndex('flow_runs_robot_started').on('flow_runs').columns(['robot_id', 'started_at']).execute();
  await db.schema
    .createIndex('flow_runs_building_started')
    .on('flow_runs')
    .columns(['building_id', 'started_at'])
    .execute();
  await db.schema.createIndex('flow_runs_flow').on('flow_runs').column('flow_id').execute();
  await db.schema.createIndex('flow_runs_status_lease').on('flow_runs').columns(['status', 'lease_until']).execute();

  await id(db.schema.createTable('flow_run_steps'))
    .addColumn('run_id', 'integer', (c) => c.notNull().references('flow_runs.id').onDelete('cascade'))
    .addColumn('seq', 'integer', (c) => c.notNull())
    .addColumn('step_id', 'varchar(100)', (c) => c.notNull())
    .addColumn('kind', 'varchar(32)', (c) => c.notNull())
    .addColumn('pass', 'varchar(64)', (c) => c.notNull())
    .addColumn('attempt', 'integer', (c) => c.notNull())
    .addColumn('result', 'varchar(16)', (c) => c.notNull())
    .addColumn('started_at', 'varchar(32)', (c) => c.notNull())
    .addColumn('ended_at', 'varchar(32)')
    .addColumn('error_code', 'varchar(32)')
    .addColumn('message', 'varchar(500)')
    /** JSON object of plain values. */
    .addColumn('data', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('flow_run_steps_run').on('flow_run_steps').columns(['run_id', 'seq']).execute();
}
