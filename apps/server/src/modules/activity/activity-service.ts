import {
  ACTIVITY_CODES,
  ACTIVITY_MAX_PER_ROBOT,
  ACTIVITY_PAGE_MAX,
  ACTIVITY_PARAM_TEXT_MAX,
  ACTIVITY_PARAMS_MAX_KEYS,
  ACTIVITY_RETENTION_DAYS,
  type ActivityCode,
  type ActivityKind,
  type ActivityLevel,
  type ActivityParams,
  type RobotActivityEntry,
} from '@portal/contract';
import type { Kysely } from 'kysely';
import type { AppContext, Principal } from '../../context.ts';
import type { Database } from '../../db/schema.ts';
import { AppError, notFound } from '../../lib/errors.ts';
import { parseFilter } from '../../lib/filter.ts';
import { filterSpec, ID_FIELD } from '../../lib/filter-spec.ts';
import { robotInScope } from '../../lib/scope.ts';
import { addDays } from '../../lib/time.ts';
import { activityRepo } from './activity-repo.ts';

/** Allow-list of `GET /robots/:id/activity?filter=` (docs/api-activity.md). */
export const activityFilter = filterSpec(
  'robot_activity',
  { ...ID_FIELD, at: 'date', level: 'integer', kind: 'string', code: 'string' },
  { defaultOrder: 'at DESC', defaultLimit: 50, maxLimit: ACTIVITY_PAGE_MAX },
);

/** What `record` takes: the robot, what happened (kind and one of its codes) and the text's parameters. */
export type ActivityInput = {
  [K in ActivityKind]: {
    robotId: number;
    kind: K;
    code: ActivityCode<K>;
    /** Default: the code's level (ACTIVITY_CODES). */
    level?: ActivityLevel;
    /** Bounded: at most 16 keys (the first ones kept), texts cut to 200 characters. */
    params?: ActivityParams;
    /** Default: now. */
    at?: Date;
  };
}[ActivityKind];

/** A condition of a robot whose changes are written once (activity-watcher.ts). */
export interface MarkChange {
  robotId: number;
  mark: string;
  next: string;
  /** The robot's own timestamp of the message (ISO), compared with the mark's; null: the server's clock, not compared. */
  stamp: string | null;
  /** The value of a mark never set; null: the first value is only remembered, not written. */
  fallback: string | null;
  /** The entry to write when this call changed the mark (`from`: its previous value). */
  entry: (from: string | null) => Omit<ActivityInput, 'robotId'> | null;
}

type Ctx = Pick<AppContext, 'db' | 'clock' | 'robotLink'>;

/** Parameters as stored: at most ACTIVITY_PARAMS_MAX_KEYS keys, texts cut, only plain values. */
export function boundParams(params: ActivityParams | undefined): ActivityParams {
  const out: ActivityParams = {};
  for (const [k, v] of Object.entries(params ?? {}).slice(0, ACTIVITY_PARAMS_MAX_KEYS)) {
    const key = k.slice(0, 40);
    if (typeof v === 'string') out[key] = v.slice(0, ACTIVITY_PARAM_TEXT_MAX);
    else if (typeof v === 'number') out[key] = Number.isFinite(v) ? v : null;
    else if (typeof v === 'boolean' || v === null) out[key] = v;
  }
  return out;
}

function parseParams(text: string): ActivityParams {
  try {
    const v: unknown = JSON.parse(text);
    return typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as ActivityParams) : {};
  } catch {
    return {};
  }
}

/**
 * The robot activity log (docs/api-activity.md). `record` is how any part of the server writes an
 * entry (the flow runner, health checks, the OS update...); `change` writes an entry only when a
 * robot's condition changes (once across servers); `list` is the API; `prune` the retention.
 * Stateless: build it where needed with `activityService(ctx)`.
 */
export function activityService(ctx: Ctx) {
  const { db, clock, robotLink: link } = ctx;
  const repo = activityRepo(db);

  /** The row of an entry, or null when the robot is unknown to the link (deleted). */
  function rowOf(input: ActivityInput) {
    const robot = link.robot(input.robotId);
    if (!robot) return null;
    const levels = ACTIVITY_CODES[input.kind] as Record<string, ActivityLevel>;
    const level = input.level ?? levels[input.code];
    if (level === undefined) throw new Error(`unknown activity code ${input.kind}.${input.code}`);
    return {
      robot_id: input.robotId,
      organization_id: robot.organizationId,
      building_id: robot.buildingId,
      at: (input.at ?? clock()).toISOString(),
      level,
      kind: input.kind,
      code: input.code,
      params: JSON.stringify(boundParams(input.params)),
    };
  }

  return {
    /**
     * Writes one entry to the robot's log, in the robot's organization and current building.
     * Answers the entry's id, or null when the robot is not (or no longer) registered. Call it once
     * per event: with several servers, only the one that owns the event (runs the flow, holds the
     * teleop session, handled the request) calls it.
     */
    async record(input: ActivityInput): Promise<number | null> {
      const row = rowOf(input);
      return row ? repo.insert(row) : null;
    },

    /**
     * Sets a robot's mark and writes the change's entry in one transaction, only when this call
     * changed it: several servers hearing the same robot message write it once. Answers whether it wrote.
     */
    async change(c: MarkChange): Promise<boolean> {
      if (!link.robot(c.robotId)) return false;
      return db.transaction().execute(async (trx) => {
        const changed = await repo.transition(
          trx as Kysely<Database>,
          c.robotId,
          c.mark,
          c.next,
          c.stamp ?? clock().toISOString(),
          { fallback: c.fallback, stamped: c.stamp !== null },
        );
        if (!changed) return false;
        const entry = c.entry(changed.from);
        const row = entry ? rowOf({ ...entry, robotId: c.robotId } as ActivityInput) : null;
        if (row) await activityRepo(trx as Kysely<Database>).insert(row);
        return true;
      });
    },

    /** The marks of a robot starting with `prefix` (the watcher's memory after a restart). */
    marks: (robotId: number, prefix: string) => repo.marks(robotId, prefix),

    /** GET /robots/:id/activity: the robot must be in the caller's scope (else 404), the filter on the allow-list (else 400). */
    async list(p: Principal, robotId: number, rawFilter: string | undefined) {
      const robot = link.robot(robotId);
      if (!robot || !robotInScope(p, robot)) throw notFound('Robot');
      const f = parseFilter(rawFilter, activityFilter);
      if (f.fields || f.include.length > 0) {
        throw new AppError('BAD_FILTER', 'Invalid filter: fields and include are not supported for the activity log', [
          { path: f.fields ? 'fields' : 'include', message: 'not supported here; every entry is answered whole' },
        ]);
      }
      const { rows, total } = await repo.page(p, robotId, f);
      const items: RobotActivityEntry[] = rows.map((r) => ({
        id: r.id,
        robotId: r.robot_id,
        buildingId: r.building_id,
        at: r.at,
        level: r.level,
        kind: r.kind as ActivityKind,
        code: r.code,
        params: parseParams(r.params),
      }));
      return { items, total };
    },

    /** Retention: entries older than ACTIVITY_RETENTION_DAYS and beyond ACTIVITY_MAX_PER_ROBOT per robot go. */
    prune: (keep = ACTIVITY_MAX_PER_ROBOT) =>
      repo.prune(addDays(clock(), -ACTIVITY_RETENTION_DAYS).toISOString(), keep),
  };
}
export type ActivityService = ReturnType<typeof activityService>;
