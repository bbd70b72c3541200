import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { InjectOptions } from 'fastify';
import type { WebSocket } from 'ws';
import { startRobot, type SimRobot } from '@portal/robot-sim';
import {
  FACTSHEET_CAMERAS_KEY,
  OS_UPDATE_ACTION,
  ROBOT_ACTION_TYPES,
  TELEOP_INFO_TYPE,
  createdRobotSchema,
  robotConsoleSchema,
  robotLogSchema,
  robotPhotoSchema,
  robotSchema,
  robotTeleopSchema,
  teleopInfoReferences,
  thermalPresetSaveResultSchema,
  thermalPresetSchema,
  type CameraId,
  type CreatedRobot,
  type InitData,
  type RobotInput,
  type RobotTeleopInfo,
  type VdaFactsheet,
  type WsServerMessage,
} from '@portal/contract';
import { encodeGrayPng } from '../src/lib/png.ts';
import { NEUTRAL_TELEOP_INFO } from '../src/modules/robot-features/capabilities.ts';
import { simOptions, createTestApp, demo, until, type TestApp, errorOf } from './helpers.ts';

/**
 * Robot features of the operator screen and the console (docs/api.md "Robot features"), against
 * simulated robots on the embedded broker. Capabilities and teleop facts are set by publishing
 * hand-made factsheets and states, so the tests do not depend on what a simulated model offers.
 */
let t: TestApp;
const auth = { general: '', manager: '', orgAdmin: '', sysAdmin: '', otherAdmin: '' };
let ids = { general: 0, manager: 0 };
let demoBuildingId: number;
let floor1F: number;
let annex: { id: number; floorId: number };
const sims: SimRobot[] = [];

const EVERYTHING = [...ROBOT_ACTION_TYPES, OS_UPDATE_ACTION];

/** Full-featured robot (thermal, periscope, recording...), a bare one, one never connected, one in another building. */
let full: { robot: CreatedRobot['robot']; sim: SimRobot };
let bare: { robot: CreatedRobot['robot']; sim: SimRobot };
let offline: CreatedRobot['robot'];
let annexRobot: CreatedRobot['robot'];

const otherData: InitData = {
  organization: { name: 'Other Features Org', type: 0, labOption: false },
  buildings: [{ name: 'Other Building', floors: [{ name: '1F', index: 1, type: 'office' }] }],
  operators: [
    {
      loginId: 'admin@other-f.example',
      firstName: 'A',
      lastName: 'Other',
      password: 'Other-Admin-2026',
      type: 2,
      building: 0,
    },
  ],
};

const call: TestApp['call'] = (...args) => t.call(...args);

let serial = 0;
const input = (over: Partial<RobotInput> = {}): RobotInput => ({
  serialNo: `FEAT-${++serial}`,
  name: `Feature robot ${serial}`,
  model: 'pro',
  version: '',
  hardwareRevision: '',
  buildingId: demoBuildingId,
  floorId: floor1F,
  groupId: null,
  status: 1,
  longTermRecordingAutoStart: false,
  videoMode: 'medium',
  notes: '',
  ...over,
});

async function register(over: Partial<RobotInput> = {}): Promise<CreatedRobot> {
  const res = await call('POST', '/robots', auth.orgAdmin, input(over));
  expect(res.statusCode, res.body).toBe(201);
  return createdRobotSchema.parse(res.json());
}

async function connect(created: CreatedRobot): Promise<SimRobot> {
  const sim = await startRobot(
    simOptions(created, {
      model: 'pro',
      mapId: `floor-${floor1F}`,
      start: { x: 1, y: 1, theta: 0 },
      visualizationHz: 0,
      // States only on change: a hand-made state (teleop facts) stays until the robot has news.
      stateIntervalMs: 600_000,
    }),
  );
  sims.push(sim);
  await until(() => t.link.details(created.robot.id)?.factsheet && t.link.details(created.robot.id)?.online);
  return sim;
}

let headerId = 100_000;

/** Publishes the robot's factsheet with exactly these feature actions and cameras. */
async function announce(robotId: number, sim: SimRobot, actions: readonly string[], cameras: CameraId[]) {
  const received = await until(() => t.link.details(robotId)?.factsheet);
  const standard = received.protocolFeatures.agvActions.filter((a) => !EVERYTHING.includes(a.actionType));
  const factsheet: VdaFactsheet = {
    ...received,
    headerId: ++headerId,
    protocolFeatures: {
      ...received.protocolFeatures,
      agvActions: [...standard, ...actions.map((actionType) => ({ actionType, actionScopes: ['INSTANT' as const] }))],
    },
    [FACTSHEET_CAMERAS_KEY]: cameras,
  };
  await sim.publishRaw('factsheet', JSON.stringify(factsheet));
  await until(() => {
    const f = t.link.details(robotId)?.factsheet as Record<string, unknown> | null | undefined;
    return f?.headerId === factsheet.headerId;
  });
}

