import { inflateSync } from 'node:zlib';
import mqtt from 'mqtt';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { factsheetMessage, startRobot, type SimRobot } from '@portal/robot-sim';
import {
  floorMapSchema,
  mapSessionSchema,
  vdaTopic,
  type CreatedRobot,
  type FloorDetail,
  type InitData,
  type MapSession,
  type MappingMessage,
  type VdaInstantActions,
} from '@portal/contract';
import { createTestApp, type TestApp, until, errorOf } from './helpers.ts';
import { robotMayPublish } from '../src/modules/robot-link/broker.ts';
import { mapSessionEvents, type MapSessionEvent } from '../src/modules/map-sessions/events.ts';

/**
 * Mapping by a robot (a raw MQTT client with the robot's credentials plays the robot) and route
 * recording (a simulated robot driven by an order): sessions, the saved map image and route, the
 * broker's rules for the `mapping` topic, roles and tenancy.
 */
let t: TestApp;
let buildingId: number;
const auth = { general: '', manager: '', orgAdmin: '', otherAdmin: '' };

const otherData: InitData = {
  organization: { name: 'Other Mapping Org', type: 0, labOption: false },
  buildings: [{ name: 'Other Mapping Building', floors: [{ name: '1F', index: 1, type: 'office' }] }],
  operators: [
    {
      loginId: 'admin@other-mapping.example',
      firstName: 'A',
      lastName: 'Other',
      password: 'Other-Admin-2026',
      type: 2,
      building: 0,
    },
  ],
};

const call: TestApp['call'] = (...args) => t.call(...args);

async function createFloor(name: string, index: number): Promise<FloorDetail> {
  const res = await call('POST', `/buildings/${buildingId}/floors`, auth.orgAdmin, {
    name,
    type: 'office',
    index,
    resolution: 0.05,
    originX: 0,
    originY: 0,
  });
  expect(res.statusCode, res.body).toBe(201);
  return res.json<FloorDetail>();
}

async function register(serialNo: string, floorId: number): Promise<CreatedRobot> {
  const res = await call('POST', '/robots', auth.orgAdmin, {
    serialNo,
    name: `Mapper ${serialNo}`,
    model: 'pro',
    version: '',
    hardwareRevision: '',
    buildingId,
    floorId,
    groupId: null,
    status: 1,
    longTermRecordingAutoStart: false,
    videoMode: 'medium',
    notes: '',
  });
  expect(res.statusCode, res.body).toBe(201);
  return res.json<CreatedRobot>();
}

/** A robot played by a raw MQTT client: it says where it is, hears its instant actions, publishes grids. */
async function rawRobot(created: CreatedRobot, mapId: string) {
  const c = created.credentials;
  const client = await mqtt.connectAsync(c.mqttUrl, {
    protocolVersion: 4,
    username: c.username,
    password: c.password,
    clientId: `${c.manufacturer}-${c.serialNumber}`,
    reconnectPeriod: 0,
  });
  const actions: VdaInstantActions['actions'] = [];
  const onAction: Array<(a: VdaInstantActions['actions'][number]) => void> = [];
  client.on('message', (_topic, payload) => {
    const msg = JSON.parse(payload.toString('utf8')) as VdaInstantActions;
    for (const a of msg.actions) {
      actions.push(a);
      onAction.forEach((f) => f(a));
    }
  });
  await client.subscribeAsync(vdaTopic(c.manufacturer, c.serialNumber, 'instantActions'), { qos: 1 });
  let headerId = 0;
  const header = () => ({
    headerId: headerId++,
    timestamp: new Date().toISOString(),
    version: '2.1.0',
    manufacturer: c.manufacturer,
    serialNumber: c.serialNumber,
  });
  const visualize = () =>
    client.publish(
      vdaTopic(c.manufacturer, c.serialNumber, 'visualization'),
      JSON.stringify({ ...header(), agvPosition: { x: 1, y: 1, theta: 0, mapId, positionInitialized: true } }),
    );
  // Its factsheet announces the mapping actions (custom actions go only to robots that announce them).
  client.publish(
    vdaTopic(c.manufacturer, c.serialNumber, 'factsheet'),
    JSON.stringify(factsheetMessage({ ...header(), version: '2.1.0' }, 'pro', [])),
  );
  visualize();
  const timer = setInterval(visualize, 500);
  const mappingTopic = `uagv/v2/${c.manufacturer}/${c.serialNumber}/mapping`;
  return {
    client,
    actions,
    onAction,
    mappingTopic,
    publishGrid(g: Partial<MappingMessage> & { cellsBytes?: Uint8Array }, topic = mappingTopic) {
      const { cellsBytes, ...rest } = g;
      const msg = {
        ...header(),
        mapId,
        state: 'RECORDING',
        resolution: 0.05,
        originX: 0,
        originY: 0,
        width: 4,
        height: 3,
        cells: Buffer.from(cellsBytes ?? new Uint8Array(12)).toString('base64'),
        ...rest,
      };
      return client.publishAsync(topic, JSON.stringify(msg), { qos: 1 });
    },
    async stop() {
      clearInterval(timer);
      await client.endAsync().catch(() => undefined);
    },
  };
}

