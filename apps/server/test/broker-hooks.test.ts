import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CreatedRobot } from '@portal/contract';
import { createTestApp, until, type TestApp } from './helpers.ts';

const TOKEN = 'broker-hook-token-0123456789abcdef';

/** The auth hooks an external broker (MQTT_URL) calls, so portal-issued credentials work there too. */
describe('external broker hooks', () => {
  let t: TestApp;
  let robot: CreatedRobot;
  const hook = (url: string, payload: object, token: string | null = TOKEN) =>
    t.inject({ method: 'POST', url, payload, headers: token ? { 'x-mqtt-auth-token': token } : {} });

  beforeAll(async () => {
    t = await createTestApp({ MQTT_AUTH_TOKEN: TOKEN });
    const admin = await t.as('orgadmin@demo.example');
    const building = await t.db.kysely
      .selectFrom('buildings')
      .select('id')
      .where('name', '=', 'Demo Tower')
      .executeTakeFirstOrThrow();
    const floor = await t.db.kysely
      .selectFrom('floors')
      .select('id')
      .where('building_id', '=', building.id)
      .executeTakeFirstOrThrow();
    const res = await t.inject({
      method: 'POST',
      url: '/api/robots',
      headers: admin,
      payload: {
        serialNo: 'HOOK-1',
        name: 'Hook robot',
        model: 'ex',
        version: '',
        hardwareRevision: '',
        buildingId: building.id,
        floorId: floor.id,
        groupId: null,
        status: 1,
        longTermRecordingAutoStart: false,
        videoMode: 'medium',
        notes: '',
      },
    });
    expect(res.statusCode, res.body).toBe(201);
    robot = res.json<CreatedRobot>();
  });
  afterAll(async () => {
    await t?.close();
  });

  it('allows the issued credentials and denies others', async () => {
    const { username, password } = robot.credentials;
    const ok = await hook('/api/mqtt/auth', { username, password, clientid: 'ugo-HOOK-1' });
    expect(ok.statusCode).toBe(200);
    expect(ok.json()).toEqual({ result: 'allow' });
    expect((await hook('/api/mqtt/auth', { username, password: 'wrong' })).statusCode).toBe(403);
    expect((await hook('/api/mqtt/auth', { username: 'robot-NOBODY', password: 'x' })).json()).toEqual({
      result: 'deny',
    });
  });

  it('allows a robot only its own client id, as the embedded broker does (no session takeover)', async () => {
    const { username, password } = robot.credentials;
    const auth = (clientid?: string) => hook('/api/mqtt/auth', { username, password, clientid });
    expect((await auth('ugo-HOOK-1')).statusCode).toBe(200);
    expect((await auth('ugo-HOOK-1:camera')).statusCode).toBe(200);
    // Another robot's id (predictable from its serial), a lookalike and no id at all are denied.
    for (const clientid of ['ugo-HOOK-2', 'ugo-HOOK-10', 'x', '', undefined]) {
      const res = await auth(clientid);
      expect(res.statusCode, String(clientid)).toBe(403);
      expect(res.json()).toEqual({ result: 'deny' });
    }
  });

  it('lists only clients with a user name as awaiting registration', async () => {
    await hook('/api/mqtt/auth', { username: '', password: 'x', clientid: 'anonymous-hook-client' });
    await hook('/api/mqtt/auth', { username: 'robot-HOOK-NEW', password: 'x', clientid: 'ugo-HOOK-NEW' });
    // Recorded in the background: wait for the named one, recorded after the anonymous call.
    const pending = await until(async () => {
      const rows = await t.db.kysely.selectFrom('pending_robots').selectAll().execute();
      return rows.some((p) => p.client_id === 'ugo-HOOK-NEW') ? rows : null;
    });
    expect(pending.map((p) => p.client_id)).not.toContain('anonymous-hook-client');
  });

  it('refuses callers without the hook token', async () => {
    const { username, password } = robot.credentials;
    expect((await hook('/api/mqtt/auth', { username, password }, null)).statusCode).toBe(403);
    expect((await hook('/api/mqtt/auth', { username, password }, 'x'.repeat(TOKEN.length))).statusCode).toBe(403);
  });

  it('keeps a robot on its own topics (go-auth acc codes and EMQX actions)', async () => {
    const { username } = robot.credentials;
    const acl = (topic: string, extra: object) => hook('/api/mqtt/acl', { username, topic, ...extra });
    expect((await acl('uagv/v2/ugo/HOOK-1/state', { acc: 2 })).statusCode).toBe(200);
    expect((await acl('uagv/v2/ugo/HOOK-1/state', { action: 'publish' })).statusCode).toBe(200);
    expect((await acl('uagv/v2/ugo/HOOK-1/order', { acc: 4 })).statusCode).toBe(200);
    expect((await acl('uagv/v2/ugo/HOOK-1/order', { acc: 1 })).statusCode).toBe(200);
    expect((await acl('uagv/v2/ugo/HOOK-1/order', { acc: 2 })).statusCode).toBe(403);
    expect((await acl('uagv/v2/ugo/OTHER/state', { acc: 2 })).statusCode).toBe(403);
    expect((await acl('uagv/v2/#', { action: 'subscribe' })).statusCode).toBe(403);
    expect(
      (await hook('/api/mqtt/acl', { username: 'robot-NOBODY', topic: 'uagv/v2/ugo/x/state', acc: 2 })).statusCode,
    ).toBe(403);
  });
});
