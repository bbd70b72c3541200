import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createOutbound } from '../src/lib/outbound.ts';
import { buildingSystemsFor } from '../src/modules/building-systems/registry.ts';
import {
  DEMO_ELEVATOR_BANK,
  DEMO_SECURITY_DOORS,
  simulatedBuildingOutbound,
  startSimulatedBuilding,
  type SimulatedBuilding,
} from '../src/services/simulated-building.ts';
import { linksRepo } from '../src/modules/buildings/links-repo.ts';
import { simulatedFleetRepo } from '../src/services/simulated-fleet-repo.ts';
import { createTestApp, registerDemoRobot, type TestApp } from './helpers.ts';
import { runRepo } from '../src/modules/flow-runs/run-repo.ts';

/**
 * The demo's simulated building systems (npm start): the simulator's controller runs as a child
 * process on 127.0.0.1, the demo building is linked to it, and the flow runner's outbound helper
 * reaches it while the configuration's rules (HTTPS only, no loopback) still hold for anything else.
 */
describe('the demo building’s simulated elevators and doors', () => {
  let t: TestApp;
  let sim: SimulatedBuilding | null = null;
  let building: { id: number; organization_id: number };
  const silent = new Proxy({} as Parameters<typeof startSimulatedBuilding>[0]['log'], {
    get: () => () => undefined,
  });

  beforeAll(async () => {
    t = await createTestApp();
    building = await t.db.kysely
      .selectFrom('buildings')
      .select(['id', 'organization_id'])
      .where('name', '=', 'Demo Tower')
      .executeTakeFirstOrThrow();
  });

  afterAll(async () => {
    await sim?.stop();
    await t?.close();
  });

  it('are not started by the test app', async () => {
    expect((await linksRepo(t.db.kysely).find(building.id))?.t_spider_url ?? '').toBe('');
  });

  it('start on a free loopback port, link the building, and answer the runner’s adapter', async () => {
    const { outbound, admit } = simulatedBuildingOutbound(createOutbound());
    sim = await startSimulatedBuilding({
      db: t.db.kysely,
      log: silent,
      clock: () => new Date(),
      building,
      floorIndexes: [2, 1, 0],
      admit,
    });
    expect(sim?.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect((await linksRepo(t.db.kysely).find(building.id))?.t_spider_url).toBe(sim!.url);

    const health = (await (await fetch(`${sim!.url}/health`)).json()) as {
      banks: Array<{ id: string; floors: number[] }>;
      doors: string[];
    };
    expect(health.banks).toEqual([expect.objectContaining({ id: DEMO_ELEVATOR_BANK, floors: [0, 1, 2] })]);
    expect(health.doors).toEqual([...DEMO_SECURITY_DOORS]);

    // The runner's adapter for the building reaches it through the outbound helper.
    const adapter = await buildingSystemsFor(t.db.kysely, building.id, outbound);
    expect(adapter).not.toBeNull();
    const call = await adapter!.callElevator({ bank: DEMO_ELEVATOR_BANK, from: 0, to: 2, rider: 'SIM-0001' });
    expect(call.phase).toBe('call');
    expect((await adapter!.rideStatus(call.id)).id).toBe(call.id);
    await adapter!.cancelRide(call.id);
    const pass = await adapter!.requestDoor({ door: DEMO_SECURITY_DOORS[0], rider: 'SIM-0001' });
    expect(pass.phase).not.toBe('failure');
    await adapter!.cancelPass(pass.id);

    // The configuration's rules still hold for every other address.
    expect((await outbound.check('http://127.0.0.1:1/x')).ok).toBe(false);
    expect((await outbound.check(`${sim!.url}/health`)).ok).toBe(true);
  }, 30_000);

  it('leave a building linked to its own system alone', async () => {
    const links = linksRepo(t.db.kysely);
    await links.upsert(
      {
        building_id: building.id,
        organization_id: building.organization_id,
        t_spider_url: 'https://elevators.example.com',
        hakaru_ai_login_id: '',
        hakaru_ai_password: null,
        lilz_token: null,
        kanriroid_token: null,
        updated_at: new Date().toISOString(),
      },
      { t_spider_url: 'https://elevators.example.com' },
    );
    const other = await startSimulatedBuilding({
      db: t.db.kysely,
      log: silent,
      clock: () => new Date(),
      building,
      floorIndexes: [0, 1, 2],
    });
    expect(other).toBeNull();
    expect((await links.find(building.id))?.t_spider_url).toBe('https://elevators.example.com');
  });

  it('the demo patrol finds the robots with a flow run in progress', async () => {
    const repo = simulatedFleetRepo(t.db.kysely);
    const { created, floorId } = await registerDemoRobot(t, { serialNo: 'SIMB-1', name: 'In a flow', model: 'ex' });
    const other = await registerDemoRobot(t, { serialNo: 'SIMB-2', name: 'Free', model: 'mini' });
    const ids = [created.robot.id, other.created.robot.id];
    expect(await repo.robotsInFlows(ids)).toEqual(new Set());
    const at = new Date().toISOString();
    const run = (robotId: number, status: string) =>
      runRepo(t.db.kysely).insert({
        organization_id: building.organization_id,
        building_id: building.id,
        floor_id: floorId,
        flow_id: null,
        flow_name: 'Patrol',
        robot_id: robotId,
        robot_name: 'r',
        definition: '{"version":1,"steps":[]}',
        status,
        started_at: at,
        ended_at: null,
        started_by: null,
        current_step_id: null,
        current_step_kind: null,
        error_code: null,
        message: null,
        cursor: '{}',
        owner: null,
        lease_until: null,
      });
    await run(created.robot.id, 'paused');
    await run(other.created.robot.id, 'done');
    expect(await repo.robotsInFlows(ids)).toEqual(new Set([created.robot.id]));
    expect(await repo.robotsInFlows([])).toEqual(new Set());
  });
});
