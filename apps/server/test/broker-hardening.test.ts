import { connect as tcpConnect, type Socket } from 'node:net';
import mqtt from 'mqtt';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { vdaTopic, type CreatedRobot } from '@portal/contract';
import { createTestApp, registerDemoRobot, type TestApp } from './helpers.ts';
import {
  MAX_PACKET_BYTES,
  startEmbeddedBroker,
  type Broker,
  type BrokerIdentity,
} from '../src/modules/robot-link/broker.ts';

/** A raw MQTT client; resolves on CONNACK, rejects on refusal. */
function rawClient(url: string, opts: mqtt.IClientOptions): Promise<mqtt.MqttClient> {
  return new Promise((ok, fail) => {
    const c = mqtt.connect(url, { protocolVersion: 4, reconnectPeriod: 0, connectTimeout: 5_000, ...opts });
    c.once('connect', () => ok(c));
    c.once('error', (err) => {
      c.end(true);
      fail(err);
    });
  });
}

const closeOf = (c: mqtt.MqttClient) => new Promise<void>((ok) => c.once('close', () => ok()));
const ownId = (c: CreatedRobot['credentials'], suffix = '') => `${c.manufacturer}-${c.serialNumber}${suffix}`;

describe('broker hardening: client ids and sessions of registered robots', () => {
  let t: TestApp;
  const clients: mqtt.MqttClient[] = [];
  const login = (c: CreatedRobot['credentials'], clientId: string, extra: mqtt.IClientOptions = {}) =>
    rawClient(c.mqttUrl, { username: c.username, password: c.password, clientId, ...extra }).then((client) => {
      clients.push(client);
      return client;
    });

  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => {
    for (const c of clients) c.end(true);
    await t?.close();
  });

  it("refuses a robot that connects with another robot's client id; that robot's session stays", async () => {
    const a = (await registerDemoRobot(t, { serialNo: 'HARD-A', name: 'Hard A', model: 'pro' })).created;
    const b = (await registerDemoRobot(t, { serialNo: 'HARD-B', name: 'Hard B', model: 'pro' })).created;
    const clientA = await login(a.credentials, ownId(a.credentials));
    let aClosed = false;
    clientA.once('close', () => {
      aClosed = true;
    });
    // B signs in with its own valid credentials but A's (predictable) client id: CONNACK 5.
    await expect(login(b.credentials, ownId(a.credentials))).rejects.toMatchObject({ code: 5 });
    // A round trip on A's session after B's attempt: it still answers, and was never closed.
    const granted = await clientA.subscribeAsync(vdaTopic(a.credentials.manufacturer, 'HARD-A', 'order'));
    expect(granted[0]?.qos).not.toBe(128);
    expect(aClosed).toBe(false);
    expect(clientA.connected).toBe(true);
    // Any other id is refused too; its own id (and its own suffixed ids) are accepted.
    await expect(login(b.credentials, 'anything')).rejects.toMatchObject({ code: 5 });
    await expect(login(b.credentials, 'ugo-HARD-B-x')).rejects.toMatchObject({ code: 5 });
    const clientB = await login(b.credentials, ownId(b.credentials));
    const second = await login(b.credentials, ownId(b.credentials, ':diag'));
    await Promise.all([clientB.endAsync(), second.endAsync()]);
  });

  it('rotating credentials closes every session of the robot; the old password stops working', async () => {
    const { created } = await registerDemoRobot(t, { serialNo: 'HARD-ROT', name: 'Hard rot', model: 'pro' });
    const c = created.credentials;
    const first = await login(c, ownId(c));
    const second = await login(c, ownId(c, ':second'));
    const closed = Promise.all([closeOf(first), closeOf(second)]);
    const admin = await t.as('orgadmin@demo.example');
    const res = await t.call('POST', `/robots/${created.robot.id}/credentials`, admin.authorization);
    expect(res.statusCode).toBe(200);
    await closed;
    await expect(login(c, ownId(c))).rejects.toMatchObject({ code: 4 });
    const fresh = await login({ ...c, password: res.json<{ password: string }>().password }, ownId(c));
    await fresh.endAsync();
  });

  it("deleting a robot closes every session and forgets a kept session's subscriptions", async () => {
    const { created } = await registerDemoRobot(t, { serialNo: 'HARD-DEL', name: 'Hard del', model: 'pro' });
    const c = created.credentials;
    // A session kept across connections (clean session off), subscribed to its orders.
    const kept = await login(c, ownId(c), { clean: false });
    await kept.subscribeAsync(vdaTopic(c.manufacturer, 'HARD-DEL', 'order'), { qos: 1 });
    const other = await login(c, ownId(c, ':second'));
    const closed = Promise.all([closeOf(kept), closeOf(other)]);
    const admin = await t.as('orgadmin@demo.example');
    expect((await t.call('DELETE', `/robots/${created.robot.id}`, admin.authorization)).statusCode).toBe(204);
    await closed;
    await expect(login(c, ownId(c))).rejects.toMatchObject({ code: 4 });
    // A robot registered again under that serial starts without the deleted robot's session.
    const { created: again } = await registerDemoRobot(t, { serialNo: 'HARD-DEL', name: 'Again', model: 'pro' });
    const fresh = await new Promise<{ client: mqtt.MqttClient; sessionPresent: boolean }>((ok, fail) => {
      const cl = mqtt.connect(again.credentials.mqttUrl, {
        protocolVersion: 4,
        reconnectPeriod: 0,
        clean: false,
        clientId: ownId(again.credentials),
        username: again.credentials.username,
        password: again.credentials.password,
      });
      cl.once('connect', (connack) => ok({ client: cl, sessionPresent: connack.sessionPresent }));
      cl.once('error', fail);
    });
    clients.push(fresh.client);
    expect(fresh.sessionPresent).toBe(false);
  });

  it('does not list a client without a user name as awaiting registration', async () => {
    const url = (await registerDemoRobot(t, { serialNo: 'HARD-P', name: 'Hard P', model: 'pro' })).created.credentials
      .mqttUrl;
    const names = async () =>
      (await t.db.kysely.selectFrom('pending_robots').select(['username', 'client_id']).execute()).map(
        (r) => `${r.username}|${r.client_id}`,
      );
    const before = await names();
    await expect(rawClient(url, { clientId: 'nameless-client' })).rejects.toBeDefined();
    // A client that names itself afterwards is recorded: once it is there, the nameless one would be too.
    await expect(
      rawClient(url, { clientId: 'named-client', username: 'named-unknown', password: 'x' }),
    ).rejects.toBeDefined();
    await vi.waitFor(async () => expect(await names()).toContain('named-unknown|named-client'));
    const after = await names();
    expect(after.filter((n) => !before.includes(n))).toEqual(['named-unknown|named-client']);
  });
});

