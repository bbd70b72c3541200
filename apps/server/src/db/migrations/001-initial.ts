import { sql, type Kysely } from 'kysely';
import { idColumn, type Dialect } from '../dialect.ts';

/** The foundation's tables (issue 2), designed for the capabilities of ROADMAP.md. */
export async function up(db: Kysely<unknown>, dialect: Dialect): Promise<void> {
  const id = idColumn(dialect);

  await id(db.schema.createTable('organizations'))
    .addColumn('name', 'varchar(48)', (c) => c.notNull())
    .addColumn('type', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('level', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('prefecture', 'varchar(40)')
    .addColumn('city', 'varchar(40)')
    .addColumn('address', 'varchar(120)')
    .addColumn('postal_code', 'varchar(8)')
    .addColumn('status', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('lab_option', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
    .addColumn('updated_at', 'varchar(32)', (c) => c.notNull())
    .execute();
  // Names are unique regardless of case (spec section 5: duplicates rejected).
  await sql`create unique index organizations_name_unique on organizations (lower(name))`.execute(db);

  await id(db.schema.createTable('buildings'))
    .addColumn('organization_id', 'integer', (c) => c.notNull().references('organizations.id'))
    .addColumn('name', 'varchar(40)', (c) => c.notNull())
    .addColumn('prefecture', 'varchar(40)')
    .addColumn('city', 'varchar(40)')
    .addColumn('address', 'varchar(120)')
    .addColumn('postal_code', 'varchar(8)')
    .addColumn('latitude', 'double precision')
    .addColumn('longitude', 'double precision')
    .addColumn('status', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('ip_restriction_enabled', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
    .addColumn('updated_at', 'varchar(32)', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('buildings_org').on('buildings').columns(['organization_id', 'status']).execute();
  await db.schema.createIndex('buildings_updated').on('buildings').columns(['updated_at']).execute();

  await id(db.schema.createTable('building_ip_rules'))
    .addColumn('organization_id', 'integer', (c) => c.notNull().references('organizations.id'))
    .addColumn('building_id', 'integer', (c) => c.notNull().references('buildings.id').onDelete('cascade'))
    .addColumn('address', 'varchar(64)', (c) => c.notNull())
    .addColumn('description', 'varchar(200)', (c) => c.notNull().defaultTo(''))
    .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('building_ip_rules_building').on('building_ip_rules').column('building_id').execute();

  for (const table of ['robot_groups', 'flow_groups']) {
    await id(db.schema.createTable(table))
      .addColumn('organization_id', 'integer', (c) => c.notNull().references('organizations.id'))
      .addColumn('building_id', 'integer', (c) => c.notNull().references('buildings.id').onDelete('cascade'))
      .addColumn('name', 'varchar(48)', (c) => c.notNull())
      .addColumn('sort_order', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
      .addColumn('updated_at', 'varchar(32)', (c) => c.notNull())
      .execute();
    await db.schema.createIndex(`${table}_building`).on(table).columns(['building_id', 'sort_order']).execute();
  }

  await id(db.schema.createTable('floors'))
    .addColumn('organization_id', 'integer', (c) => c.notNull().references('organizations.id'))
    .addColumn('building_id', 'integer', (c) => c.notNull().references('buildings.id').onDelete('cascade'))
    .addColumn('name', 'varchar(40)', (c) => c.notNull())
    .addColumn('type', 'varchar(16)', (c) => c.notNull().defaultTo('office'))
    .addColumn('index', 'integer', (c) => c.notNull())
    .addColumn('img', 'varchar(255)')
    .addColumn('ugomap', 'varchar(255)')
    .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
    .addColumn('updated_at', 'varchar(32)', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('floors_building').on('floors').columns(['building_id', 'index']).execute();

  await id(db.schema.createTable('operators'))
    .addColumn('organization_id', 'integer', (c) => c.notNull().references('organizations.id'))
    .addColumn('building_id', 'integer', (c) => c.references('buildings.id'))
    .addColumn('login_id', 'varchar(254)', (c) => c.notNull())
    .addColumn('email', 'varchar(254)', (c) => c.notNull())
    .addColumn('password_hash', 'varchar(255)', (c) => c.notNull())
    .addColumn('first_name', 'varchar(20)', (c) => c.notNull())
    .addColumn('last_name', 'varchar(20)', (c) => c.notNull())
    .addColumn('type', 'integer', (c) => c.notNull())
    .addColumn('flow_edit_restricted', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('language', 'varchar(2)')
    .addColumn('auth_mode', 'varchar(8)', (c) => c.notNull().defaultTo('none'))
    .addColumn('phone', 'varchar(20)', (c) => c.notNull().defaultTo(''))
    .addColumn('status', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('failed_login_count', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('locked_until', 'varchar(32)')
    .addColumn('must_change_password', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('password_changed_at', 'varchar(32)')
    .addColumn('login_count', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('deleted_at', 'varchar(32)')
    .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
    .addColumn('updated_at', 'varchar(32)', (c) => c.notNull())
    .execute();
  // login_id is stored lower-cased; unique among all operators.
  await db.schema.createIndex('operators_login_id_unique').on('operators').column('login_id').unique().execute();
  await db.schema.createIndex('operators_org').on('operators').columns(['organization_id', 'building_id']).execute();

  await id(db.schema.createTable('sessions'))
    .addColumn('operator_id', 'integer', (c) => c.notNull().references('operators.id').onDelete('cascade'))
    .addColumn('token_hash', 'varchar(64)', (c) => c.notNull())
    .addColumn('state', 'varchar(8)', (c) => c.notNull())
    .addColumn('device', 'varchar(255)', (c) => c.notNull().defaultTo(''))
    .addColumn('ip', 'varchar(64)', (c) => c.notNull().defaultTo(''))
    .addColumn('auth_code_hash', 'varchar(64)')
    .addColumn('auth_code_expires_at', 'varchar(32)')
    .addColumn('auth_code_attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
    .addColumn('last_used_at', 'varchar(32)', (c) => c.notNull())
    .addColumn('expires_at', 'varchar(32)', (c) => c.notNull())
    .addColumn('revoked_at', 'varchar(32)')
    .execute();
  await db.schema.createIndex('sessions_token_hash').on('sessions').column('token_hash').unique().execute();
  await db.schema.createIndex('sessions_operator').on('sessions').column('operator_id').execute();

  await id(db.schema.createTable('contracts'))
    .addColumn('organization_id', 'integer', (c) => c.notNull().references('organizations.id'))
    .addColumn('contract_end_at', 'varchar(32)')
    .addColumn('payment_completed', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('maintenance_company_id', 'integer', (c) => c.references('organizations.id'))
    .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
    .addColumn('updated_at', 'varchar(32)', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('contracts_org').on('contracts').column('organization_id').unique().execute();

  await db.schema
    .createTable('building_options')
    .addColumn('building_id', 'integer', (c) => c.primaryKey().references('buildings.id').onDelete('cascade'))
    .addColumn('organization_id', 'integer', (c) => c.notNull().references('organizations.id'))
    .addColumn('is_archive', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('is_mini_asilla', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('is_lilz', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('is_hakaru_ai', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('is_kanriroid', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('is_auto_guide', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();

  await id(db.schema.createTable('term_documents'))
    .addColumn('kind', 'varchar(4)', (c) => c.notNull())
    .addColumn('version', 'varchar(32)', (c) => c.notNull())
    .addColumn('title_ja', 'varchar(200)', (c) => c.notNull())
    .addColumn('title_en', 'varchar(200)', (c) => c.notNull())
    .addColumn('body_ja', 'text', (c) => c.notNull())
    .addColumn('body_en', 'text', (c) => c.notNull())
    .addColumn('published_at', 'varchar(32)', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('term_documents_kind').on('term_documents').columns(['kind', 'published_at']).execute();

  await id(db.schema.createTable('term_agreements'))
    .addColumn('operator_id', 'integer', (c) => c.notNull().references('operators.id').onDelete('cascade'))
    .addColumn('document_id', 'integer', (c) => c.notNull().references('term_documents.id'))
    .addColumn('agreed_at', 'varchar(32)', (c) => c.notNull())
    .addColumn('ip', 'varchar(64)')
    .execute();
  await db.schema
    .createIndex('term_agreements_unique')
    .on('term_agreements')
    .columns(['operator_id', 'document_id'])
    .unique()
    .execute();

  await id(db.schema.createTable('audit_logs'))
    .addColumn('at', 'varchar(32)', (c) => c.notNull())
    .addColumn('operator_id', 'integer')
    .addColumn('organization_id', 'integer')
    .addColumn('action', 'varchar(64)', (c) => c.notNull())
    .addColumn('target_type', 'varchar(64)')
    .addColumn('target_id', 'varchar(64)')
    .addColumn('ip', 'varchar(64)')
    .addColumn('detail', 'text')
    .execute();
  await db.schema.createIndex('audit_logs_operator').on('audit_logs').columns(['operator_id', 'at']).execute();
  await db.schema.createIndex('audit_logs_org').on('audit_logs').columns(['organization_id', 'at']).execute();

  await id(db.schema.createTable('messages'))
    .addColumn('organization_id', 'integer', (c) => c.notNull().references('organizations.id'))
    .addColumn('operator_id', 'integer', (c) => c.notNull().references('operators.id').onDelete('cascade'))
    .addColumn('level', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('title', 'varchar(200)', (c) => c.notNull())
    .addColumn('body', 'text', (c) => c.notNull())
    .addColumn('read_at', 'varchar(32)')
    .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('messages_operator').on('messages').columns(['operator_id', 'created_at']).execute();

  await id(db.schema.createTable('announcements'))
    .addColumn('organization_id', 'integer', (c) => c.references('organizations.id'))
    .addColumn('level', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('title_ja', 'varchar(200)', (c) => c.notNull())
    .addColumn('title_en', 'varchar(200)', (c) => c.notNull())
    .addColumn('body_ja', 'text', (c) => c.notNull())
    .addColumn('body_en', 'text', (c) => c.notNull())
    .addColumn('published_at', 'varchar(32)', (c) => c.notNull())
    .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
    .execute();

  await id(db.schema.createTable('outbox'))
    .addColumn('organization_id', 'integer')
    .addColumn('channel', 'varchar(8)', (c) => c.notNull())
    .addColumn('recipient', 'varchar(254)', (c) => c.notNull())
    .addColumn('subject', 'varchar(255)', (c) => c.notNull())
    .addColumn('body', 'text', (c) => c.notNull())
    .addColumn('purpose', 'varchar(32)', (c) => c.notNull())
    .addColumn('status', 'varchar(8)', (c) => c.notNull())
    .addColumn('error', 'text')
    .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
    .addColumn('sent_at', 'varchar(32)')
    .execute();
  await db.schema.createIndex('outbox_created').on('outbox').column('created_at').execute();

  await id(db.schema.createTable('registration_requests'))
    .addColumn('email', 'varchar(254)', (c) => c.notNull())
    .addColumn('first_name', 'varchar(20)', (c) => c.notNull())
    .addColumn('last_name', 'varchar(20)', (c) => c.notNull())
    .addColumn('organization_name', 'varchar(48)', (c) => c.notNull())
    .addColumn('message', 'text', (c) => c.notNull())
    .addColumn('ip', 'varchar(64)')
    .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
    .execute();
}
