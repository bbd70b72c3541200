import { sql, type Kysely } from 'kysely';
import { idColumn, type Dialect } from '../dialect.ts';

/** Data management (issue 3): notification targets, speech texts, system links, files, floor map metadata. */
export async function up(db: Kysely<unknown>, dialect: Dialect): Promise<void> {
  const id = idColumn(dialect);

  await id(db.schema.createTable('notification_targets'))
    .addColumn('organization_id', 'integer', (c) => c.notNull().references('organizations.id'))
    .addColumn('building_id', 'integer', (c) => c.references('buildings.id').onDelete('cascade'))
    .addColumn('type', 'integer', (c) => c.notNull())
    .addColumn('level', 'integer', (c) => c.notNull())
    .addColumn('room', 'varchar(40)', (c) => c.notNull().defaultTo(''))
    /** Email addresses in clear; webhook and bot URLs sealed (lib/crypto secretBox). */
    .addColumn('address', 'text', (c) => c.notNull())
    .addColumn('address_sealed', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('bot_login_id', 'varchar(254)', (c) => c.notNull().defaultTo(''))
    .addColumn('bot_password', 'text')
    .addColumn('space_id', 'varchar(100)', (c) => c.notNull().defaultTo(''))
    .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
    .addColumn('updated_at', 'varchar(32)', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('notification_targets_org')
    .on('notification_targets')
    .columns(['organization_id', 'building_id'])
    .execute();

  await id(db.schema.createTable('speech_texts'))
    .addColumn('organization_id', 'integer', (c) => c.notNull().references('organizations.id'))
    .addColumn('building_id', 'integer', (c) => c.notNull().references('buildings.id').onDelete('cascade'))
    .addColumn('language', 'varchar(8)', (c) => c.notNull())
    .addColumn('text', 'varchar(500)', (c) => c.notNull())
    .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
    .addColumn('updated_at', 'varchar(32)', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('speech_texts_building').on('speech_texts').column('building_id').execute();

  await db.schema
    .createTable('building_links')
    .addColumn('building_id', 'integer', (c) => c.primaryKey().references('buildings.id').onDelete('cascade'))
    .addColumn('organization_id', 'integer', (c) => c.notNull().references('organizations.id'))
    .addColumn('t_spider_url', 'varchar(500)', (c) => c.notNull().defaultTo(''))
    .addColumn('hakaru_ai_login_id', 'varchar(254)', (c) => c.notNull().defaultTo(''))
    .addColumn('hakaru_ai_password', 'text')
    .addColumn('lilz_token', 'text')
    .addColumn('kanriroid_token', 'text')
    .addColumn('updated_at', 'varchar(32)', (c) => c.notNull())
    .execute();

  /** Stored files (map images now; photos, exports, recordings later): bytes under DATA_DIR/files. */
  await db.schema
    .createTable('files')
    .addColumn('key', 'varchar(64)', (c) => c.primaryKey())
    .addColumn('organization_id', 'integer', (c) => c.notNull().references('organizations.id'))
    .addColumn('building_id', 'integer')
    .addColumn('content_type', 'varchar(100)', (c) => c.notNull())
    .addColumn('size', 'integer', (c) => c.notNull())
    .addColumn('sha256', 'varchar(64)', (c) => c.notNull())
    .addColumn('purpose', 'varchar(32)', (c) => c.notNull())
    .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
    .execute();

  await db.schema.alterTable('floors').addColumn('img_width', 'integer').execute();
  await db.schema.alterTable('floors').addColumn('img_height', 'integer').execute();
  await db.schema.alterTable('floors').addColumn('resolution', 'double precision').execute();
  await db.schema.alterTable('floors').addColumn('origin_x', 'double precision').execute();
  await db.schema.alterTable('floors').addColumn('origin_y', 'double precision').execute();
  await db.schema.alterTable('operators').addColumn('last_login_at', 'varchar(32)').execute();
  // Operator lists page through live operators by name, for everyone or one organization.
  await sql`create index operators_live_name on operators (last_name, id) where deleted_at is null`.execute(db);
  await sql`create index operators_live_org_name on operators (organization_id, last_name, id) where deleted_at is null`.execute(
    db,
  );
}
