import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startRobot, type SimRobot } from '@portal/robot-sim';
import { workPlanRunSchema, type WorkPlanRun } from '@portal/contract';
import { demoMapDocument } from '../src/seed.ts';
import { createTestApp, errorOf, registerDemoRobot, simOptions, until, type TestApp } from './helpers.ts';
import { openProbe } from './ws-probe.ts';

const step = (id: string, waypointId: number) => ({
  id,
  title: `To waypoint ${waypointId}`,
  type: 'move',
  main: { kind: 'moveToWaypoint', waypointId },
  auxiliary: [],
  before: { pose: null },
  after: { waitSeconds: 0 },
});

/**
 * Movement steps of a work plan drive the simulated robot (docs/api-work-plans.md "Movement steps"):
 * "Go" sends it through the goto order path; the run shows the move (moving, then arrived) and the
 * step is checked when the robot arrives; a cancelled order shows as failed and leaves the step open.
 */
describe('work plan movement steps', () => {
  let t: TestApp;
  let sim: SimRobot;
  let robotId: number;
  let operator: string;
  let runId: number;

  const run = async (): Promise<WorkPlanRun> => {
    const res = await t.call('GET', `/work-plan-runs/${runId}`, operator);
    expect(res.statusCode, res.body).toBe(200);
    return workPlanRunSchema.parse(res.json());
  };
  const move = (stepId: string, auth = operator) => t.call('POST', `/work-plan-runs/${runId}/move`, auth, { stepId });

  beforeAll(async () => {
    t = await createTestApp();
    const admin = (await t.as('orgadmin@demo.example')).authorization;
    operator = (await t.as('operator@demo.example')).authorization;
    const r = await registerDemoRobot(t, { serialNo: 'WPM-001', name: 'Work plan mover', model: 'pro' });
    robotId = r.created.robot.id;
    const saved = await t.call('PUT', `/floors/${r.floorId}/map`, admin, {
      baseRevision: 0,
      document: demoMapDocument(),
    });
    expect(saved.statusCode, saved.body).toBe(200);
    sim = await startRobot(
      simOptions(r.created, {
        model: 'pro',
        mapId: `floor-${r.floorId}`,
        start: { x: 3, y: 1, theta: 0 },
        battery: 90,
        speedScale: 4,
      }),
    );
    await until(() => t.link.details(robotId)?.online && t.link.details(robotId)?.state);
    const plan = await t.call('POST', '/work-plans', admin, {
      name: 'Walk the hall',
      buildingId: r.buildingId,
      floorId: r.floorId,
      icon: 'check',
      type: 1,
      status: 1,
      definition: {
        version: 1,
        steps: [
          step('near', 3),
          step('far', 5),
          {
            id: 'look',
            title: 'Look around',
            type: 'manual',
            main: { kind: 'manualCheck', instruction: 'Look around' },
            auxiliary: [],
            before: { pose: null },
            after: { waitSeconds: 0 },
          },
        ],
      },
    });
    expect(plan.statusCode, plan.body).toBe(201);
    const started = await t.call('POST', '/work-plan-runs', operator, {
      workPlanId: plan.json<{ id: number }>().id,
      robotId,
    });
    expect(started.statusCode, started.body).toBe(201);
    runId = started.json<WorkPlanRun>().id;
  }, 60_000);

  afterAll(async () => {
    await sim?.stop().catch(() => undefined);
    await t?.close();
  });

  it('sends the robot to the step’s waypoint and checks the step when it arrives', async () => {
    const res = await move('near');
    expect(res.statusCode, res.body).toBe(202);
    const sent = workPlanRunSchema.parse(res.json());
    expect(sent.move).toMatchObject({ stepId: 'near', status: 'moving' });
    expect(sent.move!.orderId).toMatch(new RegExp(`^wp\\.${runId}\\.near\\.`));
    expect(sent.doneSteps).toEqual([]);
    // The robot drives the goto path to waypoint 3 under the run's order.
    await sim.waitFor((s) => s.orderId === sent.move!.orderId, 30_000);
    const arrived = await until(async () => {
      const r = await run();
      return r.move?.status === 'arrived' && r.doneSteps.includes('near') ? r : undefined;
    }, 30_000);
    expect(arrived).toMatchObject({ currentStep: 1, doneSteps: ['near'], status: 'open' });
    expect(sim.state().lastNodeId).toBe('wp-3');
  }, 60_000);

  it('shows a cancelled move as failed and leaves the step to do; the operator may confirm by hand', async () => {
    const res = await move('far');
    expect(res.statusCode, res.body).toBe(202);
    await sim.waitFor((s) => s.driving, 30_000);
    await t.link.command(robotId, 'cancel');
    const failed = await until(async () => {
      const r = await run();
      return r.move?.status === 'failed' ? r : undefined;
    }, 30_000);
    expect(failed.move).toMatchObject({ stepId: 'far', errorCode: 'WORK_PLAN_MOVE_STOPPED' });
    expect(failed.doneSteps).toEqual(['near']);
    const confirmed = await t.call('POST', `/work-plan-runs/${runId}/steps`, operator, { stepId: 'far' });
    expect(confirmed.statusCode, confirmed.body).toBe(200);
    expect(workPlanRunSchema.parse(confirmed.json()).doneSteps).toEqual(['near', 'far']);
  }, 60_000);

  it('refuses a step that is not a move (400), another operator holding the controls (409) and a closed run (409)', async () => {
    await until(() => !t.link.busy(robotId));
    const manual = await move('look');
    expect(manual.statusCode).toBe(400);
    expect(errorOf(manual).details).toEqual([{ path: 'stepId', message: 'workPlanValidation.notMovable' }]);
    expect((await move('nothing')).statusCode).toBe(400);

    // Another operator takes the robot's controls: the move is refused as a goto would be.
    const probe = await openProbe(t, (await t.as('orgadmin@demo.example')).token);
    try {
      probe.send({ type: 'teleop.join', robotId, want: 'control' });
      expect((await probe.next('teleop.joined')).role).toBe('controller');
      const locked = await move('near');
      expect(locked.statusCode, locked.body).toBe(409);
      expect(errorOf(locked).code).toBe('TELEOP_LOCKED');
    } finally {
      probe.ws.terminate();
    }

    expect((await t.call('POST', `/work-plan-runs/${runId}/close`, operator)).statusCode).toBe(200);
    const closed = await move('near');
    expect(closed.statusCode).toBe(409);
    expect((await run()).move ?? null).toBeNull();
  }, 60_000);
});
