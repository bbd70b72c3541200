import type { Insertable, Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { applyFilter, countOf, pageWithTotal, type ParsedFilter } from '../../lib/filter.ts';
import { scopeWhere, type TenantScope } from '../../lib/scope.ts';
import type { RobotActivityTable } from './activity-tables.ts';

/** A message older than the mark by less than this is a late copy (another server lagging); more is a reset robot clock. */
const LATE_COPY_MS = 10 * 60_000;

/** SQL of the activity log and its marks. */
export function activityRepo(db: Kysely<Database>) {
  return {
    async insert(values: Insertable<RobotActivityTable>): Promise<number> {
      const row = await db.insertInto('robot_activity').values(values).returning('id').executeTakeFirstOrThrow();
      return row.id;
    },

    /**
     * One robot's entries within the caller's scope (the entry's own organization and building
     * count: entries written before the robot moved stay with the building they happened in).
     */
    page(p: TenantScope, robotId: number, f: ParsedFilter) {
      const scoped = db
        .selectFrom('robot_activity')
        .where('robot_activity.robot_id', '=', robotId)
        .where((eb) =>
          scopeWhere(p, eb, { organization: 'robot_activity.organization_id', building: 'robot_activity.building_id' }),
        );
      return pageWithTotal(
        applyFilter(scoped.select(['id', 'robot_id', 'building_id', 'at', 'level', 'kind', 'code', 'params']), f),
        countOf(scoped, f.where),
        f.skip,
      );
    },

    /** The marks of a robot whose name starts with `prefix`, with their values. */
    async marks(robotId: number, prefix: string): Promise<Map<string, string>> {
      const rows = await db
        .selectFrom('robot_activity_marks')
        .select(['mark', 'value'])
        .where('robot_id', '=', robotId)
        .where('mark', 'like', `${prefix}%`)
        .execute();
      return new Map(rows.map((r) => [r.mark, r.value]));
    },

    /**
     * Compare-and-set of a robot's mark to `next` (`at` the time of the news): answers the value
     * it had (`fallback` when it had none) when this call changed it, or undefined when it was
     * `next` already, another server changed it first, or the news is older than what set it
     * (`stamped`: `at` is the robot's own timestamp, compared with the mark's). Run it in the
     * transaction that writes the entry, so the entry is written exactly when the mark changes.
     */
    async transition(
      trx: Kysely<Database>,
      robotId: number,
      mark: string,
      next: string,
      at: string,
      opts: { fallback: string | null; stamped: boolean },
    ): Promise<{ from: string | null } | undefined> {
      const row = await trx
        .selectFrom('robot_activity_marks')
        .select(['value', 'at'])
        .where('robot_id', '=', robotId)
        .where('mark', '=', mark)
        .executeTakeFirst();
      const from = row?.value ?? opts.fallback;
      if (from === next) return undefined;
      if (row && opts.stamped) {
        const lateBy = Date.parse(row.at) - Date.parse(at);
        if (lateBy > 0 && lateBy < LATE_COPY_MS) return undefined;
      }
      if (!row) {
        const r = await trx
          .insertInto('robot_activity_marks')
          .values({ robot_id: robotId, mark, value: next, at })
          .onConflict((oc) => oc.columns(['robot_id', 'mark']).doNothing())
          .executeTakeFirst();
        return Number(r.numInsertedOrUpdatedRows ?? 0) === 1 ? { from } : undefined;
      }
      const r = await trx
        .updateTable('robot_activity_marks')
        .set({ value: next, at })
        .where('robot_id', '=', robotId)
        .where('mark', '=', mark)
        .where('value', '=', row.value)
        .where('at', '=', row.at)
        .executeTakeFirst();
      return Number(r.numUpdatedRows) === 1 ? { from } : undefined;
    },

    /** Retention: entries before `before`, and beyond the newest `keep` of each robot, go. Answers the rows deleted. */
    async prune(before: string, keep: number): Promise<number> {
      let deleted = Number(
        (await db.deleteFrom('robot_activity').where('at', '<', before).executeTakeFirst()).numDeletedRows,
      );
      const crowded = await db
        .selectFrom('robot_activity')
        .select('robot_id')
        .groupBy('robot_id')
        .having((eb) => eb.fn.countAll(), '>', keep)
        .execute();
      for (const { robot_id } of crowded) {
        const edge = await db
          .selectFrom('robot_activity')
          .select(['at', 'id'])
          .where('robot_id', '=', robot_id)
          .orderBy('at', 'desc')
          .orderBy('id', 'desc')
          .offset(keep)
          .limit(1)
          .executeTakeFirst();
        if (!edge) continue;
        const r = await db
          .deleteFrom('robot_activity')
          .where('robot_id', '=', robot_id)
          .where((eb) => eb.or([eb('at', '<', edge.at), eb.and([eb('at', '=', edge.at), eb('id', '<=', edge.id)])]))
          .executeTakeFirst();
        deleted += Number(r.numDeletedRows);
      }
      return deleted;
    },
  };
}
