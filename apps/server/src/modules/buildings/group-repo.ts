import type { Insertable, Kysely, Selectable, Updateable } from 'kysely';
import type { Database, GroupTable } from '../../db/schema.ts';
import { deleteById, findById, insertReturningId, updateVersioned } from '../../db/rows.ts';
import type { GroupTableName } from './building-repo.ts';

export type GroupRow = Selectable<GroupTable>;

/** The SQL of robot groups or flow groups (one table each, one shape); `db` may be a transaction. */
export function groupRepo(db: Kysely<Database>, table: GroupTableName) {
  return {
    find: (id: number): Promise<GroupRow | undefined> => findById(db, table, id),

    /** A building's groups in their sort order. */
    listOf: (buildingId: number): Promise<GroupRow[]> =>
      db
        .selectFrom(table)
        .selectAll()
        .where('building_id', '=', buildingId)
        .orderBy('sort_order')
        .orderBy('id')
        .execute(),

    /** The sort order after the building's last group. */
    async nextSortOrder(buildingId: number): Promise<number> {
      const last = await db
        .selectFrom(table)
        .select((eb) => eb.fn.max('sort_order').as('m'))
        .where('building_id', '=', buildingId)
        .executeTakeFirst();
      return last?.m == null ? 0 : Number(last.m) + 1;
    },

    insert: (values: Insertable<GroupTable>): Promise<number> => insertReturningId(db, table, values),

    /** Writes only while the stored version is still `version`; the number of rows written. */
    updateVersioned: (id: number, version: string, values: Updateable<GroupTable>): Promise<bigint> =>
      updateVersioned(db, table, id, version, values),

    async setSortOrder(id: number, sortOrder: number): Promise<void> {
      await db.updateTable(table).set({ sort_order: sortOrder }).where('id', '=', id).execute();
    },

    remove: (id: number): Promise<boolean> => deleteById(db, table, id),
  };
}
