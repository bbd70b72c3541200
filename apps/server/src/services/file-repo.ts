import type { Kysely, Selectable } from 'kysely';
import type { Database, FileTable } from '../db/schema.ts';
import { camelRow, snakeRow, type CamelRow } from '../lib/naming.ts';

/** A stored file's row in `files`, under camelCase names. */
export type FileRow = CamelRow<Selectable<FileTable>>;

/** SQL of stored files' metadata (`files`). `db` may be a transaction. */
export const fileRepo = {
  async insert(db: Kysely<Database>, f: FileRow): Promise<void> {
    await db.insertInto('files').values(snakeRow(f)).execute();
  },

  async find(db: Kysely<Database>, key: string): Promise<FileRow | null> {
    const r = await db.selectFrom('files').selectAll().where('key', '=', key).executeTakeFirst();
    return r ? camelRow(r) : null;
  },

  async remove(db: Kysely<Database>, key: string): Promise<void> {
    await db.deleteFrom('files').where('key', '=', key).execute();
  },
};
