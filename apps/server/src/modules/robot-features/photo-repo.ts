import type { Insertable, Kysely } from 'kysely';
import type { Database, RobotPhotoTable } from '../../db/schema.ts';
import { scopeWhere, type TenantScope } from '../../lib/scope.ts';

/** SQL of the photos robots take. */
export function photoRepo(db: Kysely<Database>) {
  return {
    /** Whether the photo of this action is stored already (a second server, a redelivery). */
    async exists(robotId: number, actionId: string): Promise<boolean> {
      const row = await db
        .selectFrom('robot_photos')
        .select('id')
        .where('robot_id', '=', robotId)
        .where('action_id', '=', actionId)
        .executeTakeFirst();
      return !!row;
    },

    /** The operator of a photo that was stored first without one. */
    async attribute(robotId: number, actionId: string, operatorId: number): Promise<void> {
      await db
        .updateTable('robot_photos')
        .set({ operator_id: operatorId })
        .where('robot_id', '=', robotId)
        .where('action_id', '=', actionId)
        .where('operator_id', 'is', null)
        .execute();
    },

    async insert(values: Insertable<RobotPhotoTable>): Promise<void> {
      await db.insertInto('robot_photos').values(values).execute();
    },

    /**
     * A robot's newest photos within the caller's scope, with the names of who took them. The
     * photo's own organization and building count: one taken before the robot moved stays there.
     */
    list(p: TenantScope, robotId: number, limit: number) {
      return db
        .selectFrom('robot_photos')
        .leftJoin('operators', 'operators.id', 'robot_photos.operator_id')
        .selectAll('robot_photos')
        .select(['operators.first_name', 'operators.last_name'])
        .where('robot_photos.robot_id', '=', robotId)
        .where((eb) =>
          scopeWhere(p, eb, { organization: 'robot_photos.organization_id', building: 'robot_photos.building_id' }),
        )
        .orderBy('robot_photos.taken_at', 'desc')
        .orderBy('robot_photos.id', 'desc')
        .limit(limit)
        .execute();
    },
  };
}
