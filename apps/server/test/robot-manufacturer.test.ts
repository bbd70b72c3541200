import mqtt from 'mqtt';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createdRobotSchema, errorBodySchema, vdaTopic } from '@portal/contract';
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

  it('registers a robot with its own manufacturer, which names its topics and client id', async () => {
    const res = await register(body('ACME-7', { manufacturer: 'acme-robotics' }));
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
    const header = { headerId: 1, timestamp: new Date().toISOString(), version: '2.0.0' };
    await client.publishAsync(
      vdaTopic('acme-robotics', 'ACME-7', 'connection'),
      JSON.stringify({ ...header, manufacturer: 'acme-robotics', serialNumber: 'ACME-7', connectionState: 'ONLINE' }),
      { qos: 1, retain: true },
    );
    await until(() => t.link.details(created.robot.id)?.online || null);
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
