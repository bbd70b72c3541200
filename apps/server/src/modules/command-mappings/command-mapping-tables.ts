import type { Generated } from 'kysely';

/** The command mappings table (migration 036), merged into db/schema.ts's `Database`. */
declare module '../../db/schema.ts' {
  interface Database {
    command_mappings: CommandMappingTable;
  }
}

export interface CommandMappingTable {
  id: Generated<number>;
  organization_id: number;
  building_id: number;
  name: string;
  /** 10 to 13, common 110 to 113. */
  mode: number;
  memo: string;
  revision: number;
  /** 1 enabled, 0 disabled. */
  status: number;
  /** JSON text of the contract's CommandMappingDefinition. */
  definition: string;
  created_at: string;
  updated_at: string;
}
