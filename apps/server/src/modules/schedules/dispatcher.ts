import { randomUUID } from 'node:crypto';
import {
  OperatorType,
  flowMoves,
  nextOccurrence,
  occurrenceAtInstant,
  type FlowDefinition,
  type FlowRun,
  type FlowRunStatus,
  type ScheduleLogReason,
} from '@portal/contract';
import type { FastifyBaseLogger } from 'fastify';
import type { Kysely } from 'kysely';
import type { Principal } from '../../context.ts';
import type { Dialect } from '../../db/migrator.ts';
import type { Database } from '../../db/schema.ts';
import { AppError } from '../../lib/errors.ts';
import type { RobotLink } from '../robot-link/types.ts';
import { checkHealth } from '../flow-runs/health-check.ts';
import { runRepo } from '../flow-runs/run-repo.ts';
import { isJapaneseHoliday } from './holidays.ts';
import { logDetails, logNames, noDetail, type LogDetail } from './log-details.ts';
import { entryOf } from './schedule-service.ts';
import { scheduleRepo, type ScheduleLogRow, type ScheduleRow } from './schedule-repo.ts';
import type { StartPositionService } from './start-position-service.ts';
import type { NotificationEventInput } from '../notifications/notification-engine.ts';

/** What the dispatcher needs of the flow-run service. */
export interface ScheduleRuns {
  start(
    p: Principal,
    flowId: number,
    robotId: number,
    opts: { startedBy: null; scheduleLogId: number; notBefore?: string },
  ): Promise<FlowRun>;
  cancel(p: Principal, runId: number): Promise<FlowRun>;
}

export interface DispatcherDeps {
  db: Kysely<Database>;
  clock: () => Date;
  log: Pick<FastifyBaseLogger, 'error' | 'warn' | 'info'>;
  robotLink: Pick<RobotLink, 'details'>;
  runs: ScheduleRuns;
  /** How late an occurrence may still start (minutes); later it is logged MISSED. */
  graceMinutes: number;
  /** Tick interval (ms); 0: no timer (tests call `tick()`). */
  tickMs: number;
  /** How long a claimer holds a claimed line before another server may take it over. */
  leaseMs?: number;
  /** How long a pre-empted run may take to end before the start is given up. */
  preemptTimeoutMs?: number;
  /** Due entries read per round. */
  batch?: number;
  /** The start-position check before pre-empting or starting (docs/api-schedules.md "Start position"). */
  startPosition?: Pick<StartPositionService, 'check'>;
  /**
   * How far ahead (ms) occurrences are claimed and their start position checked; each is started at
   * its due time (a timer, and every tick for a clock moved by tests). Default 10 s.
   */
  lookAheadMs?: number;
  /**
   * How long (ms) before its due time an occurrence's run is prepared (docs/api-schedules.md
   * "Prepared starts"; default 10 s, at most the look-ahead, 0: off): when the robot is free and
   * healthy then, the run is recorded as starting at the due time and held by the runner until it,
   * so at the due time only the first order is left to send.
   */
  prepareMs?: number;
  /** Occurrences started at once (default 32; start-position checks: twice as many). */
  concurrency?: number;
  /** How soon (ms) an occurrence whose robot is offline just after a server start is tried again. */
  retryMs?: number;
  /**
   * This server is the only one on its database (SQLite): a line another instance claimed before this
   * server started was claimed by a dead incarnation of it (killed or crashed), so it is taken over at
   * once instead of after its lease. Never set with two servers on one database.
   */
  soleServer?: boolean;
  /** The database's dialect (PostgreSQL: two servers claim different batches at once); default SQLite. */
  dialect?: Dialect;
  /** Records a notification event (docs/notifications.md): occurrences that failed to start. */
  notify?: (e: NotificationEventInput) => Promise<unknown>;
}

