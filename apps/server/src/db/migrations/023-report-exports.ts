import type { Kysely } from 'kysely';
import { idColumn, type Dialect } from '../dialect.ts';

/**
 * Report exports and export templates (issue 16; docs/api-reports.md "Exports").
 *
 * `report_exports` is the export history and the queue: a job is recorded `queued` when it is asked
 * for, claimed by one server's worker through a conditional update of `status` and the lease
 * (`lease_owner`, `lease_until`); a server that dies mid-export leaves a `running` job whose lease runs
 * out, and any server claims it again and writes its file anew. `scope_organization_id` and
 * `scope_building_id` are the exporter's tenancy when it was asked for (null: every organization,
 * every building of the organization); `building_id` is who may see the job in the history (the
 * selection's building, or a general operator's own).
 *
 * `export_templates` are the customers' workbooks (the bytes in the file store, `files.key`); a
 * deleted template leaves its name on the exports that used it.
 *
 * `operators.export_restricted` (0/1, only for general operators): may not export reports.
 */
export async function up(db: Kysely<unknown>, dialect: Dialect): Promise<void> {
  const id = idColumn(dialect);

  await db.schema
    .alterTable('operators')
    .addColumn('export_restricted', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();

  await id(db.schema.createTable('export_templates'))
    .addColumn('organization_id', 'integer', (c) => c.notNull().references('organizations.id').onDelete('cascade'))
    .addColumn('name', 'varchar(64)', (c) => c.notNull())
    .addColumn('description', 'varchar(256)', (c) => c.notNull())
    .addColumn('file_key', 'varchar(64)', (c) => c.notNull().references('files.key'))
    .addColumn('file_name', 'varchar(256)', (c) => c.notNull())
    .addColumn('file_size', 'integer', (c) => c.notNull())
    .addColumn('raw_sheet_name', 'varchar(256)', (c) => c.notNull())
    /** JSON string[]: every sheet of the workbook in order. */
    .addColumn('sheet_names', 'text', (c) => c.notNull())
    .addColumn('created_by', 'integer')
    .addColumn('created_by_name', 'varchar(256)', (c) => c.notNull())
    .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
    .addColumn('updated_at', 'varchar(32)', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('export_templates_org_created')
    .on('export_templates')
    .columns(['organization_id', 'created_at', 'id'])
    .execute();

  await id(db.schema.createTable('report_exports'))
    .addColumn('organization_id', 'integer', (c) => c.notNull().references('organizations.id').onDelete('cascade'))
    .addColumn('building_id', 'integer')
    .addColumn('scope_organization_id', 'integer')
    .addColumn('scope_building_id', 'integer')
    .addColumn('format', 'varchar(8)', (c) => c.notNull())
    .addColumn('encoding', 'varchar(16)', (c) => c.notNull())
    /** The header's and the codes' language ('ja' or 'en'). */
    .addColumn('language', 'varchar(8)', (c) => c.notNull())
    .addColumn('template_id', 'integer', (c) => c.references('export_templates.id').onDelete('set null'))
    .addColumn('template_name', 'varchar(64)')
    /** JSON ReportSelection. */
    .addColumn('selection', 'text', (c) => c.notNull())
    /** queued, running, done, fail, expired. */
    .addColumn('status', 'varchar(16)', (c) => c.notNull())
    .addColumn('rows_done', 'integer', (c) => c.notNull())
    .addColumn('row_count', 'integer', (c) => c.notNull())
    /** The last detail the selection took when asked for: the export writes those rows, not later ones. */
    .addColumn('max_detail_id', 'integer', (c) => c.notNull())
    .addColumn('exporter_id', 'integer')
    .addColumn('exporter_name', 'varchar(256)', (c) => c.notNull())
    .addColumn('file_name', 'varchar(128)', (c) => c.notNull())
    /** The file's name under DATA_DIR/exports while it is kept. */
    .addColumn('file_path', 'varchar(128)')
    .addColumn('file_size', 'bigint')
    .addColumn('error', 'varchar(64)')
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('lease_owner', 'varchar(64)')
    .addColumn('lease_until', 'varchar(32)')
    .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
    .addColumn('started_at', 'varchar(32)')
    .addColumn('finished_at', 'varchar(32)')
    .addColumn('expires_at', 'varchar(32)')
    .execute();
  await db.schema
    .createIndex('report_exports_org_created')
    .on('report_exports')
    .columns(['organization_id', 'created_at', 'id'])
    .execute();
  await db.schema
    .createIndex('report_exports_building_created')
    .on('report_exports')
    .columns(['building_id', 'created_at', 'id'])
    .execute();
  await db.schema
    .createIndex('report_exports_status')
    .on('report_exports')
    .columns(['status', 'lease_until'])
    .execute();
  await db.schema.createIndex('report_exports_expires').on('report_exports').columns(['expires_at']).execute();
  await db.schema.createIndex('report_exports_template').on('report_exports').column('template_id').execute();
}
