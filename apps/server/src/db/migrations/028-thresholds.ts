import type { Kysely } from 'kysely';
import { idColumn, type Dialect } from '../dialect.ts';

/**
 * Threshold rules and their log (issue 17; docs/api-thresholds.md).
 *
 * A rule belongs to an organization (spec §3 names no building: check items of any building of the
 * organization use it). Its conditions are JSON text checked by the contract's schema; `updated_at`
 * is its version (versioned edits, 409 STALE_UPDATE).
 *
 * A log line is written for every evaluation that breaches a rule. It keeps the rule's name, so a
 * line stays readable when its rule is deleted (`rule_id` set null), and carries no foreign key to
 * check items (migration 029 adds that table after this one), robots, reports or buildings: like a
 * report, the log outlives what it names. `notified` is the JSON list of who was notified.
 */
export async function up(db: Kysely<unknown>, dialect: Dialect): Promise<void> {
  const id = idColumn(dialect);

  await id(db.schema.createTable('threshold_rules'))
    .addColumn('organization_id', 'integer', (c) => c.notNull().references('organizations.id').onDelete('cascade'))
    .addColumn('name', 'varchar(64)', (c) => c.notNull())
    .addColumn('description', 'text', (c) => c.notNull())
    /** Notification level: 0 information, 5 warning, 9 emergency. */
    .addColumn('level', 'integer', (c) => c.notNull())
    /** 1 enabled, 0 disabled. */
    .addColumn('status', 'integer', (c) => c.notNull())
    /** JSON ThresholdCondition[] (at least one). */
    .addColumn('conditions', 'text', (c) => c.notNull())
    .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
    .addColumn('updated_at', 'varchar(32)', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('threshold_rules_org_name')
    .on('threshold_rules')
    .columns(['organization_id', 'name', 'id'])
    .execute();

  await id(db.schema.createTable('threshold_logs'))
    .addColumn('organization_id', 'integer', (c) => c.notNull().references('organizations.id').onDelete('cascade'))
    .addColumn('building_id', 'integer')
    .addColumn('robot_id', 'integer')
    .addColumn('rule_id', 'integer', (c) => c.references('threshold_rules.id').onDelete('set null'))
    .addColumn('rule_name', 'varchar(64)', (c) => c.notNull())
    /** The check item (migration 029's `check_items.id`), no foreign key. */
    .addColumn('check_item_id', 'integer')
    .addColumn('check_item_name', 'varchar(512)', (c) => c.notNull())
    .addColumn('value', 'double precision', (c) => c.notNull())
    /** JSON ThresholdCondition: the condition the value breached. */
    .addColumn('condition', 'text', (c) => c.notNull())
    .addColumn('level', 'integer', (c) => c.notNull())
    /** The photo the value was read from (`files.key`). */
    .addColumn('photo_file_key', 'varchar(64)')
    .addColumn('report_id', 'integer')
    .addColumn('report_detail_id', 'integer')
    /** JSON ThresholdNotified[]: who was notified. */
    .addColumn('notified', 'text', (c) => c.notNull())
    .addColumn('at', 'varchar(32)', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('threshold_logs_org_at')
    .on('threshold_logs')
    .columns(['organization_id', 'at', 'id'])
    .execute();
  await db.schema.createIndex('threshold_logs_rule_at').on('threshold_logs').columns(['rule_id', 'at']).execute();
  await db.schema
    .createIndex('threshold_logs_building_at')
    .on('threshold_logs')
    .columns(['building_id', 'at', 'id'])
    .execute();
  await db.schema
    .createIndex('threshold_logs_check_item')
    .on('threshold_logs')
    .columns(['check_item_id', 'at'])
    .execute();
}
