import type { Kysely } from 'kysely';
import { idColumn, type Dialect } from '../dialect.ts';

/**
 * Webhooks (issue 17; docs/api-webhooks.md): outbound HTTP endpoints that system administrators
 * register; the portal posts events to them, signed. System-wide (the spec puts them under `system/`,
 * with no organization), so there is no organization column.
 *
 * Secrets are sealed with lib/crypto.ts's secret box (AES-256-GCM keyed from SECRET_KEY): the URL
 * (it often carries a token, as Slack's do), the password, token or custom header value
 * (`auth_secret`) and the signing secret. `url_host` is the URL's host in clear, for lists.
 * `consecutive_failures` counts failed deliveries since the last success; at the limit an enabled
 * webhook turns to status 9 (error).
 */
export async function up(db: Kysely<unknown>, dialect: Dialect): Promise<void> {
  await idColumn(dialect)(db.schema.createTable('webhooks'))
    .addColumn('name', 'varchar(64)', (c) => c.notNull())
    .addColumn('type', 'integer', (c) => c.notNull())
    .addColumn('url', 'text', (c) => c.notNull())
    .addColumn('url_host', 'varchar(255)', (c) => c.notNull())
    .addColumn('auth_type', 'varchar(16)', (c) => c.notNull())
    .addColumn('auth_username', 'varchar(128)', (c) => c.notNull())
    .addColumn('auth_secret', 'text')
    .addColumn('custom_header_name', 'varchar(64)', (c) => c.notNull())
    .addColumn('signing_secret', 'text', (c) => c.notNull())
    .addColumn('status', 'integer', (c) => c.notNull())
    .addColumn('consecutive_failures', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('last_error', 'varchar(64)')
    .addColumn('last_success_at', 'varchar(32)')
    .addColumn('last_failure_at', 'varchar(32)')
    .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
    .addColumn('updated_at', 'varchar(32)', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('webhooks_status').on('webhooks').columns(['status', 'id']).execute();
}
