import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { join } from 'node:path';
import {
  exportTemplateFieldsSchema,
  isAdmin,
  isSystemAdmin,
  OperatorType,
  reportSelectionSchema,
  type CreateExportBody,
  type ExportJob,
  type ExportTemplate,
} from '@portal/contract';
import type { AppContext, Principal } from '../../context.ts';
import { AppError, forbidden, notFound } from '../../lib/errors.ts';
import { parseFilter } from '../../lib/filter.ts';
import type { Lang } from '../../lib/language.ts';
import { canSeeOrganization } from '../../lib/scope.ts';
import {
  exportRepo,
  exportTemplateFilter,
  reportExportFilter,
  type ExportTemplateRow,
  type ReportExportRow,
} from './export-repo.ts';
import { DEFAULT_TIME_ZONE, zonedFormatter } from './export-rows.ts';
import { readTemplate, TemplateProblem } from './template-reader.ts';
import { XLSX_MAX_ROWS } from './xlsx-writer.ts';

/** An upload's parts: the fields and the file (read by the route). */
export interface TemplateUpload {
  fields: Record<string, string>;
  file: { bytes: Buffer; fileName: string } | null;
}

export const XLSX_TYPE = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

const toJob = (r: ReportExportRow): ExportJob => ({
  id: r.id,
  organizationId: r.organization_id,
  format: r.format as ExportJob['format'],
  encoding: r.encoding as ExportJob['encoding'],
  templateId: r.template_id,
  templateName: r.template_name,
  selection: reportSelectionSchema.parse(JSON.parse(r.selection)),
  status: r.status as ExportJob['status'],
  rowsDone: r.rows_done,
  rowCount: r.row_count,
  exporterId: r.exporter_id,
  exporterName: r.exporter_name,
  fileName: r.file_name,
  fileSize: r.file_size === null ? null : Number(r.file_size),
  error: r.error,
  createdAt: r.created_at,
  finishedAt: r.finished_at,
  expiresAt: r.expires_at,
});

const toTemplate = (r: ExportTemplateRow): ExportTemplate => ({
  id: r.id,
  organizationId: r.organization_id,
  name: r.name,
  description: r.description,
  fileName: r.file_name,
  fileSize: r.file_size,
  rawSheetName: r.raw_sheet_name,
  sheetNames: JSON.parse(r.sheet_names) as string[],
  createdBy: r.created_by,
  createdByName: r.created_by_name,
  createdAt: r.created_at,
  updatedAt: r.updated_at,
});

const nameOf = (p: Principal) => `${p.lastName} ${p.firstName}`.trim();

const invalid = (path: string, message: string, text: string) =>
  new AppError('VALIDATION_FAILED', text, [{ path, message }]);

/**
 * Report exports and export templates (docs/api-reports.md "Exports"): the rules. An export is
 * checked (permission, tenancy, template, rows) and recorded; the worker writes its file.
 */
