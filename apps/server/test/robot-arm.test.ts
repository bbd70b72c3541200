import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  buttonPixel,
  demoButtonPanels,
  ElevatorBank,
  panelViewpoint,
  startRobot,
  worldFor,
  type SimRobot,
} from '@portal/robot-sim';
import {
  armPressResultSchema,
  robotDepthImageSchema,
  robotPhotoSchema,
  type CreatedRobot,
  type InitData,
} from '@portal/contract';
import { decodePngRgba } from '../src/lib/png.ts';
import { createTestApp, errorOf, registerDemoRobot, simOptions, until, type TestApp } from './helpers.ts';
import { openProbe } from './ws-probe.ts';

const otherData: InitData = {
  organization: { name: 'Other Arm Org', type: 0, labOption: false },
  buildings: [{ name: 'Other Arm Building', floors: [{ name: '1F', index: 1, type: 'office' }] }],
  operators: [
    {
      loginId: 'admin@other-arm.example',
      firstName: 'A',
      lastName: 'Other',
      password: 'Other-Admin-2026',
      type: 2,
      building: 0,
    },
  ],
};

/**
 * The arm and the depth camera end to end (docs/api-robot-arm.md): the real simulator (model pro)
 * stands before the demo world's elevator hall panel, tied to a simulated elevator bank; the portal
 * asks it for its depth image and presses at pixels of it over MQTT.
 */
