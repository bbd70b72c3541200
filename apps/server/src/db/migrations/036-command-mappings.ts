import type { Kysely } from 'kysely';
import { idColumn, type Dialect } from '../dialect.ts';

/**
 * Command mappings (issue 14; docs/api-command-mappings.md): a building's controls (on-screen
 * buttons, keys, game controller buttons) tied to robot commands in one command mode (10 to 13,
 * their common sets 110 to 113). The organization is the building's (kept on the row for tenancy).
 * `definition` is the JSON text of the contract's versioned definition schema; `revision` counts
 * saved changes; `updated_at` is the version of versioned edits. A mode is used by one mapping per
 * building: the unique index holds that also when two creates race.
 */
export async function up(db: Kysely<unknown>, dialect: Dialect): Promise<void> {
  const id = idColumn(dialect);

  await id(db.schema.createTable('command_mappings'))
    .addColumn('organization_id', 'integer', (c) => c.notNull().references('organizations.id').onDelete('cascade'))
    .addColumn('building_id', 'integer', (c) => c.notNull().references('buildings.id').onDelete('cascade'))
    .addColumn('name', 'varchar(64)', (c) => c.notNull())
    .addColumn('mode', 'integer', (c) => c.notNull())
    .addColumn('memo', 'text', (c) => c.notNull())
    .addColumn('revision', 'integer', (c) => c.notNull())
    /** 1 enabled, 0 disabled. */
    .addColumn('status', 'integer', (c) => c.notNull())
    .addColumn('definition', 'text', (c) => c.notNull())
    .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
    .addColumn('updated_at', 'varchar(32)', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('command_mappings_building_mode')
    .on('command_mappings')
    .columns(['building_id', 'mode'])
    .unique()
    .execute();
  await db.schema
    .createIndex('command_mappings_org_name')
    .on('command_mappings')
    .columns(['organization_id', 'name', 'id'])
    .execute();
}
