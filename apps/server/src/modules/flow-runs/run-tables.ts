import type { Generated } from 'kysely';

/** The tables of flow runs (migration 018), merged into db/schema.ts's `Database`. */
declare module '../../db/schema.ts' {
  interface Database {
    flow_runs: FlowRunTable;
    flow_run_steps: FlowRunStepTable;
  }
}

export interface FlowRunTable {
  id: Generated<number>;
  organization_id: number;
  building_id: number;
  floor_id: number;
  flow_id: number | null;
  flow_name: string;
  robot_id: number;
  robot_name: string;
  definition: string;
  status: string;
  started_at: string;
  ended_at: string | null;
  started_by: number | null;
  /** The schedule log line that started the run (migration 026); null: an operator or a trigger. */
  schedule_log_id: Generated<number | null>;
  current_step_id: string | null;
  current_step_kind: string | null;
  steps_started: Generated<number>;
  error_code: string | null;
  message: string | null;
  cursor: string;
  owner: string | null;
  lease_until: string | null;
  cancel_requested: Generated<number>;
}

export interface FlowRunStepTable {
  id: Generated<number>;
  run_id: number;
  seq: number;
  step_id: string;
  kind: string;
  pass: string;
  attempt: number;
  result: string;
  started_at: string;
  ended_at: string | null;
  error_code: string | null;
  message: string | null;
  data: string;
}
