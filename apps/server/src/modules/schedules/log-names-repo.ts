import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';

/**
 * The robots and flows a page of schedule log lines names, as they are now: live ones with their
 * current names; an id missing from the answer is deleted (a robot soft-deleted or gone, a flow gone).
 */
export function logNamesRepo(db: Kysely<Database>) {
  return {
    liveRobots: async (ids: number[]): Promise<Map<number, string>> =>
      ids.length === 0
        ? new Map()
        : new Map(
            (
              await db
                .selectFrom('robots')
                .select(['id', 'name'])
                .where('id', 'in', ids)
                .where('deleted_at', 'is', null)
                .execute()
            ).map((r) => [r.id, r.name]),
          ),
    liveFlows: async (ids: number[]): Promise<Map<number, string>> =>
      ids.length === 0
        ? new Map()
        : new Map(
            (await db.selectFrom('flows').select(['id', 'name']).where('id', 'in', ids).execute()).map((r) => [
              r.id,
              r.name,
            ]),
          ),
  };
}
