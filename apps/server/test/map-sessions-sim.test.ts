import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startRobot, type SimRobot } from '@portal/robot-sim';
import { mapSessionSchema, type CreatedRobot, type FloorDetail } from '@portal/contract';
import { createTestApp, type TestApp, until } from './helpers.ts';

/**
 * Map creation end to end with the real simulator: the portal asks the robot to map, the robot
 * reveals its ground-truth world as it is driven, the portal shows the map growing, and "save"
 * makes it the floor's map image.
 */

describe('map creation with a simulated robot', () => {
  let t: TestApp;
  let robot: SimRobot;
  let created: CreatedRobot;
  let floorId: number;
  let admin: { authorization: string };

  beforeAll(async () => {
    t = await createTestApp();
    admin = await t.as('orgadmin@demo.example');
    const b = await t.db.kysely
      .selectFrom('buildings')
      .select('id')
      .where('name', '=', 'Demo Tower')
      .executeTakeFirstOrThrow();
    floorId = (
      await t.db.kysely.selectFrom('floors').select('id').where('building_id', '=', b.id).executeTakeFirstOrThrow()
    ).id;
    const res = await t.inject({
      method: 'POST',
      url: '/api/robots',
      headers: admin,
      payload: {
        serialNo: 'MAPPER-1',
        name: 'Mapper',
        model: 'pro',
        version: '',
        hardwareRevision: '',
        buildingId: b.id,
        floorId,
        groupId: null,
        status: 1,
        longTermRecordingAutoStart: false,
        videoMode: 'medium',
        notes: '',
      },
    });
    expect(res.statusCode, res.body).toBe(201);
    created = res.json<CreatedRobot>();
    const c = created.credentials;
    robot = await startRobot({
      brokerUrl: c.mqttUrl,
      username: c.username,
      password: c.password,
      manufacturer: c.manufacturer,
      serialNumber: c.serialNumber,
      model: 'pro',
      mapId: `floor-${floorId}`,
      start: { x: 2, y: 2, theta: 0 },
      speedScale: 6,
    });
    await until(() => t.link.live({ id: created.robot.id, status: 1 }).position, 20_000);
  });
  afterAll(async () => {
    await robot?.stop();
    await t?.close();
  });

  it('shows the map growing while the robot drives, and saves it as the floor image', async () => {
    const id = created.robot.id;
    const start = await t.inject({
      method: 'POST',
      url: `/api/robots/${id}/mapping`,
      headers: admin,
      payload: { floorId },
    });
    expect(start.statusCode, start.body).toBe(202);
    const first = await until(async () => {
      const s = mapSessionSchema
        .nullable()
        .parse((await t.inject({ method: 'GET', url: `/api/robots/${id}/map-session`, headers: admin })).json());
      return s?.map ? s : undefined;
    }, 20_000);
    expect(first.state).toBe('recording');
    expect(first.map?.image.startsWith('data:image/png;base64,')).toBe(true);
    const known = robot.mappingState()!.knownCells;

    // Driving reveals more of the world.
    await t.link.sendOrder(id, [
      { nodeId: 'a', x: 2, y: 2, mapId: `floor-${floorId}` },
      { nodeId: 'b', x: 14, y: 2, mapId: `floor-${floorId}` },
    ]);
    await robot.waitFor((s) => s.lastNodeId === 'b' && !s.driving, 20_000);
    await until(() => robot.mappingState()!.knownCells > known, 20_000);

    const stop = await t.inject({
      method: 'POST',
      url: `/api/robots/${id}/mapping/stop`,
      headers: admin,
      payload: { save: true },
    });
    expect(stop.statusCode, stop.body).toBe(200);
    expect(stop.json().state).toBe('saved');
    const floor = (
      await t.inject({ method: 'GET', url: `/api/floors/${floorId}`, headers: admin })
    ).json<FloorDetail>();
    expect(floor.img).not.toBeNull();
    expect(floor.resolution).toBeCloseTo(0.05);
    expect(floor.imgWidth).toBeGreaterThan(100);
    expect(floor.imgHeight).toBeGreaterThan(100);
    // The world starts at (-2, -2) with a margin: the map's origin lies below and left of it.
    expect(floor.originX).toBeLessThan(-2);
    expect(floor.originY).toBeLessThan(-2);
  });
});
