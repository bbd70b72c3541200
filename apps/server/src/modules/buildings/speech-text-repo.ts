import type { Insertable, Kysely, Selectable, Updateable } from 'kysely';
import type { Database, SpeechTextTable } from '../../db/schema.ts';

export type SpeechTextRow = Selectable<SpeechTextTable>;

/** The SQL of speech texts; `db` may be a transaction. */
export function speechTextRepo(db: Kysely<Database>) {
  return {
    find: (id: number): Promise<SpeechTextRow | undefined> =>
      db.selectFrom('speech_texts').selectAll().where('id', '=', id).executeTakeFirst(),

    listOf: (buildingId: number): Promise<SpeechTextRow[]> =>
      db.selectFrom('speech_texts').selectAll().where('building_id', '=', buildingId).orderBy('id').execute(),

    async insert(values: Insertable<SpeechTextTable>): Promise<number> {
      const row = await db.insertInto('speech_texts').values(values).returning('id').executeTakeFirstOrThrow();
      return row.id;
    },

    /** Writes only while the stored version is still `version`; answers the rows written (0 or 1). */
    async updateVersioned(id: number, version: string, values: Updateable<SpeechTextTable>): Promise<bigint> {
      const result = await db
        .updateTable('speech_texts')
        .set(values)
        .where('id', '=', id)
        .where('updated_at', '=', version)
        .executeTakeFirst();
      return result.numUpdatedRows;
    },

    async remove(id: number): Promise<void> {
      await db.deleteFrom('speech_texts').where('id', '=', id).execute();
    },
  };
}
