import type { Kysely } from 'kysely';

/**
 * A flow run started by a schedule names its schedule log line (`schedule_log_id`), written with the
 * run itself: the report of a run that ends within moments names the schedule as its caller without
 * waiting for the dispatcher to link the line to the run (docs/api-reports.md).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('flow_runs').addColumn('schedule_log_id', 'integer').execute();
}
