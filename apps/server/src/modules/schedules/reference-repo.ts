import type { Insertable, Kysely, Selectable } from 'kysely';
import type { Database } from '../../db/schema.ts';
import type { ScheduleReferenceTable } from './reference-tables.ts';

export type ScheduleReferenceRow = Selectable<ScheduleReferenceTable>;

/** The reference images of schedule entries (table `schedule_references`, migration 021). */
export function referenceRepo(db: Kysely<Database>) {
  return {
    of: (scheduleId: number): Promise<ScheduleReferenceRow[]> =>
      db
        .selectFrom('schedule_references')
        .selectAll()
        .where('schedule_id', '=', scheduleId)
        .orderBy('camera')
        .execute(),

    /** Replaces the entry's reference of one camera; answers the file key it replaced (or null). */
    async replace(row: Insertable<ScheduleReferenceTable>, trx: Kysely<Database>): Promise<string | null> {
      const old = await trx
        .selectFrom('schedule_references')
        .select(['id', 'file_key'])
        .where('schedule_id', '=', row.schedule_id)
        .where('camera', '=', row.camera)
        .executeTakeFirst();
      if (old) await trx.deleteFrom('schedule_references').where('id', '=', old.id).execute();
      await trx.insertInto('schedule_references').values(row).execute();
      return old?.file_key ?? null;
    },

    /** Keeps a reference's comparison grid computed at its first check (images taken before migration 031). */
    setGrid: async (id: number, grid: string): Promise<void> => {
      await db.updateTable('schedule_references').set({ grid }).where('id', '=', id).execute();
    },

    /** The entry's robot and flow (null: the entry is gone). */
    entry: (scheduleId: number) =>
      db
        .selectFrom('schedules')
        .select(['id', 'robot_id', 'flow_id', 'organization_id', 'building_id'])
        .where('id', '=', scheduleId)
        .executeTakeFirst(),
  };
}