describe('robot arm: depth image and button press with a simulated robot', () => {
  let t: TestApp;
  let sim: SimRobot;
  let mini: SimRobot;
  let created: CreatedRobot;
  let miniRobot: CreatedRobot;
  let operator: string;
  let otherAdmin: string;
  const bank = new ElevatorBank('A', [0, 1, 2, 3], 1);
  let mapId: string;
  const pose = panelViewpoint(demoButtonPanels('floor-1').find((p) => p.id === 'hall')!);
  const id = () => created.robot.id;

  beforeAll(async () => {
    t = await createTestApp();
    const r = await registerDemoRobot(t, { serialNo: 'ARM-SIM-1', name: 'Arm sim', model: 'pro' });
    created = r.created;
    mapId = `floor-${r.floorId}`;
    operator = (await t.as('operator@demo.example')).authorization;
    sim = await startRobot(
      simOptions(created, {
        model: 'pro',
        mapId,
        start: pose,
        speedScale: 4,
        building: { banks: new Map([['A', bank]]), doors: new Map(), floor: 1 },
      }),
    );
    const m = await registerDemoRobot(t, { serialNo: 'ARM-SIM-2', name: 'No arm', model: 'mini' });
    miniRobot = m.created;
    mini = await startRobot(simOptions(miniRobot, { model: 'mini', mapId, start: pose }));
    const sysAdmin = (await t.as('sysadmin@demo.example')).authorization;
    const imported = await t.call('POST', '/init-data', sysAdmin, otherData);
    expect(imported.statusCode, imported.body).toBe(201);
    const other = await t.login('admin@other-arm.example', 'Other-Admin-2026');
    otherAdmin = `Bearer ${other.json<{ token: string }>().token}`;
    await until(() => t.link.details(id())?.factsheet && t.link.details(miniRobot.robot.id)?.factsheet);
  });

  afterAll(async () => {
    await sim?.stop();
    await mini?.stop();
    await t?.close();
  });

  const upPixel = () => buttonPixel({ pose, eyeHeight: 1.2, world: worldFor(mapId), isLit: () => false }, 'hall-up')!;

  async function depth() {
    const res = await t.call('GET', `/robots/${id()}/depth-image`, operator);
    expect(res.statusCode, res.body).toBe(200);
    const image = robotDepthImageSchema.parse(res.json());
    return { image, rgba: decodePngRgba(Buffer.from(image.data, 'base64')) };
  }
  const pixel = (rgba: { data: Uint8ClampedArray; width: number }, u: number, v: number) =>
    Array.from(rgba.data.subarray((v * rgba.width + u) * 4, (v * rgba.width + u) * 4 + 3));

  it('answers the depth image (640x480 PNG) and does not keep it among the robot’s photos', async () => {
    const { image, rgba } = await depth();
    expect(image).toMatchObject({ contentType: 'image/png', width: 640, height: 480 });
    expect(rgba.width).toBe(640);
    const up = upPixel();
    const [r, g, b] = pixel(rgba, up.u, up.v);
    // The button: near, so bright grey; not lit.
    expect(r).toBe(g);
    expect(g).toBe(b);
    expect(r).toBeGreaterThan(200);
    const photos = robotPhotoSchema.array().parse((await t.call('GET', `/robots/${id()}/photos`, operator)).json());
    expect(photos).toEqual([]);
  });

  it('a press beside the button presses nothing; a press on it lights it and calls the elevator', async () => {
    const up = upPixel();
    const miss = await t.call('POST', `/robots/${id()}/arm-press`, operator, { arm: 'right', u: up.u + 150, v: up.v });
    expect(miss.statusCode, miss.body).toBe(200);
    expect(armPressResultSchema.parse(miss.json())).toEqual({ hit: false, reason: 'no button there' });
    expect(bank.status('A-ride-1')).toBeNull();

    const hit = await t.call('POST', `/robots/${id()}/arm-press`, operator, { arm: 'right', ...up });
    expect(hit.statusCode, hit.body).toBe(200);
    expect(armPressResultSchema.parse(hit.json())).toEqual({ hit: true, target: 'hall-up' });
    expect(bank.status('A-ride-1')).toMatchObject({ phase: 'call' });

    const { rgba } = await depth();
    const [r, g, b] = pixel(rgba, up.u, up.v);
    expect({ r, b }).toEqual({ r: 255, b: 0 });
    expect(g).toBeGreaterThan(100);
  });

  it('refuses a pixel outside the image or an unknown arm (400), changing nothing', async () => {
    for (const body of [
      { arm: 'right', u: 640, v: 10 },
      { arm: 'right', u: 10, v: -1 },
      { arm: 'middle', u: 10, v: 10 },
      { arm: 'right', u: 1.5, v: 10 },
      { arm: 'right', u: 10 },
    ]) {
      const res = await t.call('POST', `/robots/${id()}/arm-press`, operator, body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(errorOf(res).code).toBe('VALIDATION_FAILED');
    }
    expect(bank.status('A-ride-2')).toBeNull();
  });

  it('answers 404 for another organization’s robot, 409 for a robot without an arm, 401 without a session', async () => {
    for (const [method, url, body] of [
      ['GET', `/robots/${id()}/depth-image`, undefined],
      ['POST', `/robots/${id()}/arm-press`, { arm: 'right', u: 1, v: 1 }],
    ] as const) {
      const res = await t.call(method, url, otherAdmin, body);
      expect({ url, status: res.statusCode, code: errorOf(res).code }).toEqual({ url, status: 404, code: 'NOT_FOUND' });
      expect((await t.call(method, url, '', body)).statusCode).toBe(401);
      const bare = await t.call(method, url.replace(`/${id()}/`, `/${miniRobot.robot.id}/`), operator, body);
      expect({ url, status: bare.statusCode, code: errorOf(bare).code }).toEqual({
        url,
        status: 409,
        code: 'CAPABILITY_MISSING',
      });
    }
    expect(bank.status('A-ride-2')).toBeNull();
  });

  it('refuses a press while another operator holds the robot’s controls (409 TELEOP_LOCKED), pressing nothing', async () => {
    const up = upPixel();
    const rides = () => [1, 2, 3].map((n) => bank.status(`A-ride-${n}`)?.phase ?? null);
    const before = rides();
    const holder = await t.as('orgadmin@demo.example');
    const probe = await openProbe(t, holder.token);
    try {
      probe.send({ type: 'teleop.join', robotId: id(), want: 'control' });
      expect((await probe.next('teleop.joined')).role).toBe('controller');
      const locked = await t.call('POST', `/robots/${id()}/arm-press`, operator, { arm: 'right', ...up });
      expect(locked.statusCode, locked.body).toBe(409);
      expect(errorOf(locked).code).toBe('TELEOP_LOCKED');
      expect(rides()).toEqual(before);
      // The holder presses (beside the button here: nothing is called).
      const own = await t.call('POST', `/robots/${id()}/arm-press`, holder.authorization, {
        arm: 'left',
        u: up.u + 150,
        v: up.v,
      });
      expect(own.statusCode, own.body).toBe(200);
      expect(armPressResultSchema.parse(own.json())).toEqual({ hit: false, reason: 'no button there' });
    } finally {
      probe.ws.terminate();
    }
    expect(rides()).toEqual(before);
  });
});
