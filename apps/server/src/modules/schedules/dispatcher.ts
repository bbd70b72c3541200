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
import type { Database } from '../../db/schema.ts';
import { AppError } from '../../lib/errors.ts';
import { isUniqueViolation } from '../organizations/admin-rules.ts';
import type { RobotLink } from '../robot-link/types.ts';
import { checkHealth } from '../flow-runs/health-check.ts';
import { runRepo } from '../flow-runs/run-repo.ts';
import { isJapaneseHoliday } from './holidays.ts';
import { entryOf } from './schedule-service.ts';
import { scheduleRepo, type ScheduleLogRow, type ScheduleRow } from './schedule-repo.ts';
import type { StartPositionService } from './start-position-service.ts';

/** What the dispatcher needs of the flow-run service. */
export interface ScheduleRuns {
  start(p: Principal, flowId: number, robotId: number, opts: { startedBy: null }): Promise<FlowRun>;
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
}

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
 * The schedule dispatcher (docs/api-schedules.md "Dispatcher"): every tick each server reads the
 * entries whose `next_due_at` has come and claims each occurrence by a conditional update of that
 * column in the transaction that inserts its log line, so exactly one server claims it (the log's
 * unique `(schedule_id, due_at)` is the second guard). The claimer then starts the run (or logs why
 * not); a claimed line whose claimer died before starting is taken over when its lease runs out.
 * Running lines follow their run to its end (done, fail, cancel, unknown), and a flow without moves
 * still running at the occurrence's end is cancelled (END_TIME).
 */