/** Runs at most `n` jobs at once (the others wait their turn, in order). */
function limiter(n: number) {
  let active = 0;
  const queue: Array<() => void> = [];
  return async <T>(work: () => Promise<T>): Promise<T> => {
    if (active < n) active += 1;
    else await new Promise<void>((r) => queue.push(r));
    try {
      return await work();
    } finally {
      const next = queue.shift();
      if (next) next();
      else active -= 1;
    }
  };
}

/** The entry that won a robot and instant (the losers' detail). */
type Winner = { scheduleId: number; title: string };

/** The detail of a claimed line waiting for its robot to come online after a server start. */
const WAITING = 'waiting for the robot to come online';

const FINAL: ReadonlySet<string> = new Set<FlowRunStatus>(['done', 'fail', 'cancel', 'unknown']);

/** The principal a schedule acts as: every scope, recorded as nobody (started by "schedule"). */
const schedulePrincipal = (organizationId: number): Principal => ({
  sessionId: 0,
  operatorId: 0,
  organizationId,
  buildingId: null,
  type: OperatorType.systemAdmin,
  language: null,
  email: '',
  firstName: 'schedule',
  lastName: '',
  labsEnabled: false,
});

/**
 * The schedule dispatcher (docs/api-schedules.md "Dispatcher"): every tick each server claims the
 * entries whose `next_due_at` comes within the look-ahead, a batch at a time, by one conditional
 * update of that column in the transaction that inserts their log lines, so exactly one server claims
 * each occurrence (the log's unique `(schedule_id, due_at)` is the second guard). The claimer settles
 * the priority rule for the batch, checks the start positions before the due time and starts the runs
 * at the due time (or logs why not); a claimed line whose claimer died before starting is taken over
 * when its lease runs out. An occurrence whose robot is offline just after a server start waits for it
 * (its line stays claimed) until the grace period is over. Running lines follow their run to its end
 * (done, fail, cancel, unknown), and a flow without moves still running at the occurrence's end is
 * cancelled (END_TIME).
 */
