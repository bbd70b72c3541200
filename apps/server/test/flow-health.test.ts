import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startRobot, type SimRobot } from '@portal/robot-sim';
import { robotActivityEntrySchema } from '@portal/contract';
import { checkHealth, healthCheckBeforeRun } from '../src/modules/flow-runs/health-check.ts';
import type { RobotDetails } from '../src/modules/robot-link/types.ts';
import { createTestApp, registerDemoRobot, simOptions, until, type TestApp } from './helpers.ts';

/**
 * The health check before a flow, against a real simulated robot over MQTT: every condition of the
 * behaviour notes, each found on its own and together, and the result in the robot's activity log.
 */
describe('health check before a flow', () => {
  let t: TestApp;
  let sim: SimRobot;
  let robotId: number;
  let floorId: number;
  let otherFloorId: number;
  let admin: string;

  const details = () => t.link.details(robotId);
  const ctx = () => ({ db: t.db.kysely, clock: () => new Date(), robotLink: t.link });
  /** The check once the robot's latest state shows `ready`. */
  const checkWhen = async (ready: (d: RobotDetails) => boolean, floor = floorId) => {
    await until(() => {
      const d = details();
      return d !== null && ready(d);
    });
    return checkHealth(details(), floor);
  };

  beforeAll(async () => {
    t = await createTestApp();
    admin = (await t.as('orgadmin@demo.example')).authorization;
    const r = await registerDemoRobot(t, { serialNo: 'HC-001', name: 'Health robot', model: 'pro' });
    robotId = r.created.robot.id;
    floorId = r.floorId;
    const other = await t.db.kysely
      .selectFrom('floors')
      .select('id')
      .where('building_id', '=', r.buildingId)
      .where('id', '<>', floorId)
      .executeTakeFirstOrThrow();
    otherFloorId = other.id;
    sim = await startRobot(
      simOptions(r.created, { model: 'pro', mapId: `floor-${floorId}`, start: { x: 3, y: 3, theta: 0 }, battery: 80 }),
    );
    await until(() => details()?.online && details()?.state);
  });

  afterAll(async () => {
    await sim?.stop();
    await t?.close();
  });

  it('passes a healthy robot on its floor, and finds it on the wrong floor for another', async () => {
    expect(await checkWhen((d) => d.state!.batteryState.batteryCharge >= 20)).toEqual({ ok: true, problems: [] });
    expect(checkHealth(details(), otherFloorId)).toEqual({ ok: false, problems: ['wrongFloor'] });
  });

  it('finds an emergency stop, low battery and a hardware error, all at once', async () => {
    sim.injectFault('emergencyStop');
    sim.injectFault('hardwareError');
    sim.setBattery(15);
    const r = await checkWhen(
      (d) =>
        d.state!.batteryState.batteryCharge < 20 &&
        d.state!.safetyState.eStop !== 'NONE' &&
        d.state!.errors.some((e) => e.errorType === 'hardwareError'),
    );
    expect(r).toEqual({ ok: false, problems: ['emergencyStop', 'lowBattery', 'hardwareError'] });
    sim.clearFault('emergencyStop');
    sim.clearFault('hardwareError');
    sim.setBattery(80);
    expect(
      await checkWhen((d) => d.state!.batteryState.batteryCharge >= 20 && d.state!.safetyState.eStop === 'NONE'),
    ).toEqual({ ok: true, problems: [] });
  });

  it('writes the result to the activity log, a failure at emergency level with its problems', async () => {
    const pass = await healthCheckBeforeRun(ctx(), robotId, { id: 1, name: 'Night patrol', floorId });
    expect(pass.ok).toBe(true);
    const fail = await healthCheckBeforeRun(ctx(), robotId, { id: 1, name: 'Night patrol', floorId: otherFloorId });
    expect(fail).toEqual({ ok: false, problems: ['wrongFloor'] });

    const res = await t.call(
      'GET',
      `/robots/${robotId}/activity?filter=${encodeURIComponent(JSON.stringify({ where: { kind: 'healthCheck' } }))}`,
      admin,
    );
    expect(res.statusCode, res.body).toBe(200);
    const entries = robotActivityEntrySchema.array().parse(res.json());
    expect(entries.map((e) => [e.code, e.level, e.params.problems, e.params.flowName])).toEqual([
      ['failed', 0, 'wrongFloor', 'Night patrol'],
      ['passed', 7, '', 'Night patrol'],
    ]);
  });

  it('finds an offline robot offline, and nothing else of its old state', async () => {
    await sim.disconnect({ graceful: true });
    await until(() => details()?.online === false);
    expect(checkHealth(details(), floorId)).toEqual({ ok: false, problems: ['offline'] });
    expect(checkHealth(null, floorId)).toEqual({ ok: false, problems: ['offline'] });
  });
});
