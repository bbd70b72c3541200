import { mapOps, reportOps, robotOps, type CreateExportBody, type ExportJob, type Filter } from '@portal/contract';
import { keepPreviousData, useQuery, useQueryClient } from '@tanstack/react-query';
import { opPageQuery, opQuery, useOpMutation } from '@/lib/api-hooks';
import { queryKeys } from '@/lib/query-keys';
import {
  EXPORTS_PER_PAGE,
  TEMPLATES_PER_PAGE,
  pageFilter,
  reportListFilter,
  type ReportListParams,
} from './list-params';

/** GET /reports?filter=: one page (newest first) and the total. */
export const useReports = (params: ReportListParams, page: number, timeZone: string | undefined) => {
  const filter = reportListFilter(params, page, timeZone);
  return useQuery({
    ...opPageQuery(reportOps.listReports, queryKeys.reports.list(filter), { query: { filter } }),
    placeholderData: keepPreviousData,
  });
};

/** GET /reports/:id: the header, details, photos (signed URLs) and tracks. */
export const useReport = (id: number) =>
  useQuery({ ...opQuery(reportOps.getReport, queryKeys.reports.detail(id), { params: { id } }), retry: false });

/** The robots in scope (optionally of one building), by name: the list's robot filter. */
export const useRobotOptions = (buildingId: number | null) => {
  const filter: Filter = { ...(buildingId ? { where: { buildingId } } : {}), order: 'name ASC', limit: 1000 };
  return useQuery({
    ...opQuery(robotOps.listRobots, queryKeys.robots.options('reports', filter), { query: { filter } }),
    staleTime: 60_000,
  });
};

/** A floor's map (the report's path is drawn over it); absent maps are an error the screen ignores. */
export const useFloorMap = (floorId: number | null) =>
  useQuery({
    ...opQuery(mapOps.getFloorMap, queryKeys.maps.detail(floorId ?? 0), { params: { id: floorId ?? 0 } }),
    enabled: floorId !== null && floorId > 0,
    staleTime: 5 * 60_000,
    retry: false,
  });

/**
 * POST /report-exports. A 403 EXPORT_FORBIDDEN is the answer for this dialog, not a lost session
 * (`skipAuthRedirect`); 404 NO_TARGET_DATA when the filters select nothing.
 */
export const useCreateExport = () =>
  useOpMutation(reportOps.createReportExport, {
    args: (body: CreateExportBody) => ({ body, skipAuthRedirect: true }),
    invalidates: ['reportExports'],
  });

const isRunning = (job: ExportJob | undefined) => job?.status === 'queued' || job?.status === 'running';

/** GET /report-exports/:id, polled every second while the export is queued or running. */
export function useExportJob(id: number | null, pollMs = 1000) {
  const qc = useQueryClient();
  return useQuery({
    ...opQuery(reportOps.getReportExport, queryKeys.reportExports.detail(id ?? 0), { params: { id: id ?? 0 } }),
    enabled: id !== null,
    refetchInterval: (q) => {
      const job = q.state.data;
      if (job && !isRunning(job)) {
        // Finished: the history shows it as done.
        void qc.invalidateQueries({ queryKey: queryKeys.reportExports.list() });
        return false;
      }
      return pollMs;
    },
  });
}

/** GET /report-exports: the history, newest first; refreshed while an export on the page runs. */
export const useExports = (page: number) => {
  const filter = pageFilter(page, EXPORTS_PER_PAGE);
  return useQuery({
    ...opPageQuery(reportOps.listReportExports, queryKeys.reportExports.list(filter), { query: { filter } }),
    placeholderData: keepPreviousData,
    refetchInterval: (q) => ((q.state.data?.items ?? []).some(isRunning) ? 2000 : false),
  });
};

/** GET /export-templates: one page, newest first. */
export const useTemplates = (page: number) => {
  const filter = pageFilter(page, TEMPLATES_PER_PAGE);
  return useQuery({
    ...opPageQuery(reportOps.listExportTemplates, queryKeys.exportTemplates.list(filter), { query: { filter } }),
    placeholderData: keepPreviousData,
  });
};

/** Every template, by name: the export dialog's choice. */
export const useTemplateOptions = (enabled: boolean) => {
  // The server lists at most 200 templates a page (export-repo.ts exportTemplateFilter).
  const filter: Filter = { order: 'name ASC', limit: 200 };
  return useQuery({
    ...opQuery(reportOps.listExportTemplates, queryKeys.exportTemplates.options('dialog', filter), {
      query: { filter },
    }),
    enabled,
    staleTime: 30_000,
  });
};

export interface TemplateUpload {
  name: string;
  description: string;
  file: File | null;
}

/** POST /export-templates as multipart/form-data (name, description and the workbook as `file`). */
export const useCreateTemplate = () =>
  useOpMutation(reportOps.createExportTemplate, {
    args: (v: TemplateUpload) => {
      const body = new FormData();
      body.append('name', v.name);
      body.append('description', v.description);
      if (v.file) body.append('file', v.file, v.file.name);
      return { body };
    },
    invalidates: ['exportTemplates'],
  });

export function useDeleteTemplate() {
  const qc = useQueryClient();
  return useOpMutation(reportOps.deleteExportTemplate, {
    args: (id: number) => ({ params: { id } }),
    invalidates: ['exportTemplates'],
    onSuccess: (_, id) => qc.removeQueries({ queryKey: queryKeys.exportTemplates.detail(id) }),
  });
}
