import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startRobot, type SimRobot } from '@portal/robot-sim';
import { robotPhotoSchema, robotTeleopSchema, type CreatedRobot, type RecordingState } from '@portal/contract';
import { createTestApp, errorOf, registerDemoRobot, simOptions, until, type TestApp } from './helpers.ts';

/**
 * The robot features end to end with the real simulator (model ex): what the portal derives from
 * its factsheet, a photo it renders and uploads, the recording states it reports, and an OS update
 * that takes it offline and back with a new version.
 */
describe('robot features with a simulated robot', () => {
  let t: TestApp;
  let sim: SimRobot;
  let created: CreatedRobot;
  let operator: string;
  let admin: string;
  const id = () => created.robot.id;
  const info = () => t.link.details(id())?.teleop ?? null;

  beforeAll(async () => {
    t = await createTestApp();
    const r = await registerDemoRobot(t, { serialNo: 'FEAT-SIM-1', name: 'Feature sim', model: 'ex' });
    created = r.created;
    operator = (await t.as('operator@demo.example')).authorization;
    admin = (await t.as('orgadmin@demo.example')).authorization;
    sim = await startRobot(
      simOptions(created, {
        model: 'ex',
        mapId: `floor-${r.floorId}`,
        start: { x: 3, y: 3, theta: 0 },
        battery: 80,
        // Real time: every recording stage lasts at least a second, so each one is reported (a
        // faster clock can pass a short stage within one tick of a busy machine).
        reconnectPeriodMs: 200,
      }),
    );
    await until(() => t.link.details(id())?.factsheet && info());
  });

  afterAll(async () => {
    await sim?.stop();
    await t?.close();
  });

  it('reads the model’s capabilities from its factsheet', async () => {
    const res = await t.call('GET', `/robots/${id()}/teleop`, operator);
    expect(res.statusCode, res.body).toBe(200);
    const teleop = robotTeleopSchema.parse(res.json());
    expect(teleop.capabilities).toMatchObject({
      cameras: ['v1', 'v2', 'g1', 'thermal'],
      gimbal: true,
      thermal: true,
      patrolLamp: true,
      periscope: null,
      recording: true,
      photo: true,
      osUpdate: true,
    });
    expect(teleop.info).toMatchObject({ recording: 'idle', call: 'idle', networkInterface: 'wlan0' });
  });

  it('stores the photo the robot renders for takePhoto and lists it', async () => {
    const res = await t.call('POST', `/robots/${id()}/actions`, operator, { type: 'takePhoto', camera: 'thermal' });
    expect(res.statusCode, res.body).toBe(202);
    const photos = await until(async () => {
      const list = robotPhotoSchema.array().parse((await t.call('GET', `/robots/${id()}/photos`, operator)).json());
      return list.length > 0 ? list : null;
    });
    expect(photos[0]).toMatchObject({ camera: 'thermal', width: 1280, height: 720, operatorName: '山田 太郎' });
    const image = await t.inject({ method: 'GET', url: photos[0]!.url });
    expect(image.statusCode).toBe(200);
    expect(image.rawPayload.subarray(0, 8)).toEqual(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]));
  });

  it('goes through the recording states, with the already-started and not-started notices', async () => {
    // Every state the robot reports reaches the link's live events (a change of the teleop facts is one).
    const seen: RecordingState[] = [info()!.recording];
    const off = t.link.on('live', (e) => {
      const r = e.robotId === id() ? e.live.teleop?.recording : undefined;
      if (r && seen.at(-1) !== r) seen.push(r);
    });
    try {
      const stop0 = await t.call('POST', `/robots/${id()}/actions`, operator, { type: 'stopRecording' });
      expect(errorOf(stop0).code).toBe('RECORDING_NOT_STARTED');
      expect((await t.call('POST', `/robots/${id()}/actions`, operator, { type: 'startRecording' })).statusCode).toBe(
        202,
      );
      await until(() => info()?.recording === 'preparing' || info()?.recording === 'started');
      const again = await t.call('POST', `/robots/${id()}/actions`, operator, { type: 'startRecording' });
      expect(errorOf(again).code).toBe('RECORDING_ALREADY_STARTED');
      await until(() => info()?.recording === 'started');
      expect((await t.call('POST', `/robots/${id()}/actions`, operator, { type: 'stopRecording' })).statusCode).toBe(
        202,
      );
      await until(() => info()?.recording === 'uploaded', 15_000);
    } finally {
      off();
    }
    expect(seen).toEqual(['idle', 'preparing', 'started', 'compressing', 'saved', 'uploading', 'uploaded']);
  }, 30_000);

  it('refuses an OS update below 20% battery; above, the robot restarts and comes back updated', async () => {
    const before = info()!.osVersion;
    sim.setBattery(19);
    await until(() => (t.link.details(id())?.battery ?? 100) < 20);
    const low = await t.call('POST', `/robots/${id()}/os-update`, admin, {});
    expect(low.statusCode).toBe(409);
    expect(errorOf(low)).toMatchObject({
      code: 'OS_UPDATE_LOW_BATTERY',
      message: 'Battery must be at least 20% for OS update',
    });

    sim.setBattery(60);
    await until(() => (t.link.details(id())?.battery ?? 0) >= 20);
    const ok = await t.call('POST', `/robots/${id()}/os-update`, admin, {});
    expect(ok.statusCode, ok.body).toBe(202);
    await until(() => !t.link.details(id())!.online, 15_000);
    await until(() => t.link.details(id())!.online && info()?.osVersion !== before, 20_000);
    expect(info()).toMatchObject({ updating: false });
    expect(info()!.osVersion).not.toBe(before);
  }, 40_000);
});
