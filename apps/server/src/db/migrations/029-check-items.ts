import type { Kysely } from 'kysely';
import { idColumn, type Dialect } from '../dialect.ts';

/**
 * Check items (issue 17; docs/api-check-items.md): a meter to read or a spot to look at, placed and
 * pointed on a floor of a building. The organization is the building's (kept on the row for tenancy).
 * A meter item names its meter type, reading service ('builtin' or 'hakaru'), QR code number, the
 * external service's task and device IDs and, when it alerts, the threshold rule (migration 028) its
 * value is judged by (a deleted rule leaves the item without one: it alerts again once a rule is
 * chosen; `threshold_rule_id` is indexed so a rule's users are found). Location in metres in the
 * floor map's frame, direction in radians like a waypoint's theta. `definition` is a JSON object's
 * text. Status 0 disabled, 1 enabled, 2 setting up. `updated_at` is the version.
 */
export async function up(db: Kysely<unknown>, dialect: Dialect): Promise<void> {
  const id = idColumn(dialect);

  await id(db.schema.createTable('check_items'))
    .addColumn('organization_id', 'integer', (c) => c.notNull().references('organizations.id').onDelete('cascade'))
    .addColumn('building_id', 'integer', (c) => c.notNull().references('buildings.id').onDelete('cascade'))
    .addColumn('floor_id', 'integer', (c) => c.notNull().references('floors.id').onDelete('cascade'))
    .addColumn('name', 'varchar(512)', (c) => c.notNull())
    /** 'meter' (meter reading) or 'visual'. */
    .addColumn('type', 'varchar(16)', (c) => c.notNull())
    .addColumn('status', 'integer', (c) => c.notNull())
    .addColumn('meter_type', 'varchar(16)')
    .addColumn('reading_service', 'varchar(16)')
    .addColumn('qr_code_number', 'varchar(64)', (c) => c.notNull())
    .addColumn('task_id', 'varchar(64)', (c) => c.notNull())
    .addColumn('device_id', 'varchar(64)', (c) => c.notNull())
    /** 0/1: a breach of the threshold rule raises a notification. */
    .addColumn('alerting', 'integer', (c) => c.notNull())
    .addColumn('threshold_rule_id', 'integer', (c) => c.references('threshold_rules.id').onDelete('set null'))
    .addColumn('x', 'double precision')
    .addColumn('y', 'double precision')
    .addColumn('z', 'double precision', (c) => c.notNull())
    .addColumn('direction', 'double precision', (c) => c.notNull())
    /** 'qr' or 'corners'. */
    .addColumn('marker_type', 'varchar(16)', (c) => c.notNull())
    .addColumn('area_detection_marker', 'integer', (c) => c.notNull())
    /** A JSON object's text. */
    .addColumn('definition', 'text', (c) => c.notNull())
    .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
    .addColumn('updated_at', 'varchar(32)', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('check_items_org_name')
    .on('check_items')
    .columns(['organization_id', 'name', 'id'])
    .execute();
  await db.schema
    .createIndex('check_items_building_name')
    .on('check_items')
    .columns(['building_id', 'name', 'id'])
    .execute();
  await db.schema.createIndex('check_items_floor').on('check_items').column('floor_id').execute();
  await db.schema.createIndex('check_items_threshold_rule').on('check_items').column('threshold_rule_id').execute();
}