export function createDispatcher(deps: DispatcherDeps) {
  const { db, clock, log, robotLink, runs } = deps;
  const repo = scheduleRepo(db);
  const runRows = runRepo(db);
  const instanceId = randomUUID();
  const leaseMs = deps.leaseMs ?? 60_000;
  const preemptTimeoutMs = deps.preemptTimeoutMs ?? 30_000;
  const batch = deps.batch ?? 200;
  const tasks = new Set<Promise<void>>();
  let ticking: Promise<void> | null = null;
  let closed = false;
  const iso = (d: Date) => d.toISOString();
  const leaseUntil = () => iso(new Date(clock().getTime() + leaseMs));

  const launch = (work: () => Promise<void>) => {
    const p = work()
      .catch((err: unknown) => log.error({ err }, 'schedule occurrence not carried out'))
      .finally(() => tasks.delete(p));
    tasks.add(p);
  };

  /** The occurrence after `due` (null: none left). */
  const following = (r: ScheduleRow, due: string): string | null =>
    nextOccurrence(entryOf(r), r.time_zone, new Date(due), { isHoliday: isJapaneseHoliday })?.startAt ?? null;

  /** Claims the due occurrence of one entry: true when this server won it (its log line is inserted). */
  async function claim(r: ScheduleRow, now: Date): Promise<ScheduleLogRow | null> {
    const due = r.next_due_at!;
    const occurrence = occurrenceAtInstant(entryOf(r), r.time_zone, new Date(due), { isHoliday: isJapaneseHoliday });
    const endAt = occurrence?.endAt ?? due;
    const late = now.getTime() - Date.parse(due) > deps.graceMinutes * 60_000;
    try {
      return await db.transaction().execute(async (trx) => {
        if (!(await repo.advance(r.id, due, following(r, due), trx))) return null;
        const id = await repo.insertLog(
          {
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
            detail: late
              ? `found ${Math.round((now.getTime() - Date.parse(due)) / 60_000)} min after its due time`
              : '',
            lease_owner: late ? null : instanceId,
            lease_until: late ? null : leaseUntil(),
            created_at: iso(now),
          },
          trx,
        );
        return (await repo.logById(id, trx))!;
      });
    } catch (err) {
      // Another server inserted this occurrence's line first (the second guard).
      if (isUniqueViolation(err)) return null;
      throw err;
    }
  }

  const fail = (line: ScheduleLogRow, reason: ScheduleLogReason, detail: string) =>
    repo.updateLog(
      line.id,
      {
        result: 'fail',
        reason,
        detail: detail.slice(0, 1000),
        ended_at: iso(clock()),
        lease_owner: null,
        lease_until: null,
      },
      'pending',
    );

  /**
   * Whether another entry due at the same instant on the robot wins over this line (priority, then
   * the earlier created entry, then the lower id). Entries still unclaimed are read first, then the
   * claimed lines: an entry claimed in between is seen in the second read.
   */
  async function outranked(line: ScheduleLogRow): Promise<boolean> {
    if (line.robot_id === null) return false;
    const unclaimed = await repo.dueOnRobot(line.robot_id, line.due_at);
    const claimed = await repo.rivals(line.robot_id, line.due_at, line.id);
    const me = line.schedule_id === null ? undefined : await repo.createdAt(line.schedule_id);
    const key = (priority: number, createdAt: string | null | undefined, id: number | null) =>
      [-priority, createdAt ?? '', id ?? Number.MAX_SAFE_INTEGER] as const;
    const mine = key(line.priority, me?.created_at, line.schedule_id);
    const beats = (k: readonly [number, string, number]) =>
      k[0] < mine[0] || (k[0] === mine[0] && (k[1] < mine[1] || (k[1] === mine[1] && k[2] < mine[2])));
    return (
      unclaimed.some((u) => u.id !== line.schedule_id && beats(key(u.priority, u.created_at, u.id))) ||
      claimed.some((c) => c.schedule_id !== line.schedule_id && beats(key(c.priority, c.created_at, c.schedule_id)))
    );
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

  /** Starts the run of a claimed line (or logs why it did not start). */
  async function carryOut(line: ScheduleLogRow): Promise<void> {
    const now = clock();
    if (now.getTime() - Date.parse(line.due_at) > deps.graceMinutes * 60_000) {
      await fail(line, 'MISSED', 'its server stopped before starting it; found after the grace period');
      return;
    }
    if (await outranked(line)) {
      await fail(line, 'PRIORITY', 'another entry due at the same time on this robot won');
      return;
    }
    const flow = line.flow_id === null ? undefined : await repo.flow(line.flow_id);
    if (!flow || flow.enabled !== 1) {
      await fail(line, 'FLOW_UNAVAILABLE', flow ? 'the flow is disabled' : 'the flow was deleted');
      return;
    }
    const robot = line.robot_id === null ? undefined : await repo.robot(line.robot_id);
    if (!robot || robot.deleted_at !== null || robot.building_id !== flow.building_id) {
      await fail(
        line,
        'ROBOT_UNAVAILABLE',
        robot ? 'the robot is not in the flow’s building' : 'the robot was deleted',
      );
      return;
    }
    const health = checkHealth(robotLink.details(robot.id), 0);
    if (health.problems.includes('offline')) {
      await fail(line, 'ROBOT_OFFLINE', 'the robot is offline');
      return;
    }
    if (health.problems.includes('emergencyStop')) {
      await fail(line, 'EMERGENCY_STOP', 'the robot is in an emergency stop');
      return;
    }
    // The robot must be at the flow's start position (reference images), before anything is pre-empted.
    const position = await deps.startPosition?.check(line);
    if (position && !position.pass) {
      await fail(line, 'START_POSITION', position.detail);
      return;
    }
    const p = schedulePrincipal(line.organization_id);
    // Pre-emption: the run already active on the robot is cancelled and ends before this one starts.
    const active = await runRows.activeOfRobot(robot.id);
    if (active) {
      try {
        await runs.cancel(p, active.id);
      } catch (err) {
        await fail(line, 'START_FAILED', `the running flow could not be cancelled: ${(err as Error).message}`);
        return;
      }
      if (!(await ended(active.id, line))) {
        await fail(line, 'START_FAILED', 'the running flow did not end in time');
        return;
      }
    }
    // Marks the attempt: a server taking the line over looks for the run before starting another.
    await repo.updateLog(line.id, { started_at: iso(clock()), lease_until: leaseUntil() }, 'pending');
    try {
      const run = await runs.start(p, flow.id, robot.id, { startedBy: null });
      await repo.updateLog(
        line.id,
        {
          result: 'running',
          flow_run_id: run.id,
          started_at: run.startedAt,
          lease_owner: null,
          lease_until: null,
          ...(position ? { detail: position.detail.slice(0, 1000) } : {}),
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
          problems.join(', '),
        );
      } else {
        await fail(line, 'START_FAILED', e ? `${e.code}: ${e.message}` : String((err as Error).message ?? err));
        if (!e) throw err;
      }
    }
  }

  /** A claimed line left by a server that died: the run it may have started, or a start now. */
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
            detail: reason?.detail || (r.message ?? ''),
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
      await repo.updateLog(r.id, { reason: 'END_TIME', detail: 'stopped at the entry’s end time' }, 'running');
      launch(async () => {
        const row = await runRows.byId(r.run_id);
        await runs.cancel(schedulePrincipal(row?.organization_id ?? 0), r.run_id);
      });
    }
  }

  async function round(): Promise<void> {
    const now = clock();
    // Due occurrences, oldest first; an entry long overdue comes again with its next occurrence.
    for (let i = 0; i < 50 && !closed; i += 1) {
      const due = await repo.due(iso(now), batch);
      if (due.length === 0) break;
      let claimedAny = false;
      for (const r of due) {
        let line: ScheduleLogRow | null;
        try {
          line = await claim(r, now);
        } catch (err) {
          // One entry that cannot be claimed (its data) must not hold up the others.
          log.error({ err, scheduleId: r.id }, 'schedule occurrence not claimed');
          continue;
        }
        if (!line) continue;
        claimedAny = true;
        if (line.result === 'pending') launch(() => carryOut(line));
      }
      if (!claimedAny) break;
    }
    // Lines whose claimer died before starting them.
    for (const line of await repo.abandoned(iso(now))) {
      if (await repo.takeOver(line.id, instanceId, iso(now), leaseUntil())) launch(() => recover(line));
    }
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
      if (opts.kill) return;
      await ticking;
      await Promise.all([...tasks]);
    },
  };
}
export type ScheduleDispatcher = ReturnType<typeof createDispatcher>;
