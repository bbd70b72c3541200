import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startRobot, type SimRobot } from '@portal/robot-sim';
import type { FlowRun, WorkPlanRun } from '@portal/contract';
import { activityService } from '../src/modules/activity/activity-service.ts';
import { runRepo } from '../src/modules/flow-runs/run-repo.ts';
import { createRunner, type FlowRunner } from '../src/modules/flow-runs/runner.ts';
import { workPlanLauncher } from '../src/modules/work-plans/run-service.ts';
import { createOutbound } from '../src/lib/outbound.ts';
import { demoMapDocument } from '../src/seed.ts';
import { createTestApp, registerDemoRobot, simOptions, until, type TestApp } from './helpers.ts';

/**
 * A flow's `launchWorkPlan` step (issue 14) with the simulated robot: the flow run opens the work
 * plan on the robot and waits, `paused` (an operator's resume is refused with 409 while the plan is
 * open); the operator confirms its steps and closes it; the flow goes on from that step, `running`.
 * A server that picks the run up after a kill keeps waiting on the same work plan run.
 */
describe('flow launchWorkPlan step', () => {
  let t: TestApp;
  let sim: SimRobot;
  let robotId: number;
  let admin: string;
  let operator: string;
  let flowId: number;
  let holdFlowId: number;
  let planId: number;
  let buildingId: number;
  let floorId: number;
  let other: FlowRunner | null = null;
  const planRuns = async (where: Record<string, unknown>) =>
    (await t.call('GET', `/work-plan-runs?filter=${encodeURIComponent(JSON.stringify({ where }))}`, operator)).json<
      WorkPlanRun[]
    >();
  const openPlanRuns = () => planRuns({ robotId, status: 'open' });
  const flowRun = async (id: number) => (await t.call('GET', `/flow-runs/${id}`, admin)).json<FlowRun>();
  async function createFlow(name: string, steps: unknown[]): Promise<number> {
    const flow = await t.call('POST', '/flows', admin, {
      name,
      description: '',
      buildingId,
      floorId,
      flowGroupId: null,
      enabled: true,
      definition: { version: 1, steps },
    });
    expect(flow.statusCode, flow.body).toBe(201);
    return flow.json<{ id: number }>().id;
  }

  beforeAll(async () => {
    t = await createTestApp();
    admin = (await t.as('orgadmin@demo.example')).authorization;
    operator = (await t.as('operator@demo.example')).authorization;
    const r = await registerDemoRobot(t, { serialNo: 'WPF-001', name: 'Work plan runner', model: 'pro' });
    robotId = r.created.robot.id;
    buildingId = r.buildingId;
    floorId = r.floorId;
    const saved = await t.call('PUT', `/floors/${r.floorId}/map`, admin, {
      baseRevision: 0,
      document: demoMapDocument(),
    });
    expect(saved.statusCode, saved.body).toBe(200);
    sim = await startRobot(
      simOptions(r.created, {
        model: 'pro',
        mapId: 'floor-1',
        start: { x: 3, y: 1, theta: 0 },
        battery: 90,
        speedScale: 10,
      }),
    );
    await until(() => t.link.details(robotId)?.online && t.link.details(robotId)?.state);
    const plan = await t.call('POST', '/work-plans', admin, {
      name: 'Press the call button',
      buildingId: r.buildingId,
      floorId: r.floorId,
      icon: 'button',
      type: 0,
      status: 1,
      definition: {
        version: 1,
        steps: [
          {
            id: 'press',
            title: 'Press the call button',
            type: 'pressRight',
            main: { kind: 'pressButton', target: 'call' },
            auxiliary: [],
            before: { pose: null },
            after: { waitSeconds: 0 },
          },
        ],
      },
    });
    expect(plan.statusCode, plan.body).toBe(201);
    planId = plan.json<{ id: number }>().id;
    flowId = await createFlow('Ride with a hand', [
      { kind: 'launchWorkPlan', id: 'plan', workPlanId: planId },
      { kind: 'wait', id: 'after', seconds: 0 },
    ]);
    holdFlowId = await createFlow('Ride and hold', [
      { kind: 'launchWorkPlan', id: 'plan', workPlanId: planId },
      { kind: 'wait', id: 'hold', seconds: 3600 },
    ]);
  }, 60_000);

  afterAll(async () => {
    await other?.close();
    await sim?.stop().catch(() => undefined);
    await t?.close();
  });

  it('is paused while the work plan is open (resume refused), running again once it is closed', async () => {
    const started = await t.call('POST', `/flows/${holdFlowId}/runs`, admin, { robotId });
    expect(started.statusCode, started.body).toBe(201);
    const run = started.json<FlowRun>();
    const planRun = await until(async () => (await openPlanRuns())[0], 30_000);
    expect(planRun).toMatchObject({ workPlanId: planId, flowRunId: run.id, status: 'open' });
    const paused = await until(async () => {
      const r = await flowRun(run.id);
      return r.status === 'paused' ? r : undefined;
    }, 30_000);
    expect(paused).toMatchObject({ currentStepId: 'plan', currentStepKind: 'launchWorkPlan' });
    // A manual resume does not skip the wait: 409 with the localized reason, nothing changes.
    const resumed = await t.call('POST', `/flow-runs/${run.id}/resume`, admin);
    expect(resumed.statusCode, resumed.body).toBe(409);
    expect(resumed.json()).toMatchObject({
      error: { code: 'CONFLICT', details: [{ path: 'id', message: 'validation.workPlanOpen' }] },
    });
    expect((await flowRun(run.id)).status).toBe('paused');
    // Pausing a paused run is refused as before.
    expect((await t.call('POST', `/flow-runs/${run.id}/pause`, admin)).statusCode).toBe(409);
    expect((await t.call('POST', `/work-plan-runs/${planRun.id}/close`, operator)).statusCode).toBe(200);
    const running = await until(async () => {
      const r = await flowRun(run.id);
      return r.status === 'running' && r.currentStepId === 'hold' ? r : undefined;
    }, 30_000);
    expect(running.currentStepKind).toBe('wait');
    const cancelled = await t.call('POST', `/flow-runs/${run.id}/cancel`, admin);
    expect(cancelled.statusCode, cancelled.body).toBe(200);
    await until(async () => ((await flowRun(run.id)).status === 'cancel' ? true : undefined), 30_000);
  }, 90_000);

  it('waits at the step until the work plan is closed, then resumes and completes', async () => {
    const started = await t.call('POST', `/flows/${flowId}/runs`, admin, { robotId });
    expect(started.statusCode, started.body).toBe(201);
    const run = started.json<FlowRun>();
    const planRun = await until(async () => (await openPlanRuns())[0], 30_000);
    expect(planRun).toMatchObject({ workPlanId: planId, flowRunId: run.id, status: 'open' });
    // The flow run waits: still active while the plan is open.
    expect(await runRepo(t.db.kysely).activeOfRobot(robotId)).toBeTruthy();
    const confirmed = await t.call('POST', `/work-plan-runs/${planRun.id}/steps`, operator, { stepId: 'press' });
    expect(confirmed.statusCode, confirmed.body).toBe(200);
    expect(await runRepo(t.db.kysely).activeOfRobot(robotId)).toBeTruthy();
    expect((await t.call('POST', `/work-plan-runs/${planRun.id}/close`, operator)).statusCode).toBe(200);
    const done = await until(async () => {
      const r = await flowRun(run.id);
      return r.status !== 'running' && r.status !== 'paused' ? r : undefined;
    }, 30_000);
    expect(done.status).toBe('done');
  }, 90_000);

  it('a server picking the run up after a kill keeps waiting on the same work plan, and resumes when it is closed', async () => {
    const started = await t.call('POST', `/flows/${flowId}/runs`, admin, { robotId });
    expect(started.statusCode, started.body).toBe(201);
    const run = started.json<FlowRun>();
    const planRun = await until(async () => (await openPlanRuns())[0], 30_000);
    await until(async () => ((await flowRun(run.id)).status === 'paused' ? true : undefined), 30_000);
    // Killed as a kill -9 would: the lease is not released, nothing more is written.
    await (t.app as unknown as { flowRunner: FlowRunner }).flowRunner.close({ release: false });
    const log = { error: () => undefined, warn: () => undefined, info: () => undefined };
    const ctx = { db: t.db.kysely, clock: () => new Date(), robotLink: t.link };
    other = createRunner({
      db: t.db.kysely,
      // A minute ahead: the killed server's lease has run out for it.
      clock: () => new Date(Date.now() + 60_000),
      robotLink: t.link,
      log,
      outbound: createOutbound(),
      activity: activityService(ctx),
      mapOf: () => Promise.resolve(demoMapDocument()),
      workPlans: workPlanLauncher(ctx),
      workPlanPollMs: 100,
      recoveryGraceMs: 0,
    });
    await other.heartbeat();
    expect(other.owns(run.id)).toBe(true);
    // Still paused on the same work plan run (no second one opened).
    const picked = await flowRun(run.id);
    expect(picked).toMatchObject({ status: 'paused', currentStepId: 'plan' });
    const open = await openPlanRuns();
    expect(open.map((r) => r.id)).toEqual([planRun.id]);
    expect((await t.call('POST', `/flow-runs/${run.id}/resume`, admin)).statusCode).toBe(409);
    expect((await t.call('POST', `/work-plan-runs/${planRun.id}/close`, operator)).statusCode).toBe(200);
    const done = await until(async () => {
      const r = await flowRun(run.id);
      return r.status !== 'running' && r.status !== 'paused' ? r : undefined;
    }, 30_000);
    expect(done.status).toBe('done');
    const all = await planRuns({ flowRunId: run.id });
    expect(all).toHaveLength(1);
  }, 90_000);
});
