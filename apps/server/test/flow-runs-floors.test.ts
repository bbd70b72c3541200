import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startBuildingSystems, startRobot, type SimBuildingSystems, type SimRobot } from '@portal/robot-sim';
import { flowRunDetailSchema, floorMapId, type FlowRun, type FlowRunDetail } from '@portal/contract';
import { createOutbound } from '../src/lib/outbound.ts';
import { linksRepo } from '../src/modules/buildings/links-repo.ts';
import { demoMapDocument } from '../src/seed.ts';
import { createTestApp, registerDemoRobot, simOptions, until, type TestApp } from './helpers.ts';

/**
 * A flow across two floors (docs/flow-runner.md): the robot rides the building's elevator (the
 * simulated elevator bank over the building-systems HTTP protocol) and passes a security door; the run
 * record keeps the phases, and a door that refuses fails the step with its code.
 */
describe('flow runs across floors', () => {
  let t: TestApp;
  let sim: SimRobot;
  let sys: SimBuildingSystems;
  let robotId: number;
  let admin: string;
  let lower: { id: number; index: number };
  let upper: { id: number; index: number };
  let buildingId: number;

  const detail = async (runId: number) =>
    flowRunDetailSchema.parse((await t.call('GET', `/flow-runs/${runId}`, admin)).json()) as FlowRunDetail;
  const ended = (runId: number) =>
    until(async () => {
      const d = await detail(runId);
      return d.status !== 'running' && d.status !== 'paused' ? d : undefined;
    }, 60_000);

  beforeAll(async () => {
    t = await createTestApp(
      {},
      {
        // The simulated controller listens on loopback: admitted as an on-premise host would be.
        outbound: createOutbound({ allow: ['127.0.0.1'], protocols: ['http:', 'https:'], timeoutMs: 2_000 }),
        buildingPollMs: 20,
      },
    );
    admin = (await t.as('orgadmin@demo.example')).authorization;
    const r = await registerDemoRobot(t, { serialNo: 'FLOORS-1', name: 'Climber', model: 'pro' });
    robotId = r.created.robot.id;
    buildingId = r.buildingId;
    const floors = await t.db.kysely
      .selectFrom('floors')
      .select(['id', 'index'])
      .where('building_id', '=', buildingId)
      .orderBy('index')
      .execute();
    lower = floors.find((f) => f.id === r.floorId)!;
    upper = floors.find((f) => f.index > lower.index)!;
    for (const f of [lower, upper]) {
      const saved = await t.call('PUT', `/floors/${f.id}/map`, admin, { baseRevision: 0, document: demoMapDocument() });
      expect(saved.statusCode, saved.body).toBe(200);
    }
    sys = await startBuildingSystems({
      banks: [{ id: 'main', floors: floors.map((f) => f.index), cars: 1 }],
      doors: ['door-1'],
      elevatorTimings: { doorMs: 60, perFloorMs: 200, holdMs: 5_000 },
      doorTimings: { unlockMs: 60, passMs: 2_000, lockMs: 60 },
    });
    const building = await t.db.kysely
      .selectFrom('buildings')
      .select(['id', 'organization_id'])
      .where('id', '=', buildingId)
      .executeTakeFirstOrThrow();
    const at = new Date().toISOString();
    await linksRepo(t.db.kysely).upsert(
      {
        building_id: building.id,
        organization_id: building.organization_id,
        t_spider_url: sys.url,
        hakaru_ai_login_id: '',
        hakaru_ai_password: null,
        lilz_token: null,
        kanriroid_token: null,
        updated_at: at,
      },
      { t_spider_url: sys.url, updated_at: at },
    );
    sim = await startRobot(
      simOptions(r.created, {
        model: 'pro',
        mapId: floorMapId(lower.id),
        start: { x: 3, y: 1, theta: 0 },
        battery: 90,
        speedScale: 10,
      }),
    );
    await until(() => t.link.details(robotId)?.online && t.link.details(robotId)?.state);
  });

  afterAll(async () => {
    await sim?.stop().catch(() => undefined);
    await sys?.close().catch(() => undefined);
    await t?.close();
  });

  it('rides the elevator to the upper floor, passes a door there, and records the phases', async () => {
    const created = await t.call('POST', '/flows', admin, {
      name: 'Two floors',
      description: '',
      buildingId,
      floorId: lower.id,
      flowGroupId: null,
      enabled: true,
      definition: {
        version: 1,
        steps: [
          { kind: 'moveToWaypoint', id: 'hall', waypointId: 3 },
          { kind: 'moveToFloor', id: 'up', floorId: upper.id, waypointId: 2 },
          { kind: 'passSecurityDoor', id: 'door', doorId: 'door-1' },
          { kind: 'moveToWaypoint', id: 'patrol', waypointId: 4 },
        ],
      },
    });
    expect(created.statusCode, created.body).toBe(201);
    const res = await t.call('POST', `/flows/${created.json<{ id: number }>().id}/runs`, admin, { robotId });
    expect(res.statusCode, res.body).toBe(201);
    const runId = res.json<FlowRun>().id;
    // While it rides, the step's record names the phase it is in (what the operator screen shows).
    const riding = await until(async () => {
      const step = (await detail(runId)).steps.find((s) => s.stepId === 'up');
      return step?.result === 'running' && typeof step.data.phase === 'string' ? step : undefined;
    });
    expect(['prep', 'call', 'boarding', 'movement', 'disembarking', 'done']).toContain(riding.data.phase);
    const d = await ended(runId);
    expect(d.status, JSON.stringify(d.steps)).toBe('done');
    expect(d.steps.map((s) => [s.stepId, s.result])).toEqual([
      ['hall', 'done'],
      ['up', 'done'],
      ['door', 'done'],
      ['patrol', 'done'],
    ]);
    expect(d.steps[1]!.data).toMatchObject({ floorId: upper.id, waypointId: 2, phase: 'done' });
    expect(d.steps[2]!.data).toMatchObject({ door: 'door-1', phase: 'done' });
    // The robot is on the upper floor's map, at Patrol 2.
    const live = t.link.details(robotId)!.state!;
    expect(live.agvPosition?.mapId).toBe(floorMapId(upper.id));
    expect(live.lastNodeId).toBe('wp-4');
  });

  it('fails the door step with the security code when the door refuses, after its retries', async () => {
    const created = await t.call('POST', '/flows', admin, {
      name: 'Unknown door',
      description: '',
      buildingId,
      floorId: upper.id,
      flowGroupId: null,
      enabled: true,
      definition: {
        version: 1,
        steps: [
          { kind: 'passSecurityDoor', id: 'door', doorId: 'no-such-door', onError: { policy: 'retry', retries: 1 } },
        ],
      },
    });
    expect(created.statusCode, created.body).toBe(201);
    const res = await t.call('POST', `/flows/${created.json<{ id: number }>().id}/runs`, admin, { robotId });
    expect(res.statusCode, res.body).toBe(201);
    const d = await ended(res.json<FlowRun>().id);
    expect(d.status).toBe('fail');
    expect(d.steps.map((s) => [s.attempt, s.result])).toEqual([
      [1, 'fail'],
      [2, 'fail'],
    ]);
    expect(d.errorCode).toMatch(/^S\d{4}$/);
  });
});