export function reportExportService(ctx: AppContext, opts: { dir: string; kick: () => void }) {
  const { db, clock, fileStore, audit } = ctx;
  const repo = exportRepo(db);

  async function loadJob(p: Principal, id: number): Promise<ReportExportRow> {
    const row = await repo.jobInScope(p, id);
    if (!row) throw notFound('Export');
    return row;
  }
  async function loadTemplate(p: Principal, id: number): Promise<ExportTemplateRow> {
    const row = await repo.templateInScope(p, id);
    if (!row) throw notFound('Export template');
    return row;
  }

  return {
    async create(p: Principal, body: CreateExportBody, language: Lang, ip: string): Promise<ExportJob> {
      // Administrators always may; a general operator unless restricted (spec section 6).
      if (!isAdmin(p.type) && (await repo.exportRestricted(p.operatorId))) {
        throw new AppError('EXPORT_FORBIDDEN', 'Insufficient export permission');
      }
      const template = body.templateId ? await repo.templateInScope(p, body.templateId) : undefined;
      if (body.templateId && !template) {
        throw invalid('templateId', 'validation.notFound', 'The export template does not exist');
      }
      const building = body.selection.buildingId ? await repo.building(body.selection.buildingId) : undefined;
      // The exporter's tenancy, kept with the job: the rows are read within it whenever the job runs.
      const scope = {
        organizationId: isSystemAdmin(p.type) ? null : p.organizationId,
        buildingId: p.type === OperatorType.general ? (p.buildingId ?? -1) : null,
      };
      const { count, maxId } = await repo.countRows(body.selection, scope);
      if (count === 0) throw new AppError('NO_TARGET_DATA', 'No target data found');
      if (body.format === 'xlsx' && count > XLSX_MAX_ROWS - 1) {
        throw invalid('format', 'reportValidation.tooManyRowsForExcel', 'More rows than an Excel sheet holds');
      }
      const now = clock();
      const stamp = zonedFormatter()(now.toISOString(), building?.time_zone ?? DEFAULT_TIME_ZONE)
        .replace(/[-:]/g, '')
        .replace(' ', '-')
        .slice(0, 13);
      const id = await repo.insertJob({
        organization_id:
          building && canSeeOrganization(p, building.organization_id) ? building.organization_id : p.organizationId,
        building_id: p.type === OperatorType.general ? p.buildingId : (body.selection.buildingId ?? null),
        scope_organization_id: scope.organizationId,
        scope_building_id: scope.buildingId,
        format: body.format,
        encoding: body.encoding,
        language,
        template_id: template?.id ?? null,
        template_name: template?.name ?? null,
        selection: JSON.stringify(body.selection),
        status: 'queued',
        rows_done: 0,
        row_count: count,
        max_detail_id: maxId,
        exporter_id: p.operatorId,
        exporter_name: nameOf(p),
        file_name: `reports-${stamp}.${body.format}`,
        file_path: null,
        file_size: null,
        error: null,
        lease_owner: null,
        lease_until: null,
        created_at: now.toISOString(),
        started_at: null,
        finished_at: null,
        expires_at: null,
      });
      const job = toJob((await repo.job(id))!);
      await audit.record({
        operatorId: p.operatorId,
        organizationId: job.organizationId,
        action: 'reportExport.create',
        targetType: 'report-export',
        targetId: id,
        targetName: job.fileName,
        ip,
        detail: {
          format: job.format,
          encoding: job.encoding,
          rowCount: count,
          templateId: job.templateId,
          selection: body.selection,
        },
      });
      opts.kick();
      return job;
    },

    async list(p: Principal, rawFilter: string | undefined) {
      const f = parseFilter(rawFilter, reportExportFilter);
      if (f.fields || f.include.length > 0) {
        throw new AppError('BAD_FILTER', 'Invalid filter: fields and include are not supported for exports', [
          { path: f.fields ? 'fields' : 'include', message: 'not supported here' },
        ]);
      }
      const { rows, total } = await repo.jobPage(p, f);
      return { items: rows.map(toJob), total };
    },

    get: async (p: Principal, id: number): Promise<ExportJob> => toJob(await loadJob(p, id)),

    /** The finished file: 409 while it is being written, 404 once it failed or expired. */
    async download(p: Principal, id: number) {
      const job = await loadJob(p, id);
      if (job.status === 'queued' || job.status === 'running') {
        throw new AppError('CONFLICT', 'The export is not finished yet');
      }
      if (job.status !== 'done' || !job.file_path) throw notFound('Export file');
      const path = join(opts.dir, job.file_path);
      const size = await stat(path).then(
        (s) => s.size,
        () => null,
      );
      if (size === null) throw notFound('Export file');
      const type =
        job.format === 'csv' ? 'text/csv; charset=' + (job.encoding === 'utf-8' ? 'utf-8' : 'shift_jis') : XLSX_TYPE;
      return { fileName: job.file_name, type, size, stream: () => createReadStream(path) };
    },

    // ------------------------------------------------------------ templates

    async listTemplates(p: Principal, rawFilter: string | undefined) {
      const f = parseFilter(rawFilter, exportTemplateFilter);
      if (f.fields || f.include.length > 0) {
        throw new AppError('BAD_FILTER', 'Invalid filter: fields and include are not supported for templates', [
          { path: f.fields ? 'fields' : 'include', message: 'not supported here' },
        ]);
      }
      const { rows, total } = await repo.templatePage(p, f);
      return { items: rows.map(toTemplate), total };
    },

    getTemplate: async (p: Principal, id: number): Promise<ExportTemplate> => toTemplate(await loadTemplate(p, id)),

    async createTemplate(p: Principal, read: () => Promise<TemplateUpload>, ip: string): Promise<ExportTemplate> {
      if (!isAdmin(p.type)) throw forbidden();
      const upload = await read();
      const parsed = exportTemplateFieldsSchema.safeParse(upload.fields);
      const details = parsed.success
        ? []
        : parsed.error.issues.map((i) => ({ path: i.path.join('.'), message: i.message }));
      let book: ReturnType<typeof readTemplate> | null = null;
      if (!upload.file || upload.file.bytes.length === 0)
        details.push({ path: 'file', message: 'validation.required' });
      else {
        try {
          book = readTemplate(upload.file.bytes);
        } catch (err) {
          if (!(err instanceof TemplateProblem)) throw err;
          details.push({ path: 'file', message: err.key });
        }
      }
      if (!parsed.success || !book || details.length > 0) {
        throw new AppError('VALIDATION_FAILED', 'The export template is not valid', details);
      }
      const fields = parsed.data;
      const organizationId = fields.organizationId ?? p.organizationId;
      if (!canSeeOrganization(p, organizationId)) {
        throw invalid('organizationId', 'validation.notFound', 'The organization does not exist');
      }
      if (isSystemAdmin(p.type) && organizationId !== p.organizationId) {
        const org = await db
          .selectFrom('organizations')
          .select('id')
          .where('id', '=', organizationId)
          .executeTakeFirst();
        if (!org) throw invalid('organizationId', 'validation.notFound', 'The organization does not exist');
      }
      const file = upload.file!;
      const now = clock().toISOString();
      const stored = await fileStore.write({
        bytes: file.bytes,
        contentType: XLSX_TYPE,
        organizationId,
        buildingId: null,
        purpose: 'export-template',
      });
      let id: number;
      try {
        id = await db.transaction().execute(async (trx) => {
          await fileStore.record(stored, trx);
          const templateId = await repo.insertTemplate(
            {
              organization_id: organizationId,
              name: fields.name,
              description: fields.description,
              file_key: stored.key,
              file_name: file.fileName.slice(0, 256) || 'template.xlsx',
              file_size: file.bytes.length,
              raw_sheet_name: book.rawSheetName,
              sheet_names: JSON.stringify(book.sheetNames),
              created_by: p.operatorId,
              created_by_name: nameOf(p),
              created_at: now,
              updated_at: now,
            },
            trx,
          );
          await audit.record(
            {
              operatorId: p.operatorId,
              organizationId,
              action: 'exportTemplate.create',
              targetType: 'export-template',
              targetId: templateId,
              targetName: fields.name,
              ip,
              detail: { fileName: file.fileName, rawSheetName: book.rawSheetName },
            },
            trx,
          );
          return templateId;
        });
      } catch (err) {
        await fileStore.discard(stored.key);
        throw err;
      }
      return toTemplate((await repo.template(id))!);
    },

    /** Deletes a template and its file; exports made with it keep its name. */
    async deleteTemplate(p: Principal, id: number, ip: string): Promise<void> {
      if (!isAdmin(p.type)) throw forbidden();
      const row = await loadTemplate(p, id);
      await db.transaction().execute(async (trx) => {
        await repo.deleteTemplate(id, trx);
        await fileStore.removeRow(row.file_key, trx);
        await audit.record(
          {
            operatorId: p.operatorId,
            organizationId: row.organization_id,
            action: 'exportTemplate.delete',
            targetType: 'export-template',
            targetId: id,
            targetName: row.name,
            ip,
          },
          trx,
        );
      });
      await fileStore.discard(row.file_key);
    },

    async downloadTemplate(p: Principal, id: number) {
      const row = await loadTemplate(p, id);
      const bytes = await fileStore.read(row.file_key);
      if (!bytes) throw notFound('Export template file');
      return { fileName: row.file_name, type: XLSX_TYPE, bytes };
    },
  };
}
export type ReportExportService = ReturnType<typeof reportExportService>;
