import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startRobot, type SimRobot } from '@portal/robot-sim';
import { scheduleLogSchema, toZoned, type FlowRun, type FlowStep, type ScheduleLog } from '@portal/contract';
import { demoMapDocument } from '../src/seed.ts';
import { createDispatcher, type ScheduleDispatcher, type ScheduleRuns } from '../src/modules/schedules/dispatcher.ts';
import { runRepo } from '../src/modules/flow-runs/run-repo.ts';
import { flowRunService } from '../src/modules/flow-runs/run-service.ts';
import { createRunner, type FlowRunner } from '../src/modules/flow-runs/runner.ts';
import { activityService } from '../src/modules/activity/activity-service.ts';
import { createOutbound } from '../src/lib/outbound.ts';
import { join } from 'node:path';
import { buildApp } from '../src/app.ts';
import { createAudit } from '../src/services/audit.ts';
import { createMailer } from '../src/services/mailer.ts';
import { createReadCaches } from '../src/services/read-cache.ts';
import { createFileStore } from '../src/services/file-store.ts';
import { createTestApp, registerDemoRobot, simOptions, until, usingPostgres, type TestApp } from './helpers.ts';

/**
 * The schedule dispatcher against a real simulated robot (docs/api-schedules.md "Dispatcher"): the
 * app's clock is moved forward instead of waiting, and the dispatcher's rounds are run by the test
 * (`SCHEDULE_TICK_MS=0`), so "not started" is read right after a round, never waited for.
 */
