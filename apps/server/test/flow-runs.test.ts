import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startRobot, type SimRobot } from '@portal/robot-sim';
import {
  flowRunDetailSchema,
  flowRunSchema,
  type FlowDefinition,
  type FlowRun,
  type FlowRunDetail,
  type VdaInstantActions,
  type VdaOrder,
} from '@portal/contract';
import { demoMapDocument } from '../src/seed.ts';
import { createRunner, initialCursor, type FlowRunner } from '../src/modules/flow-runs/runner.ts';
import { runRepo } from '../src/modules/flow-runs/run-repo.ts';
import { activityService } from '../src/modules/activity/activity-service.ts';
import { createOutbound } from '../src/lib/outbound.ts';
import { mapService } from '../src/modules/maps/map-service.ts';
import { openProbe } from './ws-probe.ts';
import { observeRobot, createTestApp, errorOf, registerDemoRobot, simOptions, until, type TestApp } from './helpers.ts';

/**
 * The flow runner against a real simulated robot over MQTT (docs/flow-runner.md): a flow's steps
 * become one order with order updates, the record of the run and its steps, the one-run-per-robot
 * rule, the health check, pause/resume/cancel, error policies, and a run picked up by another server
 * after its owner was killed (or closed as unknown when the robot does not show it).
 */
