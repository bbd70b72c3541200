import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startRobot, type SimRobot } from '@portal/robot-sim';
import type { CreatedRobot, InitData } from '@portal/contract';
import { createTestApp, type TestApp } from './helpers.ts';
import { openProbe, type Probe } from './ws-probe.ts';

const otherData: InitData = {
  organization: { name: 'Realtime Other Org', type: 0, labOption: false },
  buildings: [{ name: 'Other Building', floors: [{ name: '1F', index: 1, type: 'office' }] }],
  operators: [
    {
      loginId: 'admin@rt-other.example',
      firstName: 'A',
      lastName: 'Other',
      password: 'Other-Admin-2026',
      type: 2,
      building: 0,
    },
  ],
};

describe('WebSocket gateway', () => {
  let t: TestApp;
  let demoBuilding: number;
  let otherBuilding: number;
  let robot: CreatedRobot;
  let sim: SimRobot;
  const probes: Probe[] = [];

  async function open(token?: string): Promise<Probe> {
    const p = await openProbe(t, token);
    probes.push(p);
    return p;
  }

  beforeAll(async () => {
    t = await createTestApp();
    const sys = await t.as('sysadmin@demo.example');
    const imported = await t.inject({ method: 'POST', url: '/api/init-data', headers: sys, payload: otherData });
    expect(imported.statusCode).toBe(201);
    const rows = await t.db.kysely.selectFrom('buildings').select(['id', 'name']).execute();
    demoBuilding = rows.find((r) => r.name === 'Demo Tower')!.id;
    otherBuilding = rows.find((r) => r.name === 'Other Building')!.id;
    const floor = await t.db.kysely
      .selectFrom('floors')
      .select('id')
      .where('building_id', '=', demoBuilding)
      .orderBy('id')
      .executeTakeFirstOrThrow();
    const admin = await t.as('orgadmin@demo.example');
    const res = await t.inject({
      method: 'POST',
      url: '/api/robots',
      headers: admin,
      payload: {
        serialNo: 'WS-001',
        name: 'Socket robot',
        model: 'mini',
        version: '',
        hardwareRevision: '',
        buildingId: demoBuilding,
        floorId: floor.id,
        groupId: null,
        status: 1,
        longTermRecordingAutoStart: false,
        videoMode: 'low',
        notes: '',
      },
    });
    expect(res.statusCode, res.body).toBe(201);
    robot = res.json<CreatedRobot>();
    const c = robot.credentials;
    sim = await startRobot({
      brokerUrl: c.mqttUrl,
      username: c.username,
      password: c.password,
      manufacturer: c.manufacturer,
      serialNumber: c.serialNumber,
      model: 'mini',
      mapId: `floor-${floor.id}`,
      start: { x: 3, y: 3, theta: 0 },
      visualizationHz: 10,
    });
  });

  afterAll(async () => {
    for (const p of probes) p.ws.terminate();
    await sim?.stop();
    await t?.close();
  });

  it('refuses a bad token and closes the socket', async () => {
    const p = await open();
    p.send({ type: 'auth', token: 'not-a-real-token-at-all-000000' });
    const err = await p.next('error');
    expect(err.code).toBe('UNAUTHENTICATED');
    await expect.poll(() => p.closed?.code).toBe(4401);
  });

  it('refuses subscriptions before auth and answers malformed messages with an error', async () => {
    const p = await open();
    p.send({ type: 'subscribe', topic: `fleet:${demoBuilding}` });
    expect((await p.next('error')).code).toBe('UNAUTHENTICATED');
    p.clear();
    p.ws.send('{oops');
    expect((await p.next('error')).code).toBe('VALIDATION_FAILED');
    p.clear();
    p.send({ type: 'subscribe', topic: 'fleet:../../etc' });
    expect((await p.next('error')).code).toBe('VALIDATION_FAILED');
  });

  it('answers a subscription with a snapshot, then live changes and positions', async () => {
    const { token } = await t.as('operator@demo.example');
    const p = await open(token);
    p.send({ type: 'subscribe', topic: `fleet:${demoBuilding}` });
    const snap = await p.next('snapshot');
    expect(snap.robots.map((r) => r.serialNo)).toContain('WS-001');
    await p.next('poses', (m) => m.poses.some((x) => x.robotId === robot.robot.id));
    sim.setBattery(42);
    const live = await p.next('live', (m) => m.robotId === robot.robot.id && m.live.battery === 42);
    expect(live.live.online).toBe(true);
    sim.injectFault('emergencyStop');
    const stop = await p.next('live', (m) => m.live.activity === 'emergencyStop');
    expect(stop.live.issues.map((i) => i.code)).toContain('emergencyStop');
    sim.clearFault('emergencyStop');
  });

  it('keeps other tenants out: another organization cannot subscribe to this building or robot', async () => {
    const res = await t.login('admin@rt-other.example', 'Other-Admin-2026');
    const token = res.json<{ token: string }>().token;
    const p = await open(token);
    p.send({ type: 'subscribe', topic: `fleet:${demoBuilding}` });
    expect((await p.next('error')).code).toBe('NOT_FOUND');
    p.clear();
    p.send({ type: 'subscribe', topic: `robot:${robot.robot.id}` });
    expect((await p.next('error')).code).toBe('NOT_FOUND');
    p.clear();
    p.send({ type: 'subscribe', topic: 'fleet:all' });
    const snap = await p.next('snapshot');
    expect(snap.robots).toEqual([]);
    // Its own building is fine.
    p.send({ type: 'subscribe', topic: `fleet:${otherBuilding}` });
    await p.next('snapshot', (m) => m.topic === `fleet:${otherBuilding}`);
    // Live changes and positions of the demo robot never reach it. Barrier: a demo operator's socket
    // sees the change and then a positions frame (the same flush serves every socket); a ping sent to
    // the other tenant's socket after that is answered after anything the server sent it before.
    const witness = await open((await t.as('operator@demo.example')).token);
    witness.send({ type: 'subscribe', topic: `fleet:${demoBuilding}` });
    await witness.next('snapshot');
    p.clear();
    sim.setBattery(41);
    await witness.next('live', (m) => m.robotId === robot.robot.id && m.live.battery === 41);
    witness.clear();
    await witness.next('poses', (m) => m.poses.some((x) => x.robotId === robot.robot.id));
    p.send({ type: 'ping' });
    await p.next('pong');
    expect(p.messages.filter((m) => m.type === 'live' || m.type === 'poses')).toEqual([]);
  });

  it('tells subscribers to resync when the registry changes', async () => {
    const { token } = await t.as('orgadmin@demo.example');
    const p = await open(token);
    p.send({ type: 'subscribe', topic: 'fleet:all' });
    await p.next('snapshot');
    const admin = await t.as('orgadmin@demo.example');
    const current = (await t.inject({ method: 'GET', url: `/api/robots/${robot.robot.id}`, headers: admin })).json();
    const res = await t.inject({
      method: 'PUT',
      url: `/api/robots/${robot.robot.id}`,
      headers: admin,
      payload: {
        serialNo: current.serialNo,
        name: 'Renamed socket robot',
        model: current.model,
        version: current.version,
        hardwareRevision: current.hardwareRevision,
        buildingId: current.buildingId,
        floorId: current.floorId,
        groupId: current.groupId,
        status: 2,
        longTermRecordingAutoStart: current.longTermRecordingAutoStart,
        videoMode: current.videoMode,
        notes: current.notes,
        updatedAt: current.updatedAt,
      },
    });
    expect(res.statusCode, res.body).toBe(200);
    await p.next('resync', (m) => m.topic === 'fleet:all');
    const live = await p.next('live', (m) => m.robotId === robot.robot.id && m.live.statusLabel === 'maintenance');
    expect(live.live.online).toBe(true);
  });
});
