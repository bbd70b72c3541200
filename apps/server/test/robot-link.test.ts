import mqtt from 'mqtt';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startRobot, type SimRobot } from '@portal/robot-sim';
import { vdaTopic, type CreatedRobot, type RobotLive } from '@portal/contract';
import { createTestApp, type TestApp, until } from './helpers.ts';
import { createRobotLink } from '../src/modules/robot-link/link.ts';
import { serverMqttCredentials } from '../src/modules/robot-link/index.ts';
import { mqttTransport } from '../src/modules/robot-link/transport.ts';

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

describe('robot link: VDA 5050 over the embedded broker, against the simulator', () => {
  let t: TestApp;
  let admin: { authorization: string };
  const robots: SimRobot[] = [];
  let floorId: number;
  let buildingId: number;

  async function register(serialNo: string): Promise<CreatedRobot> {
    const res = await t.inject({
      method: 'POST',
      url: '/api/robots',
      headers: admin,
      payload: {
        serialNo,
        name: `Link ${serialNo}`,
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
      },
    });
    expect(res.statusCode, res.body).toBe(201);
    return res.json<CreatedRobot>();
  }

  async function connect(created: CreatedRobot, extra: Partial<Parameters<typeof startRobot>[0]> = {}) {
    const c = created.credentials;
    const robot = await startRobot({
      brokerUrl: c.mqttUrl,
      username: c.username,
      password: c.password,
      manufacturer: c.manufacturer,
      serialNumber: c.serialNumber,
      model: 'pro',
      mapId: `floor-${floorId}`,
      start: { x: 1, y: 1, theta: 0 },
      speedScale: 8,
      visualizationHz: 5,
      ...extra,
    });
    robots.push(robot);
    return robot;
  }

  const live = (robotId: number): RobotLive => t.link.live({ id: robotId, status: 1 });

  beforeAll(async () => {
    t = await createTestApp();
    admin = await t.as('orgadmin@demo.example');
    const b = await t.inject({
      method: 'GET',
      url: '/api/buildings?filter={"where":{"name":"Demo Tower"}}',
      headers: admin,
    });
    buildingId = b.json<Array<{ id: number }>>()[0]!.id;
    const f = await t.inject({ method: 'GET', url: `/api/buildings/${buildingId}/floors`, headers: admin });
    floorId = f.json<Array<{ id: number; name: string }>>().find((x) => x.name === '1F')!.id;
  });

  afterAll(async () => {
    await Promise.all(robots.map((r) => r.stop().catch(() => undefined)));
    await t?.close();
  });

  it('connects with issued credentials: online, battery and position appear in the live view', async () => {
    const created = await register('LINK-001');
    expect(live(created.robot.id).statusLabel).toBe('unknown');
    await connect(created);
    const l = await until(() => {
      const v = live(created.robot.id);
      // Visualization may arrive before the first state: wait for both.
      return v.online && v.position && v.battery !== null ? v : undefined;
    });
    expect(l.statusLabel).toBe('available');
    expect(l.battery).toBeGreaterThan(0);
    expect(l.position?.floorId).toBe(floorId);
    expect(l.protocolVersion).toBe('2.1.0');
    expect(l.activity).toBe('idle');
  });

  it('drives an order of three nodes to completion, with pause and resume on the way', async () => {
    const created = await register('LINK-002');
    const robot = await connect(created);
    await until(() => live(created.robot.id).online);
    const mapId = `floor-${floorId}`;
    const orderId = await t.link.sendOrder(created.robot.id, [
      { nodeId: 'a', x: 1, y: 1, mapId },
      { nodeId: 'b', x: 4, y: 1, mapId },
      { nodeId: 'c', x: 4, y: 4, mapId },
    ]);
    await robot.waitFor((s) => s.orderId === orderId && s.driving, 10_000);
    await until(() => live(created.robot.id).activity === 'driving');

    await t.link.command(created.robot.id, 'pause');
    await robot.waitFor((s) => s.paused === true && !s.driving, 10_000);
    await until(() => live(created.robot.id).activity === 'paused');

    await t.link.command(created.robot.id, 'resume');
    const done = await robot.waitFor((s) => s.lastNodeId === 'c' && !s.driving && s.nodeStates.length === 0, 20_000);
    expect(done.orderId).toBe(orderId);
    const p = await until(() => {
      const v = live(created.robot.id);
      return v.activity === 'idle' && v.position && Math.hypot(v.position.x - 4, v.position.y - 4) < 0.3
        ? v
        : undefined;
    });
    expect(p.orderId).toBe(orderId);
  });

  it('cancels a running order', async () => {
    const created = await register('LINK-003');
    const robot = await connect(created, { speedScale: 1 });
    await until(() => live(created.robot.id).online);
    const mapId = `floor-${floorId}`;
    await t.link.sendOrder(created.robot.id, [
      { nodeId: 'a', x: 1, y: 1, mapId },
      { nodeId: 'far', x: 40, y: 1, mapId },
    ]);
    await robot.waitFor((s) => s.driving, 10_000);
    await t.link.command(created.robot.id, 'cancel');
    const s = await robot.waitFor((st) => !st.driving && st.nodeStates.length === 0, 10_000);
    expect(s.actionStates.some((a) => a.actionType === 'cancelOrder' && a.actionStatus === 'FINISHED')).toBe(true);
    await until(() => live(created.robot.id).activity === 'idle');
  });

  it('a robot cancelled mid-edge can be sent somewhere again: the order starts where it stands', async () => {
    const created = await register('LINK-019');
    const robot = await connect(created, { speedScale: 2 });
    await until(() => live(created.robot.id).position !== null);
    const mapId = `floor-${floorId}`;
    await t.link.sendOrder(created.robot.id, [
      { nodeId: 'a', x: 1, y: 1, mapId },
      { nodeId: 'far', x: 40, y: 1, mapId },
    ]);
    await robot.waitFor((s) => s.driving && (s.agvPosition?.x ?? 0) > 3, 20_000);
    await t.link.command(created.robot.id, 'cancel');
    const stopped = await robot.waitFor((st) => !st.driving && st.nodeStates.length === 0, 10_000);
    await until(() => {
      const p = live(created.robot.id).position;
      return p && Math.abs(p.x - stopped.agvPosition!.x) < 0.01;
    });
    // Mid-edge, meters from any stop: the next order starts with a node where the robot stands.
    const orderId = await t.link.sendOrder(created.robot.id, [
      { nodeId: 'a', x: 1, y: 1, mapId },
      { nodeId: 'b', x: 1, y: 3, mapId },
    ]);
    const done = await robot.waitFor(
      (s) => (s.orderId === orderId && s.lastNodeId === 'b' && s.nodeStates.length === 0) || s.errors.length > 0,
      30_000,
    );
    expect(done.errors).toEqual([]);
    expect(done.orderId).toBe(orderId);
    expect(Math.hypot(done.agvPosition!.x - 1, done.agvPosition!.y - 3)).toBeLessThan(0.05);
  });

  it('shows an emergency stop and an obstacle as robot messages', async () => {
    const created = await register('LINK-004');
    const robot = await connect(created);
    await until(() => live(created.robot.id).online);
    robot.injectFault('emergencyStop');
    const l = await until(() => {
      const v = live(created.robot.id);
      return v.activity === 'emergencyStop' ? v : undefined;
    });
    expect(l.issues.map((i) => i.code)).toContain('emergencyStop');
    expect(l.statusLabel).toBe('unavailable');
    robot.clearFault('emergencyStop');
    robot.injectFault('obstacle');
    await until(() => {
      const v = live(created.robot.id);
      return v.activity !== 'emergencyStop' && v.issues.some((i) => i.code === 'F0007');
    });
    robot.clearFault('obstacle');
    await until(() => live(created.robot.id).issues.length === 0);
  });

  it('goes offline at once on a broken connection (last will), and back online on reconnect', async () => {
    const created = await register('LINK-005');
    const robot = await connect(created);
    await until(() => live(created.robot.id).online);
    await robot.disconnect({ graceful: false });
    await until(() => live(created.robot.id).statusLabel === 'offline', 5_000);
    await robot.reconnect();
    await until(() => live(created.robot.id).online);
  });

  it('marks a silent robot "not reporting" (still online) after twice its state interval', async () => {
    const created = await register('LINK-006');
    const robot = await connect(created);
    await until(() => live(created.robot.id).online);
    // The robot stops talking without a word to the broker: a frozen robot.
    await robot.stop();
    // stop() says OFFLINE; to test silence, bring it back as a client that never publishes.
    await until(() => !live(created.robot.id).online);
    const c = created.credentials;
    const mute = await rawClient(c.mqttUrl, {
      username: c.username,
      password: c.password,
      clientId: `${c.manufacturer}-${c.serialNumber}`,
    });
    await mute.publishAsync(
      vdaTopic(c.manufacturer, c.serialNumber, 'connection'),
      JSON.stringify({
        headerId: 1,
        timestamp: new Date().toISOString(),
        version: '2.1.0',
        manufacturer: c.manufacturer,
        serialNumber: c.serialNumber,
        connectionState: 'ONLINE',
      }),
    );
    await until(() => live(created.robot.id).online);
    t.advance(1.1); // over a minute of silence on the portal's clock (twice VDA 5050's 30 s)
    t.link.checkSilence();
    expect(live(created.robot.id)).toMatchObject({ online: true, notReporting: true });
    await mute.endAsync();
    // Its broker session ended (a clean disconnect, no last will): offline.
    await until(() => live(created.robot.id).statusLabel === 'offline', 5_000);
  });

  it('drops a malformed message, logs nothing fatal, and keeps the link working', async () => {
    const created = await register('LINK-007');
    const robot = await connect(created);
    await until(() => live(created.robot.id).online);
    const dropped = t.link.stats.dropped;
    await robot.publishRaw('state', '{ not json');
    await robot.publishRaw('state', JSON.stringify({ headerId: 'x', batteryState: 'full' }));
    await until(() => t.link.stats.dropped >= dropped + 2);
    robot.setBattery(33);
    await until(() => live(created.robot.id).battery === 33);
  });

  it('refuses unknown credentials and lists the robot as awaiting registration for system admins', async () => {
    const url = t.brokerUrl;
    await expect(
      rawClient(url, { username: 'robot-STRANGER', password: 'guess', clientId: 'stranger' }),
    ).rejects.toThrow();
    await expect(rawClient(url, { clientId: 'anonymous' })).rejects.toThrow();
    const sys = await t.as('sysadmin@demo.example');
    const pending = await until(async () => {
      const res = await t.inject({ method: 'GET', url: '/api/robots/pending', headers: sys });
      const list = res.json<Array<{ username: string }>>();
      return list.find((p) => p.username === 'robot-STRANGER');
    });
    expect(pending.username).toBe('robot-STRANGER');
    // Not a fleet member.
    const fleet = await t.inject({ method: 'GET', url: '/api/robots/fleet', headers: sys });
    expect(fleet.json<Array<{ serialNo: string }>>().some((r) => r.serialNo === 'STRANGER')).toBe(false);
  });

  it('confines a robot to its own topics (ACL)', async () => {
    const a = await register('ACL-A');
    const b = await register('ACL-B');
    const ca = a.credentials;
    const client = await rawClient(ca.mqttUrl, {
      username: ca.username,
      password: ca.password,
      clientId: `${ca.manufacturer}-ACL-A`,
    });
    // Subscribing to another robot's orders is refused (SUBACK 0x80).
    // (mqtt.js rejects a subscription the broker answered with 0x80.)
    await expect(client.subscribeAsync(vdaTopic(b.credentials.manufacturer, 'ACL-B', 'order'))).rejects.toThrow(
      /Subscribe error/,
    );
    await expect(client.subscribeAsync('uagv/v2/#')).rejects.toThrow(/Subscribe error/);
    await expect(client.subscribeAsync(vdaTopic(ca.manufacturer, 'ACL-A', 'state'))).rejects.toThrow(/Subscribe error/);
    // Its own order topic is allowed.
    const own = await client.subscribeAsync(vdaTopic(ca.manufacturer, 'ACL-A', 'order'));
    expect(own[0]?.qos).not.toBe(128);
    // Publishing as another robot closes the connection and changes nothing.
    const closed = new Promise<void>((ok) => client.once('close', () => ok()));
    client.publish(
      vdaTopic(b.credentials.manufacturer, 'ACL-B', 'connection'),
      JSON.stringify({
        headerId: 1,
        timestamp: new Date().toISOString(),
        version: '2.1.0',
        manufacturer: b.credentials.manufacturer,
        serialNumber: 'ACL-B',
        connectionState: 'ONLINE',
      }),
      { qos: 1 },
    );
    await closed;
    client.end(true);
    expect(live(b.robot.id).everSeen).toBe(false);
  });

  it('rotating credentials closes the session and the old password stops working', async () => {
    const created = await register('LINK-008');
    const c = created.credentials;
    const client = await rawClient(c.mqttUrl, {
      username: c.username,
      password: c.password,
      clientId: `${c.manufacturer}-${c.serialNumber}`,
    });
    const closed = new Promise<void>((ok) => client.once('close', () => ok()));
    const res = await t.inject({ method: 'POST', url: `/api/robots/${created.robot.id}/credentials`, headers: admin });
    expect(res.statusCode).toBe(200);
    await closed;
    client.end(true);
    await expect(
      rawClient(c.mqttUrl, {
        username: c.username,
        password: c.password,
        clientId: `${c.manufacturer}-${c.serialNumber}`,
      }),
    ).rejects.toThrow();
    const fresh = res.json<{ password: string }>();
    const again = await rawClient(c.mqttUrl, {
      username: c.username,
      password: fresh.password,
      clientId: `${c.manufacturer}-${c.serialNumber}`,
    });
    await again.endAsync();
  });

  it('answers ROBOT_OFFLINE for a command to a robot that is not connected', async () => {
    const created = await register('LINK-009');
    const res = await t.inject({
      method: 'POST',
      url: `/api/robots/${created.robot.id}/commands`,
      headers: admin,
      payload: { command: 'pause' },
    });
    expect(res.statusCode).toBe(409);
    expect(res.json().error.code).toBe('ROBOT_OFFLINE');
  });

  it('a second server on the same broker sees the fleet, and registry changes reach it at once', async () => {
    const silent = new Proxy({} as Parameters<typeof createRobotLink>[0]['log'], { get: () => () => undefined });
    const second = await createRobotLink({
      db: t.db.kysely,
      log: silent,
      clock: () => new Date(),
      transport: mqttTransport(t.brokerUrl, serverMqttCredentials(t.config.secretKey), silent),
      robotBrokerUrl: t.brokerUrl,
    });
    try {
      await second.ready;
      const created = await register('LINK-010');
      // Registered on the first server after the second started: the change travels over the broker.
      await until(() => second.robot(created.robot.id));
      const robot = await connect(created);
      await until(() => second.live({ id: created.robot.id, status: 1 }).online);
      robot.setBattery(61);
      await until(() => second.live({ id: created.robot.id, status: 1 }).battery === 61);
      await t.inject({ method: 'DELETE', url: `/api/robots/${created.robot.id}`, headers: admin });
      await until(() => second.robot(created.robot.id) === null);
    } finally {
      await second.close();
    }
  });
});