describe('flow runs', () => {
  let t: TestApp;
  let sim: SimRobot;
  let robotId: number;
  let floorId: number;
  let buildingId: number;
  let admin: string;
  let general: string;
  let observer: Awaited<ReturnType<typeof observeRobot>>;
  const orders: VdaOrder[] = [];
  const instant: VdaInstantActions[] = [];

  const runnerOf = (app: TestApp) => (app.app as unknown as { flowRunner: FlowRunner }).flowRunner;

  async function createFlow(name: string, steps: FlowDefinition['steps']): Promise<number> {
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
  const start = (flowId: number, auth = admin) => t.call('POST', `/flows/${flowId}/runs`, auth, { robotId });
  const detail = async (runId: number) => {
    const res = await t.call('GET', `/flow-runs/${runId}`, admin);
    expect(res.statusCode, res.body).toBe(200);
    return flowRunDetailSchema.parse(res.json()) as FlowRunDetail;
  };
  const ended = (runId: number, ms = 30_000) =>
    until(async () => {
      const d = await detail(runId);
      return d.status !== 'running' && d.status !== 'paused' ? d : undefined;
    }, ms);
  const atStart = async () => {
    // Every test starts from Standby (2), idle.
    await until(() => {
      const d = t.link.details(robotId);
      return d?.state && !t.link.busy(robotId);
    });
  };

  /**
   * Kills the app's runner as a kill -9 would (its lease is not released, nothing more is written);
   * `next()` builds another server's runner on the same database and broker whose clock is a minute
   * ahead, so the lease has run out for it.
   */
  async function createKilledServer(_runId: number) {
    await runnerOf(t).close({ release: false });
    const log = { error: () => undefined, warn: () => undefined, info: () => undefined };
    const maps = mapService({
      config: t.config,
      db: t.db.kysely,
      dialect: t.db.dialect,
      clock: () => new Date(),
      audit: { record: async () => undefined },
      robotLink: t.link,
      log,
    } as never);
    const deps = {
      db: t.db.kysely,
      clock: () => new Date(Date.now() + 60_000),
      robotLink: t.link,
      log,
      outbound: createOutbound(),
      activity: activityService({ db: t.db.kysely, clock: () => new Date(), robotLink: t.link }),
      mapOf: (id: number) => maps.current(id),
    };
    return { next: (grace = 0) => createRunner({ ...deps, recoveryGraceMs: grace }) };
  }

  /** Back to Standby (2), idle, for the next test. */
  const backHome = async () => {
    await until(() => !t.link.busy(robotId));
    const res = await t.call('POST', `/robots/${robotId}/goto`, admin, { floorId, waypointId: 2 });
    expect(res.statusCode, res.body).toBe(202);
    await sim.waitFor((s) => s.lastNodeId === 'wp-2' && !s.driving && s.nodeStates.length === 0, 30_000);
  };

  // A test that failed half-way must not leave its run holding the robot for the next ones.
  afterEach(async () => {
    const active = await runRepo(t.db.kysely).activeOfRobot(robotId);
    if (active) await t.call('POST', `/flow-runs/${active.id}/cancel`, admin);
  });

  beforeAll(async () => {
    t = await createTestApp();
    admin = (await t.as('orgadmin@demo.example')).authorization;
    general = (await t.as('operator@demo.example')).authorization;
    const r = await registerDemoRobot(t, { serialNo: 'RUN-001', name: 'Runner', model: 'pro' });
    robotId = r.created.robot.id;
    floorId = r.floorId;
    buildingId = r.buildingId;
    const saved = await t.call('PUT', `/floors/${floorId}/map`, admin, {
      baseRevision: 0,
      document: demoMapDocument(),
    });
    expect(saved.statusCode, saved.body).toBe(200);
    observer = await observeRobot(r.created, orders, instant);
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
  });

  afterAll(async () => {
    await sim?.stop().catch(() => undefined);
    await observer?.close().catch(() => undefined);
    await t?.close();
  });

  it('runs a looping patrol as one order with order updates, and records every step', async () => {
    await atStart();
    const flowId = await createFlow('Patrol twice', [
      { kind: 'taskStart', id: 'task', name: 'Night round' },
      {
        kind: 'loop',
        id: 'round',
        count: 2,
        steps: [
          { kind: 'moveToWaypoint', id: 'p1', waypointId: 3 },
          { kind: 'taskEvent', id: 'seen', level: 0, message: 'At Patrol 1' },
          { kind: 'moveToWaypoint', id: 'p2', waypointId: 4 },
          { kind: 'moveToWaypoint', id: 'back', waypointId: 2 },
        ],
      },
      { kind: 'taskComplete', id: 'done' },
    ]);
    const sentBefore = orders.length;
    const res = await start(flowId);
    expect(res.statusCode, res.body).toBe(201);
    const run = flowRunSchema.parse(res.json()) as FlowRun;
    expect(run).toMatchObject({ status: 'running', flowId, flowName: 'Patrol twice', robotId, robotName: 'Runner' });

    const d = await ended(run.id, 60_000);
    expect(d.status, JSON.stringify(d.steps)).toBe('done');
    expect(d.endedAt).not.toBeNull();
    expect(d.currentStepId).toBeNull();
    // Every step, a loop's once per pass, in order, each done.
    expect(d.steps.map((s) => `${s.stepId}${s.pass ? `@${s.pass}` : ''}`)).toEqual([
      'task',
      'p1@1',
      'seen@1',
      'p2@1',
      'back@1',
      'p1@2',
      'seen@2',
      'p2@2',
      'back@2',
      'done',
    ]);
    expect(d.steps.every((s) => s.result === 'done' && s.endedAt !== null)).toBe(true);
    expect(d.steps.find((s) => s.stepId === 'seen')?.data).toMatchObject({
      task: 'Night round',
      message: 'At Patrol 1',
    });
    // One order: the first move starts it, every later move is an update stitched on its base.
    const sent = orders.slice(sentBefore);
    expect(new Set(sent.map((o) => o.orderId)).size).toBe(1);
    expect(sent.map((o) => o.orderUpdateId)).toEqual([0, 1, 2, 3, 4, 5]);
    for (let i = 1; i < sent.length; i++) {
      const prev = sent[i - 1]!;
      const last = prev.nodes[prev.nodes.length - 1]!;
      expect(sent[i]!.nodes[0]).toMatchObject({ nodeId: last.nodeId, sequenceId: last.sequenceId });
    }
    expect(sent[sent.length - 1]!.nodes.at(-1)!.nodeId).toBe('wp-2');
    // The activity log tells the run started and finished.
    const log = await t.call('GET', `/robots/${robotId}/activity`, admin);
    const codes = log.json<Array<{ kind: string; code: string }>>().map((e) => `${e.kind}.${e.code}`);
    expect(codes).toEqual(expect.arrayContaining(['flow.started', 'flow.finished', 'healthCheck.passed']));
  }, 90_000);

  it('carries photo and speech steps after a move as HARD node actions on its goal, and keeps the photo', async () => {
    await atStart();
    const flowId = await createFlow('Photo round', [
      { kind: 'moveToWaypoint', id: 'p1', waypointId: 3 },
      { kind: 'takePhoto', id: 'shot', camera: 'v1', resolution: '1080p', saveAsTaskImage: false },
      { kind: 'speak', id: 'hello', text: 'Patrol 1 checked', language: 'en' },
      { kind: 'speak', id: 'alone', text: 'Going home', language: 'en' },
      { kind: 'wait', id: 'pause', seconds: 0 },
      { kind: 'speak', id: 'after-wait', text: 'Going home now', language: 'en' },
      { kind: 'moveToWaypoint', id: 'home', waypointId: 2 },
    ]);
    const sentBefore = orders.length;
    const instantBefore = instant.length;
    const run = (await start(flowId)).json<FlowRun>();
    const d = await ended(run.id, 60_000);
    expect(d.status, JSON.stringify(d.steps)).toBe('done');
    const first = orders.slice(sentBefore)[0]!;
    const goal = first.nodes.at(-1)!;
    expect(goal.nodeId).toBe('wp-3');
    // The three robot actions right after the move ride on its goal node, in order, blocking.
    expect(goal.actions.map((a) => [a.actionType, a.blockingType])).toEqual([
      ['takePhoto', 'HARD'],
      ['speak', 'HARD'],
      ['speak', 'HARD'],
    ]);
    expect(goal.actions[0]!.actionParameters).toEqual(
      expect.arrayContaining([
        { key: 'camera', value: 'v1' },
        { key: 'resolution', value: '1080p' },
      ]),
    );
    // After the wait (a server step) the next speech is an instant action.
    const later = instant.slice(instantBefore).flatMap((m) => m.actions);
    expect(later.filter((a) => a.actionType === 'speak').map((a) => a.actionParameters)).toEqual([
      expect.arrayContaining([{ key: 'text', value: 'Going home now' }]),
    ]);
    // The photo step names its action; the record answers the stored photo once it arrived.
    const shot = d.steps.find((s) => s.stepId === 'shot')!;
    expect(shot.result).toBe('done');
    expect(shot.data.actionId).toBe(goal.actions[0]!.actionId);
    const withPhoto = await until(async () => {
      const again = await detail(run.id);
      return again.steps.find((s) => s.stepId === 'shot' && typeof s.data.photoId === 'number');
    });
    expect(withPhoto.data.camera).toBe('v1');
  }, 90_000);

  it('takes the robot over from an order it did not send (a goto under way)', async () => {
    await atStart();
    const flowId = await createFlow('Take over', [
      { kind: 'moveToWaypoint', id: 'p1', waypointId: 3 },
      { kind: 'moveToWaypoint', id: 'home', waypointId: 2 },
    ]);
    const go = await t.call('POST', `/robots/${robotId}/goto`, admin, { floorId, waypointId: 6 });
    expect(go.statusCode, go.body).toBe(202);
    const gotoOrder = go.json<{ orderId: string }>().orderId;
    await sim.waitFor((s) => s.orderId === gotoOrder && s.driving, 20_000);
    const cancelsBefore = instant.flatMap((m) => m.actions).filter((a) => a.actionType === 'cancelOrder').length;
    const res = await start(flowId);
    expect(res.statusCode, res.body).toBe(201);
    const d = await ended(res.json<FlowRun>().id, 60_000);
    expect(d.status, JSON.stringify(d.steps)).toBe('done');
    expect(instant.flatMap((m) => m.actions).filter((a) => a.actionType === 'cancelOrder').length).toBe(
      cancelsBefore + 1,
    );
  }, 90_000);

  it('refuses a second run on a busy robot with FLOW_ALREADY_RUNNING, then cancels the first', async () => {
    await atStart();
    const flowId = await createFlow('Long wait', [
      { kind: 'moveToWaypoint', id: 'go', waypointId: 5 },
      { kind: 'wait', id: 'w', seconds: 600 },
    ]);
    const first = await start(flowId);
    expect(first.statusCode, first.body).toBe(201);
    const run = first.json<FlowRun>();
    const second = await start(flowId, general);
    expect(second.statusCode).toBe(409);
    expect(errorOf(second).code).toBe('FLOW_ALREADY_RUNNING');

    await until(async () => (await detail(run.id)).currentStepId === 'w');
    const cancelled = await t.call('POST', `/flow-runs/${run.id}/cancel`, general);
    expect(cancelled.statusCode, cancelled.body).toBe(200);
    expect(cancelled.json<FlowRun>().status).toBe('cancel');
    const d = await detail(run.id);
    expect(d.steps.map((s) => [s.stepId, s.result])).toEqual([
      ['go', 'done'],
      ['w', 'cancel'],
    ]);
    await until(() => instant.some((m) => m.actions.some((a) => a.actionType === 'cancelOrder')));
    // The robot is free again.
    const again = await start(flowId);
    expect(again.statusCode, again.body).toBe(201);
    const c2 = await t.call('POST', `/flow-runs/${again.json<FlowRun>().id}/cancel`, admin);
    expect(c2.json<FlowRun>().status, c2.body).toBe('cancel');
    await backHome();
  }, 90_000);

  it('pauses and resumes a run; a paused run does not start its next step', async () => {
    await atStart();
    const flowId = await createFlow('Pause me', [
      { kind: 'moveToWaypoint', id: 'go', waypointId: 3 },
      { kind: 'moveToWaypoint', id: 'home', waypointId: 2 },
    ]);
    const run = (await start(flowId)).json<FlowRun>();
    const paused = await t.call('POST', `/flow-runs/${run.id}/pause`, admin);
    expect(paused.statusCode, paused.body).toBe(200);
    expect(paused.json<FlowRun>().status).toBe('paused');
    await until(() => instant.some((m) => m.actions.some((a) => a.actionType === 'startPause')));
    // Pausing twice is a conflict; resuming a running run too.
    expect((await t.call('POST', `/flow-runs/${run.id}/pause`, admin)).statusCode).toBe(409);
    const resumed = await t.call('POST', `/flow-runs/${run.id}/resume`, admin);
    expect(resumed.json<FlowRun>().status).toBe('running');
    expect((await t.call('POST', `/flow-runs/${run.id}/resume`, admin)).statusCode).toBe(409);
    const d = await ended(run.id, 60_000);
    expect(d.status).toBe('done');
  }, 90_000);

  it('applies the error policies: skip goes on, retry tries again and then fails the run', async () => {
    await atStart();
    const flowId = await createFlow('Broken', [
      { kind: 'taskStart', id: 't', name: 'Check' },
      { kind: 'moveToWaypoint', id: 'nowhere', waypointId: 6, onError: { policy: 'skip' } },
      { kind: 'taskEvent', id: 'after', level: 5, message: 'went on' },
      { kind: 'moveToWaypoint', id: 'again', waypointId: 7, onError: { policy: 'retry', retries: 2 } },
      { kind: 'taskEvent', id: 'never', level: 0, message: 'not reached' },
      { kind: 'taskComplete', id: 'end' },
    ]);
    // The map changes under the flow: Patrol 4 and 5 (6, 7) are gone when it runs.
    const doc = demoMapDocument();
    const current = await t.call('GET', `/floors/${floorId}/map`, admin);
    const saved = await t.call('PUT', `/floors/${floorId}/map`, admin, {
      baseRevision: current.json<{ revision: number }>().revision,
      document: {
        ...doc,
        waypoints: doc.waypoints.filter((w) => w.id < 6),
        edges: doc.edges.filter((e) => e.from < 6 && e.to < 6),
        routes: [{ ...doc.routes[0]!, waypointIds: [3, 4, 5] }],
      },
    });
    expect(saved.statusCode, saved.body).toBe(200);
    const run = (await start(flowId)).json<FlowRun>();
    const d = await ended(run.id);
    expect(d.status).toBe('fail');
    expect(d.errorCode).toBe('RUN_NO_PATH');
    expect(d.steps.map((s) => [s.stepId, s.attempt, s.result, s.errorCode])).toEqual([
      ['t', 1, 'done', null],
      ['nowhere', 1, 'skip', 'RUN_NO_PATH'],
      ['after', 1, 'done', null],
      ['again', 1, 'fail', 'RUN_NO_PATH'],
      ['again', 2, 'fail', 'RUN_NO_PATH'],
      ['again', 3, 'fail', 'RUN_NO_PATH'],
    ]);
    const log = await t.call('GET', `/robots/${robotId}/activity`, admin);
    const codes = log.json<Array<{ kind: string; code: string }>>().map((e) => `${e.kind}.${e.code}`);
    expect(codes).toEqual(expect.arrayContaining(['commandError.failed', 'flow.failed']));
  }, 60_000);

  it('does not start when the health check fails, and says why', async () => {
    await atStart();
    const flowId = await createFlow('Checked', [{ kind: 'moveToWaypoint', id: 'go', waypointId: 3 }]);
    sim.injectFault('emergencyStop');
    await until(() => t.link.details(robotId)?.state?.safetyState.eStop !== 'NONE');
    const res = await start(flowId);
    sim.clearFault('emergencyStop');
    expect(res.statusCode).toBe(409);
    expect(errorOf(res)).toMatchObject({
      code: 'HEALTH_CHECK_FAILED',
      details: [{ path: 'robot', message: 'healthProblem.emergencyStop', code: 'emergencyStop' }],
    });
    const runs = await t.call(
      'GET',
      `/flow-runs?filter=${encodeURIComponent(JSON.stringify({ where: { robotId } }))}`,
      admin,
    );
    expect(runs.json<FlowRun[]>().every((r) => r.flowName !== 'Checked')).toBe(true);
    await until(() => t.link.details(robotId)?.state?.safetyState.eStop === 'NONE');
  });

  it('pauses the running flow when an operator takes the robot’s controls (manual driving)', async () => {
    await atStart();
    const flowId = await createFlow('Interrupted', [
      { kind: 'moveToWaypoint', id: 'far', waypointId: 5 },
      { kind: 'moveToWaypoint', id: 'home', waypointId: 2 },
    ]);
    const run = (await start(flowId)).json<FlowRun>();
    await until(async () => (await detail(run.id)).currentStepId === 'far');
    const probe = await openProbe(t, (await t.as('operator@demo.example')).token);
    try {
      probe.send({ type: 'teleop.join', robotId, want: 'control' });
      expect((await probe.next('teleop.joined')).role).toBe('controller');
      await until(async () => (await detail(run.id)).status === 'paused');
      // While the operator holds the controls, nobody else resumes it.
      expect(errorOf(await t.call('POST', `/flow-runs/${run.id}/resume`, admin)).code).toBe('TELEOP_LOCKED');
    } finally {
      probe.ws.terminate();
    }
    await until(async () => {
      const res = await t.call('POST', `/flow-runs/${run.id}/resume`, admin);
      return res.statusCode === 200;
    });
    expect((await ended(run.id, 60_000)).status).toBe('done');
  }, 90_000);

  it('a run whose server was killed is picked up by another server from the robot’s state, exactly once', async () => {
    await atStart();
    const flowId = await createFlow('Survivor', [
      { kind: 'moveToWaypoint', id: 'far', waypointId: 5 },
      { kind: 'moveToWaypoint', id: 'home', waypointId: 2 },
    ]);
    const run = (await start(flowId)).json<FlowRun>();
    await until(async () => (await detail(run.id)).currentStepId === 'far');
    await sim.waitFor((s) => s.driving && s.lastNodeId.startsWith('wp-'), 20_000);
    // The owner dies without a word (its lease is not released).
    const killed = await createKilledServer(run.id);
    const b = killed.next();
    const c = killed.next();
    try {
      // Two servers find the orphan at once (the lease ran out a minute ago by their clock): one takes it.
      await Promise.all([b.heartbeat(), c.heartbeat()]);
      expect([b.owns(run.id), c.owns(run.id)].filter(Boolean), JSON.stringify(await detail(run.id))).toHaveLength(1);
      const d = await ended(run.id, 60_000);
      expect(d.status).toBe('done');
      expect(d.steps.map((s) => [s.stepId, s.result])).toEqual([
        ['far', 'done'],
        ['home', 'done'],
      ]);
    } finally {
      await b.close();
      await c.close();
    }
  }, 90_000);

  it('closes a run as unknown when its server died and the robot does not show it', async () => {
    await atStart();
    // A run its dead server left behind: waiting for a node of an order the robot never had.
    const repo = runRepo(t.db.kysely);
    const past = new Date(Date.now() - 1_000).toISOString();
    const id = await repo.insert({
      organization_id: (
        await t.db.kysely
          .selectFrom('robots')
          .select('organization_id')
          .where('id', '=', robotId)
          .executeTakeFirstOrThrow()
      ).organization_id,
      building_id: buildingId,
      floor_id: floorId,
      flow_id: null,
      flow_name: 'Left behind',
      robot_id: robotId,
      robot_name: 'Runner',
      definition: JSON.stringify([{ kind: 'moveToWaypoint', id: 'far', waypointId: 5 }]),
      status: 'running',
      started_at: past,
      ended_at: null,
      started_by: null,
      current_step_id: 'far',
      current_step_kind: 'moveToWaypoint',
      error_code: null,
      message: null,
      cursor: JSON.stringify({
        ...initialCursor(floorId),
        frames: [{ index: 0, pass: 0 }],
        seq: 1,
        order: {
          orderId: 'gone',
          updateId: 0,
          last: { nodeId: 'wp-5', seq: 4, x: 18, y: 10, mapId: `floor-${floorId}` },
        },
        wait: { kind: 'node', orderId: 'gone', seq: 4 },
      }),
      owner: 'dead-server',
      lease_until: past,
    });
    await repo.insertStep({
      run_id: id,
      seq: 1,
      step_id: 'far',
      kind: 'moveToWaypoint',
      pass: '',
      attempt: 1,
      result: 'running',
      started_at: past,
      ended_at: null,
      error_code: null,
      message: null,
      data: '{}',
    });
    const other = (await createKilledServer(id)).next();
    try {
      await other.heartbeat();
      const d = await ended(id);
      expect(d.status).toBe('unknown');
      expect(d.errorCode).toBe('RUN_SERVER_RESTART');
      expect(d.steps.map((s) => [s.stepId, s.result])).toEqual([['far', 'unknown']]);
    } finally {
      await other.close();
    }
  });

  it('leaves a run of a robot it has not heard alone for a while after starting, then closes it as unknown', async () => {
    const silent = await registerDemoRobot(t, { serialNo: 'RUN-002', name: 'Silent', model: 'pro' });
    const repo = runRepo(t.db.kysely);
    const past = new Date(Date.now() - 1_000).toISOString();
    const id = await repo.insert({
      organization_id: silent.created.robot.organizationId,
      building_id: buildingId,
      floor_id: floorId,
      flow_id: null,
      flow_name: 'Not heard',
      robot_id: silent.created.robot.id,
      robot_name: 'Silent',
      definition: JSON.stringify([{ kind: 'moveToWaypoint', id: 'far', waypointId: 5 }]),
      status: 'running',
      started_at: past,
      ended_at: null,
      started_by: null,
      current_step_id: null,
      current_step_kind: null,
      error_code: null,
      message: null,
      cursor: JSON.stringify(initialCursor(floorId)),
      owner: 'dead-server',
      lease_until: past,
    });
    const killed = await createKilledServer(id);
    // Just started: the robot may not have spoken yet, so the run is not judged.
    const early = killed.next(60_000);
    try {
      await early.heartbeat();
      expect(early.owns(id)).toBe(false);
      expect((await repo.byId(id))?.status).toBe('running');
    } finally {
      await early.close();
    }
    // After the grace period the robot is still silent: the run is closed as unknown, not left running.
    const later = killed.next(0);
    try {
      await later.heartbeat();
      expect((await detail(id)).status).toBe('unknown');
    } finally {
      await later.close();
    }
  });

  it('goes on after the step whose record ended when its server died before the next one started', async () => {
    await atStart();
    const repo = runRepo(t.db.kysely);
    const past = new Date(Date.now() - 1_000).toISOString();
    const id = await repo.insert({
      organization_id: (
        await t.db.kysely
          .selectFrom('robots')
          .select('organization_id')
          .where('id', '=', robotId)
          .executeTakeFirstOrThrow()
      ).organization_id,
      building_id: buildingId,
      floor_id: floorId,
      flow_id: null,
      flow_name: 'Between steps',
      robot_id: robotId,
      robot_name: 'Runner',
      definition: JSON.stringify([
        { kind: 'wait', id: 'a', seconds: 0 },
        { kind: 'wait', id: 'b', seconds: 0 },
      ]),
      status: 'running',
      started_at: past,
      ended_at: null,
      started_by: null,
      current_step_id: 'a',
      current_step_kind: 'wait',
      error_code: null,
      message: null,
      // The cursor still names `a`: its record had ended, `b` had not started.
      cursor: JSON.stringify({ ...initialCursor(floorId), frames: [{ index: 0, pass: 0 }], seq: 1 }),
      owner: 'dead-server',
      lease_until: past,
    });
    await repo.insertStep({
      run_id: id,
      seq: 1,
      step_id: 'a',
      kind: 'wait',
      pass: '',
      attempt: 1,
      result: 'done',
      started_at: past,
      ended_at: past,
      error_code: null,
      message: null,
      data: '{}',
    });
    const other = (await createKilledServer(id)).next();
    try {
      await other.heartbeat();
      const d = await ended(id);
      expect(d.status).toBe('done');
      // `a` is not carried out twice.
      expect(d.steps.map((s) => [s.stepId, s.result])).toEqual([
        ['a', 'done'],
        ['b', 'done'],
      ]);
    } finally {
      await other.close();
    }
  });
});