/** Publishes a state whose teleop information says `info`. */
async function report(robotId: number, sim: SimRobot, info: Partial<RobotTeleopInfo>) {
  const facts: RobotTeleopInfo = { ...NEUTRAL_TELEOP_INFO, ...info };
  const state = {
    ...sim.state(),
    headerId: ++headerId,
    information: [{ infoType: TELEOP_INFO_TYPE, infoLevel: 'INFO', infoReferences: teleopInfoReferences(facts) }],
  };
  await sim.publishRaw('state', JSON.stringify(state));
  await until(() => t.link.details(robotId)?.state?.headerId === state.headerId);
}

const actionsAudited = async (robotId: number) =>
  (
    await t.db.kysely
      .selectFrom('audit_logs')
      .select('detail')
      .where('action', '=', 'robot.action')
      .where('target_id', '=', String(robotId))
      .execute()
  ).length;

/** A browser tab on the WebSocket: messages recorded, with a wait for the next matching one. */
async function openSocket(token: string) {
  const ws: WebSocket = await t.app.injectWS('/api/ws');
  const messages: WsServerMessage[] = [];
  ws.on('message', (data: Buffer) => messages.push(JSON.parse(data.toString('utf8')) as WsServerMessage));
  const next = <T extends WsServerMessage['type']>(type: T) =>
    until(() => messages.find((m): m is Extract<WsServerMessage, { type: T }> => m.type === type));
  ws.send(JSON.stringify({ type: 'auth', token }));
  await next('ready');
  return { ws, next, send: (m: object) => ws.send(JSON.stringify(m)) };
}

