import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';

/** A stored file's row in `files`. */
export interface FileRow {
  key: string;
  organizationId: number;
  buildingId: number | null;
  contentType: string;
  size: number;
  sha256: string;
  purpose: string;
  createdAt: string;
}

/** SQL of stored files' metadata (`files`). `db` may be a transaction. */
export const fileRepo = {
  async insert(db: Kysely<Database>, f: FileRow): Promise<void> {
    await db
      .insertInto('files')
      .values({
        key: f.key,
        organization_id: f.organizationId,
        building_id: f.buildingId,
        content_type: f.contentType,
        size: f.size,
        sha256: f.sha256,
        purpose: f.purpose,
        created_at: f.createdAt,
      })
      .execute();
  },

  async find(db: Kysely<Database>, key: string): Promise<FileRow | null> {
    const r = await db.selectFrom('files').selectAll().where('key', '=', key).executeTakeFirst();
    return r
      ? {
          key: r.key,
          organizationId: r.organization_id,
          buildingId: r.building_id,
          contentType: r.content_type,
          size: r.size,
          sha256: r.sha256,
          purpose: r.purpose,
          createdAt: r.created_at,
        }
      : null;
  },

  async remove(db: Kysely<Database>, key: string): Promise<void> {
    await db.deleteFrom('files').where('key', '=', key).execute();
  },
};
