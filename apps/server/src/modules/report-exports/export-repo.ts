import type { ReportSelection } from '@portal/contract';
import type { ExpressionBuilder, Insertable, Kysely, Selectable } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { insertReturningId } from '../../db/rows.ts';
import { applyFilter, applyWhere, type ParsedFilter } from '../../lib/filter.ts';
import { filterSpec, ID_FIELD, TENANT_FIELDS } from '../../lib/filter-spec.ts';
import { scopeWhere, type TenantScope } from '../../lib/scope.ts';
import type { ExportTemplateTable, ReportExportTable } from './export-tables.ts';
import '../reports/report-tables.ts';

/** Allow-list of `GET /report-exports?filter=`; newest first. */
export const reportExportFilter = filterSpec(
  'report_exports',
  {
    ...ID_FIELD,
    status: 'string',
    format: 'string',
    encoding: 'string',
    exporterId: 'integer',
    templateId: 'integer',
    createdAt: 'date',
    finishedAt: 'date',
    ...TENANT_FIELDS,
  },
  { defaultOrder: 'createdAt DESC', defaultLimit: 50, maxLimit: 200 },
);

/** Allow-list of `GET /export-templates?filter=`; newest first. */
export const exportTemplateFilter = filterSpec(
  'export_templates',
  { ...ID_FIELD, name: 'string', organizationId: 'integer', createdAt: 'date', updatedAt: 'date' },
  { defaultOrder: 'createdAt DESC', defaultLimit: 50, maxLimit: 200 },
);

export type ReportExportRow = Selectable<ReportExportTable>;
export type ExportTemplateRow = Selectable<ExportTemplateTable>;

/** The tenancy an export's rows are read in: null is "every" (resolved from the exporter when asked for). */
export interface RowScope {
  organizationId: number | null;
  buildingId: number | null;
}

/** The conditions of a selection on `reports as r`, inside the exporter's tenancy. */
function selectionWhere(
  eb: ExpressionBuilder<Database & { r: Database['reports'] }, 'r'>,
  s: ReportSelection,
  scope: RowScope,
) {
  const parts = [];
  if (scope.organizationId !== null) parts.push(eb('r.organization_id', '=', scope.organizationId));
  if (scope.buildingId !== null) parts.push(eb('r.building_id', '=', scope.buildingId));
  if (s.buildingId !== undefined) parts.push(eb('r.building_id', '=', s.buildingId));
  if (s.floorId !== undefined) parts.push(eb('r.floor_id', '=', s.floorId));
  if (s.robotId !== undefined) parts.push(eb('r.robot_id', '=', s.robotId));
  if (s.type !== undefined) parts.push(eb('r.type', '=', s.type));
  if (s.result !== undefined) parts.push(eb('r.result', '=', s.result));
  if (s.abnormal === true) parts.push(eb('r.abnormal_count', '>', 0));
  if (s.abnormal === false) parts.push(eb('r.abnormal_count', '=', 0));
  if (s.from) parts.push(eb('r.started_at', '>=', new Date(s.from).toISOString()));
  if (s.to) parts.push(eb('r.started_at', '<', new Date(s.to).toISOString()));
  return eb.and(parts);
}

