import type { Generated } from 'kysely';

/** The tables of reports (migration 022), merged into db/schema.ts's `Database`. */
declare module '../../db/schema.ts' {
  interface Database {
    reports: ReportTable;
    report_details: ReportDetailTable;
    report_tracks: ReportTrackTable;
  }
}

export interface ReportTable {
  id: Generated<number>;
  flow_run_id: number;
  organization_id: number;
  building_id: number;
  building_name: string;
  floor_id: number | null;
  floor_name: string;
  robot_id: number | null;
  robot_name: string;
  robot_serial: string;
  flow_id: number | null;
  flow_name: string;
  /** 0 patrol, 1 sentry, 30 cleaning. */
  type: number;
  /** 'schedule' | 'operator' | 'trigger'. */
  caller: string;
  caller_name: string | null;
  schedule_id: number | null;
  started_at: string;
  ended_at: string;
  result: number;
  error_code: string | null;
  abnormal_count: number;
  photo_count: number;
  detail_count: number;
  thumbnail_file_key: string | null;
}

export interface ReportDetailTable {
  id: Generated<number>;
  report_id: number;
  seq: number;
  step_id: string;
  kind: string;
  type: number;
  result: number;
  started_at: string;
  ended_at: string | null;
  error_code: string | null;
  message: string | null;
  /** JSON object of plain values. */
  values_json: string;
  photo_file_key: string | null;
  photo_thumb_key: string | null;
  photo_width: number | null;
  photo_height: number | null;
  camera: string | null;
  floor_id: number | null;
  x: number | null;
  y: number | null;
}

export interface ReportTrackTable {
  report_id: number;
  floor_id: number;
  seq: number;
  /** JSON [x, y][] in map metres. */
  points_json: string;
}
