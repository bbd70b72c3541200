import type { Insertable, Kysely, Selectable, Updateable } from 'kysely';
import type { Database, FloorTable } from '../../db/schema.ts';
import {
  applyFilter,
  applyWhere,
  filterSpec,
  ID_FIELD,
  TIMESTAMP_FIELDS,
  type ParsedFilter,
} from '../../lib/filter.ts';

/** Allow-list of `GET /buildings/:id/floors?filter=` (docs/architecture-decisions.md "API"). */
export const floorFilter = filterSpec(
  'floors',
  {
    ...ID_FIELD,
    name: 'string',
    buildingId: 'integer',
    type: 'string',
    index: 'integer',
    img: 'string',
    ugomap: 'string',
    ...TIMESTAMP_FIELDS,
  },
  { defaultOrder: 'index DESC' },
);

export type FloorRow = Selectable<FloorTable>;

/** The SQL of floors; `db` may be a transaction. */
export function floorRepo(db: Kysely<Database>) {
  return {
    find: (id: number): Promise<FloorRow | undefined> =>
      db.selectFrom('floors').selectAll().where('id', '=', id).executeTakeFirst(),

    /** A building's floors as the filter asks, with the total of the filter's where. */
    async list(buildingId: number, f: ParsedFilter): Promise<{ rows: FloorRow[]; total: number }> {
      const scoped = db.selectFrom('floors').where('floors.building_id', '=', buildingId);
      const [rows, count] = await Promise.all([
        applyFilter(scoped.selectAll(), f).execute(),
        applyWhere(scoped, f.where)
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .executeTakeFirstOrThrow(),
      ]);
      return { rows, total: Number(count.n) };
    },

    async insert(values: Insertable<FloorTable>): Promise<number> {
      const row = await db.insertInto('floors').values(values).returning('id').executeTakeFirstOrThrow();
      return row.id;
    },

    /** Writes only while the stored version is still `version`; the number of rows written. */
    async updateVersioned(id: number, version: string, values: Updateable<FloorTable>): Promise<bigint> {
      const result = await db
        .updateTable('floors')
        .set(values)
        .where('id', '=', id)
        .where('updated_at', '=', version)
        .executeTakeFirst();
      return result.numUpdatedRows;
    },

    async update(id: number, values: Updateable<FloorTable>): Promise<void> {
      await db.updateTable('floors').set(values).where('id', '=', id).execute();
    },

    async remove(id: number): Promise<void> {
      await db.deleteFrom('floors').where('id', '=', id).execute();
    },
  };
}
