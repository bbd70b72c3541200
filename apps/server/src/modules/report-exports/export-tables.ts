import type { Generated } from 'kysely';

/** The tables of report exports (migration 023), merged into db/schema.ts's `Database`. */
declare module '../../db/schema.ts' {
  interface Database {
    report_exports: ReportExportTable;
    export_templates: ExportTemplateTable;
  }
  interface OperatorTable {
    /** 0/1: a general operator who may not export reports (migration 023). */
    export_restricted: Generated<number>;
  }
}

export interface ReportExportTable {
  id: Generated<number>;
  organization_id: number;
  building_id: number | null;
  scope_organization_id: number | null;
  scope_building_id: number | null;
  format: string;
  encoding: string;
  language: string;
  template_id: number | null;
  template_name: string | null;
  /** JSON ReportSelection. */
  selection: string;
  status: string;
  rows_done: number;
  row_count: number;
  max_detail_id: number;
  exporter_id: number | null;
  exporter_name: string;
  file_name: string;
  file_path: string | null;
  file_size: number | null;
  error: string | null;
  attempts: Generated<number>;
  lease_owner: string | null;
  lease_until: string | null;
  created_at: string;
  started_at: string | null;
  finished_at: string | null;
  expires_at: string | null;
}

export interface ExportTemplateTable {
  id: Generated<number>;
  organization_id: number;
  name: string;
  description: string;
  file_key: string;
  file_name: string;
  file_size: number;
  raw_sheet_name: string;
  /** JSON string[]. */
  sheet_names: string;
  created_by: number | null;
  created_by_name: string;
  created_at: string;
  updated_at: string;
}