beforeAll(async () => {
  t = await createTestApp();
  const general = await t.as('operator@demo.example');
  const manager = await t.as('manager@demo.example');
  ids = { general: general.id, manager: manager.id };
  auth.general = general.authorization;
  auth.manager = manager.authorization;
  auth.orgAdmin = (await t.as('orgadmin@demo.example')).authorization;
  auth.sysAdmin = (await t.as('sysadmin@demo.example')).authorization;
  const imported = await call('POST', '/init-data', auth.sysAdmin, otherData);
  expect(imported.statusCode, imported.body).toBe(201);
  const other = await t.login('admin@other-f.example', 'Other-Admin-2026');
  auth.otherAdmin = `Bearer ${other.json<{ token: string }>().token}`;

  const db = t.db.kysely;
  const b = await db
    .selectFrom('buildings')
    .select(['id', 'organization_id'])
    .where('name', '=', 'Demo Tower')
    .executeTakeFirstOrThrow();
  demoBuildingId = b.id;
  floor1F = (
    await db
      .selectFrom('floors')
      .select('id')
      .where('building_id', '=', b.id)
      .where('name', '=', '1F')
      .executeTakeFirstOrThrow()
  ).id;
  // A second building of the demo organization: the general operator (Demo Tower) cannot see it.
  const now = new Date().toISOString();
  const annexId = (
    await db
      .insertInto('buildings')
      .values({
        organization_id: b.organization_id,
        name: 'Features Annex',
        prefecture: null,
        city: null,
        address: null,
        postal_code: null,
        latitude: null,
        longitude: null,
        status: 1,
        ip_restriction_enabled: 0,
        created_at: now,
        updated_at: now,
      })
      .returning('id')
      .executeTakeFirstOrThrow()
  ).id;
  const annexFloor = await db
    .insertInto('floors')
    .values({
      organization_id: b.organization_id,
      building_id: annexId,
      name: '1F',
      type: 'office',
      index: 1,
      img: null,
      ugomap: null,
      img_width: null,
      img_height: null,
      created_at: now,
      updated_at: now,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  annex = { id: annexId, floorId: annexFloor.id };

  const fullCreated = await register();
  full = { robot: fullCreated.robot, sim: await connect(fullCreated) };
  await announce(full.robot.id, full.sim, EVERYTHING, ['v1', 'v2', 'g1', 'thermal', 'bogus' as CameraId]);
  const bareCreated = await register();
  bare = { robot: bareCreated.robot, sim: await connect(bareCreated) };
  await announce(bare.robot.id, bare.sim, [], []);
  offline = (await register()).robot;
  annexRobot = (await register({ buildingId: annex.id, floorId: annex.floorId })).robot;
});

afterAll(async () => {
  await Promise.all(sims.map((s) => s.stop().catch(() => undefined)));
  await t?.close();
});

describe('robot by serial number', () => {
  it('answers the same robot as GET /robots/:id within scope, 404 outside it', async () => {
    const bySerial = await call('GET', `/robots/by-serial/${full.robot.serialNo}`, auth.general);
    expect(bySerial.statusCode, bySerial.body).toBe(200);
    const byId = await call('GET', `/robots/${full.robot.id}`, auth.general);
    expect(robotSchema.parse(bySerial.json())).toEqual(robotSchema.parse(byId.json()));

    for (const [who, serialNo] of [
      [auth.otherAdmin, full.robot.serialNo],
      [auth.general, annexRobot.serialNo],
      [auth.general, 'NO-SUCH-ROBOT'],
      [auth.general, encodeURIComponent('%_*')],
    ] as const) {
      const res = await call('GET', `/robots/by-serial/${serialNo}`, who);
      expect(res.statusCode).toBe(404);
      expect(errorOf(res).code).toBe('NOT_FOUND');
    }
    expect((await call('GET', `/robots/by-serial/${annexRobot.serialNo}`, auth.manager)).statusCode).toBe(200);
  });
});

describe('tenancy', () => {
  it('answers 404 for another organization’s robot and for a robot of another building (general operator)', async () => {
    const routes = (id: number): Array<[InjectOptions['method'], string, unknown?]> => [
      ['GET', `/robots/${id}/teleop`],
      ['POST', `/robots/${id}/actions`, { type: 'setRingLight', on: true }],
      ['GET', `/robots/${id}/photos`],
      ['GET', `/robots/${id}/thermal-presets`],
      ['POST', `/robots/${id}/thermal-presets`, { name: 'X', colorMap: 'ir', rangeMin: 0, rangeMax: 50 }],
      ['DELETE', `/robots/${id}/thermal-presets/1`],
    ];
    const consoleRoutes = (id: number): Array<[InjectOptions['method'], string, unknown?]> => [
      ['GET', `/robots/${id}/console`],
      ['GET', `/robots/${id}/console/log`],
      ['POST', `/robots/${id}/console/actions`, { action: 'stateRequest' }],
      ['POST', `/robots/${id}/os-update`, {}],
    ];
    const before = await actionsAudited(full.robot.id);
    for (const [method, url, body] of [...routes(full.robot.id), ...consoleRoutes(full.robot.id)]) {
      const res = await call(method, url, auth.otherAdmin, body);
      expect({ url, status: res.statusCode, code: errorOf(res).code }).toEqual({ url, status: 404, code: 'NOT_FOUND' });
    }
    for (const [method, url, body] of routes(annexRobot.id)) {
      const res = await call(method, url, auth.general, body);
      expect({ url, status: res.statusCode }).toEqual({ url, status: 404 });
    }
    for (const [method, url, body] of routes(999_999)) {
      const res = await call(method, url, auth.sysAdmin, body);
      expect({ url, status: res.statusCode }).toEqual({ url, status: 404 });
    }
    expect(await actionsAudited(full.robot.id)).toBe(before);
    // The area manager sees the whole organization.
    expect((await call('GET', `/robots/${annexRobot.id}/teleop`, auth.manager)).statusCode).toBe(200);
  });
});

describe('capabilities and teleop facts', () => {
  it('derives the capabilities from the factsheet', async () => {
    const res = await call('GET', `/robots/${full.robot.id}/teleop`, auth.general);
    expect(res.statusCode, res.body).toBe(200);
    const teleop = robotTeleopSchema.parse(res.json());
    expect(teleop).toMatchObject({
      robotId: full.robot.id,
      serialNo: full.robot.serialNo,
      name: full.robot.name,
      buildingId: demoBuildingId,
      controller: null,
    });
    expect(teleop.capabilities).toEqual({
      cameras: ['v1', 'v2', 'g1', 'thermal'],
      actions: expect.arrayContaining(EVERYTHING),
      gimbal: true,
      // The pro model: heightMin 1.1, heightMax 1.8.
      periscope: { min: 1.1, max: 1.8 },
      ringLight: true,
      patrolLamp: true,
      thermal: true,
      recording: true,
      photo: true,
      speech: true,
      callService: true,
      osUpdate: true,
      workPlan: true,
    });

    const bareTeleop = robotTeleopSchema.parse(
      (await call('GET', `/robots/${bare.robot.id}/teleop`, auth.general)).json(),
    );
    expect(bareTeleop.capabilities).toMatchObject({
      cameras: ['v1'],
      gimbal: false,
      periscope: null,
      thermal: false,
      recording: false,
      photo: false,
      speech: false,
      osUpdate: false,
    });
    expect(bareTeleop.capabilities.actions.some((a) => EVERYTHING.includes(a))).toBe(false);

    // Never heard from: the main camera, nothing else, neutral facts.
    const silent = robotTeleopSchema.parse((await call('GET', `/robots/${offline.id}/teleop`, auth.general)).json());
    expect(silent.capabilities).toMatchObject({ cameras: ['v1'], actions: [], speech: false, workPlan: false });
    expect(silent.info).toEqual(NEUTRAL_TELEOP_INFO);
  });

  it('answers the robot’s live teleop information', async () => {
    await report(full.robot.id, full.sim, {
      recording: 'uploading',
      call: 'calling',
      ringLight: true,
      gimbal: { pan: 10, tilt: -5 },
      osVersion: '2.3.4',
    });
    const teleop = robotTeleopSchema.parse((await call('GET', `/robots/${full.robot.id}/teleop`, auth.general)).json());
    expect(teleop.info).toMatchObject({
      recording: 'uploading',
      call: 'calling',
      ringLight: true,
      gimbal: { pan: 10, tilt: -5 },
      osVersion: '2.3.4',
      updating: false,
    });
  });
});

describe('feature actions', () => {
  it('sends an instant action of the same type with the fields as string parameters, audited', async () => {
    t.link.watchLog(full.robot.id);
    const res = await call('POST', `/robots/${full.robot.id}/actions`, auth.general, {
      type: 'speak',
      text: '  Hello there  ',
      language: 'en',
    });
    expect(res.statusCode, res.body).toBe(202);
    const { actionId } = res.json<{ actionId: string }>();
    const sent = await until(() =>
      t.link.watchLog(full.robot.id).entries.find((e) => e.direction === 'out' && e.payload.includes(actionId)),
    );
    const message = JSON.parse(sent.payload) as {
      actions: Array<{ actionType: string; blockingType: string; actionParameters: unknown }>;
    };
    expect(message.actions[0]).toMatchObject({
      actionType: 'speak',
      blockingType: 'NONE',
      actionParameters: [
        { key: 'text', value: 'Hello there' },
        { key: 'language', value: 'en' },
      ],
    });
    await full.sim.waitFor((s) => s.actionStates.some((a) => a.actionId === actionId));
    const audited = await t.db.kysely
      .selectFrom('audit_logs')
      .selectAll()
      .where('action', '=', 'robot.action')
      .where('target_id', '=', String(full.robot.id))
      .where('operator_id', '=', ids.general)
      .execute();
    expect(audited.some((a) => a.detail?.includes(actionId))).toBe(true);

    const jog = await call('POST', `/robots/${full.robot.id}/actions`, auth.general, {
      type: 'gimbalJog',
      pan: 5,
      tilt: -5,
    });
    expect(jog.statusCode).toBe(202);
  });

  it('refuses what the robot cannot do (CAPABILITY_MISSING) and robots that are offline (ROBOT_OFFLINE)', async () => {
    for (const body of [
      { type: 'speak', text: 'Hi', language: 'ja' },
      { type: 'startRecording' },
      { type: 'takePhoto', camera: 'v1' },
      { type: 'setThermal', colorMap: 'ir', rangeMin: 10, rangeMax: 40 },
    ]) {
      const res = await call('POST', `/robots/${bare.robot.id}/actions`, auth.general, body);
      expect({ body, status: res.statusCode, code: errorOf(res).code }).toEqual({
        body,
        status: 409,
        code: 'CAPABILITY_MISSING',
      });
    }
    const res = await call('POST', `/robots/${offline.id}/actions`, auth.general, { type: 'setRingLight', on: true });
    expect(res.statusCode).toBe(409);
    expect(errorOf(res).code).toBe('ROBOT_OFFLINE');
  });

  it('answers 400 to bad bodies and values the robot cannot take, sending nothing', async () => {
    const before = await actionsAudited(full.robot.id);
    for (const body of [
      {},
      { type: 'fly' },
      { type: 'speak', text: '   ', language: 'en' },
      { type: 'speak', text: 'x'.repeat(501), language: 'en' },
      { type: 'speak', text: 'Hi', language: 'tlh' },
      { type: 'gimbalJog', pan: 90, tilt: 0 },
      { type: 'setAudio', speakerVolume: 50, micGain: 50, extra: true },
      { type: 'setRingLight', on: 'yes' },
      { type: 'takePhoto', camera: 'x9' },
      // Valid ids the robot does not have, heights outside its periscope, an empty thermal range.
      { type: 'takePhoto', camera: 's1' },
      { type: 'setPeriscopeHeight', height: 0.5 },
      { type: 'setThermal', colorMap: 'normal', rangeMin: 40, rangeMax: 40 },
    ]) {
      const res = await call('POST', `/robots/${full.robot.id}/actions`, auth.general, body);
      expect({ body, status: res.statusCode, code: errorOf(res).code }).toEqual({
        body,
        status: 400,
        code: 'VALIDATION_FAILED',
      });
    }
    const raw = await t.inject({
      method: 'POST',
      url: `/api/robots/${full.robot.id}/actions`,
      headers: { authorization: auth.general, 'content-type': 'application/json' },
      payload: '{"type":',
    });
    expect(raw.statusCode).toBe(400);
    expect((await call('POST', '/robots/abc/actions', auth.general, { type: 'endCall' })).statusCode).toBe(400);
    expect(await actionsAudited(full.robot.id)).toBe(before);
  });

  it('answers the recording notices from the robot’s reported recording state', async () => {
    await report(full.robot.id, full.sim, { recording: 'idle' });
    let res = await call('POST', `/robots/${full.robot.id}/actions`, auth.general, { type: 'stopRecording' });
    expect(res.statusCode).toBe(409);
    expect(errorOf(res).code).toBe('RECORDING_NOT_STARTED');
    await report(full.robot.id, full.sim, { recording: 'saved' });
    res = await call('POST', `/robots/${full.robot.id}/actions`, auth.general, { type: 'stopRecording' });
    expect(errorOf(res).code).toBe('RECORDING_NOT_STARTED');

    await report(full.robot.id, full.sim, { recording: 'started' });
    res = await call('POST', `/robots/${full.robot.id}/actions`, auth.general, { type: 'startRecording' });
    expect(res.statusCode).toBe(409);
    expect(errorOf(res).code).toBe('RECORDING_ALREADY_STARTED');
    await report(full.robot.id, full.sim, { recording: 'preparing' });
    res = await call('POST', `/robots/${full.robot.id}/actions`, auth.general, { type: 'startRecording' });
    expect(errorOf(res).code).toBe('RECORDING_ALREADY_STARTED');
    res = await call('POST', `/robots/${full.robot.id}/actions`, auth.general, { type: 'stopRecording' });
    expect(res.statusCode, res.body).toBe(202);

    await report(full.robot.id, full.sim, { recording: 'uploaded' });
    res = await call('POST', `/robots/${full.robot.id}/actions`, auth.general, { type: 'startRecording' });
    expect(res.statusCode, res.body).toBe(202);
  });

  it('keeps physical actions to the operator holding the controls (TELEOP_LOCKED names them)', async () => {
    const { token } = await t.as('manager@demo.example');
    const tab = await openSocket(token);
    tab.send({ type: 'teleop.join', robotId: full.robot.id, want: 'control' });
    const joined = await tab.next('teleop.joined');
    expect(joined.role).toBe('controller');
    try {
      const teleop = robotTeleopSchema.parse(
        (await call('GET', `/robots/${full.robot.id}/teleop`, auth.general)).json(),
      );
      expect(teleop.controller?.operatorId).toBe(ids.manager);

      const managerName = `${demo('manager@demo.example').lastName} ${demo('manager@demo.example').firstName}`;
      for (const body of [
        { type: 'setRingLight', on: true },
        { type: 'gimbalJog', pan: 1, tilt: 1 },
        { type: 'speak', text: 'Hello', language: 'en' },
        { type: 'setAudio', speakerVolume: 10, micGain: 10 },
        { type: 'answerCall' },
      ]) {
        const res = await call('POST', `/robots/${full.robot.id}/actions`, auth.general, body);
        expect(res.statusCode).toBe(409);
        const error = errorOf(res);
        expect(error.code).toBe('TELEOP_LOCKED');
        expect(error.message).toContain(managerName);
      }
      // The controller may; photos and recording are not control.
      expect(
        (await call('POST', `/robots/${full.robot.id}/actions`, auth.manager, { type: 'setRingLight', on: true }))
          .statusCode,
      ).toBe(202);
      expect(
        (await call('POST', `/robots/${full.robot.id}/actions`, auth.general, { type: 'takePhoto', camera: 'v1' }))
          .statusCode,
      ).toBe(202);
    } finally {
      tab.send({ type: 'teleop.leave', sessionId: joined.sessionId });
      await tab.next('teleop.closed');
      tab.ws.terminate();
    }
    const free = await call('POST', `/robots/${full.robot.id}/actions`, auth.general, {
      type: 'setRingLight',
      on: false,
    });
    expect(free.statusCode, free.body).toBe(202);
  });

  it('keeps pausing and resuming the patrol to the operator holding the controls (a watcher is refused)', async () => {
    const { token } = await t.as('manager@demo.example');
    const tab = await openSocket(token);
    tab.send({ type: 'teleop.join', robotId: full.robot.id, want: 'control' });
    const joined = await tab.next('teleop.joined');
    expect(joined.role).toBe('controller');
    const command = (who: keyof typeof auth, name: 'pause' | 'resume' | 'cancel') =>
      call('POST', `/robots/${full.robot.id}/commands`, auth[who], { command: name });
    try {
      // A watcher, and an administrator who has not taken over, change nothing.
      for (const who of ['general', 'orgAdmin'] as const) {
        for (const name of ['pause', 'resume', 'cancel'] as const) {
          const res = await command(who, name);
          expect(res.statusCode, `${who} ${name}`).toBe(409);
          expect(errorOf(res).code).toBe('TELEOP_LOCKED');
        }
      }
      // The controller may.
      expect((await command('manager', 'pause')).statusCode).toBe(202);
      expect((await command('manager', 'resume')).statusCode).toBe(202);
    } finally {
      tab.send({ type: 'teleop.leave', sessionId: joined.sessionId });
      await tab.next('teleop.closed');
      tab.ws.terminate();
    }
    // Nobody holds the controls: anyone who can see the robot may.
    expect((await command('general', 'resume')).statusCode).toBe(202);
  });
});

describe('photos', () => {
  const photoMessage = (sim: SimRobot, actionId: string, camera: CameraId, bytes: Buffer, contentType = 'image/png') =>
    JSON.stringify({
      headerId: ++headerId,
      timestamp: new Date().toISOString(),
      version: '2.1.0',
      manufacturer: sim.manufacturer,
      serialNumber: sim.serialNumber,
      actionId,
      camera,
      contentType,
      width: 4,
      height: 2,
      data: bytes.toString('base64'),
    });
  const png = encodeGrayPng(4, 2, new Uint8Array(8).fill(128));
  const rows = () =>
    t.db.kysely.selectFrom('robot_photos').selectAll().where('robot_id', '=', full.robot.id).orderBy('id').execute();

  it('stores the photo of a takePhoto action, attributed to its operator, listed with a URL an <img> can load', async () => {
    const res = await call('POST', `/robots/${full.robot.id}/actions`, auth.general, {
      type: 'takePhoto',
      camera: 'v2',
    });
    expect(res.statusCode, res.body).toBe(202);
    const { actionId } = res.json<{ actionId: string }>();
    await full.sim.publishRaw('photo', photoMessage(full.sim, actionId, 'v2', png));
    // The same message again (a redelivery) is stored once.
    await full.sim.publishRaw('photo', photoMessage(full.sim, actionId, 'v2', png));
    // The two copies are handled concurrently: the one without the attribution may store the row first,
    // and the other then attributes it; wait for the attributed row.
    const row = await until(async () => (await rows()).find((r) => r.action_id === actionId && r.operator_id !== null));
    expect(row).toMatchObject({ camera: 'v2', operator_id: ids.general, building_id: demoBuildingId });

    const list = await call('GET', `/robots/${full.robot.id}/photos`, auth.general);
    expect(list.statusCode, list.body).toBe(200);
    const photos = robotPhotoSchema.array().parse(list.json());
    const photo = photos.find((p) => p.id === row.id)!;
    expect(photo).toMatchObject({
      robotId: full.robot.id,
      camera: 'v2',
      operatorId: ids.general,
      operatorName: `${demo('operator@demo.example').lastName} ${demo('operator@demo.example').firstName}`,
    });
    // No bearer header: the signed URL alone loads it.
    const image = await t.inject({ method: 'GET', url: photo.url });
    expect(image.statusCode).toBe(200);
    expect(image.headers['content-type']).toMatch(/^image\/(png|jpeg)/);
    // Barrier: a later photo of the same robot, published after the redelivery, is stored; by then the
    // redelivery has been handled (and the unique (robot, action) pair never holds two rows anyway).
    await full.sim.publishRaw('photo', photoMessage(full.sim, `${actionId}-after`, 'v2', png));
    await until(async () => (await rows()).find((r) => r.action_id === `${actionId}-after`));
    expect((await rows()).filter((r) => r.action_id === actionId)).toHaveLength(1);
  });

  it('drops photos whose bytes are not what they claim, stores a robot’s own photo without an operator', async () => {
    const before = (await rows()).length;
    const jpeg = Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0, 0x10, 0x4a, 0x46, 0x49, 0x46]);
    await full.sim.publishRaw('photo', photoMessage(full.sim, 'bad-magic', 'v1', jpeg, 'image/png'));
    await full.sim.publishRaw('photo', photoMessage(full.sim, 'not-an-image', 'v1', Buffer.from('hello world')));
    await full.sim.publishRaw('photo', 'not json');
    await full.sim.publishRaw('photo', photoMessage(full.sim, 'robot-own-1', 'g1', jpeg, 'image/jpeg'));
    const own = await until(async () => (await rows()).find((r) => r.action_id === 'robot-own-1'));
    expect(own).toMatchObject({ camera: 'g1', operator_id: null });
    expect((await rows()).length).toBe(before + 1);

    const photos = robotPhotoSchema
      .array()
      .parse((await call('GET', `/robots/${full.robot.id}/photos`, auth.general)).json());
    expect(photos[0]).toMatchObject({ id: own.id, operatorId: null, operatorName: null });
    // Newest first, limit honoured.
    const one = robotPhotoSchema
      .array()
      .parse((await call('GET', `/robots/${full.robot.id}/photos?limit=1`, auth.general)).json());
    expect(one.map((p) => p.id)).toEqual([own.id]);
    for (const q of ['limit=0', 'limit=201', 'limit=abc']) {
      expect((await call('GET', `/robots/${full.robot.id}/photos?${q}`, auth.general)).statusCode).toBe(400);
    }
  });
});

