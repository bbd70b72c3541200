import { sql, type Kysely } from 'kysely';

/**
 * Schedule log details in the reader's language and the names of deleted robots and flows (issue 15;
 * docs/api-schedules.md "Log lines"):
 *
 * - `detail_code`, `detail_params` (JSON object of strings and numbers): the line's detail as a code
 *   with parameters, written in words by the browser; `detail` stays the English text for API clients.
 * - `robot_name`, `flow_name`: the robot's and the flow's names when the line was written, shown once
 *   the robot or the flow is deleted. Existing lines take the names of those that still exist.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('schedule_logs').addColumn('detail_code', 'varchar(40)').execute();
  await db.schema
    .alterTable('schedule_logs')
    .addColumn('detail_params', 'varchar(2000)', (c) => c.notNull().defaultTo('{}'))
    .execute();
  await db.schema.alterTable('schedule_logs').addColumn('robot_name', 'varchar(40)').execute();
  await db.schema.alterTable('schedule_logs').addColumn('flow_name', 'varchar(64)').execute();
  await sql`update schedule_logs set robot_name = (select name from robots where robots.id = schedule_logs.robot_id)`.execute(
    db,
  );
  await sql`update schedule_logs set flow_name = (select name from flows where flows.id = schedule_logs.flow_id)`.execute(
    db,
  );
}
