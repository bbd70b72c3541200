import type { Kysely } from 'kysely';
import { idColumn, type Dialect } from '../dialect.ts';

/**
 * Reports (issue 16; docs/api-reports.md): one report per flow run, written from the run's record when
 * the run ends (done, fail, cancel, unknown), one detail per step carried out, and the path driven per
 * floor. `flow_run_id` is unique: the writer inserts the report once, however often it is asked to.
 *
 * Names (building, floor, robot, serial, flow, caller) are copied, and ids carry no foreign key but the
 * organization's, so a report stays readable when its flow, robot, floor or run is deleted or renamed.
 * Exports (issue 16, H2) stream `report_details join reports` by keyset on `report_details.id`.
 */
export async function up(db: Kysely<unknown>, dialect: Dialect): Promise<void> {
  const id = idColumn(dialect);

  await id(db.schema.createTable('reports'))
    .addColumn('flow_run_id', 'integer', (c) => c.notNull().unique())
    .addColumn('organization_id', 'integer', (c) => c.notNull().references('organizations.id').onDelete('cascade'))
    .addColumn('building_id', 'integer', (c) => c.notNull())
    .addColumn('building_name', 'varchar(256)', (c) => c.notNull())
    .addColumn('floor_id', 'integer')
    .addColumn('floor_name', 'varchar(256)', (c) => c.notNull())
    .addColumn('robot_id', 'integer')
    .addColumn('robot_name', 'varchar(256)', (c) => c.notNull())
    .addColumn('robot_serial', 'varchar(256)', (c) => c.notNull())
    .addColumn('flow_id', 'integer')
    .addColumn('flow_name', 'varchar(256)', (c) => c.notNull())
    /** 0 patrol, 1 sentry, 30 cleaning (the flow definition's reportType). */
    .addColumn('type', 'integer', (c) => c.notNull())
    /** 'schedule', 'operator' or 'trigger'. */
    .addColumn('caller', 'varchar(16)', (c) => c.notNull())
    .addColumn('caller_name', 'varchar(256)')
    .addColumn('schedule_id', 'integer')
    .addColumn('started_at', 'varchar(32)', (c) => c.notNull())
    .addColumn('ended_at', 'varchar(32)', (c) => c.notNull())
    /** 9 error, 10 complete, 11 partial, 12 cancel. */
    .addColumn('result', 'integer', (c) => c.notNull())
    .addColumn('error_code', 'varchar(32)')
    .addColumn('abnormal_count', 'integer', (c) => c.notNull())
    .addColumn('photo_count', 'integer', (c) => c.notNull())
    .addColumn('detail_count', 'integer', (c) => c.notNull())
    /** The first photo's thumbnail (`files.key`). */
    .addColumn('thumbnail_file_key', 'varchar(64)')
    .execute();
  await db.schema
    .createIndex('reports_org_started')
    .on('reports')
    .columns(['organization_id', 'started_at', 'id'])
    .execute();
  await db.schema
    .createIndex('reports_building_started')
    .on('reports')
    .columns(['building_id', 'started_at', 'id'])
    .execute();
  await db.schema.createIndex('reports_robot_started').on('reports').columns(['robot_id', 'started_at']).execute();
  await db.schema.createIndex('reports_result_started').on('reports').columns(['result', 'started_at']).execute();

  await id(db.schema.createTable('report_details'))
    .addColumn('report_id', 'integer', (c) => c.notNull().references('reports.id').onDelete('cascade'))
    .addColumn('seq', 'integer', (c) => c.notNull())
    .addColumn('step_id', 'varchar(100)', (c) => c.notNull())
    .addColumn('kind', 'varchar(32)', (c) => c.notNull())
    /** Report detail type (0 movement, 1 photo, ...; reportDetailTypeOf). */
    .addColumn('type', 'integer', (c) => c.notNull())
    .addColumn('result', 'integer', (c) => c.notNull())
    .addColumn('started_at', 'varchar(32)', (c) => c.notNull())
    .addColumn('ended_at', 'varchar(32)')
    .addColumn('error_code', 'varchar(32)')
    .addColumn('message', 'text')
    /** JSON object of plain values. */
    .addColumn('values_json', 'text', (c) => c.notNull())
    .addColumn('photo_file_key', 'varchar(64)')
    .addColumn('photo_thumb_key', 'varchar(64)')
    .addColumn('photo_width', 'integer')
    .addColumn('photo_height', 'integer')
    .addColumn('camera', 'varchar(64)')
    .addColumn('floor_id', 'integer')
    .addColumn('x', 'double precision')
    .addColumn('y', 'double precision')
    .addUniqueConstraint('report_details_seq', ['report_id', 'seq'])
    .execute();

  await db.schema
    .createTable('report_tracks')
    .addColumn('report_id', 'integer', (c) => c.notNull().references('reports.id').onDelete('cascade'))
    .addColumn('floor_id', 'integer', (c) => c.notNull())
    /** Order of the floors as visited (1, 2, ...). */
    .addColumn('seq', 'integer', (c) => c.notNull())
    /** JSON [x, y][] in map metres. */
    .addColumn('points_json', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('report_tracks_pk', ['report_id', 'seq'])
    .execute();
}
