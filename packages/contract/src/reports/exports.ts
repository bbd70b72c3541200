import { z } from 'zod';
import { REPORT_RESULTS, REPORT_TYPES } from './resources.ts';

/**
 * Report exports (issue 16; docs/api-reports.md). An export writes one row per report detail of the
 * reports a filter selects (as on the report list) to CSV or Excel, in UTF-8 or Shift_JIS (spec
 * section 9). It is recorded before it runs and runs in the background on one server (claimed in the
 * database; a server that dies mid-export leaves it to be picked up again), streaming rows from the
 * database into the file, so memory stays bounded. The file is kept for `EXPORT_RETENTION_DAYS` in
 * the export history.
 *
 * Only operators who may export (administrators, and general operators whose `exportRestricted` is
 * off) start an export: others get 403 EXPORT_FORBIDDEN ("Insufficient export permission"). A filter
 * that selects no detail row gets 404 NO_TARGET_DATA ("No target data found") and records nothing.
 */

export const EXPORT_FORMATS = ['csv', 'xlsx'] as const;
export type ExportFormat = (typeof EXPORT_FORMATS)[number];
export const EXPORT_ENCODINGS = ['utf-8', 'shift-jis'] as const;
export type ExportEncoding = (typeof EXPORT_ENCODINGS)[number];
export const EXPORT_STATUSES = ['queued', 'running', 'done', 'fail', 'expired'] as const;
export type ExportStatus = (typeof EXPORT_STATUSES)[number];
/** Days a finished export's file can be downloaded again. */
export const EXPORT_RETENTION_DAYS = 30;

/**
 * The columns of an export, in order (the header row is in the exporter's language:
 * `reports.exportColumns.<key>`). Times are in the building's zone, `YYYY-MM-DD HH:mm:ss`.
 */
export const EXPORT_COLUMNS = [
  'reportId',
  'reportType',
  'buildingName',
  'floorName',
  'robotName',
  'robotSerial',
  'flowName',
  'caller',
  'reportStartedAt',
  'reportEndedAt',
  'reportResult',
  'seq',
  'detailType',
  'stepKind',
  'detailResult',
  'detailStartedAt',
  'detailEndedAt',
  'errorCode',
  'message',
  'values',
  'photo',
] as const;
export type ExportColumn = (typeof EXPORT_COLUMNS)[number];

const optId = z
  .number({ error: 'validation.number' })
  .int('validation.integer')
  .min(1, 'validation.notFound')
  .optional();
const isoInstant = z.iso.datetime({ offset: true, error: 'reportValidation.dateTime' });

/** The reports an export takes: the report list's filters. `from` ≤ startedAt < `to`. */
export const reportSelectionSchema = z
  .object({
    buildingId: optId,
    floorId: optId,
    robotId: optId,
    type: z
      .union(REPORT_TYPES.map((t) => z.literal(t)) as [z.ZodLiteral<0>, z.ZodLiteral<1>, z.ZodLiteral<30>], {
        error: 'validation.invalid',
      })
      .optional(),
    result: z
      .number({ error: 'validation.invalid' })
      .int('validation.invalid')
      .refine((r) => (REPORT_RESULTS as readonly number[]).includes(r), 'validation.invalid')
      .optional(),
    /** Only reports with an abnormal detail (result 1, 4 or 9). */
    abnormal: z.boolean({ error: 'validation.invalid' }).optional(),
    from: isoInstant.optional(),
    to: isoInstant.optional(),
  })
  .superRefine((s, ctx) => {
    if (s.from && s.to && Date.parse(s.to) <= Date.parse(s.from))
      ctx.addIssue({ code: 'custom', path: ['to'], message: 'reportValidation.toBeforeFrom' });
  });
export type ReportSelection = z.infer<typeof reportSelectionSchema>;

