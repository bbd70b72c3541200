import type { Insertable, Kysely, Selectable } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { insertReturningId } from '../../db/rows.ts';
import { applyFilter, applyWhere, type ParsedFilter } from '../../lib/filter.ts';
import { filterSpec, ID_FIELD, TENANT_FIELDS } from '../../lib/filter-spec.ts';
import { scopeWhere, type TenantScope } from '../../lib/scope.ts';
import type { ReportDetailTable, ReportTable, ReportTrackTable } from './report-tables.ts';

/**
 * Allow-list of `GET /reports?filter=`; newest first. `abnormal` (true / false) is turned into
 * `abnormalCount` by the service before parsing.
 */
export const reportFilter = filterSpec(
  'reports',
  {
    ...ID_FIELD,
    flowRunId: 'integer',
    floorId: 'integer',
    robotId: 'integer',
    flowId: 'integer',
    scheduleId: 'integer',
    type: 'integer',
    result: 'integer',
    caller: 'string',
    abnormalCount: 'integer',
    photoCount: 'integer',
    flowName: 'string',
    robotName: 'string',
    startedAt: 'date',
    endedAt: 'date',
    ...TENANT_FIELDS,
  },
  { defaultOrder: 'startedAt DESC', defaultLimit: 50, maxLimit: 200 },
);

export type ReportRow = Selectable<ReportTable>;
export type ReportDetailRow = Selectable<ReportDetailTable>;
export type ReportTrackRow = Selectable<ReportTrackTable>;

