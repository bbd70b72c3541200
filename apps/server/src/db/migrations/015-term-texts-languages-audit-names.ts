import { sql, type Kysely } from 'kysely';

/**
 * Issue 12 item 5 ("Japanese users get English content"):
 * - `term_documents.updated_at` / `updated_by`: system administrators edit the terms of service and
 *   the privacy policy in the portal (docs/api.md "Terms"); an edit of the current version is a
 *   versioned update (409 STALE_UPDATE on a stale one). Existing rows take their publication time.
 * - `operators.last_language`: the language the operator last used the portal in (the UI language
 *   sent with each signed-in request), for the mails of accounts that never chose a language.
 * - `audit_logs.target_name`: the target's name at the time of the entry, so that an entry still
 *   reads well after its target is renamed or deleted.
 * The default texts (templates) are inserted at start-up when no document of a kind exists
 * (`ensureDefaultTerms`), not here, so that a template revision never means editing this migration.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('term_documents').addColumn('updated_at', 'varchar(32)').execute();
  await db.schema.alterTable('term_documents').addColumn('updated_by', 'integer').execute();
  await sql`update term_documents set updated_at = published_at`.execute(db);
  await db.schema.alterTable('operators').addColumn('last_language', 'varchar(8)').execute();
  await db.schema.alterTable('audit_logs').addColumn('target_name', 'varchar(200)').execute();
}
