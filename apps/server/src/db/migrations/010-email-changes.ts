import type { Kysely } from 'kysely';

/**
 * A change of an operator's own email address waits here until the code sent to the new address is
 * entered (docs/api.md "My account"): one pending change per operator, the code stored as SHA-256
 * only, with its expiry and the wrong attempts so far. The email changes only on confirmation.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('email_changes')
    .addColumn('operator_id', 'integer', (c) => c.primaryKey().references('operators.id').onDelete('cascade'))
    .addColumn('new_email', 'varchar(254)', (c) => c.notNull())
    .addColumn('code_hash', 'varchar(64)', (c) => c.notNull())
    .addColumn('expires_at', 'varchar(32)', (c) => c.notNull())
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
    .execute();
}
