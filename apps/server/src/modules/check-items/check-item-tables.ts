import type { Generated } from 'kysely';

/** The check items table (migration 029), merged into db/schema.ts's `Database`. */
declare module '../../db/schema.ts' {
  interface Database {
    check_items: CheckItemTable;
  }
}

export interface CheckItemTable {
  id: Generated<number>;
  organization_id: number;
  building_id: number;
  floor_id: number;
  name: string;
  /** 'meter' or 'visual'. */
  type: string;
  /** 0 disabled, 1 enabled, 2 setting up. */
  status: number;
  meter_type: string | null;
  reading_service: string | null;
  qr_code_number: string;
  task_id: string;
  device_id: string;
  /** 0/1 */
  alerting: number;
  threshold_rule_id: number | null;
  x: number | null;
  y: number | null;
  z: number;
  direction: number;
  marker_type: string;
  /** 0/1 */
  area_detection_marker: number;
  /** A JSON object's text. */
  definition: string;
  created_at: string;
  updated_at: string;
}
