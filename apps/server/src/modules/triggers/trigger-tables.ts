import type { Generated, Selectable } from 'kysely';

/** The tables of triggers (migration 034), merged into db/schema.ts's `Database`. */
declare module '../../db/schema.ts' {
  interface Database {
    triggers: TriggerTable;
    trigger_firings: TriggerFiringTable;
  }
}

export interface TriggerTable {
  id: Generated<number>;
  organization_id: number;
  building_id: number;
  name: string;
  /** 1 enabled, 0 disabled. */
  status: number;
  event_type: number;
  /** JSON TriggerConditions. */
  conditions: string;
  target_type: number;
  /** JSON TriggerTarget. */
  target: string;
  created_at: string;
  /** The version of versioned edits. */
  updated_at: string;
}
export type TriggerRow = Selectable<TriggerTable>;

export interface TriggerFiringTable {
  id: Generated<number>;
  organization_id: number;
  building_id: number;
  trigger_id: number | null;
  trigger_name: string;
  event_id: number;
  event_kind: string;
  robot_id: number | null;
  target_type: number;
  /** pending, done, failed. */
  status: string;
  /** null, or `starting` while a flow run is being started. */
  stage: string | null;
  attempts: Generated<number>;
  next_attempt_at: string;
  lease_owner: string | null;
  lease_until: string | null;
  error: string | null;
  flow_run_id: number | null;
  run_robot_id: number | null;
  report_id: number | null;
  notification_event_id: number | null;
  webhook_delivery_id: number | null;
  created_at: string;
  done_at: string | null;
}
export type TriggerFiringRow = Selectable<TriggerFiringTable>;
