import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startRobot, type SimRobot } from '@portal/robot-sim';
import { operatorSchema, type Operator } from '@portal/contract';
import { createRobotLink } from '../src/modules/robot-link/link.ts';
import { serverMqttCredentials } from '../src/modules/robot-link/index.ts';
import { mqttTransport } from '../src/modules/robot-link/transport.ts';
import { WS_MAX_TOPICS } from '../src/modules/realtime/gateway.ts';
import { createTestApp, registerDemoRobot, type TestApp } from './helpers.ts';
import { openProbe, type Probe } from './ws-probe.ts';

const PASSWORD = 'Socket-Ops-2026x';

/** Open sockets follow an operator's changes at once (issue 11 item 5) and a flood closes only its socket (item 6). */
describe('WebSocket permissions and limits', () => {
  let t: TestApp;
  let admin: string;
  let organizationId: number;
  let demoBuilding: number;
  let annex: number;
  let robotId: number;
  let sim: SimRobot;
  const probes: Probe[] = [];

  async function open(token?: string): Promise<Probe> {
    const p = await openProbe(t, token);
    probes.push(p);
    return p;
  }

  /** A new general operator of the demo building, signed in. */
  async function newOperator(loginId: string): Promise<{ operator: Operator; token: string }> {
    const res = await t.call('POST', '/operators', admin, {
      loginId,
      firstName: 'Socket',
      lastName: 'Person',
      type: 0,
      organizationId,
      buildingId: demoBuilding,
      flowEditRestricted: false,
      password: PASSWORD,
    });
    expect(res.statusCode, res.body).toBe(201);
    const signedIn = await t.login(loginId, PASSWORD);
    expect(signedIn.statusCode, signedIn.body).toBe(200);
    return { operator: operatorSchema.parse(res.json()), token: signedIn.json<{ token: string }>().token };
  }

  /** A socket of an operator subscribed to the demo building's fleet, with its snapshot. */
  async function subscribed(token: string): Promise<Probe> {
    const p = await open(token);
    p.send({ type: 'subscribe', topic: `fleet:${demoBuilding}` });
    await p.next('snapshot', (m) => m.topic === `fleet:${demoBuilding}`);
    return p;
  }

  beforeAll(async () => {
    t = await createTestApp();
    const orgAdmin = await t.as('orgadmin@demo.example');
    admin = orgAdmin.authorization;
    const registered = await registerDemoRobot(t, { serialNo: 'WSP-001', name: 'Permission robot', model: 'mini' });
    demoBuilding = registered.buildingId;
    robotId = registered.created.robot.id;
    const b = await t.db.kysely
      .selectFrom('buildings')
      .select('organization_id')
      .where('id', '=', demoBuilding)
      .executeTakeFirstOrThrow();
    organizationId = b.organization_id;
    const created = await t.call('POST', '/buildings', admin, {
      name: 'Socket Annex',
      prefecture: '',
      city: 'Chiyoda',
      address: '',
      postalCode: '',
      latitude: null,
      longitude: null,
      organizationId,
      status: 1,
    });
    expect(created.statusCode, created.body).toBe(201);
    annex = created.json<{ id: number }>().id;
    const c = registered.created.credentials;
    sim = await startRobot({
      brokerUrl: c.mqttUrl,
      username: c.username,
      password: c.password,
      manufacturer: c.manufacturer,
      serialNumber: c.serialNumber,
      model: 'mini',
      mapId: `floor-${registered.floorId}`,
      start: { x: 3, y: 3, theta: 0 },
      visualizationHz: 10,
    });
  });

  afterAll(async () => {
    for (const p of probes) p.ws.terminate();
    await sim?.stop();
    await t?.close();
  });

  it('moving an operator to another building ends their subscription to the old building at once', async () => {
    const { operator, token } = await newOperator('mover@demo.example');
    const p = await subscribed(token);
    p.send({ type: 'subscribe', topic: 'fleet:all' });
    await p.next('snapshot', (m) => m.topic === 'fleet:all');
    await p.next('poses', (m) => m.poses.some((x) => x.robotId === robotId));
    const witness = await subscribed((await t.as('orgadmin@demo.example')).token);

    const moved = await t.call('PATCH', `/operators/${operator.id}`, admin, {
      loginId: operator.loginId,
      firstName: operator.firstName,
      lastName: operator.lastName,
      type: operator.type,
      organizationId,
      buildingId: annex,
      flowEditRestricted: false,
      updatedAt: operator.updatedAt,
    });
    expect(moved.statusCode, moved.body).toBe(200);
    // Right after the change, a change in the old building: it must not reach the moved operator.
    sim.setBattery(33);
    const ended = await p.next('error', (m) => m.topic === `fleet:${demoBuilding}`);
    expect(ended.code).toBe('NOT_FOUND');
    const after = p.messages.indexOf(ended);
    // The building they may see now subscribes.
    p.send({ type: 'subscribe', topic: `fleet:${annex}` });
    await p.next('snapshot', (m) => m.topic === `fleet:${annex}`);
    // Barrier: the witness sees the change and a later positions frame; a ping answered after that
    // comes after anything the server sent the moved operator before.
    await witness.next('live', (m) => m.robotId === robotId && m.live.battery === 33);
    witness.clear();
    await witness.next('poses', (m) => m.poses.some((x) => x.robotId === robotId));
    p.send({ type: 'ping' });
    await p.next('pong');
    expect(p.messages.filter((m) => m.type === 'live' && m.live.battery === 33)).toEqual([]);
    expect(p.messages.slice(after).filter((m) => m.type === 'live' || m.type === 'poses')).toEqual([]);
    // REST agrees: the old building is gone for them, the socket stays open.
    expect(p.closed).toBeNull();
    p.send({ type: 'subscribe', topic: `fleet:${demoBuilding}` });
    expect((await p.next('error', (m) => m.topic === `fleet:${demoBuilding}` && m !== ended)).code).toBe('NOT_FOUND');
  });

  it('an operator moved while holding a robot’s teleop controls is told teleop.closed, and the controls are free', async () => {
    const { operator, token } = await newOperator('pilot@demo.example');
    const p = await open(token);
    p.send({ type: 'teleop.join', robotId, want: 'control' });
    const joined = await p.next('teleop.joined');
    expect(joined.role).toBe('controller');

    const moved = await t.call('PATCH', `/operators/${operator.id}`, admin, {
      loginId: operator.loginId,
      firstName: operator.firstName,
      lastName: operator.lastName,
      type: operator.type,
      organizationId,
      buildingId: annex,
      flowEditRestricted: false,
      updatedAt: operator.updatedAt,
    });
    expect(moved.statusCode, moved.body).toBe(200);
    const closed = await p.next('teleop.closed', (m) => m.sessionId === joined.sessionId);
    expect(closed.reason).toBe('accessLost');
    // Nobody holds the controls any more: another operator of the building gets them at once.
    const other = await open((await t.as('operator@demo.example')).token);
    other.send({ type: 'teleop.join', robotId, want: 'control' });
    const granted = await other.next('teleop.joined');
    expect(granted.role).toBe('controller');
    other.send({ type: 'teleop.leave', sessionId: granted.sessionId });
    await other.next('teleop.closed');
  });

  it(`a socket may hold ${WS_MAX_TOPICS} subscriptions; one more closes it (1008), others go on`, async () => {
    const org = await t.db.kysely.selectFrom('organizations').select('id').executeTakeFirstOrThrow();
    const now = new Date().toISOString();
    const rows = Array.from({ length: WS_MAX_TOPICS }, (_, i) => ({
      organization_id: org.id,
      name: `Cap building ${i}`,
      status: 1,
      ip_restriction_enabled: 0,
      created_at: now,
      updated_at: now,
    }));
    const ids = (await t.db.kysely.insertInto('buildings').values(rows).returning('id').execute()).map((r) => r.id);
    const other = await open((await t.as('operator@demo.example')).token);
    const p = await open((await t.as('sysadmin@demo.example')).token);
    // The message rate is not what is tested here: each reading of the clock is a second later.
    let clock = performance.now();
    const now$ = vi.spyOn(performance, 'now').mockImplementation(() => (clock += 1000));
    try {
      for (const id of ids) p.send({ type: 'subscribe', topic: `fleet:${id}` });
      await p.next('snapshot', (m) => m.topic === `fleet:${ids.at(-1)!}`);
      // Subscribing again to a topic it holds does not count.
      p.send({ type: 'subscribe', topic: `fleet:${ids[0]!}` });
      p.send({ type: 'ping' });
      await p.next('pong');
      expect(p.closed).toBeNull();
      p.send({ type: 'subscribe', topic: `fleet:${demoBuilding}` });
      const refused = await p.next('error', (m) => m.topic === `fleet:${demoBuilding}`);
      expect(refused.code).toBe('VALIDATION_FAILED');
      await expect.poll(() => p.closed?.code, { timeout: 5000 }).toBe(1008);
    } finally {
      now$.mockRestore();
    }
    other.send({ type: 'subscribe', topic: `fleet:${demoBuilding}` });
    await other.next('snapshot', (m) => m.topic === `fleet:${demoBuilding}`);
    expect(other.closed).toBeNull();
  });

  it('deleting an operator closes their socket at once', async () => {
    const { operator, token } = await newOperator('deleted@demo.example');
    const p = await subscribed(token);
    const res = await t.call('DELETE', `/operators/${operator.id}`, admin);
    expect(res.statusCode, res.body).toBe(204);
    await expect.poll(() => p.closed?.code, { timeout: 5000 }).toBe(4401);
    // The web client takes this error as sign-out (it stops reconnecting).
    expect(p.messages.some((m) => m.type === 'error' && m.code === 'UNAUTHENTICATED')).toBe(true);
  });

  it('logging out closes the socket of that session', async () => {
    const { token } = await newOperator('leaver@demo.example');
    const p = await subscribed(token);
    const out = await t.inject({
      method: 'POST',
      url: '/api/operators/logout',
      headers: { authorization: `Bearer ${token}` },
    });
    expect(out.statusCode, out.body).toBe(204);
    await expect.poll(() => p.closed?.code, { timeout: 5000 }).toBe(4401);
  });

  it('a change made on another server instance reaches the sockets here (broker cluster bus)', async () => {
    const { operator, token } = await newOperator('elsewhere@demo.example');
    const p = await subscribed(token);
    const silent = new Proxy({} as Parameters<typeof createRobotLink>[0]['log'], { get: () => () => undefined });
    const secondLink = await createRobotLink({
      db: t.db.kysely,
      log: silent,
      clock: () => new Date(),
      transport: mqttTransport(t.brokerUrl, serverMqttCredentials(t.config.secretKey), silent),
      robotBrokerUrl: t.brokerUrl,
    });
    try {
      await secondLink.ready;
      // The other server ends the operator's sessions and says so on the bus.
      await t.db.kysely
        .updateTable('sessions')
        .set({ revoked_at: new Date().toISOString() })
        .where('operator_id', '=', operator.id)
        .execute();
      await secondLink.shareOperatorChange(operator.id);
      await expect.poll(() => p.closed?.code, { timeout: 5000 }).toBe(4401);
    } finally {
      await secondLink.close();
    }
  });

  it('a flood of subscribe frames closes that socket; another socket still gets answers', async () => {
    const { token } = await newOperator('flooder@demo.example');
    const other = await open((await t.as('operator@demo.example')).token);
    const p = await open(token);
    for (let i = 0; i < 5000; i++) p.send({ type: 'subscribe', topic: `fleet:${demoBuilding}` });
    await expect.poll(() => p.closed?.code, { timeout: 10_000 }).toBe(1008);
    other.send({ type: 'subscribe', topic: `fleet:${demoBuilding}` });
    await other.next('snapshot', (m) => m.topic === `fleet:${demoBuilding}`);
    other.send({ type: 'ping' });
    await other.next('pong');
    expect(other.closed).toBeNull();
  });
});