/** The SQL of report exports and export templates (docs/api-reports.md "Exports"). */
export function exportRepo(db: Kysely<Database>) {
  const details = (s: ReportSelection, scope: RowScope) =>
    db
      .selectFrom('report_details as d')
      .innerJoin('reports as r', 'r.id', 'd.report_id')
      .where((eb) => selectionWhere(eb as never, s, scope));

  /** Jobs in the caller's scope: general operators see their building's. */
  const jobsInScope = (p: TenantScope) =>
    db
      .selectFrom('report_exports')
      .where((eb) =>
        scopeWhere(p, eb, { organization: 'report_exports.organization_id', building: 'report_exports.building_id' }),
      );
  const templatesInScope = (p: TenantScope) =>
    db
      .selectFrom('export_templates')
      .where((eb) => scopeWhere(p, eb, { organization: 'export_templates.organization_id' }));

  return {
    /** Whether a general operator may not export. */
    async exportRestricted(operatorId: number): Promise<boolean> {
      const row = await db
        .selectFrom('operators')
        .select(['export_restricted', 'type'])
        .where('id', '=', operatorId)
        .executeTakeFirst();
      return row !== undefined && row.type === 0 && row.export_restricted === 1;
    },

    building: (id: number) =>
      db.selectFrom('buildings').select(['id', 'organization_id', 'time_zone']).where('id', '=', id).executeTakeFirst(),

    /** How many detail rows a selection takes, and the last one's id. */
    async countRows(s: ReportSelection, scope: RowScope): Promise<{ count: number; maxId: number }> {
      const row = await details(s, scope)
        .select((eb) => [eb.fn.countAll<number>().as('n'), eb.fn.max('d.id').as('max_id')])
        .executeTakeFirstOrThrow();
      return { count: Number(row.n), maxId: Number(row.max_id ?? 0) };
    },

    /**
     * One page of rows after detail id `after` up to `maxId`, in detail id order (keyset: never an
     * offset, so each page costs the same).
     */
    rowsAfter: (s: ReportSelection, scope: RowScope, after: number, maxId: number, limit: number) =>
      details(s, scope)
        .leftJoin('buildings as b', 'b.id', 'r.building_id')
        .leftJoin('files as f', 'f.key', 'd.photo_file_key')
        .select([
          'd.id',
          'd.seq',
          'd.kind',
          'd.type',
          'd.result',
          'd.started_at',
          'd.ended_at',
          'd.error_code',
          'd.message',
          'd.values_json',
          'd.photo_file_key',
          'f.content_type as photo_type',
          'r.id as report_id',
          'r.type as report_type',
          'r.building_name',
          'r.floor_name',
          'r.robot_name',
          'r.robot_serial',
          'r.flow_name',
          'r.caller',
          'r.caller_name',
          'r.started_at as report_started_at',
          'r.ended_at as report_ended_at',
          'r.result as report_result',
          'b.time_zone',
        ])
        .where('d.id', '>', after)
        .where('d.id', '<=', maxId)
        .orderBy('d.id')
        .limit(limit)
        .execute(),

    // ------------------------------------------------------------ jobs

    insertJob: (values: Insertable<ReportExportTable>) => insertReturningId(db, 'report_exports', values),

    job: (id: number) => db.selectFrom('report_exports').selectAll().where('id', '=', id).executeTakeFirst(),

    jobInScope: (p: TenantScope, id: number) =>
      jobsInScope(p).selectAll().where('report_exports.id', '=', id).executeTakeFirst(),

    async jobPage(p: TenantScope, f: ParsedFilter): Promise<{ rows: ReportExportRow[]; total: number }> {
      const [rows, count] = await Promise.all([
        applyFilter(jobsInScope(p).selectAll(), f).execute(),
        applyWhere(
          jobsInScope(p).select((eb) => eb.fn.countAll<number>().as('n')),
          f.where,
        ).executeTakeFirstOrThrow(),
      ]);
      return { rows, total: Number(count.n) };
    },

    /** Jobs to claim: queued ones, and running ones whose server's lease ran out; oldest first. */
    claimable: (now: string, limit: number) =>
      db
        .selectFrom('report_exports')
        .select(['id', 'file_path', 'format'])
        .where((eb) =>
          eb.or([eb('status', '=', 'queued'), eb.and([eb('status', '=', 'running'), eb('lease_until', '<', now)])]),
        )
        .orderBy('id')
        .limit(limit)
        .execute(),

    /** Takes a job for `owner` (from the start: rows done 0, a new file); one server wins. */
    async claim(id: number, owner: string, now: string, leaseUntil: string, filePath: string): Promise<boolean> {
      const r = await db
        .updateTable('report_exports')
        .set((eb) => ({
          status: 'running',
          lease_owner: owner,
          lease_until: leaseUntil,
          started_at: now,
          rows_done: 0,
          file_path: filePath,
          attempts: eb('attempts', '+', 1),
        }))
        .where('id', '=', id)
        .where((eb) =>
          eb.or([eb('status', '=', 'queued'), eb.and([eb('status', '=', 'running'), eb('lease_until', '<', now)])]),
        )
        .executeTakeFirst();
      return Number(r.numUpdatedRows) > 0;
    },

    /** Changes a job this owner still holds; false when it lost it (taken over, deleted). */
    async updateHeld(id: number, owner: string, values: Partial<Omit<ReportExportRow, 'id'>>): Promise<boolean> {
      const r = await db
        .updateTable('report_exports')
        .set(values)
        .where('id', '=', id)
        .where('lease_owner', '=', owner)
        .where('status', '=', 'running')
        .executeTakeFirst();
      return Number(r.numUpdatedRows) > 0;
    },

    /** Finished jobs whose retention ran out. */
    expired: (now: string, limit: number) =>
      db
        .selectFrom('report_exports')
        .select(['id', 'file_path'])
        .where('status', '=', 'done')
        .where('expires_at', '<', now)
        .orderBy('expires_at')
        .limit(limit)
        .execute(),

    markExpired: (id: number) =>
      db
        .updateTable('report_exports')
        .set({ status: 'expired', file_path: null })
        .where('id', '=', id)
        .where('status', '=', 'done')
        .execute()
        .then(() => undefined),

    /** The file names jobs hold (the sweep keeps these and deletes the rest). */
    async heldFiles(names: string[]): Promise<Set<string>> {
      if (names.length === 0) return new Set();
      const rows = await db.selectFrom('report_exports').select('file_path').where('file_path', 'in', names).execute();
      return new Set(rows.map((r) => r.file_path!));
    },

    // ------------------------------------------------------------ templates

    insertTemplate: (values: Insertable<ExportTemplateTable>, trx: Kysely<Database> = db) =>
      insertReturningId(trx, 'export_templates', values),

    template: (id: number) => db.selectFrom('export_templates').selectAll().where('id', '=', id).executeTakeFirst(),

    templateInScope: (p: TenantScope, id: number) =>
      templatesInScope(p).selectAll().where('export_templates.id', '=', id).executeTakeFirst(),

    async templatePage(p: TenantScope, f: ParsedFilter): Promise<{ rows: ExportTemplateRow[]; total: number }> {
      const [rows, count] = await Promise.all([
        applyFilter(templatesInScope(p).selectAll(), f).execute(),
        applyWhere(
          templatesInScope(p).select((eb) => eb.fn.countAll<number>().as('n')),
          f.where,
        ).executeTakeFirstOrThrow(),
      ]);
      return { rows, total: Number(count.n) };
    },

    deleteTemplate: (id: number, trx: Kysely<Database> = db) =>
      trx
        .deleteFrom('export_templates')
        .where('id', '=', id)
        .execute()
        .then(() => undefined),
  };
}
export type ExportRepo = ReturnType<typeof exportRepo>;
