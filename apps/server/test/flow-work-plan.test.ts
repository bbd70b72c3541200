import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startRobot, type SimRobot } from '@portal/robot-sim';
import type { FlowRun, WorkPlanRun } from '@portal/contract';
import { runRepo } from '../src/modules/flow-runs/run-repo.ts';
import { demoMapDocument } from '../src/seed.ts';
import { createTestApp, registerDemoRobot, simOptions, until, type TestApp } from './helpers.ts';

/**
 * A flow's `launchWorkPlan` step (issue 14) with the simulated robot: the flow run opens the work
 * plan on the robot and waits; the operator confirms its steps and closes it; the flow goes on from
 * that step (the wait after it runs, the run completes).
 */
describe('flow launchWorkPlan step', () => {
  let t: TestApp;
  let sim: SimRobot;
  let robotId: number;
  let admin: string;
  let operator: string;
  let flowId: number;
  let planId: number;

  beforeAll(async () => {
    t = await createTestApp();
    admin = (await t.as('orgadmin@demo.example')).authorization;
    operator = (await t.as('operator@demo.example')).authorization;
    const r = await registerDemoRobot(t, { serialNo: 'WPF-001', name: 'Work plan runner', model: 'pro' });
    robotId = r.created.robot.id;
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
    const flow = await t.call('POST', '/flows', admin, {
      name: 'Ride with a hand',
      description: '',
      buildingId: r.buildingId,
      floorId: r.floorId,
      flowGroupId: null,
      enabled: true,
      definition: {
        version: 1,
        steps: [
          { kind: 'launchWorkPlan', id: 'plan', workPlanId: planId },
          { kind: 'wait', id: 'after', seconds: 0 },
        ],
      },
    });
    expect(flow.statusCode, flow.body).toBe(201);
    flowId = flow.json<{ id: number }>().id;
  });

  afterAll(async () => {
    await sim?.stop().catch(() => undefined);
    await t?.close();
  });

  it('waits at the step until the work plan is closed, then resumes and completes', async () => {
    const started = await t.call('POST', `/flows/${flowId}/runs`, admin, { robotId });
    expect(started.statusCode, started.body).toBe(201);
    const flowRun = started.json<FlowRun>();
    const q = encodeURIComponent(JSON.stringify({ where: { robotId, status: 'open' } }));
    const planRun = await until(async () => {
      const list = (await t.call('GET', `/work-plan-runs?filter=${q}`, operator)).json<WorkPlanRun[]>();
      return list[0];
    }, 30_000);
    expect(planRun).toMatchObject({ workPlanId: planId, flowRunId: flowRun.id, status: 'open' });
    // The flow run waits: still active while the plan is open.
    expect(await runRepo(t.db.kysely).activeOfRobot(robotId)).toBeTruthy();
    const confirmed = await t.call('POST', `/work-plan-runs/${planRun.id}/steps`, operator, { stepId: 'press' });
    expect(confirmed.statusCode, confirmed.body).toBe(200);
    expect(await runRepo(t.db.kysely).activeOfRobot(robotId)).toBeTruthy();
    expect((await t.call('POST', `/work-plan-runs/${planRun.id}/close`, operator)).statusCode).toBe(200);
    const done = await until(async () => {
      const res = await t.call('GET', `/flow-runs/${flowRun.id}`, admin);
      const run = res.json<FlowRun>();
      return run.status !== 'running' && run.status !== 'paused' ? run : undefined;
    }, 30_000);
    expect(done.status).toBe('done');
  }, 90_000);
});