describe('broker hardening: packet size and CONNECT timeout', () => {
  let broker: Broker;
  let url: string;
  const silent = new Proxy({} as never, { get: () => () => undefined });
  const robot: BrokerIdentity = { role: 'robot', robotId: 1, manufacturer: 'ugo', serialNo: 'SIZE-1' };
  const heard: number[] = [];

  const start = (extra: { connectTimeoutMs?: number; maxPacketBytes?: number }) =>
    startEmbeddedBroker({
      port: 0,
      host: '127.0.0.1',
      log: silent,
      server: { username: 'portal', password: 'portal-secret' },
      authority: {
        authenticate: async (u, p) => (u === 'robot-SIZE-1' && p === 'pw' ? robot : null),
        identify: async () => null,
        unknownClient: () => undefined,
      },
      ...extra,
    });

  beforeAll(async () => {
    broker = await start({ connectTimeoutMs: 300, maxPacketBytes: 64 * 1024 });
    url = `mqtt://127.0.0.1:${broker.port}`;
    await broker.transport.subscribe([vdaTopic('ugo', 'SIZE-1', 'state')], (_topic, payload) =>
      heard.push(payload.length),
    );
  });
  afterAll(async () => {
    await broker?.close();
  });

  it('sizes the default maximum above the largest mapping grid (4000 × 4000 cells, base64)', () => {
    expect(MAX_PACKET_BYTES).toBeGreaterThan(Math.ceil((4000 * 4000) / 3) * 4 + 4096);
  });

  it('passes a normal publish and closes the connection of an oversize one', async () => {
    const client = await rawClient(url, { username: 'robot-SIZE-1', password: 'pw', clientId: 'ugo-SIZE-1' });
    const topic = vdaTopic('ugo', 'SIZE-1', 'state');
    await client.publishAsync(topic, Buffer.alloc(1024, 0x61), { qos: 1 });
    expect(heard).toEqual([1024]);
    const closed = closeOf(client);
    client.publish(topic, Buffer.alloc(100 * 1024, 0x61), { qos: 1 });
    await closed;
    client.end(true);
    expect(heard).toEqual([1024]);
  });

  it('keeps retained messages only on the topics VDA 5050 retains (connection, factsheet): at most two per robot', async () => {
    const robotClient = await rawClient(url, { username: 'robot-SIZE-1', password: 'pw', clientId: 'ugo-SIZE-1' });
    const topic = (name: 'state' | 'factsheet' | 'connection' | 'visualization') => vdaTopic('ugo', 'SIZE-1', name);
    await robotClient.publishAsync(topic('state'), 'state-1', { qos: 1, retain: true });
    await robotClient.publishAsync(topic('factsheet'), 'factsheet-1', { qos: 1, retain: true });
    await robotClient.publishAsync(topic('connection'), 'connection-1', { qos: 1, retain: true });
    // A late subscriber (the portal after a restart) gets the retained ones, then a fresh message.
    const portal = await rawClient(url, { username: 'portal', password: 'portal-secret', clientId: 'portal-late' });
    const got: Array<[string, boolean]> = [];
    const fresh = new Promise<void>((ok) =>
      portal.on('message', (t, payload, packet) => {
        got.push([String(payload), packet.retain]);
        if (t === topic('visualization')) ok();
      }),
    );
    await portal.subscribeAsync([topic('state'), topic('factsheet'), topic('connection'), topic('visualization')], {
      qos: 1,
    });
    // The barrier: a message published after the subscription arrives after every retained one.
    await robotClient.publishAsync(topic('visualization'), 'visualization-1', { qos: 1 });
    await fresh;
    expect(
      got
        .filter(([, retained]) => retained)
        .map(([text]) => text)
        .sort(),
    ).toEqual(['connection-1', 'factsheet-1']);
    expect(got.map(([text]) => text)).not.toContain('state-1');
    portal.end(true);
    robotClient.end(true);
  });

  /** A raw TCP connection to the broker and a promise of its close. */
  function rawSocket(port = broker.port!): Promise<{ socket: Socket; closed: Promise<void> }> {
    return new Promise((ok, fail) => {
      const socket = tcpConnect(port, '127.0.0.1', () => ok({ socket, closed }));
      const closed = new Promise<void>((done) => socket.once('close', () => done()));
      socket.once('error', fail);
      socket.on('error', () => undefined);
    });
  }

  it('closes a connection whose CONNECT does not arrive whole in time', async () => {
    const { socket, closed } = await rawSocket();
    // A CONNECT announcing 200 bytes, of which only the first few come.
    socket.write(Buffer.from([0x10, 200, 0x00, 0x04, 0x4d, 0x51]));
    await closed;
    expect(socket.destroyed).toBe(true);
  });

  it('closes a connection at once when its CONNECT announces more than the limit', async () => {
    // The default CONNECT timeout (10 s, beyond the test's time limit): only the size closes it.
    const patient = await start({});
    const { socket, closed } = await rawSocket(patient.port!);
    // Remaining length 100 MB (variable-length encoding), then the start of the body.
    let n = 100 * 1024 * 1024;
    const length: number[] = [];
    do {
      let b = n % 128;
      n = Math.floor(n / 128);
      if (n > 0) b |= 0x80;
      length.push(b);
    } while (n > 0);
    const written = new Promise<void>((ok) => socket.write(Buffer.from([0x10, ...length, 0x00, 0x04]), () => ok()));
    await written;
    await closed;
    expect(socket.destroyed).toBe(true);
    await patient.close();
  });
});