describe('thermal presets', () => {
  const preset = (name: string, colorMap = 'normal', rangeMin = 10, rangeMax = 40) => ({
    name,
    colorMap,
    rangeMin,
    rangeMax,
  });
  const save = (body: unknown, authorization = auth.general, robotId = full.robot.id) =>
    call('POST', `/robots/${robotId}/thermal-presets`, authorization, body);
  const names = async () =>
    thermalPresetSchema
      .array()
      .parse((await call('GET', `/robots/${full.robot.id}/thermal-presets`, auth.general)).json())
      .map((p) => p.name);

  it('overwrites the same name and deletes the oldest beyond five, reporting the names', async () => {
    for (const name of ['A', 'B', 'C', 'D', 'E']) {
      const res = await save(preset(name));
      expect(res.statusCode, res.body).toBe(201);
      expect(thermalPresetSaveResultSchema.parse(res.json())).toMatchObject({ overwritten: false, deleted: [] });
    }
    expect(await names()).toEqual(['E', 'D', 'C', 'B', 'A']);

    const firstA = thermalPresetSchema
      .array()
      .parse((await call('GET', `/robots/${full.robot.id}/thermal-presets`, auth.general)).json())
      .find((p) => p.name === 'A')!;
    const again = await save(preset('A', 'ir', -20, 120));
    expect(again.statusCode, again.body).toBe(200);
    const overwritten = thermalPresetSaveResultSchema.parse(again.json());
    expect(overwritten).toMatchObject({
      overwritten: true,
      deleted: [],
      preset: { id: firstA.id, name: 'A', colorMap: 'ir', rangeMin: -20, rangeMax: 120 },
    });
    expect(overwritten.preset.updatedAt > firstA.updatedAt).toBe(true);
    expect(await names()).toEqual(['A', 'E', 'D', 'C', 'B']);

    // The sixth name: the least recently saved (B, since A was saved again) goes.
    const sixth = thermalPresetSaveResultSchema.parse((await save(preset('F', 'mono'))).json());
    expect(sixth).toMatchObject({ overwritten: false, deleted: ['B'], preset: { name: 'F', colorMap: 'mono' } });
    expect(await names()).toEqual(['F', 'A', 'E', 'D', 'C']);

    // Names are trimmed and case-sensitive.
    const trimmed = await save(preset('  C  ', 'ir'));
    expect(trimmed.statusCode).toBe(200);
    expect(await names()).toEqual(['C', 'F', 'A', 'E', 'D']);
    const lower = thermalPresetSaveResultSchema.parse((await save(preset('c'))).json());
    expect(lower).toMatchObject({ overwritten: false, deleted: ['D'] });
    expect(await names()).toEqual(['c', 'C', 'F', 'A', 'E']);

    const audited = await t.db.kysely
      .selectFrom('audit_logs')
      .select('action')
      .where('target_id', '=', String(full.robot.id))
      .where('action', 'like', 'robot.thermal-preset.%')
      .execute();
    expect(audited.length).toBe(9);
  });

  it('refuses bad presets with 400 and robots without a thermal camera with CAPABILITY_MISSING, changing nothing', async () => {
    const before = await names();
    for (const body of [
      {},
      preset(''),
      preset('   '),
      preset('x'.repeat(41)),
      preset('Hot', 'rainbow'),
      preset('Hot', 'ir', 40, 40),
      preset('Hot', 'ir', 50, 10),
      preset('Hot', 'ir', -41, 10),
      preset('Hot', 'ir', 10, 501),
      { ...preset('Hot'), rangeMin: '10' },
    ]) {
      const res = await save(body);
      expect({ body, status: res.statusCode, code: errorOf(res).code }).toEqual({
        body,
        status: 400,
        code: 'VALIDATION_FAILED',
      });
    }
    expect(await names()).toEqual(before);

    const bareSave = await save(preset('Hot'), auth.general, bare.robot.id);
    expect(bareSave.statusCode).toBe(409);
    expect(errorOf(bareSave).code).toBe('CAPABILITY_MISSING');
    const offlineSave = await save(preset('Hot'), auth.general, offline.id);
    expect(errorOf(offlineSave).code).toBe('CAPABILITY_MISSING');
    const bareList = await call('GET', `/robots/${bare.robot.id}/thermal-presets`, auth.general);
    expect(bareList.json()).toEqual([]);
  });

  it('deletes one preset of the robot (204), 404 for one that is not the robot’s', async () => {
    const list = thermalPresetSchema
      .array()
      .parse((await call('GET', `/robots/${full.robot.id}/thermal-presets`, auth.general)).json());
    const target = list.find((p) => p.name === 'E')!;
    expect(
      (await call('DELETE', `/robots/${bare.robot.id}/thermal-presets/${target.id}`, auth.general)).statusCode,
    ).toBe(404);
    const res = await call('DELETE', `/robots/${full.robot.id}/thermal-presets/${target.id}`, auth.general);
    expect(res.statusCode, res.body).toBe(204);
    expect(await names()).toEqual(['c', 'C', 'F', 'A']);
    expect(
      (await call('DELETE', `/robots/${full.robot.id}/thermal-presets/${target.id}`, auth.general)).statusCode,
    ).toBe(404);
  });
});