export function createDispatcher(deps: DispatcherDeps) {
  const { db, clock, log, robotLink, runs } = deps;
  const repo = scheduleRepo(db, deps.dialect);
  const runRows = runRepo(db);
  const instanceId = randomUUID();
  const leaseMs = deps.leaseMs ?? 60_000;
  const preemptTimeoutMs = deps.preemptTimeoutMs ?? 30_000;
  const batch = deps.batch ?? 500;
  const lookAheadMs = deps.lookAheadMs ?? 10_000;
  const retryMs = deps.retryMs ?? 2_000;
  const prepareMs = Math.min(deps.prepareMs ?? 10_000, lookAheadMs);
  const graceMs = deps.graceMinutes * 60_000;
  const limit = limiter(Math.max(1, deps.concurrency ?? 32));
  /** Start-position checks at once: most of their time is the robot's photo (the comparisons queue on the image worker). */
  const checks = limiter(Math.max(1, (deps.concurrency ?? 32) * 2));
  /** When this server started: an offline robot may still be reconnecting within the grace period after it. */
  const startedAt = clock().getTime();
  const tasks = new Set<Promise<void>>();
  /** Lines this server is carrying out now (not taken over from itself while it waits for their due time). */
  const inHand = new Set<number>();
  /** Prepared occurrences waiting for their due time (the timer, or a tick once the clock has passed it). */
  const waiting = new Map<number, { due: number; go: () => void }>();
  let ticking: Promise<void> | null = null;
  let closed = false;
  const iso = (d: Date) => d.toISOString();
  /** A claimed line's lease: until `leaseMs` after its due time or now, whichever is later. */
  const leaseUntil = (due?: string) => iso(new Date(Math.max(clock().getTime(), due ? Date.parse(due) : 0) + leaseMs));

  const launch = (work: () => Promise<void>) => {
    const p = work()
      .catch((err: unknown) => log.error({ err }, 'schedule occurrence not carried out'))
      .finally(() => tasks.delete(p));
    tasks.add(p);
  };

  /**
   * Resolves at the line's due time, or `early` ms before it (real timer), or at once when that has
   * come; a tick releases it when the clock passed it.
   */
  const untilDue = (line: ScheduleLogRow, early = 0): Promise<void> => {
    const due = Date.parse(line.due_at) - early;
    const wait = due - clock().getTime();
    if (wait <= 0 || closed) return Promise.resolve();
    return new Promise<void>((resolve) => {
      const go = () => {
        clearTimeout(timer);
        waiting.delete(line.id);
        resolve();
      };
      const timer = setTimeout(go, wait);
      waiting.set(line.id, { due, go });
    });
  };

  /** The occurrence after `due` (null: none left). */
  const following = (r: ScheduleRow, due: string): string | null =>
    nextOccurrence(entryOf(r), r.time_zone, new Date(due), { isHoliday: isJapaneseHoliday })?.startAt ?? null;

  /**
   * Claims the occurrences of a batch of due entries (read up to `horizon`) in one transaction (one
   * SELECT, one UPDATE, one INSERT): answers the log lines this server won. Occurrences found after
   * the grace period are logged MISSED.
   */
  const claim = (horizon: string, now: Date): Promise<ScheduleLogRow[]> =>
    db.transaction().execute(async (trx) => claimRows(await repo.due(horizon, batch, trx), now, trx));

  async function claimRows(rows: ScheduleRow[], now: Date, trx: Kysely<Database>): Promise<ScheduleLogRow[]> {
    const plans = new Map<number, { row: ScheduleRow; due: string; next: string | null; endAt: string }>();
    for (const r of rows) {
      try {
        const due = r.next_due_at!;
        const occurrence = occurrenceAtInstant(entryOf(r), r.time_zone, new Date(due), {
          isHoliday: isJapaneseHoliday,
        });
        plans.set(r.id, { row: r, due, next: following(r, due), endAt: occurrence?.endAt ?? due });
      } catch (err) {
        // One entry that cannot be claimed (its data) must not hold up the others.
        log.error({ err, scheduleId: r.id }, 'schedule occurrence not claimed');
      }
    }
    if (plans.size === 0) return [];
    const won = await repo.advanceMany(
      [...plans.values()].map((p) => ({ id: p.row.id, due: p.due, following: p.next })),
      trx,
    );
    const values = won.map((id) => {
      const { row: r, due, endAt } = plans.get(id)!;
      const late = now.getTime() - Date.parse(due) > graceMs;
      return {
        schedule_id: r.id,
        organization_id: r.organization_id,
        building_id: r.building_id,
        robot_id: r.robot_id,
        flow_id: r.flow_id,
        flow_run_id: null,
        title: r.title,
        priority: r.priority,
        due_at: due,
        end_at: endAt,
        started_at: null,
        ended_at: late ? iso(now) : null,
        result: late ? 'fail' : 'pending',
        reason: late ? 'MISSED' : null,
        ...(late ? logDetails.missed(Math.round((now.getTime() - Date.parse(due)) / 60_000)) : noDetail),
        ...logNames(r.robot_id, r.flow_id),
        lease_owner: late ? null : instanceId,
        lease_until: late ? null : leaseUntil(due),
        created_at: iso(now),
      };
    });
    return repo.insertLogs(values, trx);
  }

  /** An occurrence that failed to start, as a notification event (once per log line). */
  const notifyFailed = (line: ScheduleLogRow, reason: string) =>
    deps
      .notify?.({
        kind: 'scheduleFailed',
        organizationId: line.organization_id,
        buildingId: line.building_id,
        robotId: line.robot_id,
        details: { title: line.title, reason, dueAt: line.due_at, scheduleLogId: line.id },
        dedupeKey: `scheduleFailed:${line.id}`,
      })
      .catch((err: unknown) => log.error({ err, lineId: line.id }, 'schedule failure not notified'));

  const fail = async (line: ScheduleLogRow, reason: ScheduleLogReason, detail: LogDetail) => {
    const written = await repo.updateLog(
      line.id,
      {
        result: 'fail',
        reason,
        ...detail,
        ended_at: iso(clock()),
        lease_owner: null,
        lease_until: null,
      },
      'pending',
    );
    if (written) await notifyFailed(line, reason);
    return written;
  };

  /**
   * The lines of a batch that another entry due at the same instant on the robot wins over (priority,
   * then the earlier created entry, then the lower id). Entries still unclaimed are read first, then
   * the claimed lines: an entry claimed in between (by another server) is seen in the second read.
   */
  async function outranked(lines: ScheduleLogRow[]): Promise<Map<number, Winner | null>> {
    const mine = lines.filter((l) => l.robot_id !== null);
    if (mine.length === 0) return new Map();
    const { unclaimed, claimed } = await repo.contenders(
      [...new Set(mine.map((l) => l.robot_id!))],
      [...new Set(mine.map((l) => l.due_at))],
    );
    type Key = readonly [number, string, number];
    type Contender = { scheduleId: number | null; lineId: number | null; title: string; key: Key };
    const key = (priority: number, createdAt: string | null | undefined, id: number | null): Key =>
      [-priority, createdAt ?? '', id ?? Number.MAX_SAFE_INTEGER] as const;
    const beats = (k: Key, m: Key) => k[0] < m[0] || (k[0] === m[0] && (k[1] < m[1] || (k[1] === m[1] && k[2] < m[2])));
    const slot = (robotId: number | null, due: string | null) => `${robotId} ${due === null ? '' : Date.parse(due)}`;
    const bySlot = new Map<string, Contender[]>();
    const add = (s: string, c: Contender) => bySlot.set(s, [...(bySlot.get(s) ?? []), c]);
    for (const u of unclaimed)
      add(slot(u.robot_id, u.next_due_at), {
        scheduleId: u.id,
        lineId: null,
        title: u.title,
        key: key(u.priority, u.created_at, u.id),
      });
    const createdOf = new Map<number, string | null>();
    for (const c of claimed) {
      createdOf.set(c.id, c.created_at);
      add(slot(c.robot_id, c.due_at), {
        scheduleId: c.schedule_id,
        lineId: c.id,
        title: c.title,
        key: key(c.priority, c.created_at, c.schedule_id),
      });
    }
    const losers = new Map<number, Winner | null>();
    for (const line of mine) {
      const me = key(line.priority, createdOf.get(line.id), line.schedule_id);
      let best: Contender | null = null;
      for (const o of bySlot.get(slot(line.robot_id, line.due_at)) ?? [])
        if (o.lineId !== line.id && o.scheduleId !== line.schedule_id && beats(o.key, me))
          if (!best || beats(o.key, best.key)) best = o;
      if (best)
        losers.set(line.id, best.scheduleId === null ? null : { scheduleId: best.scheduleId, title: best.title });
    }
    return losers;
  }

  /**
   * Waits (real time) until the run has ended, renewing the line's lease meanwhile; false when it did
   * not end within the timeout.
   */
  async function ended(runId: number, line: ScheduleLogRow): Promise<boolean> {
    const end = Date.now() + preemptTimeoutMs;
    for (;;) {
      const row = await runRows.byId(runId);
      if (!row || FINAL.has(row.status)) return true;
      if (Date.now() > end || closed) return false;
      await repo.updateLog(line.id, { lease_until: leaseUntil() }, 'pending');
      await new Promise((r) => setTimeout(r, 100));
    }
  }

  type FlowOf = Awaited<ReturnType<typeof repo.flow>>;
  type RobotOf = Awaited<ReturnType<typeof repo.robot>>;

  /** Whether the robot may still be reconnecting: this server started less than the grace period before. */
  const mayReconnect = (line: ScheduleLogRow) =>
    clock().getTime() < Math.min(Date.parse(line.due_at), startedAt) + graceMs;

  /**
   * Carries a claimed line out: the rules that do not depend on the moment (flow, robot), the
   * start-position check ahead of the due time when the robot is there to be asked, then at the due
   * time offline, emergency stop, the check's result, pre-emption and the start.
   */
  async function carryOut(line: ScheduleLogRow, known?: { flow: FlowOf; robot: RobotOf }): Promise<void> {
    const flow = known ? known.flow : line.flow_id === null ? undefined : await repo.flow(line.flow_id);
    const robot = known ? known.robot : line.robot_id === null ? undefined : await repo.robot(line.robot_id);
    const online = robot ? robotLink.details(robot.id)?.online === true : false;
    if (clock().getTime() - Date.parse(line.due_at) > graceMs) {
      if (robot && !online && line.detail.startsWith(WAITING))
        await fail(line, 'ROBOT_OFFLINE', logDetails.robotOffline());
      else await fail(line, 'MISSED', logDetails.missedAfterClaim());
      return;
    }
    if (!flow || flow.enabled !== 1) {
      await fail(line, 'FLOW_UNAVAILABLE', flow ? logDetails.flowDisabled() : logDetails.flowDeleted());
      return;
    }
    if (!robot || robot.deleted_at !== null || robot.building_id !== flow.building_id) {
      await fail(
        line,
        'ROBOT_UNAVAILABLE',
        robot && robot.deleted_at === null ? logDetails.robotOtherBuilding() : logDetails.robotDeleted(),
      );
      return;
    }
    // The start-position check ahead of the due time (photo and comparison take time), when the robot
    // can be asked now; else at the due time.
    const askable = () => {
      const health = checkHealth(robotLink.details(robot.id), 0);
      return !health.problems.includes('offline') && !health.problems.includes('emergencyStop');
    };
    let position = deps.startPosition && askable() ? await checks(() => deps.startPosition!.check(line)) : undefined;
    if (prepareMs > 0) {
      await untilDue(line, prepareMs);
      if (closed) return;
      if (await limit(() => prepare(line, flow, robot.id, position))) return;
    }
    await untilDue(line);
    if (closed) return;
    await limit(async () => {
      if (line.created_at < line.due_at && !(await stillDue(line))) return;
      const health = checkHealth(robotLink.details(robot.id), 0);
      if (health.problems.includes('offline')) {
        if (mayReconnect(line)) {
          // Just after a server start the robots are still reconnecting: tried again shortly (the
          // line stays claimed; its short lease lets this or another server take it up again).
          await repo.updateLog(
            line.id,
            {
              lease_until: iso(new Date(clock().getTime() + retryMs)),
              ...logDetails.waitingForRobot(WAITING, iso(new Date(startedAt))),
            },
            'pending',
          );
          return;
        }
        await fail(line, 'ROBOT_OFFLINE', logDetails.robotOffline());
        return;
      }
      if (health.problems.includes('emergencyStop')) {
        await fail(line, 'EMERGENCY_STOP', logDetails.emergencyStop());
        return;
      }
      // The robot must be at the flow's start position (reference images), before anything is pre-empted.
      position ??= await deps.startPosition?.check(line);
      if (position && !position.pass) {
        await fail(line, 'START_POSITION', logDetails.startPosition(position));
        return;
      }
      await start(line, flow, robot.id, position ? logDetails.startPosition(position) : undefined);
    });
  }

  /**
   * The prepared start (docs/api-schedules.md "Prepared starts"), before the due time: when nothing
   * stands in the way now (robot online and healthy, start position checked and passed, no run to
   * pre-empt, the entry unchanged) the run is started held until the due time; answers whether the
   * line is settled (started, or dropped with its entry). Anything else is left to the due time,
   * where the rules are applied and the reasons logged.
   */
  async function prepare(
    line: ScheduleLogRow,
    flow: NonNullable<FlowOf>,
    robotId: number,
    position: Awaited<ReturnType<StartPositionService['check']>> | undefined,
  ): Promise<boolean> {
    if (Date.parse(line.due_at) <= clock().getTime()) return false;
    if (deps.startPosition && !position?.pass) return false;
    // The health check the start makes (battery, floor, faults...) passes now.
    if (!checkHealth(robotLink.details(robotId), flow.floor_id).ok) return false;
    if (line.created_at < line.due_at && !(await stillDue(line))) return true;
    if (await runRows.activeOfRobot(robotId)) return false;
    await start(line, flow, robotId, position ? logDetails.startPosition(position) : undefined, line.due_at);
    return true;
  }

  /** Carries a line out, marked as in this server's hands meanwhile. */
  const held = async (line: ScheduleLogRow, work: () => Promise<void>) => {
    inHand.add(line.id);
    try {
      await work();
    } finally {
      inHand.delete(line.id);
    }
  };
  const carryOwn = (line: ScheduleLogRow, known: { flow: FlowOf; robot: RobotOf }) =>
    held(line, () => carryOut(line, known));

  /** Whether the entry (as it is now) still has this occurrence on this robot and flow; else its line claimed ahead is dropped. */
  async function stillDue(line: ScheduleLogRow): Promise<boolean> {
    const r = line.schedule_id === null ? undefined : await repo.entryNow(line.schedule_id);
    const ok =
      r !== undefined &&
      r.enabled === 1 &&
      r.robot_id === line.robot_id &&
      r.flow_id === line.flow_id &&
      occurrenceAtInstant(entryOf(r), r.time_zone, new Date(line.due_at), { isHoliday: isJapaneseHoliday }) !== null;
    if (!ok) await repo.dropPending(line.id);
    return ok;
  }

  /** Pre-empts the robot's running flow and starts the line's run. */
  async function start(
    line: ScheduleLogRow,
    flow: NonNullable<FlowOf>,
    robotId: number,
    positionDetail: LogDetail | undefined,
    notBefore?: string,
  ): Promise<void> {
    const p = schedulePrincipal(line.organization_id);
    // Pre-emption: the run already active on the robot is cancelled and ends before this one starts.
    const active = await runRows.activeOfRobot(robotId);
    if (active) {
      try {
        await runs.cancel(p, active.id);
      } catch (err) {
        await fail(line, 'START_FAILED', logDetails.preemptFailed(err));
        return;
      }
      if (!(await ended(active.id, line))) {
        await fail(line, 'START_FAILED', logDetails.preemptTimeout());
        return;
      }
    }
    // Marks the attempt: a server taking the line over looks for the run before starting another. A
    // line taken over meanwhile (this server was too slow for its lease) is left to its new owner.
    if (!(await repo.markStarting(line.id, instanceId, notBefore ?? iso(clock()), leaseUntil()))) return;
    try {
      const run = await runs.start(p, flow.id, robotId, {
        startedBy: null,
        scheduleLogId: line.id,
        ...(notBefore === undefined ? {} : { notBefore }),
      });
      await repo.updateLog(
        line.id,
        {
          result: 'running',
          flow_run_id: run.id,
          started_at: run.startedAt,
          lease_owner: null,
          lease_until: null,
          ...(positionDetail ?? noDetail),
        },
        'pending',
      );
    } catch (err) {
      const e = err instanceof AppError ? err : null;
      if (e?.code === 'HEALTH_CHECK_FAILED') {
        const problems = (e.details ?? []).map((d) => d.code ?? d.message);
        await fail(
          line,
          problems.includes('offline')
            ? 'ROBOT_OFFLINE'
            : problems.includes('emergencyStop')
              ? 'EMERGENCY_STOP'
              : 'HEALTH_CHECK_FAILED',
          logDetails.healthProblems(problems),
        );
      } else {
        await fail(
          line,
          'START_FAILED',
          e ? logDetails.runError(e.code, e.message) : logDetails.runError(null, String((err as Error).message ?? err)),
        );
        if (!e) throw err;
      }
    }
  }

  /** A claimed line left by a server that died (or waiting for its robot): the run it may have started, or a start now. */
  async function recover(line: ScheduleLogRow): Promise<void> {
    if (line.started_at !== null && line.robot_id !== null) {
      const run = await repo.runStartedSince(line.robot_id, line.flow_id, line.started_at);
      if (run) {
        await repo.updateLog(
          line.id,
          { result: 'running', flow_run_id: run.id, started_at: run.started_at, lease_owner: null, lease_until: null },
          'pending',
        );
        return;
      }
    }
    const lost = (await outranked([line])).get(line.id);
    if (lost !== undefined) {
      await fail(line, 'PRIORITY', logDetails.priorityLost(lost));
      return;
    }
    await carryOut(line);
  }

  /** Running lines: the result of their ended run; a flow without moves past its end time is cancelled. */
  async function follow(): Promise<void> {
    const now = clock();
    for (const r of await repo.running()) {
      if (FINAL.has(r.status)) {
        const reason = await repo.logById(r.id);
        await repo.updateLog(
          r.id,
          {
            result: r.status,
            ended_at: r.ended_at ?? iso(now),
            reason: reason?.reason ?? (r.status === 'done' ? null : r.error_code),
            ...(reason?.detail || !r.message ? {} : logDetails.runMessage(r.message)),
          },
          'running',
        );
        continue;
      }
      if (Date.parse(r.end_at) > now.getTime()) continue;
      const reason = await repo.logById(r.id);
      if (reason?.reason === 'END_TIME') continue;
      const steps = JSON.parse(r.definition) as FlowDefinition['steps'];
      if (flowMoves({ version: 1, steps })) continue;
      await repo.updateLog(r.id, { reason: 'END_TIME', ...logDetails.endTime() }, 'running');
      launch(async () => {
        const row = await runRows.byId(r.run_id);
        await runs.cancel(schedulePrincipal(row?.organization_id ?? 0), r.run_id);
      });
    }
  }

  /** Time spent per phase in the last busy round (ms; the server logs it, a benchmark reads it). */
  const phases = { claim: 0, settle: 0, lines: 0 };

  async function round(): Promise<void> {
    const now = clock();
    // Prepared occurrences whose due time the clock has passed (a clock moved by tests; else the timer).
    for (const w of [...waiting.values()]) if (w.due <= now.getTime()) w.go();
    // Occurrences due within the look-ahead, oldest first, a batch at a time; an entry long overdue
    // comes again with its next occurrence.
    const horizon = iso(new Date(now.getTime() + lookAheadMs));
    let t = performance.now();
    const claimed: ScheduleLogRow[] = [];
    for (let i = 0; i < 50 && !closed; i += 1) {
      let lines: ScheduleLogRow[];
      try {
        lines = await claim(horizon, now);
      } catch (err) {
        // A deadlock or serialization failure with another server's batch: the next tick tries again.
        log.warn({ err }, 'schedule occurrences not claimed this round');
        break;
      }
      if (lines.length === 0) break;
      claimed.push(...lines);
    }
    for (const l of claimed) if (l.result === 'fail') await notifyFailed(l, l.reason ?? 'MISSED');
    const pending = claimed.filter((l) => l.result === 'pending');
    phases.claim = performance.now() - t;
    if (pending.length > 0) {
      t = performance.now();
      // The priority rule for the whole batch, then the flows and robots in two reads.
      const losers = await outranked(pending);
      // One statement per winner (the losers of one robot and instant share their detail).
      const byWinner = new Map<string, { winner: Winner | null; ids: number[] }>();
      for (const [id, winner] of losers) {
        const k = winner ? String(winner.scheduleId) : '';
        const group = byWinner.get(k);
        if (group) group.ids.push(id);
        else byWinner.set(k, { winner, ids: [id] });
      }
      const endedAt = iso(clock());
      await repo.failMany(
        [...byWinner.values()].map(({ winner, ids }) => ({
          ids,
          values: {
            result: 'fail',
            reason: 'PRIORITY',
            ...logDetails.priorityLost(winner),
            ended_at: endedAt,
            lease_owner: null,
            lease_until: null,
          },
        })),
      );
      const winners = pending.filter((l) => !losers.has(l.id));
      const flows = new Map(
        (await repo.flowsByIds([...new Set(winners.flatMap((l) => (l.flow_id === null ? [] : [l.flow_id])))])).map(
          (f) => [f.id, f],
        ),
      );
      const robots = new Map(
        (await repo.robotsByIds([...new Set(winners.flatMap((l) => (l.robot_id === null ? [] : [l.robot_id])))])).map(
          (r) => [r.id, r],
        ),
      );
      phases.settle = performance.now() - t;
      for (const line of winners)
        launch(() =>
          carryOwn(line, {
            flow: line.flow_id === null ? undefined : flows.get(line.flow_id),
            robot: line.robot_id === null ? undefined : robots.get(line.robot_id),
          }),
        );
      // The losers' notifications after the winners are on their way (the lines were claimed by this
      // server in this round: no other server fails them; each event is recorded once by its key).
      const lost = pending.filter((l) => losers.has(l.id));
      if (lost.length > 0)
        launch(async () => {
          for (const l of lost) await notifyFailed(l, 'PRIORITY');
        });
      // A slow batch is worth a line in the server's log (the benchmark prints them).
      const detail = { claimed: claimed.length, pending: pending.length, priorityLost: losers.size, ms: { ...phases } };
      if (phases.claim + phases.settle > 500) log.warn(detail, 'schedule occurrences claimed slowly');
      else log.info(detail, 'schedule occurrences claimed');
    }
    // Lines whose claimer died before starting them, or waiting for their robot to come online.
    t = performance.now();
    const sole = deps.soleServer === true;
    const dead = sole ? { notOwner: instanceId, before: iso(new Date(startedAt)) } : undefined;
    for (const line of await repo.abandoned(iso(now), dead)) {
      if (inHand.has(line.id)) continue;
      const fromDead =
        dead && line.lease_owner !== instanceId && line.created_at < dead.before ? line.lease_owner : null;
      if (await repo.takeOver(line.id, instanceId, iso(now), leaseUntil(line.due_at), fromDead))
        launch(() => held(line, () => recover(line)));
    }
    phases.lines = performance.now() - t;
    await follow();
  }

  /** One round (the timer runs it every `tickMs`); concurrent calls share the round in progress. */
  function tick(): Promise<void> {
    if (closed) return Promise.resolve();
    ticking ??= round()
      .catch((err: unknown) => log.error({ err }, 'schedule round failed'))
      .finally(() => {
        ticking = null;
      });
    return ticking;
  }

  const timer = deps.tickMs > 0 ? setInterval(() => void tick(), deps.tickMs) : null;
  timer?.unref();

  return {
    instanceId,
    tick,
    /** Waits for the starts launched so far (tests). */
    async idle(): Promise<void> {
      while (tasks.size > 0) await Promise.all([...tasks]);
    },
    /** Stops ticking and lets the starts in progress end. `kill`: stop at once as a killed server would. */
    async close(opts: { kill?: boolean } = {}): Promise<void> {
      closed = true;
      if (timer) clearInterval(timer);
      // Occurrences waiting for their due time are left to another server or the restart: at once
      // (lease released) when closing, after their lease when killed.
      const waitingIds = [...waiting.keys()];
      for (const w of [...waiting.values()]) w.go();
      if (opts.kill) return;
      for (const id of waitingIds) await repo.updateLog(id, { lease_until: null }, 'pending').catch(() => undefined);
      await ticking;
      await Promise.all([...tasks]);
    },
  };
}
export type ScheduleDispatcher = ReturnType<typeof createDispatcher>;
