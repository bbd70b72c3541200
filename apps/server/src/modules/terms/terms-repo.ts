import type { Insertable, Kysely } from 'kysely';
import type { Database, TermDocumentTable } from '../../db/schema.ts';

/** SQL of the term documents as system administrators edit them. Writes take a transaction. */
export function termsRepo(db: Kysely<Database>) {
  return {
    /** The version of a kind in force at `now` (the newest published), if any. */
    current(kind: string, now: string) {
      return db
        .selectFrom('term_documents')
        .selectAll()
        .where('kind', '=', kind)
        .where('published_at', '<=', now)
        .orderBy('published_at', 'desc')
        .orderBy('id', 'desc')
        .executeTakeFirst();
    },

    byId(id: number) {
      return db.selectFrom('term_documents').selectAll().where('id', '=', id).executeTakeFirst();
    },

    async agreedCount(documentId: number): Promise<number> {
      const r = await db
        .selectFrom('term_agreements')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('document_id', '=', documentId)
        .executeTakeFirstOrThrow();
      return Number(r.n);
    },

    async anyOfKind(kind: string): Promise<boolean> {
      return (
        (await db.selectFrom('term_documents').select('id').where('kind', '=', kind).executeTakeFirst()) !== undefined
      );
    },

    async insert(v: Insertable<TermDocumentTable>): Promise<number> {
      return (await db.insertInto('term_documents').values(v).returning('id').executeTakeFirstOrThrow()).id;
    },

    /**
     * Writes the row only where its version is still `base` (a stale edit writes nothing); the
     * number of rows written. Also the guard of a new version: the old row's version moves on, so
     * of two administrators publishing from the same version only the first succeeds.
     */
    async updateVersioned(
      id: number,
      base: string | null,
      v: Partial<Pick<TermDocumentTable, 'title_ja' | 'title_en' | 'body_ja' | 'body_en'>> & {
        updated_at: string;
        updated_by: number | null;
      },
    ): Promise<number> {
      const r = await db
        .updateTable('term_documents')
        .set(v)
        .where('id', '=', id)
        .where((eb) => (base === null ? eb('updated_at', 'is', null) : eb('updated_at', '=', base)))
        .executeTakeFirst();
      return Number(r.numUpdatedRows);
    },
  };
}
