import type { Kysely } from 'kysely';

/**
 * A schedule entry's reference image keeps its comparison grid (`grid`: the 64 × 40 gray cells of
 * modules/schedules/start-position.ts, one byte each, base64), computed once when the image is taken,
 * so a due occurrence's start-position check decodes only the robot's current photo
 * (docs/api-schedules.md "Start position"). Null for images taken before: computed at their first
 * check and stored then.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('schedule_references').addColumn('grid', 'text').execute();
}
