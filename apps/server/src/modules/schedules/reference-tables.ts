import type { Generated } from 'kysely';

/** The reference images of schedule entries (migration 021), merged into db/schema.ts's `Database`. */
declare module '../../db/schema.ts' {
  interface Database {
    schedule_references: ScheduleReferenceTable;
  }
}

export interface ScheduleReferenceTable {
  id: Generated<number>;
  schedule_id: number;
  /** The robot and flow the photo was taken for. */
  robot_id: number;
  flow_id: number;
  camera: string;
  /** `files.key` of the PNG/JPEG. */
  file_key: string;
  width: number;
  height: number;
  pose_x: number | null;
  pose_y: number | null;
  pose_theta: number | null;
  map_id: string | null;
  taken_at: string;
  /** The comparison grid, base64 of GRID_W × GRID_H bytes (migration 031); null until computed. */
  grid: string | null;
}
