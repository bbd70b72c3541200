import { BUILTIN_WORK_PLAN_TEMPLATES } from '@portal/contract';
import type { Kysely } from 'kysely';
import { idColumn, type Dialect } from '../dialect.ts';

/**
 * Work plans (issue 14; docs/api-work-plans.md): step lists the operator walks through on the
 * operator screen. A work plan belongs to a building and floor (the organization kept on the row
 * for tenancy); `definition` is the versioned JSON of the contract (work-plans.ts), `template_id`
 * the template it was made from (a deleted template leaves it without one). Status 0 disabled,
 * 1 enabled; type 0 elevator operation, 1 general purpose. `updated_at` is the version.
 *
 * Templates: `organization_id` null for the ones every organization sees; `builtin_key` names the
 * templates the portal ships (stored here: elevator ride, door pass, meter check by hand), whose
 * names the web shows in the reader's language.
 *
 * Runs: one row per work plan being walked through on a robot (`status` 'open' or 'closed'), the
 * step the operator is at and the steps confirmed (JSON array of step ids); `flow_run_id` is the
 * flow run that launched it and waits for it to close (none when started from the operator screen).
 */
export async function up(db: Kysely<unknown>, dialect: Dialect): Promise<void> {
  const id = idColumn(dialect);

  await id(db.schema.createTable('work_plan_templates'))
    .addColumn('organization_id', 'integer', (c) => c.references('organizations.id').onDelete('cascade'))
    .addColumn('builtin_key', 'varchar(32)')
    .addColumn('name', 'varchar(256)', (c) => c.notNull())
    .addColumn('description', 'text', (c) => c.notNull())
    .addColumn('type', 'integer', (c) => c.notNull())
    .addColumn('definition', 'text', (c) => c.notNull())
    .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
    .addColumn('updated_at', 'varchar(32)', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('work_plan_templates_org_name')
    .on('work_plan_templates')
    .columns(['organization_id', 'name', 'id'])
    .execute();

  await id(db.schema.createTable('work_plans'))
    .addColumn('organization_id', 'integer', (c) => c.notNull().references('organizations.id').onDelete('cascade'))
    .addColumn('building_id', 'integer', (c) => c.notNull().references('buildings.id').onDelete('cascade'))
    .addColumn('floor_id', 'integer', (c) => c.notNull().references('floors.id').onDelete('cascade'))
    .addColumn('template_id', 'integer', (c) => c.references('work_plan_templates.id').onDelete('set null'))
    .addColumn('name', 'varchar(256)', (c) => c.notNull())
    .addColumn('description', 'text', (c) => c.notNull())
    .addColumn('icon', 'varchar(16)', (c) => c.notNull())
    .addColumn('type', 'integer', (c) => c.notNull())
    .addColumn('status', 'integer', (c) => c.notNull())
    .addColumn('definition', 'text', (c) => c.notNull())
    .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
    .addColumn('updated_at', 'varchar(32)', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('work_plans_org_name')
    .on('work_plans')
    .columns(['organization_id', 'name', 'id'])
    .execute();
  await db.schema
    .createIndex('work_plans_floor')
    .on('work_plans')
    .columns(['building_id', 'floor_id', 'status', 'id'])
    .execute();

  await id(db.schema.createTable('work_plan_runs'))
    .addColumn('organization_id', 'integer', (c) => c.notNull().references('organizations.id').onDelete('cascade'))
    .addColumn('work_plan_id', 'integer', (c) => c.notNull().references('work_plans.id').onDelete('cascade'))
    .addColumn('robot_id', 'integer', (c) => c.notNull().references('robots.id').onDelete('cascade'))
    .addColumn('flow_run_id', 'integer')
    .addColumn('status', 'varchar(16)', (c) => c.notNull())
    .addColumn('current_step', 'integer', (c) => c.notNull())
    /** JSON array of the confirmed step ids. */
    .addColumn('done_steps', 'text', (c) => c.notNull())
    .addColumn('started_by', 'integer')
    .addColumn('started_at', 'varchar(32)', (c) => c.notNull())
    .addColumn('closed_at', 'varchar(32)')
    .addColumn('updated_at', 'varchar(32)', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('work_plan_runs_robot')
    .on('work_plan_runs')
    .columns(['robot_id', 'status', 'id'])
    .execute();

  const now = new Date().toISOString();
  const templates = db as unknown as Kysely<{
    work_plan_templates: {
      organization_id: number | null;
      builtin_key: string | null;
      name: string;
      description: string;
      type: number;
      definition: string;
      created_at: string;
      updated_at: string;
    };
  }>;
  for (const t of BUILTIN_WORK_PLAN_TEMPLATES)
    await templates
      .insertInto('work_plan_templates')
      .values({
        organization_id: null,
        builtin_key: t.key,
        name: t.name,
        description: t.description,
        type: t.type,
        definition: JSON.stringify(t.definition),
        created_at: now,
        updated_at: now,
      })
      .execute();
}
