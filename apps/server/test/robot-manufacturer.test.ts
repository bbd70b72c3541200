import mqtt from 'mqtt';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createdRobotSchema, errorBodySchema, robotSchema, robotTeleopSchema, vdaTopic } from '@portal/contract';
import { factsheetMessage } from '@portal/robot-sim';
import { createTestApp, until, type TestApp } from './helpers.ts';

/** Issue 11 item 13: a robot of another maker registers with its own VDA 5050 manufacturer. */
describe('robot manufacturer', () => {
  let t: TestApp;
  let admin: string;
  let place: { buildingId: number; floorId: number };
  const clients: mqtt.MqttClient[] = [];
  const body = (serialNo: string, extra: Record<string, unknown> = {}) => ({
    serialNo,
    name: `Robot ${serialNo}`,
    model: 'pro',
    version: '',
    hardwareRevision: '',
    ...place,
    groupId: null,
    status: 1,
    longTermRecordingAutoStart: false,
    videoMode: 'medium',
    notes: '',
    ...extra,
  });
  const register = (payload: object) => t.call('POST', '/robots', admin, payload);

  beforeAll(async () => {
    t = await createTestApp();
    admin = (await t.as('orgadmin@demo.example')).authorization;
    const b = await t.db.kysely
      .selectFrom('buildings')
      .select('id')
      .where('name', '=', 'Demo Tower')
      .executeTakeFirstOrThrow();
    const f = await t.db.kysely
      .selectFrom('floors')
      .select('id')
      .where('building_id', '=', b.id)
      .executeTakeFirstOrThrow();
    place = { buildingId: b.id, floorId: f.id };
  });
  afterAll(async () => {
    for (const c of clients) c.end(true);
    await t?.close();
  });

  it('registers a robot with its own manufacturer and model; what it can do comes from its factsheet', async () => {
    const res = await register(body('ACME-7', { manufacturer: 'acme-robotics', model: 'MiR250 Hook' }));
    expect(res.statusCode, res.body).toBe(201);
    const created = createdRobotSchema.parse(res.json());
    expect(created.credentials.manufacturer).toBe('acme-robotics');
    const c = created.credentials;
    const client = await mqtt.connectAsync(c.mqttUrl, {
      protocolVersion: 4,
      reconnectPeriod: 0,
      username: c.username,
      password: c.password,
      clientId: 'acme-robotics-ACME-7',
    });
    clients.push(client);
    const header = { headerId: 1, timestamp: new Date().toISOString(), version: '2.0.0' as const };
    await client.publishAsync(
      vdaTopic('acme-robotics', 'ACME-7', 'connection'),
      JSON.stringify({ ...header, manufacturer: 'acme-robotics', serialNumber: 'ACME-7', connectionState: 'ONLINE' }),
      { qos: 1, retain: true },
    );
    await until(() => t.link.details(created.robot.id)?.online || null);
    const stored = robotSchema.parse((await t.call('GET', `/robots/${created.robot.id}`, admin)).json());
    expect(stored).toMatchObject({ model: 'MiR250 Hook', manufacturer: 'acme-robotics' });
    const fleet = (await t.call('GET', '/robots/fleet', admin)).json() as Array<{ id: number; model: string }>;
    expect(fleet.find((r) => r.id === created.robot.id)?.model).toBe('MiR250 Hook');

    // Before a factsheet the robot has only its main camera; its model name gives it nothing.
    const teleop = async () =>
      robotTeleopSchema.parse((await t.call('GET', `/robots/${created.robot.id}/teleop`, admin)).json()).capabilities;
    expect(await teleop()).toMatchObject({ ringLight: false, speech: false, cameras: ['v1'] });
    const sheet = factsheetMessage({ ...header, manufacturer: 'acme-robotics', serialNumber: 'ACME-7' }, 'mini', []);
    sheet.typeSpecification.seriesName = 'MiR250 Hook';
    sheet.protocolFeatures.agvActions = [
      ...sheet.protocolFeatures.agvActions.filter((a) => a.actionType !== 'setRingLight' && a.actionType !== 'speak'),
      { actionType: 'setRingLight', actionScopes: ['INSTANT'] },
    ];
    await client.publishAsync(vdaTopic('acme-robotics', 'ACME-7', 'factsheet'), JSON.stringify(sheet), {
      qos: 1,
      retain: true,
    });
    await until(() => t.link.details(created.robot.id)?.factsheet || null);
    const caps = await teleop();
    expect(caps.ringLight).toBe(true);
    expect(caps.actions).toContain('setRingLight');
    expect(caps.speech).toBe(false);
  });

  it('accepts any model name up to 32 characters (the model list is open), and requires one', async () => {
    const ok = await register(body('OPEN-1', { model: 'Spot Enterprise' }));
    expect(ok.statusCode, ok.body).toBe(201);
    for (const [model, message] of [
      ['x'.repeat(33), 'validation.max32'],
      ['  ', 'validation.required'],
      [7, 'validation.required'],
    ] as const) {
      const res = await register(body(`OPEN-${String(model).length}`, { model }));
      expect(res.statusCode, String(model)).toBe(400);
      expect(errorBodySchema.parse(res.json()).error.details).toMatchObject([{ path: 'model', message }]);
    }
  });

  it('keeps ugo as the manufacturer when none is given, and checks it like a serial', async () => {
    const plain = await register(body('PLAIN-1'));
    expect(plain.statusCode, plain.body).toBe(201);
    expect(createdRobotSchema.parse(plain.json()).credentials.manufacturer).toBe('ugo');
    for (const manufacturer of ['acme/robotics', 'a#b', '', 'x'.repeat(41)]) {
      const res = await register(body(`BAD-${manufacturer.length}`, { manufacturer }));
      expect(res.statusCode, manufacturer).toBe(400);
      const details = errorBodySchema.parse(res.json()).error.details ?? [];
      expect(details.map((d) => d.path)).toEqual(['manufacturer']);
      expect(details[0]?.message).toMatch(/^validation\./);
    }
  });
});