describe('console (administrators)', () => {
  it('answers 403 to general operators, changing nothing', async () => {
    for (const [method, url, body] of [
      ['GET', `/robots/${full.robot.id}/console`],
      ['GET', `/robots/${full.robot.id}/console/log`],
      ['POST', `/robots/${full.robot.id}/console/actions`, { action: 'startPause' }],
      ['POST', `/robots/${full.robot.id}/os-update`, {}],
    ] as Array<[InjectOptions['method'], string, unknown?]>) {
      const res = await call(method, url, auth.general, body);
      expect({ url, status: res.statusCode, code: errorOf(res).code }).toEqual({ url, status: 403, code: 'FORBIDDEN' });
    }
    expect(full.sim.state().paused).toBe(false);
  });

  it('shows the robot as it reports itself, its message log, and sends the standard instant actions', async () => {
    const res = await call('GET', `/robots/${bare.robot.id}/console`, auth.manager);
    expect(res.statusCode, res.body).toBe(200);
    const view = robotConsoleSchema.parse(res.json());
    expect(view).toMatchObject({
      robotId: bare.robot.id,
      serialNo: bare.robot.serialNo,
      online: true,
      protocolVersion: '2.1.0',
    });
    expect(view.state).toMatchObject({ serialNumber: bare.robot.serialNo });
    expect(view.factsheet).toMatchObject({ serialNumber: bare.robot.serialNo, [FACTSHEET_CAMERAS_KEY]: [] });
    expect(typeof view.battery).toBe('number');

    const first = robotLogSchema.parse(
      (await call('GET', `/robots/${bare.robot.id}/console/log`, auth.orgAdmin)).json(),
    );
    const pause = await call('POST', `/robots/${bare.robot.id}/console/actions`, auth.orgAdmin, {
      action: 'startPause',
    });
    expect(pause.statusCode, pause.body).toBe(202);
    const { actionId } = pause.json<{ actionId: string }>();
    await bare.sim.waitFor((s) => s.paused === true);
    const log = await until(async () => {
      const l = robotLogSchema.parse(
        (await call('GET', `/robots/${bare.robot.id}/console/log?after=${first.lastSeq}`, auth.orgAdmin)).json(),
      );
      return l.entries.some((e) => e.direction === 'out' && e.payload.includes(actionId)) ? l : null;
    });
    expect(log.entries.every((e) => e.seq > first.lastSeq)).toBe(true);
    const resume = await call('POST', `/robots/${bare.robot.id}/console/actions`, auth.sysAdmin, {
      action: 'stopPause',
    });
    expect(resume.statusCode).toBe(202);
    await bare.sim.waitFor((s) => !s.paused);
    const audited = await t.db.kysely
      .selectFrom('audit_logs')
      .select('detail')
      .where('action', '=', 'robot.console-action')
      .where('target_id', '=', String(bare.robot.id))
      .execute();
    expect(audited).toHaveLength(2);

    for (const body of [{}, { action: 'reboot' }, { action: 'START_PAUSE' }]) {
      const bad = await call('POST', `/robots/${bare.robot.id}/console/actions`, auth.orgAdmin, body);
      expect(bad.statusCode).toBe(400);
    }
    expect((await call('GET', `/robots/${bare.robot.id}/console/log?after=-1`, auth.orgAdmin)).statusCode).toBe(400);
    const off = await call('POST', `/robots/${offline.id}/console/actions`, auth.orgAdmin, { action: 'stateRequest' });
    expect(errorOf(off).code).toBe('ROBOT_OFFLINE');
    const offView = robotConsoleSchema.parse(
      (await call('GET', `/robots/${offline.id}/console`, auth.orgAdmin)).json(),
    );
    expect(offView).toMatchObject({ online: false, state: null, factsheet: null, battery: null });
  });

  it('starts an OS update only with the capability, online, and at least 20% battery (audited)', async () => {
    const created = await register();
    const sim = await connect(created);
    const id = created.robot.id;
    const osUpdate = (body: unknown = {}) => call('POST', `/robots/${id}/os-update`, auth.orgAdmin, body);
    await announce(id, sim, [], ['v1']);
    expect(errorOf(await osUpdate()).code).toBe('CAPABILITY_MISSING');
    await announce(id, sim, [OS_UPDATE_ACTION], ['v1']);

    sim.setBattery(19);
    await until(() => t.link.details(id)?.battery === 19);
    const low = await osUpdate();
    expect(low.statusCode).toBe(409);
    expect(errorOf(low)).toMatchObject({
      code: 'OS_UPDATE_LOW_BATTERY',
      message: 'Battery must be at least 20% for OS update',
    });
    expect((await osUpdate({ force: true })).statusCode).toBe(400);

    await sim.disconnect();
    await until(() => t.link.details(id)?.online === false);
    expect(errorOf(await osUpdate()).code).toBe('ROBOT_OFFLINE');
    const announced = t.link.details(id)?.factsheet?.headerId;
    await sim.reconnect();
    // The robot announces its own factsheet again on connecting: wait for it before replacing it.
    await until(() => t.link.details(id)?.online && t.link.details(id)?.factsheet?.headerId !== announced);
    await announce(id, sim, [OS_UPDATE_ACTION], ['v1']);

    sim.setBattery(20);
    await until(() => t.link.details(id)?.battery === 20);
    const ok = await osUpdate();
    expect(ok.statusCode, ok.body).toBe(202);
    const { actionId } = ok.json<{ actionId: string }>();
    expect(actionId).toContain(OS_UPDATE_ACTION);
    const audited = await t.db.kysely
      .selectFrom('audit_logs')
      .selectAll()
      .where('action', '=', 'robot.os-update')
      .where('target_id', '=', String(id))
      .execute();
    expect(audited).toHaveLength(1);
    expect(JSON.parse(audited[0]!.detail!)).toMatchObject({ actionId, battery: 20 });
  });
});
