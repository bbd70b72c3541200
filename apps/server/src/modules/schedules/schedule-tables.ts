import type { Generated } from 'kysely';

/** The tables of schedules (migration 020), merged into db/schema.ts's `Database`. */
declare module '../../db/schema.ts' {
  interface Database {
    schedules: ScheduleTable;
    schedule_logs: ScheduleLogTable;
  }
}

export interface ScheduleTable {
  id: Generated<number>;
  organization_id: number;
  building_id: number;
  flow_id: number;
  robot_id: number;
  title: string;
  description: string;
  start_local: string;
  end_local: string;
  repeat: string;
  /** JSON number[]. */
  weekdays: string;
  repeat_until: string | null;
  /** 0/1 */
  priority: number;
  skip_holidays: number;
  enabled: number;
  /** JSON ScheduleException[]. */
  exceptions: string;
  next_due_at: string | null;
  created_at: string;
  updated_at: string;
}

export interface ScheduleLogTable {
  id: Generated<number>;
  schedule_id: number | null;
  organization_id: number;
  building_id: number;
  robot_id: number | null;
  flow_id: number | null;
  flow_run_id: number | null;
  title: string;
  priority: number;
  due_at: string;
  end_at: string;
  started_at: string | null;
  ended_at: string | null;
  /** 'pending' while claimed and not started; then running, done, fail, cancel, unknown. */
  result: string;
  reason: string | null;
  detail: string;
  /** The detail as a code with parameters (migration 024); null: none or an older line. */
  detail_code: Generated<string | null>;
  /** JSON object of strings and numbers. */
  detail_params: Generated<string>;
  /** The robot's and the flow's names when the line was written (migration 024). */
  robot_name: Generated<string | null>;
  flow_name: Generated<string | null>;
  lease_owner: string | null;
  lease_until: string | null;
  created_at: string;
}
