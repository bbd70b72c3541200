import type { Insertable, Kysely, Selectable, Updateable } from 'kysely';
import type { BuildingLinkTable, Database } from '../../db/schema.ts';

export type LinksRow = Selectable<BuildingLinkTable>;

/** The SQL of a building's system links (one row per building); `db` may be a transaction. */
export function linksRepo(db: Kysely<Database>) {
  return {
    find: (buildingId: number): Promise<LinksRow | undefined> =>
      db.selectFrom('building_links').selectAll().where('building_id', '=', buildingId).executeTakeFirst(),

    /** Inserts the building's row, or updates it with `changes` when it is there. */
    async upsert(values: Insertable<BuildingLinkTable>, changes: Updateable<BuildingLinkTable>): Promise<void> {
      await db
        .insertInto('building_links')
        .values(values)
        .onConflict((oc) => oc.column('building_id').doUpdateSet(changes))
        .execute();
    },
  };
}
