import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';

/** SQL of the WebSocket gateway: the building of a `fleet:{buildingId}` subscription. */
export function realtimeRepo(db: Kysely<Database>) {
  return {
    /** The building's tenant facts, or undefined when there is no such building. */
    async building(id: number): Promise<{ id: number; organizationId: number } | undefined> {
      const b = await db
        .selectFrom('buildings')
        .select(['id', 'organization_id'])
        .where('id', '=', id)
        .executeTakeFirst();
      return b ? { id: b.id, organizationId: b.organization_id } : undefined;
    },
  };
}

export type RealtimeRepo = ReturnType<typeof realtimeRepo>;
