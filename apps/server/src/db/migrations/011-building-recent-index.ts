import type { Kysely } from 'kysely';

/**
 * The portal's building list (spec section 7: active buildings, most recently updated first) walks
 * this index and stops after its page, instead of sorting every active building for each request.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createIndex('buildings_status_updated')
    .on('buildings')
    .columns(['status', 'updated_at', 'id'])
    .execute();
}