export const createExportBodySchema = z
  .object({
    format: z.enum(EXPORT_FORMATS, { error: 'validation.required' }),
    encoding: z.enum(EXPORT_ENCODINGS, { error: 'validation.required' }),
    /** An export template (Excel only): its raw data sheet is filled, the rest of the workbook kept. */
    templateId: optId.nullable().default(null),
    selection: reportSelectionSchema.default({}),
  })
  .superRefine((b, ctx) => {
    if (b.templateId && b.format !== 'xlsx')
      ctx.addIssue({ code: 'custom', path: ['templateId'], message: 'reportValidation.templateNeedsExcel' });
  });
export type CreateExportBody = z.infer<typeof createExportBodySchema>;

export const exportJobSchema = z.object({
  id: z.number().int(),
  organizationId: z.number().int(),
  format: z.enum(EXPORT_FORMATS),
  encoding: z.enum(EXPORT_ENCODINGS),
  templateId: z.number().int().nullable(),
  /** Kept when the template is deleted. */
  templateName: z.string().nullable(),
  selection: reportSelectionSchema,
  status: z.enum(EXPORT_STATUSES),
  /** Rows written so far and rows in all (known when the export starts). */
  rowsDone: z.number().int(),
  rowCount: z.number().int(),
  exporterId: z.number().int().nullable(),
  exporterName: z.string(),
  /** The download name, e.g. `reports-20261124-0930.csv`. */
  fileName: z.string(),
  fileSize: z.number().int().nullable(),
  /** Why it failed (an error code). */
  error: z.string().nullable(),
  createdAt: z.string(),
  finishedAt: z.string().nullable(),
  /** After this the file is deleted and the status becomes `expired`. */
  expiresAt: z.string().nullable(),
});
export type ExportJob = z.infer<typeof exportJobSchema>;

// ---------------------------------------------------------------- export templates

export const EXPORT_TEMPLATE_NAME_MAX = 64;
export const EXPORT_TEMPLATE_DESCRIPTION_MAX = 256;
/** The largest template file accepted. */
export const EXPORT_TEMPLATE_MAX_BYTES = 10 * 1024 * 1024;
/**
 * The names a raw data sheet may have (spec section 5: a template must contain one), compared without
 * case and spaces. The export writes the header row and the rows there, from A1, and keeps every other
 * sheet, formula, chart and style of the workbook as the customer made it.
 */
export const RAW_DATA_SHEET_NAMES = ['rawdata', '生データ', 'ローデータ'] as const;
export const isRawDataSheetName = (name: string): boolean =>
  (RAW_DATA_SHEET_NAMES as readonly string[]).includes(name.replace(/[\s_]/g, '').toLowerCase());

/** Fields of the multipart upload besides the file (`file`, an .xlsx). */
export const exportTemplateFieldsSchema = z.object({
  name: z
    .string({ error: 'validation.required' })
    .trim()
    .min(1, { error: 'validation.required', abort: true })
    .max(EXPORT_TEMPLATE_NAME_MAX, `validation.max${EXPORT_TEMPLATE_NAME_MAX}`),
  description: z
    .string({ error: 'validation.invalid' })
    .trim()
    .max(EXPORT_TEMPLATE_DESCRIPTION_MAX, `validation.max${EXPORT_TEMPLATE_DESCRIPTION_MAX}`)
    .default(''),
  /** The organization it belongs to (system administrators choose; others: their own). */
  organizationId: z.coerce.number({ error: 'validation.number' }).int().min(1).optional(),
});
export type ExportTemplateFields = z.infer<typeof exportTemplateFieldsSchema>;

export const exportTemplateSchema = z.object({
  id: z.number().int(),
  organizationId: z.number().int(),
  name: z.string(),
  description: z.string(),
  fileName: z.string(),
  fileSize: z.number().int(),
  /** The raw data sheet's name as written in the workbook. */
  rawSheetName: z.string(),
  /** Every sheet of the workbook, in order. */
  sheetNames: z.array(z.string()),
  createdBy: z.number().int().nullable(),
  createdByName: z.string(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type ExportTemplate = z.infer<typeof exportTemplateSchema>;
