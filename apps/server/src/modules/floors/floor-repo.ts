import type { Insertable, Kysely, Selectable, Updateable } from 'kysely';
import type { Database, FloorTable } from '../../db/schema.ts';
import { deleteById, findById, insertReturningId, updateById, updateVersioned } from '../../db/rows.ts';
import { filteredPage, type ParsedFilter } from '../../lib/filter.ts';
import { filterSpec, ID_FIELD, TIMESTAMP_FIELDS } from '../../lib/filter-spec.ts';

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

/** The row of a new floor without a map (initial import, seed). */
export const newFloorRow = (
  place: { organizationId: number; buildingId: number },
  f: { name: string; type: string; index: number },
  now: string,
): Insertable<FloorTable> => ({
  organization_id: place.organizationId,
  building_id: place.buildingId,
  name: f.name,
  type: f.type,
  index: f.index,
  img: null,
  ugomap: null,
  created_at: now,
  updated_at: now,
});

/** The SQL of floors; `db` may be a transaction. */
export function floorRepo(db: Kysely<Database>) {
  return {
    find: (id: number): Promise<FloorRow | undefined> => findById(db, 'floors', id),

    /** A building's floors as the filter asks, with the total of the filter's where. */
    list: (buildingId: number, f: ParsedFilter): Promise<{ rows: FloorRow[]; total: number }> =>
      filteredPage(db.selectFrom('floors').where('floors.building_id', '=', buildingId), f, (q) => q.selectAll()),

    insert: (values: Insertable<FloorTable>): Promise<number> => insertReturningId(db, 'floors', values),

    /** Writes only while the stored version is still `version`; the number of rows written. */
    updateVersioned: (id: number, version: string, values: Updateable<FloorTable>): Promise<bigint> =>
      updateVersioned(db, 'floors', id, version, values),

    update: (id: number, values: Updateable<FloorTable>): Promise<void> => updateById(db, 'floors', id, values),

    remove: (id: number): Promise<boolean> => deleteById(db, 'floors', id),
  };
}
