import type { Kysely } from 'kysely';

/**
 * Failure counts and locks of login IDs that match no account (docs/architecture.md "Sign-in"), in
 * the database instead of one server's memory: a restart does not lift a lock, and every server of
 * a cluster sees the same count. Keyed by the SHA-256 of the normalized login ID (the ID itself is
 * not stored); rows untouched for a day are removed.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('login_lockouts')
    .addColumn('key', 'varchar(64)', (c) => c.primaryKey())
    .addColumn('failures', 'integer', (c) => c.notNull())
    .addColumn('locked_until', 'varchar(32)')
    .addColumn('updated_at', 'varchar(32)', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('login_lockouts_updated').on('login_lockouts').column('updated_at').execute();
}