describe('schedule dispatcher', () => {
  let t: TestApp;
  let sim: SimRobot;
  let robotId: number;
  let offlineRobotId: number;
  let floorId: number;
  let buildingId: number;
  let admin: string;
  let offsetMinutes = 0;
  const silent = { error: () => undefined, warn: () => undefined, info: () => undefined };

  const dispatcher = () => (t.app as unknown as { scheduleDispatcher: ScheduleDispatcher }).scheduleDispatcher;
  const round = async (d = dispatcher()) => {
    await d.tick();
    await d.idle();
  };
  const advance = (minutes: number) => {
    offsetMinutes += minutes;
    t.advance(minutes);
  };
  /** The app's clock. */
  const now = () => Date.now() + offsetMinutes * 60_000;
  /** A wall-clock time of the building (Asia/Tokyo) `minutes` from the app's now (to the minute). */
  const local = (minutes: number) => toZoned(now() + minutes * 60_000, 'Asia/Tokyo');

  async function createFlow(name: string, steps: FlowStep[]): Promise<number> {
    const res = await t.call('POST', '/flows', admin, {
      name,
      description: '',
      buildingId,
      floorId,
      flowGroupId: null,
      enabled: true,
      definition: { version: 1, steps },
    });
    expect(res.statusCode, res.body).toBe(201);
    return res.json<{ id: number }>().id;
  }
  async function createEntry(over: Record<string, unknown>): Promise<number> {
    const res = await t.call('POST', '/schedules', admin, {
      title: 'Entry',
      description: '',
      robotId,
      start: local(2),
      end: local(32),
      repeat: 'none',
      weekdays: [0],
      repeatUntil: null,
      priority: false,
      skipHolidays: false,
      enabled: true,
      exceptions: [],
      ...over,
    });
    expect(res.statusCode, res.body).toBe(201);
    return res.json<{ id: number }>().id;
  }
  const logsOf = async (scheduleId: number): Promise<ScheduleLog[]> => {
    const filter = encodeURIComponent(JSON.stringify({ where: { scheduleId } }));
    const res = await t.call('GET', `/schedule-logs?filter=${filter}`, admin);
    expect(res.statusCode, res.body).toBe(200);
    return res.json<unknown[]>().map((l) => scheduleLogSchema.parse(l));
  };
  const runCount = async () =>
    Number(
      (
        await t.db.kysely
          .selectFrom('flow_runs')
          .select((eb) => eb.fn.countAll().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );
  /** The entry's next due time (ISO), as the dispatcher will claim it. */
  const dueOf = async (scheduleId: number) =>
    (
      await t.db.kysely
        .selectFrom('schedules')
        .select('next_due_at')
        .where('id', '=', scheduleId)
        .executeTakeFirstOrThrow()
    ).next_due_at;
  const runStatus = async (id: number) => (await runRepo(t.db.kysely).byId(id))?.status;
  const runEnded = (id: number) =>
    until(async () => {
      const s = await runStatus(id);
      return s !== 'running' && s !== 'paused' ? s : undefined;
    }, 30_000);

  let waitFlow: number;
  let longWaitFlow: number;

  afterEach(async () => {
    await dispatcher().idle();
    const active = await runRepo(t.db.kysely).activeOfRobot(robotId);
    if (active) {
      await t.call('POST', `/flow-runs/${active.id}/cancel`, admin);
      await runEnded(active.id);
    }
    // Entries of a finished test must not come due in the next one.
    await t.db.kysely.updateTable('schedules').set({ enabled: 0, next_due_at: null }).execute();
  });

  beforeAll(async () => {
    t = await createTestApp({ SCHEDULE_TICK_MS: '0', SCHEDULE_GRACE_MINUTES: '10' });
    admin = (await t.as('orgadmin@demo.example')).authorization;
    const r = await registerDemoRobot(t, { serialNo: 'SCHED-001', name: 'Scheduled', model: 'pro' });
    robotId = r.created.robot.id;
    floorId = r.floorId;
    buildingId = r.buildingId;
    const off = await registerDemoRobot(t, { serialNo: 'SCHED-OFF', name: 'Never online', model: 'pro' });
    offlineRobotId = off.created.robot.id;
    const saved = await t.call('PUT', `/floors/${floorId}/map`, admin, {
      baseRevision: 0,
      document: demoMapDocument(),
    });
    expect(saved.statusCode, saved.body).toBe(200);
    sim = await startRobot(
      simOptions(r.created, {
        model: 'pro',
        mapId: `floor-${floorId}`,
        start: { x: 3, y: 1, theta: 0 },
        battery: 90,
        speedScale: 10,
        visualizationHz: 5,
      }),
    );
    await until(() => t.link.details(robotId)?.online && t.link.details(robotId)?.state);
    waitFlow = await createFlow('Short wait', [{ kind: 'wait', id: 'w', seconds: 1 }]);
    longWaitFlow = await createFlow('Long wait', [{ kind: 'wait', id: 'w', seconds: 120 }]);
  });

  afterAll(async () => {
    await sim?.stop().catch(() => undefined);
    await t?.close();
  });

  it('starts a due occurrence once, as "schedule", and the log follows the run to done', async () => {
    const id = await createEntry({ title: 'Due soon', flowId: waitFlow });
    const runsBefore = await runCount();
    await round();
    expect(await logsOf(id)).toEqual([]);
    expect(await runCount()).toBe(runsBefore);

    advance(3);
    await round();
    const [line] = await logsOf(id);
    expect(line).toMatchObject({ result: 'running', reason: null, title: 'Due soon', robotId, flowId: waitFlow });
    expect(line!.flowRunId).not.toBeNull();
    const run = await runRepo(t.db.kysely).byId(line!.flowRunId!);
    expect(run).toMatchObject({ robot_id: robotId, flow_id: waitFlow, started_by: null });
    // A second round claims nothing more: the entry (once) has no occurrence left.
    await round();
    expect(await logsOf(id)).toHaveLength(1);
    expect(await runCount()).toBe(runsBefore + 1);
    const entry = await t.call('GET', `/schedules/${id}`, admin);
    expect(entry.json<{ nextAt: string | null }>().nextAt).toBeNull();

    expect(await runEnded(line!.flowRunId!)).toBe('done');
    await round();
    const [after] = await logsOf(id);
    expect(after).toMatchObject({ result: 'done' });
    expect(after!.endedAt).not.toBeNull();
  });

  it('logs an occurrence found after the grace period (server down) as missed, without a run', async () => {
    const id = await createEntry({ title: 'Missed', flowId: waitFlow });
    const runsBefore = await runCount();
    // Every server was down from before the due time until 13 minutes after it.
    advance(15);
    await round();
    const [line] = await logsOf(id);
    expect(line).toMatchObject({ result: 'fail', reason: 'MISSED', flowRunId: null });
    expect(await runCount()).toBe(runsBefore);
  });

  it('pre-empts the flow running on the robot: cancelled and ended before the entry starts', async () => {
    const manual = await t.call('POST', `/flows/${longWaitFlow}/runs`, admin, { robotId });
    expect(manual.statusCode, manual.body).toBe(201);
    const manualRun = manual.json<FlowRun>();
    const id = await createEntry({ title: 'Pre-empts', flowId: waitFlow });
    advance(3);
    await round();
    expect(await runStatus(manualRun.id)).toBe('cancel');
    const [line] = await logsOf(id);
    expect(line).toMatchObject({ result: 'running' });
    expect(line!.flowRunId).not.toBe(manualRun.id);
    expect(await runStatus(line!.flowRunId!)).toBe('running');
  });

  it('gives one robot to the priority entry when two are due at once; the other is logged PRIORITY', async () => {
    const start = local(2);
    const end = local(10);
    const plain = await createEntry({ title: 'Plain', flowId: waitFlow, start, end });
    const first = await createEntry({ title: 'Plain, created later', flowId: waitFlow, start, end });
    const urgent = await createEntry({ title: 'Urgent', flowId: longWaitFlow, start, end, priority: true });
    advance(3);
    await round();
    const [won] = await logsOf(urgent);
    expect(won).toMatchObject({ result: 'running' });
    for (const id of [plain, first])
      expect((await logsOf(id))[0]).toMatchObject({ result: 'fail', reason: 'PRIORITY' });
  });

  it('between two entries of the same priority, the earlier created wins', async () => {
    const start = local(2);
    const end = local(10);
    const earlier = await createEntry({ title: 'Earlier', flowId: longWaitFlow, start, end });
    const later = await createEntry({ title: 'Later', flowId: waitFlow, start, end });
    advance(3);
    await round();
    expect((await logsOf(earlier))[0]).toMatchObject({ result: 'running' });
    expect((await logsOf(later))[0]).toMatchObject({ result: 'fail', reason: 'PRIORITY' });
  });

  it('logs an offline robot as a failure with the reason, without a run', async () => {
    // The server has been up longer than the grace period (just after a start it would wait for the robot).
    advance(11);
    const id = await createEntry({ title: 'Offline', flowId: waitFlow, robotId: offlineRobotId });
    const runsBefore = await runCount();
    advance(3);
    await round();
    expect((await logsOf(id))[0]).toMatchObject({ result: 'fail', reason: 'ROBOT_OFFLINE' });
    expect(await runCount()).toBe(runsBefore);
  });

  it('logs an emergency stop and a failing health check as failures with the reason, without a run', async () => {
    const runsBefore = await runCount();
    sim.injectFault('emergencyStop');
    try {
      await until(() => t.link.details(robotId)?.state?.safetyState.eStop !== 'NONE');
      const id = await createEntry({ title: 'E-stop', flowId: waitFlow });
      advance(3);
      await round();
      expect((await logsOf(id))[0]).toMatchObject({ result: 'fail', reason: 'EMERGENCY_STOP' });
    } finally {
      sim.clearFault('emergencyStop');
    }
    await until(() => t.link.details(robotId)?.state?.safetyState.eStop === 'NONE');
    sim.injectFault('lowBattery');
    try {
      await until(() => (t.link.details(robotId)?.state?.batteryState.batteryCharge ?? 100) < 20);
      const id = await createEntry({ title: 'Low battery', flowId: waitFlow });
      advance(3);
      await round();
      expect((await logsOf(id))[0]).toMatchObject({
        result: 'fail',
        reason: 'HEALTH_CHECK_FAILED',
        detail: 'lowBattery',
      });
    } finally {
      sim.clearFault('lowBattery');
    }
    await until(() => (t.link.details(robotId)?.state?.batteryState.batteryCharge ?? 0) >= 20);
    expect(await runCount()).toBe(runsBefore);
  });

  it('stops a flow without moves at the end time (END_TIME) and logs the run as cancelled', async () => {
    const id = await createEntry({ title: 'Ends', flowId: longWaitFlow, start: local(2), end: local(4) });
    advance(3);
    await round();
    const [line] = await logsOf(id);
    expect(line).toMatchObject({ result: 'running' });
    await round();
    expect(await runStatus(line!.flowRunId!)).toBe('running');
    advance(3);
    await round();
    expect(await runEnded(line!.flowRunId!)).toBe('cancel');
    await round();
    expect((await logsOf(id))[0]).toMatchObject({ result: 'cancel', reason: 'END_TIME' });
  });

  it('two dispatchers on one database claim each occurrence exactly once', async () => {
    const started: string[] = [];
    const runs: ScheduleRuns = {
      start: async (_p, flowId, robot) => {
        started.push(`${flowId}/${robot}`);
        return { id: -1, startedAt: new Date(now()).toISOString() } as FlowRun;
      },
      cancel: async () => ({}) as FlowRun,
    };
    const make = () =>
      createDispatcher({
        db: t.db.kysely,
        clock: () => new Date(now()),
        log: silent,
        robotLink: t.link,
        runs,
        graceMinutes: 10,
        tickMs: 0,
      });
    const a = make();
    const b = make();
    const ids: number[] = [];
    // Eight entries due a minute apart, each on its own minute (no priority contest).
    for (let i = 0; i < 8; i += 1)
      ids.push(await createEntry({ title: `Race ${i}`, flowId: waitFlow, start: local(2 + i), end: local(3 + i) }));
    advance(10);
    await Promise.all([a.tick(), b.tick(), a.tick(), b.tick()]);
    await Promise.all([a.idle(), b.idle()]);
    await Promise.all([a.tick(), b.tick()]);
    await Promise.all([a.idle(), b.idle()]);
    for (const id of ids) {
      const lines = await logsOf(id);
      expect(lines, `entry ${id}`).toHaveLength(1);
      expect(lines[0]).toMatchObject({ result: 'running', flowRunId: -1 });
    }
    expect(started).toHaveLength(8);
    await a.close();
    await b.close();
    await t.db.kysely.deleteFrom('schedule_logs').where('flow_run_id', '=', -1).execute();
  });

  // PostgreSQL only: SQLite runs one writer at a time, so there is no lock to skip.
  it.runIf(usingPostgres())(
    'a dispatcher claims the due entries another server’s claim holds locked last, the others meanwhile (PostgreSQL)',
    async () => {
      const started: number[] = [];
      const runs: ScheduleRuns = {
        start: async (_p, _flowId, _robot, opts) => {
          started.push(opts.scheduleLogId);
          return { id: -1, startedAt: new Date(now()).toISOString() } as FlowRun;
        },
        cancel: async () => ({}) as FlowRun,
      };
      const d = createDispatcher({
        db: t.db.kysely,
        dialect: 'postgres',
        clock: () => new Date(now()),
        log: silent,
        robotLink: t.link,
        runs,
        graceMinutes: 10,
        tickMs: 0,
        batch: 2,
      });
      const ids: number[] = [];
      for (let i = 0; i < 4; i += 1)
        ids.push(await createEntry({ title: `Locked ${i}`, flowId: waitFlow, start: local(2 + i), end: local(3 + i) }));
      advance(10);
      // Another server in the middle of claiming the two oldest entries: their rows are locked.
      let release!: () => void;
      const released = new Promise<void>((r) => (release = r));
      let lockedNow!: () => void;
      const locked = new Promise<void>((r) => (lockedNow = r));
      const other = t.db.kysely.transaction().execute(async (trx) => {
        await trx.selectFrom('schedules').select('id').where('id', 'in', ids.slice(0, 2)).forUpdate().execute();
        lockedNow();
        await released;
      });
      await locked;
      // Without skipping, this round would wait on those rows until the other transaction ends.
      await round(d);
      expect((await Promise.all(ids.map(logsOf))).map((l) => l.length)).toEqual([0, 0, 1, 1]);
      release();
      await other;
      await round(d);
      expect((await Promise.all(ids.map(logsOf))).map((l) => l.length)).toEqual([1, 1, 1, 1]);
      expect(started).toHaveLength(4);
      await d.close();
      await t.db.kysely.deleteFrom('schedule_logs').where('flow_run_id', '=', -1).execute();
    },
  );

  it('a server killed between claim and start: another server starts the occurrence once its lease runs out', async () => {
    const hang: ScheduleRuns = {
      start: () => new Promise<FlowRun>(() => undefined),
      cancel: async () => ({}) as FlowRun,
    };
    const doomed = createDispatcher({
      db: t.db.kysely,
      clock: () => new Date(now()),
      log: silent,
      robotLink: t.link,
      runs: hang,
      graceMinutes: 10,
      tickMs: 0,
    });
    const id = await createEntry({ title: 'Survives', flowId: waitFlow });
    advance(3);
    await doomed.tick();
    await until(async () => (await logsOf(id))[0]?.result === 'running');
    await doomed.close({ kill: true });
    // Claimed, not started: the app's dispatcher leaves it while the lease holds...
    await round();
    expect((await logsOf(id))[0]!.flowRunId).toBeNull();
    // ...and takes it over when it has run out (a minute), still within the grace period.
    advance(2);
    await round();
    const [line] = await logsOf(id);
    expect(line).toMatchObject({ result: 'running' });
    expect(line!.flowRunId).not.toBeNull();
    expect(await runStatus(line!.flowRunId!)).toBe('running');
    expect(await logsOf(id)).toHaveLength(1);
  });
  it('prepares the run of a free, healthy robot ahead of the due time and holds its first step until then', async () => {
    const runner = (t.app as unknown as { flowRunner: FlowRunner }).flowRunner;
    const id = await createEntry({ title: 'Prepared', flowId: waitFlow });
    const next_due_at = await dueOf(id);
    const due = Date.parse(next_due_at!);
    // Two seconds before the due time: within the prepare window (5 s).
    advance((due - 2_000 - now()) / 60_000);
    await round();
    const [line] = await logsOf(id);
    expect(line).toMatchObject({ result: 'running', startedAt: new Date(due).toISOString() });
    const run = (await runRepo(t.db.kysely).byId(line!.flowRunId!))!;
    expect(run).toMatchObject({ status: 'running', started_at: new Date(due).toISOString() });
    // Held: no step has begun, and a heartbeat before the due time lets nothing go.
    await runner.heartbeat();
    expect(await runRepo(t.db.kysely).lastStep(run.id)).toBeUndefined();
    // A manual start on the robot meanwhile is refused: the robot is taken by the prepared run.
    const manual = await t.call('POST', `/flows/${waitFlow}/runs`, admin, { robotId });
    expect(manual.statusCode, manual.body).toBe(409);
    // The due time comes: the first step begins, and the run goes to its end.
    advance(3 / 60);
    await runner.heartbeat();
    await until(async () => (await runRepo(t.db.kysely).lastStep(run.id)) !== undefined);
    expect(await runEnded(run.id)).toBe('done');
    await round();
    expect(await logsOf(id)).toMatchObject([{ result: 'done' }]);
  });
  it('a prepared run that begins with a move has its step and order ready ahead and sends the order at the due time', async () => {
    const runner = (t.app as unknown as { flowRunner: FlowRunner }).flowRunner;
    const moveFlow = await createFlow('Prepared move', [
      { kind: 'moveToWaypoint', id: 'there', waypointId: 4 },
      { kind: 'moveToWaypoint', id: 'back', waypointId: 2 },
    ]);
    const id = await createEntry({ title: 'Prepared move', flowId: moveFlow });
    const next_due_at = await dueOf(id);
    const due = new Date(Date.parse(next_due_at!)).toISOString();
    advance((Date.parse(due) - 2_000 - now()) / 60_000);
    await round();
    const [line] = await logsOf(id);
    const runId = line!.flowRunId!;
    // Ahead of the due time: the first step is recorded (as beginning at the due time) and its order
    // is built and stored with the run, but not sent.
    const cursorOf = async () =>
      JSON.parse((await runRepo(t.db.kysely).byId(runId))!.cursor) as { order: { orderId: string } | null };
    await until(async () => (await cursorOf()).order !== null);
    const step = await runRepo(t.db.kysely).lastStep(runId);
    expect(step).toMatchObject({ step_id: 'there', result: 'running', started_at: due });
    const orderId = (await cursorOf()).order!.orderId;
    await runner.heartbeat();
    expect(t.link.details(robotId)?.state?.orderId).not.toBe(orderId);
    // The due time: the order goes to the robot and the run goes on to its end.
    advance(3 / 60);
    await runner.heartbeat();
    await until(() => t.link.details(robotId)?.state?.orderId === orderId);
    expect(await runEnded(runId)).toBe('done');
  });
  it('a server killed while it holds a prepared run: the server picking the run up sends the first order, the run is not lost', async () => {
    const log = silent;
    const ctx = { db: t.db.kysely, clock: () => new Date(now()), robotLink: t.link };
    const runnerDeps = {
      db: t.db.kysely,
      robotLink: t.link,
      log,
      outbound: createOutbound(),
      activity: activityService(ctx),
      mapOf: () => Promise.resolve(demoMapDocument()),
      recoveryGraceMs: 0,
    };
    const doomedRunner = createRunner({ ...runnerDeps, clock: () => new Date(now()) });
    const doomed = createDispatcher({
      db: t.db.kysely,
      clock: () => new Date(now()),
      log,
      robotLink: t.link,
      runs: flowRunService(ctx, doomedRunner, { controllerOf: () => null } as never),
      graceMinutes: 10,
      tickMs: 0,
    });
    const moveFlow = await createFlow('Prepared, then killed', [
      { kind: 'moveToWaypoint', id: 'there', waypointId: 4 },
      { kind: 'moveToWaypoint', id: 'back', waypointId: 2 },
    ]);
    const id = await createEntry({ title: 'Prepared, then killed', flowId: moveFlow });
    const next_due_at = await dueOf(id);
    advance((Date.parse(next_due_at!) - 2_000 - now()) / 60_000);
    await doomed.tick();
    await doomed.idle();
    const runId = (await logsOf(id))[0]!.flowRunId!;
    const cursorOf = async () =>
      JSON.parse((await runRepo(t.db.kysely).byId(runId))!.cursor) as { order: { orderId: string } | null };
    await until(async () => (await cursorOf()).order !== null);
    // Killed as a kill -9 would, the first order built and held, not sent.
    await doomedRunner.close({ release: false });
    await doomed.close({ kill: true });
    const rescuer = createRunner({ ...runnerDeps, clock: () => new Date(now() + 60_000) });
    try {
      await rescuer.heartbeat();
      expect(rescuer.owns(runId)).toBe(true);
      // Picked up, not closed as unknown: the first order goes out now and the run drives to its end.
      expect(await runEnded(runId)).toBe('done');
      await round();
      expect(await logsOf(id)).toMatchObject([{ result: 'done' }]);
    } finally {
      await rescuer.close();
    }
  });
  it('a prepared run cancelled before its due time ends as cancelled without a step', async () => {
    const id = await createEntry({ title: 'Prepared, then cancelled', flowId: waitFlow });
    const next_due_at = await dueOf(id);
    advance((Date.parse(next_due_at!) - 2_000 - now()) / 60_000);
    await round();
    const [line] = await logsOf(id);
    expect(line!.flowRunId).not.toBeNull();
    const cancel = await t.call('POST', `/flow-runs/${line!.flowRunId}/cancel`, admin);
    expect(cancel.statusCode, cancel.body).toBe(200);
    expect(await runEnded(line!.flowRunId!)).toBe('cancel');
    expect(await runRepo(t.db.kysely).lastStep(line!.flowRunId!)).toBeUndefined();
    await round();
    expect(await logsOf(id)).toMatchObject([{ result: 'cancel' }]);
  });
  it('the sole server (SQLite) restarted after a kill takes its dead incarnation’s claimed lines over at once', async () => {
    const hang: ScheduleRuns = {
      start: () => new Promise<FlowRun>(() => undefined),
      cancel: async () => ({}) as FlowRun,
    };
    const deps = {
      db: t.db.kysely,
      clock: () => new Date(now()),
      log: silent,
      robotLink: t.link,
      graceMinutes: 10,
      tickMs: 0,
    };
    const doomed = createDispatcher({ ...deps, runs: hang, soleServer: true });
    const id = await createEntry({ title: 'Restarted', flowId: waitFlow });
    advance(3);
    await doomed.tick();
    await doomed.close({ kill: true });
    expect((await logsOf(id))[0]).toMatchObject({ result: 'running', flowRunId: null });
    // A few seconds later the server runs again: the line's lease has most of its minute left, yet
    // the new incarnation starts the occurrence in its first round.
    advance(0.05);
    const runner = (t.app as unknown as { flowRunner: FlowRunner }).flowRunner;
    const real = flowRunService({ db: t.db.kysely, clock: () => new Date(now()), robotLink: t.link }, runner, {
      controllerOf: () => null,
    } as never);
    const restarted = createDispatcher({ ...deps, runs: real, soleServer: true });
    try {
      await round(restarted);
      const lines = await logsOf(id);
      expect(lines).toHaveLength(1);
      expect(lines[0]!.flowRunId).not.toBeNull();
      expect(await runStatus(lines[0]!.flowRunId!)).toBe('running');
      // Lines a live instance claimed after this one started are not taken (two instances, as in tests).
      const other = await createEntry({ title: 'Claimed by a live one', flowId: waitFlow });
      advance(3);
      const live = createDispatcher({ ...deps, runs: hang });
      await live.tick();
      await round(restarted);
      expect((await logsOf(other))[0]).toMatchObject({ result: 'running', flowRunId: null });
      await live.close({ kill: true });
    } finally {
      await restarted.close();
      // The live instance's line must not be started by the next test's rounds.
      await t.db.kysely.deleteFrom('schedule_logs').where('result', '=', 'pending').execute();
    }
  });
  it('a server killed after starting the run but before noting it: the run is attached, not started twice', async () => {
    const runner = (t.app as unknown as { flowRunner: FlowRunner }).flowRunner;
    const real = flowRunService({ db: t.db.kysely, clock: () => new Date(now()), robotLink: t.link }, runner, {
      controllerOf: () => null,
    } as never);
    const doomed = createDispatcher({
      db: t.db.kysely,
      clock: () => new Date(now()),
      log: silent,
      robotLink: t.link,
      runs: {
        start: async (p, flowId, robot, opts) => {
          await real.start(p, flowId, robot, opts);
          return new Promise<FlowRun>(() => undefined);
        },
        cancel: (p, runId) => real.cancel(p, runId),
      },
      graceMinutes: 10,
      tickMs: 0,
    });
    const id = await createEntry({ title: 'Started once', flowId: longWaitFlow });
    const runsBefore = await runCount();
    advance(3);
    await doomed.tick();
    const active = await until(() => runRepo(t.db.kysely).activeOfRobot(robotId));
    await doomed.close({ kill: true });
    advance(2);
    await round();
    const lines = await logsOf(id);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({ result: 'running', flowRunId: active.id });
    expect(await runCount()).toBe(runsBefore + 1);
  });
  it('two whole apps on one database (sharing the robot link as servers share the broker) claim each occurrence once', async () => {
    const clock = () => new Date(now());
    const silentLog = new Proxy({} as never, { get: () => () => undefined });
    const db = t.db;
    const second = await buildApp({
      ctx: {
        config: { ...t.config, scheduleTickMs: 0 },
        db: db.kysely,
        dialect: db.dialect,
        dbVersion: db.version,
        clock,
        audit: createAudit(db.kysely, clock),
        mailer: createMailer({ db: db.kysely, clock, log: silentLog, smtpUrl: null, from: 'test@localhost' }),
        fileStore: createFileStore({ dir: join(t.config.dataDir, 'files-2'), db: db.kysely, clock }),
        caches: createReadCaches(db.dataVersion, false, clock, false),
        robotLink: t.link,
      },
      logger: false,
    });
    await second.ready();
    try {
      const other = (second as unknown as { scheduleDispatcher: ScheduleDispatcher }).scheduleDispatcher;
      const offline: number[] = [];
      for (let i = 0; i < 6; i += 1)
        offline.push(
          await createEntry({
            title: `Offline ${i}`,
            flowId: waitFlow,
            robotId: offlineRobotId,
            start: local(2 + i),
            end: local(3 + i),
          }),
        );
      const online = await createEntry({ title: 'Online', flowId: longWaitFlow });
      const runsBefore = await runCount();
      advance(9);
      const mine = dispatcher();
      await Promise.all([mine.tick(), other.tick(), mine.tick(), other.tick()]);
      await Promise.all([mine.idle(), other.idle()]);
      await Promise.all([mine.tick(), other.tick()]);
      await Promise.all([mine.idle(), other.idle()]);
      // The second app started minutes ago: an offline robot's occurrence it claimed waits for the robot
      // to reconnect until the grace period is over; then it is ROBOT_OFFLINE, one line each.
      advance(11);
      await Promise.all([mine.tick(), other.tick()]);
      await Promise.all([mine.idle(), other.idle()]);
      for (const id of offline) {
        const lines = await logsOf(id);
        expect(lines, `entry ${id}`).toHaveLength(1);
        expect(lines[0]).toMatchObject({ result: 'fail', reason: 'ROBOT_OFFLINE' });
      }
      const lines = await logsOf(online);
      expect(lines).toHaveLength(1);
      expect(lines[0]).toMatchObject({ result: 'running' });
      expect(await runCount()).toBe(runsBefore + 1);
    } finally {
      await second.close();
    }
  });
  describe('a server just started, its robots still reconnecting', () => {
    const realRuns = () => {
      const runner = (t.app as unknown as { flowRunner: FlowRunner }).flowRunner;
      return flowRunService({ db: t.db.kysely, clock: () => new Date(now()), robotLink: t.link }, runner, {
        controllerOf: () => null,
      } as never);
    };
    /** A restarted server's dispatcher: it sees the robot once `back` says so (as its broker hears it again). */
    const restarted = (back: () => boolean) =>
      createDispatcher({
        db: t.db.kysely,
        clock: () => new Date(now()),
        log: silent,
        robotLink: { details: (id) => (back() ? t.link.details(id) : null) },
        runs: realRuns(),
        graceMinutes: 10,
        tickMs: 0,
      });
    const tickIdle = async (d: ScheduleDispatcher) => {
      await d.tick();
      await d.idle();
    };

    it('an occurrence due while it was down waits for its robot and starts once it has reconnected', async () => {
      const id = await createEntry({ title: 'After restart', flowId: waitFlow });
      const runsBefore = await runCount();
      // Due a minute ago, while the server was down; it starts now and the robot is not back yet.
      advance(3);
      let back = false;
      const d = restarted(() => back);
      try {
        await tickIdle(d);
        let lines = await logsOf(id);
        expect(lines).toHaveLength(1);
        expect(lines[0]).toMatchObject({ result: 'running', flowRunId: null, reason: null });
        expect(lines[0]!.detail).toContain('waiting for the robot');
        expect(await runCount()).toBe(runsBefore);
        // A few seconds later the robot has reconnected: the next try starts the run.
        advance(0.1);
        back = true;
        await tickIdle(d);
        lines = await logsOf(id);
        expect(lines).toHaveLength(1);
        expect(lines[0]).toMatchObject({ result: 'running', reason: null });
        expect(lines[0]!.flowRunId).not.toBeNull();
        expect(await runCount()).toBe(runsBefore + 1);
        expect(await runStatus(lines[0]!.flowRunId!)).toBe('running');
      } finally {
        await d.close();
      }
    });

    it('a robot that never comes back is logged ROBOT_OFFLINE once, after the grace period', async () => {
      const id = await createEntry({ title: 'Never back', flowId: waitFlow, robotId: offlineRobotId });
      const runsBefore = await runCount();
      advance(3);
      const d = restarted(() => true);
      try {
        for (const minutes of [0, 4, 4]) {
          advance(minutes);
          await tickIdle(d);
          const lines = await logsOf(id);
          expect(lines).toHaveLength(1);
          expect(lines[0], JSON.stringify(lines[0])).toMatchObject({ result: 'running', flowRunId: null });
        }
        // 11 minutes after the due time (grace 10): failed, once.
        advance(2);
        await tickIdle(d);
        await tickIdle(d);
        const lines = await logsOf(id);
        expect(lines).toHaveLength(1);
        expect(lines[0]).toMatchObject({ result: 'fail', reason: 'ROBOT_OFFLINE', flowRunId: null });
        expect(await runCount()).toBe(runsBefore);
      } finally {
        await d.close();
      }
    });
  });

  it('claims an occurrence ahead of its due time, checks the start position then, and starts it at the due time', async () => {
    const events: string[] = [];
    const d = createDispatcher({
      db: t.db.kysely,
      clock: () => new Date(now()),
      log: silent,
      robotLink: t.link,
      runs: {
        start: async (_p, flowId, robot) => {
          events.push(`start ${new Date(now()).toISOString()}`);
          return { id: -2, startedAt: new Date(now()).toISOString(), flowId, robotId: robot } as FlowRun;
        },
        cancel: async () => ({}) as FlowRun,
      },
      startPosition: {
        check: async () => {
          events.push(`check ${new Date(now()).toISOString()}`);
          return {
            pass: true,
            checked: true,
            score: 1,
            detail: 'start position checked',
            code: 'startPositionChecked',
            params: {},
          };
        },
      },
      graceMinutes: 10,
      tickMs: 0,
      lookAheadMs: 3 * 60_000,
    });
    try {
      const id = await createEntry({ title: 'Ahead', flowId: waitFlow });
      const entry = await t.call('GET', `/schedules/${id}`, admin);
      const dueAt = entry.json<{ nextAt: string }>().nextAt;
      expect(Date.parse(dueAt)).toBeGreaterThan(now());
      await d.tick();
      // Claimed and checked before the due time; not started yet.
      await until(() => events.length === 1);
      const [line] = await logsOf(id);
      expect(line).toMatchObject({ result: 'running', flowRunId: null, dueAt });
      expect(events[0]).toMatch(/^check /);
      expect(Date.parse(events[0]!.slice(6))).toBeLessThan(Date.parse(dueAt));
      // The due time comes: started, once.
      advance(3);
      await d.tick();
      await d.idle();
      expect(events, events.join(' | ')).toHaveLength(2);
      expect(events[1]).toMatch(/^start /);
      expect(Date.parse(events[1]!.slice(6))).toBeGreaterThanOrEqual(Date.parse(dueAt));
      const lines = await logsOf(id);
      expect(lines).toHaveLength(1);
      expect(lines[0]).toMatchObject({ result: 'running', flowRunId: -2 });
    } finally {
      await d.close();
      await t.db.kysely.deleteFrom('schedule_logs').where('flow_run_id', '=', -2).execute();
    }
  });

  it('a line claimed ahead whose entry was disabled before its due time is dropped, not started', async () => {
    const started: number[] = [];
    const d = createDispatcher({
      db: t.db.kysely,
      clock: () => new Date(now()),
      log: silent,
      robotLink: t.link,
      runs: {
        start: async (_p, flowId) => {
          started.push(flowId);
          return { id: -3, startedAt: new Date(now()).toISOString() } as FlowRun;
        },
        cancel: async () => ({}) as FlowRun,
      },
      graceMinutes: 10,
      tickMs: 0,
      lookAheadMs: 3 * 60_000,
    });
    try {
      const id = await createEntry({ title: 'Disabled ahead', flowId: waitFlow });
      await d.tick();
      await until(async () => (await logsOf(id)).length === 1);
      const entry = (await t.call('GET', `/schedules/${id}`, admin)).json<Record<string, unknown>>();
      const { id: _id, nextAt: _n, createdAt: _c, organizationId: _o, buildingId: _b, timeZone: _z, ...body } = entry;
      const saved = await t.call('PUT', `/schedules/${id}`, admin, { ...body, enabled: false });
      expect(saved.statusCode, saved.body).toBe(200);
      advance(3);
      await d.tick();
      await d.idle();
      expect(started).toEqual([]);
      expect(await logsOf(id)).toEqual([]);
    } finally {
      await d.close();
    }
  });
  it('a server closing leaves the lines it claimed ahead to another server at once, started once', async () => {
    const closing = createDispatcher({
      db: t.db.kysely,
      clock: () => new Date(now()),
      log: silent,
      robotLink: t.link,
      runs: {
        start: () => Promise.reject(new Error('the closing server must not start it')),
        cancel: async () => ({}) as FlowRun,
      },
      graceMinutes: 10,
      tickMs: 0,
      lookAheadMs: 3 * 60_000,
    });
    const id = await createEntry({ title: 'Handed over', flowId: waitFlow });
    await closing.tick();
    await until(async () => (await logsOf(id)).length === 1);
    await closing.close();
    const runsBefore = await runCount();
    // Before the due time (its lease would hold a minute after it): the app's dispatcher takes it...
    const other = dispatcher();
    await other.tick();
    await until(async () => {
      const row = await t.db.kysely
        .selectFrom('schedule_logs')
        .select('lease_owner')
        .where('schedule_id', '=', id)
        .executeTakeFirst();
      return row?.lease_owner === other.instanceId;
    });
    // ...and starts it at the due time, once.
    advance(3);
    await round();
    const lines = await logsOf(id);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({ result: 'running' });
    expect(lines[0]!.flowRunId).not.toBeNull();
    expect(await runCount()).toBe(runsBefore + 1);
  });
});
