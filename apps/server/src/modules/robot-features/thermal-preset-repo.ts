import type { Insertable, Kysely, Updateable } from 'kysely';
import type { Database, RobotThermalPresetTable } from '../../db/schema.ts';
import { insertReturningId, updateById } from '../../db/rows.ts';
import type { Dialect } from '../../db/migrator.ts';

/** SQL of the thermal camera presets of robots. Writes run on a transaction: `thermalPresetRepo(trx, dialect)`. */
export function thermalPresetRepo(db: Kysely<Database>, dialect: Dialect) {
  return {
    /** Saves of one robot's presets take turns (PostgreSQL locks the robot; SQLite runs one writer at a time). */
    async lockRobot(robotId: number): Promise<void> {
      if (dialect === 'postgres') {
        await db.selectFrom('robots').select('id').where('id', '=', robotId).forUpdate().execute();
      }
    },

    /** A robot's presets, the most recently saved first. */
    newestFirst(robotId: number) {
      return db
        .selectFrom('robot_thermal_presets')
        .selectAll()
        .where('robot_id', '=', robotId)
        .orderBy('updated_at', 'desc')
        .orderBy('id', 'desc')
        .execute();
    },

    get(id: number) {
      return db.selectFrom('robot_thermal_presets').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
    },

    /** The preset of this robot with this id, if any. */
    find(robotId: number, presetId: number) {
      return db
        .selectFrom('robot_thermal_presets')
        .selectAll()
        .where('id', '=', presetId)
        .where('robot_id', '=', robotId)
        .executeTakeFirst();
    },

    insert: (values: Insertable<RobotThermalPresetTable>): Promise<number> =>
      insertReturningId(db, 'robot_thermal_presets', values),

    update: (id: number, values: Updateable<RobotThermalPresetTable>): Promise<void> =>
      updateById(db, 'robot_thermal_presets', id, values),

    async remove(ids: number[]): Promise<void> {
      if (ids.length > 0) await db.deleteFrom('robot_thermal_presets').where('id', 'in', ids).execute();
    },
  };
}
