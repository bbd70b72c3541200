import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';

/**
 * The robots placed in a building or on a floor, as buildings and floors see them when one goes:
 * live robots keep it in use (409 IN_USE); deleted robots (kept for their setting history) still
 * reference it, so they and their history go with it. Here, not in modules/robots: robots depend on
 * buildings (a robot is placed in one), never the other way round.
 */
export type RobotPlace = { buildingId: number } | { floorId: number };

const column = (w: RobotPlace) => ('buildingId' in w ? 'building_id' : 'floor_id');
const value = (w: RobotPlace) => ('buildingId' in w ? w.buildingId : w.floorId);

/** Live (not deleted) robots placed in the building, or whose initial floor is the floor. */
export async function liveRobotCount(db: Kysely<Database>, where: RobotPlace): Promise<number> {
  const row = await db
    .selectFrom('robots')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where(column(where), '=', value(where))
    .where('deleted_at', 'is', null)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** Removes deleted robots that still reference the building or floor (their history cascades). */
export async function purgeDeletedRobots(trx: Kysely<Database>, where: RobotPlace): Promise<void> {
  await trx.deleteFrom('robots').where(column(where), '=', value(where)).where('deleted_at', 'is not', null).execute();
}
