import type { Kysely } from 'kysely';
import { idColumn, type Dialect } from '../dialect.ts';

/**
 * Flows and the command library (issue 13; docs/api-flows.md). Definitions are JSON text checked by
 * the contract's schema; `flow_commands` holds which library commands each flow uses, so "which flows
 * use this command" is a query and the database itself refuses to delete a command a flow uses.
 * A flow goes with its building or floor (on delete cascade); a deleted flow group leaves its flows
 * without a group.
 */
export async function up(db: Kysely<unknown>, dialect: Dialect): Promise<void> {
  const id = idColumn(dialect);

  await id(db.schema.createTable('commands'))
    /** null: a system command (system administrators). */
    .addColumn('organization_id', 'integer', (c) => c.references('organizations.id').onDelete('cascade'))
    .addColumn('name', 'varchar(64)', (c) => c.notNull())
    .addColumn('description', 'text', (c) => c.notNull())
    .addColumn('category', 'integer', (c) => c.notNull())
    .addColumn('scope', 'integer', (c) => c.notNull())
    /** JSON string[]; empty: every model. */
    .addColumn('models_allowed', 'text', (c) => c.notNull())
    /** JSON CommandParameter[]. */
    .addColumn('parameters', 'text', (c) => c.notNull())
    /** JSON flow definition (version 1). */
    .addColumn('definition', 'text', (c) => c.notNull())
    .addColumn('status', 'integer', (c) => c.notNull())
    .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
    .addColumn('updated_at', 'varchar(32)', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('commands_org_name').on('commands').columns(['organization_id', 'name']).execute();

  await id(db.schema.createTable('flows'))
    .addColumn('organization_id', 'integer', (c) => c.notNull().references('organizations.id'))
    .addColumn('building_id', 'integer', (c) => c.notNull().references('buildings.id').onDelete('cascade'))
    .addColumn('floor_id', 'integer', (c) => c.notNull().references('floors.id').onDelete('cascade'))
    .addColumn('flow_group_id', 'integer', (c) => c.references('flow_groups.id').onDelete('set null'))
    .addColumn('name', 'varchar(24)', (c) => c.notNull())
    .addColumn('description', 'text', (c) => c.notNull())
    .addColumn('display_order', 'integer', (c) => c.notNull())
    .addColumn('enabled', 'integer', (c) => c.notNull())
    /** JSON flow definition (version 1). */
    .addColumn('definition', 'text', (c) => c.notNull())
    .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
    .addColumn('updated_at', 'varchar(32)', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('flows_place_order')
    .on('flows')
    .columns(['building_id', 'floor_id', 'display_order'])
    .execute();
  await db.schema.createIndex('flows_floor').on('flows').column('floor_id').execute();
  await db.schema.createIndex('flows_group').on('flows').column('flow_group_id').execute();
  await db.schema.createIndex('flows_org').on('flows').column('organization_id').execute();

  await db.schema
    .createTable('flow_commands')
    .addColumn('flow_id', 'integer', (c) => c.notNull().references('flows.id').onDelete('cascade'))
    .addColumn('command_id', 'integer', (c) => c.notNull().references('commands.id'))
    .addPrimaryKeyConstraint('flow_commands_pk', ['flow_id', 'command_id'])
    .execute();
  await db.schema.createIndex('flow_commands_command').on('flow_commands').column('command_id').execute();
}
