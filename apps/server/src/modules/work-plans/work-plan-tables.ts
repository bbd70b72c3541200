import type { Generated } from 'kysely';

/** The tables of work plans, their templates and runs (migration 037), merged into db/schema.ts's `Database`. */
declare module '../../db/schema.ts' {
  interface Database {
    work_plan_templates: WorkPlanTemplateTable;
    work_plans: WorkPlanTable;
    work_plan_runs: WorkPlanRunTable;
  }
}

export interface WorkPlanTemplateTable {
  id: Generated<number>;
  /** null: every organization sees it (the shipped templates, system administrators' ones). */
  organization_id: number | null;
  builtin_key: string | null;
  name: string;
  description: string;
  type: number;
  /** JSON work plan definition. */
  definition: string;
  created_at: string;
  updated_at: string;
}

export interface WorkPlanTable {
  id: Generated<number>;
  organization_id: number;
  building_id: number;
  floor_id: number;
  template_id: number | null;
  name: string;
  description: string;
  icon: string;
  type: number;
  /** 0 disabled, 1 enabled. */
  status: number;
  /** JSON work plan definition. */
  definition: string;
  created_at: string;
  updated_at: string;
}

export interface WorkPlanRunTable {
  id: Generated<number>;
  organization_id: number;
  work_plan_id: number;
  robot_id: number;
  flow_run_id: number | null;
  /** 'open' or 'closed'. */
  status: string;
  current_step: number;
  /** JSON string[]: the confirmed step ids. */
  done_steps: string;
  started_by: number | null;
  started_at: string;
  closed_at: string | null;
  updated_at: string;
}