const session = async (robotId: number, authorization = auth.orgAdmin) => {
  const res = await call('GET', `/robots/${robotId}/map-session`, authorization);
  expect(res.statusCode).toBe(200);
  return mapSessionSchema.nullable().parse(res.json());
};

/** The PNG's IHDR and its pixel rows (grayscale 8-bit, filter 0 as this server writes it). */
function decodePng(bytes: Buffer) {
  expect([...bytes.subarray(0, 8)]).toEqual([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  expect(bytes.subarray(12, 16).toString('latin1')).toBe('IHDR');
  const width = bytes.readUInt32BE(16);
  const height = bytes.readUInt32BE(20);
  const bitDepth = bytes[24];
  const colourType = bytes[25];
  const idat: Buffer[] = [];
  for (let at = 8; at < bytes.length;) {
    const len = bytes.readUInt32BE(at);
    if (bytes.subarray(at + 4, at + 8).toString('latin1') === 'IDAT') idat.push(bytes.subarray(at + 8, at + 8 + len));
    at += 12 + len;
  }
  const raw = inflateSync(Buffer.concat(idat));
  const rows = Array.from({ length: height }, (_, r) => [...raw.subarray(r * (width + 1) + 1, (r + 1) * (width + 1))]);
  return { width, height, bitDepth, colourType, rows };
}

beforeAll(async () => {
  t = await createTestApp();
  const sys = (await t.as('sysadmin@demo.example')).authorization;
  expect((await call('POST', '/init-data', sys, otherData)).statusCode).toBe(201);
  auth.otherAdmin = `Bearer ${(await t.login('admin@other-mapping.example', 'Other-Admin-2026')).json<{ token: string }>().token}`;
  auth.general = (await t.as('operator@demo.example')).authorization;
  auth.manager = (await t.as('manager@demo.example')).authorization;
  auth.orgAdmin = (await t.as('orgadmin@demo.example')).authorization;
  buildingId = (
    await t.db.kysely.selectFrom('buildings').select('id').where('name', '=', 'Demo Tower').executeTakeFirstOrThrow()
  ).id;
});
afterAll(async () => {
  await t?.close();
});

describe('mapping by a robot', () => {
  let floor: FloorDetail;
  let other: FloorDetail;
  let created: CreatedRobot;
  let robot: Awaited<ReturnType<typeof rawRobot>>;
  const pushed: MapSessionEvent[] = [];
  let off: () => void;

  beforeAll(async () => {
    floor = await createFloor('Map 1', 61);
    other = await createFloor('Map 2', 62);
    created = await register('MAPPING-001', floor.id);
    robot = await rawRobot(created, `floor-${floor.id}`);
    off = mapSessionEvents(t.link).on((e) => pushed.push(e));
    await until(() => t.link.live({ id: created.robot.id, status: 1 }).position !== null);
  });
  afterAll(async () => {
    off?.();
    await robot?.stop();
  });

  it('refuses other roles, other tenants, offline robots and another floor', async () => {
    const id = created.robot.id;
    const body = { floorId: floor.id };
    expect((await call('POST', `/robots/${id}/mapping`, auth.general, body)).statusCode).toBe(403);
    expect((await call('POST', `/robots/${id}/mapping`, auth.manager, body)).statusCode).toBe(403);
    expect((await call('POST', `/robots/${id}/mapping`, auth.otherAdmin, body)).statusCode).toBe(404);
    expect((await call('GET', `/robots/${id}/map-session`, auth.otherAdmin)).statusCode).toBe(404);
    const elsewhere = await call('POST', `/robots/${id}/mapping`, auth.orgAdmin, { floorId: other.id });
    expect(elsewhere.statusCode, elsewhere.body).toBe(400);
    expect(errorOf(elsewhere).details).toEqual([
      { path: 'floorId', message: 'validation.robotOnOtherFloor', code: `floor-${floor.id}` },
    ]);
    const offline = await register('MAPPING-OFF', floor.id);
    const res = await call('POST', `/robots/${offline.robot.id}/mapping`, auth.orgAdmin, body);
    expect(res.statusCode).toBe(409);
    expect(errorOf(res).code).toBe('ROBOT_OFFLINE');
    expect(await session(id)).toBeNull();
  });

  it('starts: sends startMapping with the floor map id and resolution; a second session is a conflict', async () => {
    const id = created.robot.id;
    const res = await call('POST', `/robots/${id}/mapping`, auth.orgAdmin, { floorId: floor.id });
    expect(res.statusCode, res.body).toBe(202);
    expect(mapSessionSchema.parse(res.json())).toMatchObject({
      robotId: id,
      floorId: floor.id,
      kind: 'mapping',
      state: 'recording',
      map: null,
    });
    const action = await until(() => robot.actions.find((a) => a.actionType === 'startMapping'));
    expect(action.blockingType).toBe('NONE');
    expect(action.actionParameters).toEqual([
      { key: 'mapId', value: `floor-${floor.id}` },
      { key: 'resolution', value: '0.05' },
    ]);
    const again = await call('POST', `/robots/${id}/mapping`, auth.orgAdmin, { floorId: floor.id });
    expect(again.statusCode).toBe(409);
    expect(errorOf(again).code).toBe('CONFLICT');
    const recording = await call('POST', `/robots/${id}/route-recording`, auth.orgAdmin, {
      floorId: floor.id,
      pointInterval: 0.5,
    });
    expect(recording.statusCode).toBe(409);
    // Anyone who can see the robot may watch.
    expect((await session(id, auth.general))?.state).toBe('recording');
  });

  it('drops malformed mapping messages', async () => {
    const before = t.link.stats.dropped;
    await robot.publishGrid({ width: 5 }); // 12 bytes for 5 × 3 cells
    await robot.client.publishAsync(robot.mappingTopic, '{not json', { qos: 1 });
    await robot.publishGrid({ state: 'DRAWING' as never });
    await until(() => t.link.stats.dropped >= before + 3);
    expect((await session(created.robot.id))?.map).toBeNull();
  });

  it('shows the growing grid as a PNG data URL, pushed to the browsers', async () => {
    await robot.publishGrid({ cellsBytes: new Uint8Array(12).fill(255) });
    const s = await until(async () => (await session(created.robot.id))?.map ?? undefined);
    expect(s.image).toMatch(/^data:image\/png;base64,/);
    expect(s).toMatchObject({ width: 4, height: 3, resolution: 0.05, originX: 0, originY: 0 });
    const png = decodePng(Buffer.from(s.image.slice('data:image/png;base64,'.length), 'base64'));
    expect(png.rows).toEqual(Array.from({ length: 3 }, () => [205, 205, 205, 205]));
    expect(pushed.some((e) => e.robotId === created.robot.id && e.session?.map !== null)).toBe(true);
    // Throttled: a burst of grids is encoded at most once a second.
    const count = () => pushed.filter((e) => e.session?.map).length;
    const n = count();
    for (let i = 0; i < 5; i++) await robot.publishGrid({ width: 2, height: 6 });
    await until(async () => (await session(created.robot.id))?.map?.width === 2, 3_000);
    expect(count() - n).toBeLessThanOrEqual(2);
  });

  it('pauses and resumes (the robot is told)', async () => {
    const id = created.robot.id;
    const paused = await call('POST', `/robots/${id}/mapping/pause`, auth.orgAdmin);
    expect(paused.statusCode, paused.body).toBe(200);
    expect(paused.json<MapSession>().state).toBe('paused');
    await until(() => robot.actions.find((a) => a.actionType === 'pauseMapping'));
    const resumed = await call('POST', `/robots/${id}/mapping/resume`, auth.orgAdmin);
    expect(resumed.json<MapSession>().state).toBe('resumed');
    await until(() => robot.actions.find((a) => a.actionType === 'resumeMapping'));
    expect((await call('POST', `/robots/${id}/mapping/pause`, auth.general)).statusCode).toBe(403);
    expect((await call('POST', `/robots/${id}/route-recording/pause`, auth.orgAdmin)).statusCode).toBe(404);
  });

  it('stops with save: the final grid becomes the floor map image with its frame', async () => {
    const id = created.robot.id;
    // 6 × 5 cells at 10 cm; row 0 (the bottom, lowest y) occupied, the top row unknown, the rest free.
    const cells = new Uint8Array(30).fill(0);
    cells.fill(100, 0, 6);
    cells.fill(255, 24, 30);
    robot.onAction.push((a) => {
      if (a.actionType !== 'stopMapping') return;
      void robot.publishGrid({
        state: 'FINISHED',
        width: 6,
        height: 5,
        resolution: 0.1,
        originX: -1.5,
        originY: -2,
        cellsBytes: cells,
      });
    });
    const res = await call('POST', `/robots/${id}/mapping/stop`, auth.orgAdmin, { save: true });
    expect(res.statusCode, res.body).toBe(200);
    const done = mapSessionSchema.parse(res.json());
    expect(done.state).toBe('saved');
    expect(done.map).toMatchObject({ width: 6, height: 5, resolution: 0.1, originX: -1.5, originY: -2 });
    const stop = robot.actions.find((a) => a.actionType === 'stopMapping')!;
    expect(stop.actionParameters).toContainEqual({ key: 'save', value: 'true' });

    const detail = await call('GET', `/floors/${floor.id}`, auth.orgAdmin);
    const f = detail.json<FloorDetail>();
    expect(f).toMatchObject({ imgWidth: 6, imgHeight: 5, resolution: 0.1, originX: -1.5, originY: -2 });
    expect(f.img).toBeTruthy();
    const image = await t.inject({ method: 'GET', url: f.img! });
    expect(image.statusCode).toBe(200);
    const png = decodePng(image.rawPayload);
    expect(png).toMatchObject({ width: 6, height: 5, bitDepth: 8, colourType: 0 });
    // The image's top is the map's highest y: the grid's last row first.
    expect(png.rows[0]).toEqual([205, 205, 205, 205, 205, 205]);
    expect(png.rows[2]).toEqual([255, 255, 255, 255, 255, 255]);
    expect(png.rows[4]).toEqual([0, 0, 0, 0, 0, 0]);

    // The map API shows the new frame; the session is over.
    const map = floorMapSchema.parse((await call('GET', `/floors/${floor.id}/map`, auth.orgAdmin)).json());
    expect(map.image).toMatchObject({ width: 6, height: 5, resolution: 0.1, originX: -1.5, originY: -2 });
    expect(await session(id)).toBeNull();
    expect(pushed.at(-1)).toMatchObject({ robotId: id, session: { state: 'saved' } });
    const audit = await t.db.kysely
      .selectFrom('audit_logs')
      .select(['action', 'target_id'])
      .where('action', '=', 'floor.map-image')
      .where('target_id', '=', String(floor.id))
      .execute();
    expect(audit.length).toBe(1);
  });

  it('stops without save: nothing is stored, and the robot can map again', async () => {
    const id = created.robot.id;
    expect((await call('POST', `/robots/${id}/mapping`, auth.orgAdmin, { floorId: floor.id })).statusCode).toBe(202);
    const before = (await call('GET', `/floors/${floor.id}`, auth.orgAdmin)).json<FloorDetail>();
    const res = await call('POST', `/robots/${id}/mapping/stop`, auth.orgAdmin, { save: false });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json<MapSession>().state).toBe('cancelled');
    const after = (await call('GET', `/floors/${floor.id}`, auth.orgAdmin)).json<FloorDetail>();
    expect(after.updatedAt).toBe(before.updatedAt);
    expect((await call('POST', `/robots/${id}/mapping/stop`, auth.orgAdmin, { save: false })).statusCode).toBe(404);
  });

  it('lets a robot publish only its own mapping topic', async () => {
    const second = await register('MAPPING-002', floor.id);
    const a = created.credentials;
    const b = second.credentials;
    const idA = {
      role: 'robot' as const,
      robotId: created.robot.id,
      manufacturer: a.manufacturer,
      serialNo: a.serialNumber,
    };
    expect(robotMayPublish(idA, `uagv/v2/${a.manufacturer}/${a.serialNumber}/mapping`)).toBe(true);
    expect(robotMayPublish(idA, `uagv/v2/${b.manufacturer}/${b.serialNumber}/mapping`)).toBe(false);
    expect(robotMayPublish(idA, `uagv/v2/${a.manufacturer}/${a.serialNumber}/other`)).toBe(false);
    expect(robotMayPublish({ role: 'server' }, `uagv/v2/${a.manufacturer}/${a.serialNumber}/mapping`)).toBe(false);

    // Over the broker: robot A's grid on robot B's topic never reaches the portal.
    const heard: number[] = [];
    const offMapping = t.link.on('mapping', (e) => heard.push(e.robotId));
    const intruder = await mqtt.connectAsync(a.mqttUrl, {
      protocolVersion: 4,
      username: a.username,
      password: a.password,
      clientId: `${a.manufacturer}-${a.serialNumber}:intruder`,
      reconnectPeriod: 0,
    });
    const closed = new Promise<void>((ok) => intruder.once('close', () => ok()));
    intruder.publish(
      `uagv/v2/${b.manufacturer}/${b.serialNumber}/mapping`,
      JSON.stringify({
        headerId: 0,
        timestamp: new Date().toISOString(),
        version: '2.1.0',
        manufacturer: b.manufacturer,
        serialNumber: b.serialNumber,
        mapId: `floor-${floor.id}`,
        state: 'RECORDING',
        resolution: 0.05,
        originX: 0,
        originY: 0,
        width: 1,
        height: 1,
        cells: 'AA==',
      }),
      { qos: 1 },
    );
    await Promise.race([closed, new Promise((r) => setTimeout(r, 1_000))]);
    // Its own topic goes through (robot A's message reaches the link).
    await robot.publishGrid({ width: 1, height: 1, cellsBytes: new Uint8Array(1) });
    await until(() => heard.includes(created.robot.id));
    expect(heard).not.toContain(second.robot.id);
    offMapping();
    await intruder.endAsync(true).catch(() => undefined);
  });
});

describe('route recording', () => {
  let floor: FloorDetail;
  let created: CreatedRobot;
  let sim: SimRobot;

  beforeAll(async () => {
    floor = await createFloor('Rec 1', 71);
    created = await register('RECORD-001', floor.id);
    const c = created.credentials;
    sim = await startRobot({
      brokerUrl: c.mqttUrl,
      username: c.username,
      password: c.password,
      manufacturer: c.manufacturer,
      serialNumber: c.serialNumber,
      model: 'pro',
      mapId: `floor-${floor.id}`,
      start: { x: 1, y: 1, theta: 0 },
      speedScale: 3,
      visualizationHz: 10,
    });
    await until(() => {
      const live = t.link.live({ id: created.robot.id, status: 1 });
      return live.online && live.position !== null;
    });
  });
  afterAll(async () => {
    await sim?.stop().catch(() => undefined);
  });

  it('refuses other roles and tenants, and bad intervals', async () => {
    const id = created.robot.id;
    const body = { floorId: floor.id, pointInterval: 0.5 };
    expect((await call('POST', `/robots/${id}/route-recording`, auth.general, body)).statusCode).toBe(403);
    expect((await call('POST', `/robots/${id}/route-recording`, auth.manager, body)).statusCode).toBe(403);
    expect((await call('POST', `/robots/${id}/route-recording`, auth.otherAdmin, body)).statusCode).toBe(404);
    const bad = await call('POST', `/robots/${id}/route-recording`, auth.orgAdmin, { ...body, pointInterval: 9 });
    expect(bad.statusCode).toBe(400);
  });

  it('samples the driven path at the interval and saves it as a recorded route with two waypoints', async () => {
    const id = created.robot.id;
    const start = await call('POST', `/robots/${id}/route-recording`, auth.orgAdmin, {
      floorId: floor.id,
      pointInterval: 0.5,
    });
    expect(start.statusCode, start.body).toBe(202);
    expect(start.json<MapSession>()).toMatchObject({ kind: 'recording', state: 'recording', pointInterval: 0.5 });
    expect(start.json<MapSession>().points).toHaveLength(1);

    const paused = await call('POST', `/robots/${id}/route-recording/pause`, auth.orgAdmin);
    expect(paused.json<MapSession>().state).toBe('paused');
    const resumed = await call('POST', `/robots/${id}/route-recording/resume`, auth.orgAdmin);
    expect(resumed.json<MapSession>().state).toBe('resumed');

    const mapId = `floor-${floor.id}`;
    await t.link.sendOrder(id, [
      { nodeId: 'a', x: 1, y: 1, mapId },
      { nodeId: 'b', x: 5, y: 1, mapId },
      { nodeId: 'c', x: 5, y: 4, mapId },
    ]);
    await until(() => {
      const p = t.link.live({ id, status: 1 }).position;
      return !!p && Math.hypot(p.x - 5, p.y - 4) < 0.05;
    }, 20_000);
    const during = await until(async () => {
      const s = await session(id);
      return s && s.points.length >= 6 ? s : undefined;
    });
    expect(during.kind).toBe('recording');

    const unnamed = await call('POST', `/robots/${id}/route-recording/stop`, auth.orgAdmin, { save: true, name: ' ' });
    expect(unnamed.statusCode).toBe(400);
    expect(errorOf(unnamed).details).toEqual([{ path: 'name', message: 'validation.required' }]);
    expect(
      (await call('POST', `/robots/${id}/route-recording/stop`, auth.general, { save: true, name: 'x' })).statusCode,
    ).toBe(403);

    const before = floorMapSchema.parse((await call('GET', `/floors/${floor.id}/map`, auth.orgAdmin)).json());
    const res = await call('POST', `/robots/${id}/route-recording/stop`, auth.orgAdmin, {
      save: true,
      name: 'Lobby run',
    });
    expect(res.statusCode, res.body).toBe(200);
    const map = floorMapSchema.parse(res.json());
    expect(map.revision).toBe(before.revision + 1);
    const route = map.document.routes.find((r) => r.name === 'Lobby run')!;
    expect(route.recorded?.pointInterval).toBe(0.5);
    const points = route.recorded!.points;
    expect(points.length).toBeGreaterThanOrEqual(6);
    for (let i = 1; i < points.length; i++) {
      const d = Math.hypot(points[i]!.x - points[i - 1]!.x, points[i]!.y - points[i - 1]!.y);
      expect(d).toBeGreaterThanOrEqual(0.5 - 1e-9);
    }
    expect(points[0]).toMatchObject({ x: expect.closeTo(1, 1) as number, y: expect.closeTo(1, 1) as number });
    expect(route.waypointIds).toHaveLength(2);
    const [startWp, endWp] = route.waypointIds.map((wid) => map.document.waypoints.find((w) => w.id === wid)!);
    expect(startWp).toMatchObject({ name: 'Lobby run start', type: 1, x: points[0]!.x, y: points[0]!.y });
    expect(endWp).toMatchObject({ name: 'Lobby run end', type: 1, x: points.at(-1)!.x, y: points.at(-1)!.y });
    expect(await session(id)).toBeNull();

    // The next recording adds ids after the highest ones.
    expect(
      (await call('POST', `/robots/${id}/route-recording`, auth.orgAdmin, { floorId: floor.id, pointInterval: 1 }))
        .statusCode,
    ).toBe(202);
    const short = await call('POST', `/robots/${id}/route-recording/stop`, auth.orgAdmin, {
      save: true,
      name: 'Short',
    });
    expect(short.statusCode).toBe(400);
    expect(errorOf(short).details).toEqual([{ path: 'points', message: 'validation.routeTooShort' }]);
    const cancelled = await call('POST', `/robots/${id}/route-recording/stop`, auth.orgAdmin, { save: false });
    expect(cancelled.statusCode).toBe(200);
    expect(cancelled.json<MapSession>().state).toBe('cancelled');
  });
});
