import type { Generated } from 'kysely';

/**
 * The tables of flows and the command library (migration 016), merged into the one `Database`
 * interface of db/schema.ts by declaration merging (kept beside the module).
 */
declare module '../../db/schema.ts' {
  interface Database {
    commands: CommandTable;
    flows: FlowTable;
    flow_commands: FlowCommandTable;
  }
}

export interface CommandTable {
  id: Generated<number>;
  /** null: a system command. */
  organization_id: number | null;
  name: string;
  description: string;
  category: number;
  scope: number;
  /** JSON string[]. */
  models_allowed: string;
  /** JSON CommandParameter[]. */
  parameters: string;
  /** JSON flow definition. */
  definition: string;
  status: number;
  created_at: string;
  updated_at: string;
}

export interface FlowTable {
  id: Generated<number>;
  organization_id: number;
  building_id: number;
  floor_id: number;
  flow_group_id: number | null;
  name: string;
  description: string;
  display_order: number;
  /** 0/1 */
  enabled: number;
  /** JSON flow definition. */
  definition: string;
  created_at: string;
  updated_at: string;
}

export interface FlowCommandTable {
  flow_id: number;
  command_id: number;
}
