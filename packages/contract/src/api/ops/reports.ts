import { z } from 'zod';
import { createExportBodySchema, exportJobSchema, exportTemplateSchema } from '../../reports/exports.ts';
import { reportDetailViewSchema, reportSchema } from '../../reports/resources.ts';
import { defineOperations, idParams, listQuery, noContent } from '../operation.ts';

/**
 * Reports, exports and export templates (docs/api-reports.md). Reading within tenancy (general
 * operators: their building; administrators: their scope). Exports need the export permission
 * (403 EXPORT_FORBIDDEN); templates are written by administrators of the organization.
 */
export const reportOps = defineOperations('reports', {
  /**
   * Reports in scope, newest first (`startedAt DESC`); filter on buildingId, floorId, robotId, type,
   * result, abnormal (true: abnormalCount > 0), startedAt (`gte`/`lt`), flowName (search).
   */
  listReports: {
    method: 'GET',
    path: '/reports',
    access: 'user',
    query: listQuery,
    list: true,
    responses: { 200: z.array(reportSchema) },
  },
  /** One report with its details, photos and the path driven. */
  getReport: {
    method: 'GET',
    path: '/reports/:id',
    access: 'user',
    params: idParams,
    responses: { 200: reportDetailViewSchema },
  },
  /**
   * Starts an export of the selected reports' details (recorded first, then run in the background).
   * 403 EXPORT_FORBIDDEN without the export permission; 404 NO_TARGET_DATA when nothing is selected.
   */
  createReportExport: {
    method: 'POST',
    path: '/report-exports',
    access: 'user',
    body: createExportBodySchema,
    responses: { 202: exportJobSchema },
  },
  /** The export history in scope, newest first; filter on status, format, exporterId. */
  listReportExports: {
    method: 'GET',
    path: '/report-exports',
    access: 'user',
    query: listQuery,
    list: true,
    responses: { 200: z.array(exportJobSchema) },
  },
  /** One export: its progress while it runs. */
  getReportExport: {
    method: 'GET',
    path: '/report-exports/:id',
    access: 'user',
    params: idParams,
    responses: { 200: exportJobSchema },
  },
  /** The finished file (attachment); 409 CONFLICT while it runs, 404 once expired. */
  downloadReportExport: {
    method: 'GET',
    path: '/report-exports/:id/file',
    summary: 'The export file as an attachment (text/csv or the .xlsx type).',
    access: 'user',
    params: idParams,
    responses: { 200: z.any().describe('The file bytes') },
  },
  listExportTemplates: {
    method: 'GET',
    path: '/export-templates',
    access: 'user',
    query: listQuery,
    list: true,
    responses: { 200: z.array(exportTemplateSchema) },
  },
  /**
   * Uploads a template: multipart with the fields of `exportTemplateFieldsSchema` and one file field
   * `file` (.xlsx, at most 10 MB) that must contain a raw data sheet.
   */
  createExportTemplate: {
    method: 'POST',
    path: '/export-templates',
    summary: 'multipart/form-data: name, description, organizationId (optional) and the .xlsx as `file`',
    access: 'admin',
    multipart: true,
    responses: { 201: exportTemplateSchema },
  },
  getExportTemplate: {
    method: 'GET',
    path: '/export-templates/:id',
    access: 'user',
    params: idParams,
    responses: { 200: exportTemplateSchema },
  },
  deleteExportTemplate: {
    method: 'DELETE',
    path: '/export-templates/:id',
    access: 'admin',
    params: idParams,
    responses: noContent,
  },
  /** The template's workbook as uploaded (attachment). */
  downloadExportTemplate: {
    method: 'GET',
    path: '/export-templates/:id/file',
    summary: 'The uploaded .xlsx as an attachment.',
    access: 'user',
    params: idParams,
    responses: { 200: z.any().describe('The file bytes') },
  },
});