/** The SQL of reports (docs/api-reports.md). */
export function reportRepo(db: Kysely<Database>) {
  const scoped = (p: TenantScope) =>
    db
      .selectFrom('reports')
      .where((eb) => scopeWhere(p, eb, { organization: 'reports.organization_id', building: 'reports.building_id' }));

  return {
    async page(p: TenantScope, f: ParsedFilter): Promise<{ rows: ReportRow[]; total: number }> {
      const [rows, count] = await Promise.all([
        applyFilter(scoped(p).selectAll(), f).execute(),
        applyWhere(
          scoped(p).select((eb) => eb.fn.countAll<number>().as('n')),
          f.where,
        ).executeTakeFirstOrThrow(),
      ]);
      return { rows, total: Number(count.n) };
    },

    inScope: (p: TenantScope, id: number) => scoped(p).selectAll().where('id', '=', id).executeTakeFirst(),

    /** A report's details in order, with the photo file's content type. */
    details: (reportId: number) =>
      db
        .selectFrom('report_details')
        .leftJoin('files', 'files.key', 'report_details.photo_file_key')
        .selectAll('report_details')
        .select('files.content_type')
        .where('report_details.report_id', '=', reportId)
        .orderBy('report_details.seq')
        .execute(),

    tracks: (reportId: number) =>
      db
        .selectFrom('report_tracks')
        .leftJoin('floors', 'floors.id', 'report_tracks.floor_id')
        .select(['report_tracks.floor_id', 'report_tracks.points_json', 'floors.name as floor_name'])
        .where('report_tracks.report_id', '=', reportId)
        .orderBy('report_tracks.seq')
        .execute(),

    timeZone: async (buildingId: number): Promise<string | null> =>
      (await db.selectFrom('buildings').select('time_zone').where('id', '=', buildingId).executeTakeFirst())
        ?.time_zone ?? null,

    // ------------------------------------------------------------ the writer
    existsForRun: async (runId: number): Promise<boolean> =>
      !!(await db.selectFrom('reports').select('id').where('flow_run_id', '=', runId).executeTakeFirst()),

    run: (runId: number) => db.selectFrom('flow_runs').selectAll().where('id', '=', runId).executeTakeFirst(),

    steps: (runId: number) =>
      db.selectFrom('flow_run_steps').selectAll().where('run_id', '=', runId).orderBy('seq').execute(),

    /** The stored photos of these takePhoto actions of a robot. */
    photos: (robotId: number, actionIds: string[]) =>
      actionIds.length === 0
        ? Promise.resolve([])
        : db
            .selectFrom('robot_photos')
            .select(['action_id', 'file_key', 'width', 'height', 'camera'])
            .where('robot_id', '=', robotId)
            .where('action_id', 'in', actionIds)
            .execute(),

    building: (id: number) => db.selectFrom('buildings').select(['name']).where('id', '=', id).executeTakeFirst(),
    floors: (ids: number[]) =>
      ids.length === 0
        ? Promise.resolve([])
        : db.selectFrom('floors').select(['id', 'name']).where('id', 'in', ids).execute(),
    robot: (id: number) =>
      db.selectFrom('robots').select(['name', 'serial_no']).where('id', '=', id).executeTakeFirst(),
    /** The current map document of a floor as stored (JSON text), or null when it has none. */
    mapDocument: async (floorId: number): Promise<string | null> =>
      (
        await db
          .selectFrom('floor_map_revisions')
          .select('document')
          .where('floor_id', '=', floorId)
          .orderBy('revision', 'desc')
          .limit(1)
          .executeTakeFirst()
      )?.document ?? null,
    flowDefinition: async (id: number): Promise<string | null> =>
      (await db.selectFrom('flows').select('definition').where('id', '=', id).executeTakeFirst())?.definition ?? null,
    scheduleLine: (lineId: number) =>
      db.selectFrom('schedule_logs').select(['schedule_id', 'title']).where('id', '=', lineId).executeTakeFirst(),
    scheduleOfRun: (runId: number) =>
      db
        .selectFrom('schedule_logs')
        .select(['schedule_id', 'title'])
        .where('flow_run_id', '=', runId)
        .orderBy('id')
        .limit(1)
        .executeTakeFirst(),
    operator: (id: number) =>
      db.selectFrom('operators').select(['first_name', 'last_name']).where('id', '=', id).executeTakeFirst(),

    /** Ended runs without a report among the newest `window` runs (written after a crash between the two). */
    async unreported(window: number, endedBefore: string, limit: number): Promise<number[]> {
      const top = await db
        .selectFrom('flow_runs')
        .select((eb) => eb.fn.max('id').as('m'))
        .executeTakeFirst();
      const from = Number(top?.m ?? 0) - window;
      const rows = await db
        .selectFrom('flow_runs')
        .select('flow_runs.id')
        .where('flow_runs.id', '>', from)
        .where('flow_runs.status', 'in', ['done', 'fail', 'cancel', 'unknown'])
        .where('flow_runs.ended_at', '<', endedBefore)
        .where((eb) =>
          eb.not(
            eb.exists(
              eb.selectFrom('reports').select('reports.id').whereRef('reports.flow_run_id', '=', 'flow_runs.id'),
            ),
          ),
        )
        .orderBy('flow_runs.id')
        .limit(limit)
        .execute();
      return rows.map((r) => r.id);
    },

    /** Inserts the report with its details and tracks (in the caller's transaction). */
    async insert(
      report: Insertable<ReportTable>,
      details: Omit<Insertable<ReportDetailTable>, 'report_id'>[],
      tracks: Omit<Insertable<ReportTrackTable>, 'report_id'>[],
    ): Promise<number> {
      const id = await insertReturningId(db, 'reports', report);
      // Chunks keep each statement within SQLite's and PostgreSQL's bound-parameter limits.
      for (let i = 0; i < details.length; i += 200)
        await db
          .insertInto('report_details')
          .values(details.slice(i, i + 200).map((d) => ({ ...d, report_id: id })))
          .execute();
      if (tracks.length > 0)
        await db
          .insertInto('report_tracks')
          .values(tracks.map((t) => ({ ...t, report_id: id })))
          .execute();
      return id;
    },
  };
}
export type ReportRepo = ReturnType<typeof reportRepo>;
