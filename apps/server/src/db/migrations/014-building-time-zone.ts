import type { Kysely } from 'kysely';

/**
 * Each building has the IANA time zone its events are shown in (robot communication, settings
 * history, map revisions...). The portal's buildings were all in Japan: existing ones get Asia/Tokyo.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('buildings')
    .addColumn('time_zone', 'varchar(64)', (c) => c.notNull().defaultTo('Asia/Tokyo'))
    .execute();
}
