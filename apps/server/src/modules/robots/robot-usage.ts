import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';

/**
 * What other modules need to know about robots when a building or floor goes: live robots keep it
 * in use (409 IN_USE); deleted robots (kept for their setting history) still reference it, so they
 * and their history go with it.
 */
type Where = { buildingId: number } | { floorId: number };

const column = (w: Where) => ('buildingId' in w ? 'building_id' : 'floor_id');
const value = (w: Where) => ('buildingId' in w ? w.buildingId : w.floorId);

/** Live (not deleted) robots placed in the building, or whose initial floor is the floor. */
export async function liveRobotCount(db: Kysely<Database>, where: Where): Promise<number> {
  const row = await db
    .selectFrom('robots')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where(column(where), '=', value(where))
    .where('deleted_at', 'is', null)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** Removes deleted robots that still reference the building or floor (their history cascades). */
export async function purgeDeletedRobots(trx: Kysely<Database>, where: Where): Promise<void> {
  await trx.deleteFrom('robots').where(column(where), '=', value(where)).where('deleted_at', 'is not', null).execute();
}
