import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startRobot, type SimRobot } from '@portal/robot-sim';
import type { TeleopProvider } from '@portal/robot-sim/teleop';
import type { CreatedRobot, InitData, TeleopRobotMessage, WsServerMessage } from '@portal/contract';
import type { Principal } from '../src/context.ts';
import { createRobotLink } from '../src/modules/robot-link/link.ts';
import { serverMqttCredentials } from '../src/modules/robot-link/index.ts';
import { mqttTransport } from '../src/modules/robot-link/transport.ts';
import { createTeleopService, type TeleopClient } from '../src/modules/teleop/teleop-service.ts';
import { createTestApp, registerDemoRobot, simOptions, until, type TestApp } from './helpers.ts';
import { openProbe, type Probe } from './ws-probe.ts';

const otherData: InitData = {
  organization: { name: 'Teleop Other Org', type: 0, labOption: false },
  buildings: [{ name: 'Teleop Other Building', floors: [{ name: '1F', index: 1, type: 'office' }] }],
  operators: [
    {
      loginId: 'admin@teleop-other.example',
      firstName: 'A',
      lastName: 'Other',
      password: 'Other-Admin-2026',
      type: 2,
      building: 0,
    },
  ],
};

/**
 * A robot-side teleop endpoint without media: it records what the portal sends and answers offers
 * with a stand-in SDP, so the server's signalling, access checks and lock are tested on their own.
 * (The real WebRTC path is covered end to end in Chromium: e2e/teleop.spec.ts.)
 */
function recordingTeleop(received: TeleopRobotMessage[]): TeleopProvider {
  return (host) => ({
    handle(m) {
      received.push(m);
      if (m.kind === 'offer') {
        host.controller.setRole(m.sessionId, m.role);
        host.reply({ kind: 'answer', sessionId: m.sessionId, sdp: `answer-for-${m.sessionId}` });
        host.reply({
          kind: 'candidate',
          sessionId: m.sessionId,
          candidate: {
            candidate: 'candidate:1 1 udp 2122260223 127.0.0.1 50000 typ host',
            sdpMid: '0',
            sdpMLineIndex: 0,
          },
        });
      } else if (m.kind === 'role') host.controller.setRole(m.sessionId, m.role);
      else if (m.kind === 'close') host.controller.close(m.sessionId);
    },
    close() {},
  });
}

describe('teleoperation signalling', () => {
  let t: TestApp;
  let robot: CreatedRobot;
  let sim: SimRobot;
  const received: TeleopRobotMessage[] = [];
  const probes: Probe[] = [];

  async function open(token?: string): Promise<Probe> {
    const p = await openProbe(t, token);
    probes.push(p);
    return p;
  }
  const tokenOf = async (login: Parameters<TestApp['as']>[0]) => (await t.as(login)).token;
  const robotMessages = (sessionId: string) => received.filter((m) => m.sessionId === sessionId);

  beforeAll(async () => {
    t = await createTestApp({ ICE_SERVERS: '[{"urls":"stun:stun.example.test:3478"}]' });
    const sys = await t.as('sysadmin@demo.example');
    const imported = await t.inject({ method: 'POST', url: '/api/init-data', headers: sys, payload: otherData });
    expect(imported.statusCode).toBe(201);
    const r = await registerDemoRobot(t, { serialNo: 'TELE-001', name: 'Teleop robot', model: 'ex' });
    robot = r.created;
    const floor = { id: r.floorId };
    sim = await startRobot(
      simOptions(robot, {
        model: 'ex',
        mapId: `floor-${floor.id}`,
        start: { x: 3, y: 3, theta: 0 },
        teleop: recordingTeleop(received),
      }),
    );
    await until(() => t.link.live({ id: robot.robot.id, status: 1 }).online || null);
  });

  afterAll(async () => {
    for (const p of probes) p.ws.terminate();
    await sim?.stop();
    await t?.close();
  });

  it('refuses an operator who cannot reach the robot before anything reaches it', async () => {
    const other = await open(
      (await t.login('admin@teleop-other.example', 'Other-Admin-2026')).json<{ token: string }>().token,
    );
    const before = received.length;
    other.send({ type: 'teleop.join', robotId: robot.robot.id, want: 'control' });
    const err = await other.next('teleop.error');
    expect(err).toMatchObject({ code: 'NOT_FOUND', robotId: robot.robot.id });
    // A made-up session id relays nothing either.
    other.send({ type: 'teleop.signal', sessionId: 'made-up', signal: { kind: 'offer', sdp: 'v=0' } });
    expect((await other.next('teleop.error', (m) => m.sessionId === 'made-up')).code).toBe('NOT_FOUND');
    other.send({ type: 'teleop.join', robotId: 999_999, want: 'watch' });
    expect((await other.next('teleop.error', (m) => m.robotId === 999_999)).code).toBe('NOT_FOUND');
    expect(received.length).toBe(before);
  });

  it('relays offer, answer and candidates for the operator in charge, with the ICE servers', async () => {
    const op = await open(await tokenOf('operator@demo.example'));
    op.send({ type: 'teleop.join', robotId: robot.robot.id, want: 'control' });
    const joined = await op.next('teleop.joined');
    expect(joined.role).toBe('controller');
    expect(joined.controller?.name).toBe('山田 太郎');
    expect(joined.iceServers).toEqual([{ urls: 'stun:stun.example.test:3478' }]);

    op.send({ type: 'teleop.signal', sessionId: joined.sessionId, signal: { kind: 'offer', sdp: 'v=0 offer' } });
    const answer = await op.next('teleop.signal', (m) => m.signal.kind === 'answer');
    expect(answer).toMatchObject({ sessionId: joined.sessionId, signal: { sdp: `answer-for-${joined.sessionId}` } });
    const cand = await op.next('teleop.signal', (m) => m.signal.kind === 'candidate');
    expect(cand.signal).toMatchObject({ kind: 'candidate', candidate: { sdpMid: '0' } });
    const offer = robotMessages(joined.sessionId).find((m) => m.kind === 'offer');
    expect(offer).toMatchObject({
      role: 'controller',
      operator: { name: '山田 太郎' },
      // The robot's registered video setting: the session starts with it.
      video: 'medium',
      iceServers: [{ urls: 'stun:stun.example.test:3478' }],
    });
    op.send({
      type: 'teleop.signal',
      sessionId: joined.sessionId,
      signal: { kind: 'candidate', candidate: { candidate: 'candidate:2 1 udp 1 10.0.0.1 9 typ host', sdpMid: '0' } },
    });
    await until(() => robotMessages(joined.sessionId).find((m) => m.kind === 'candidate') ?? null);
    expect(sim.teleopController.status().controller).toBe(joined.sessionId);

    // Leaving tells the robot, which drops the controller (and stops).
    op.send({ type: 'teleop.leave', sessionId: joined.sessionId });
    expect((await op.next('teleop.closed')).reason).toBe('left');
    await until(() => robotMessages(joined.sessionId).find((m) => m.kind === 'close') ?? null);
    expect(sim.teleopController.status().controller).toBeNull();
  });

  it('keeps one controller: others watch, general operators cannot take over, administrators can', async () => {
    const first = await open(await tokenOf('operator@demo.example'));
    first.send({ type: 'teleop.join', robotId: robot.robot.id, want: 'control' });
    const a = await first.next('teleop.joined');
    expect(a.role).toBe('controller');

    // Another general operator of the building: watches, sees who operates, cannot take the controls.
    const second = await open(await tokenOf('operator@demo.example'));
    second.send({ type: 'teleop.join', robotId: robot.robot.id, want: 'control' });
    const b = await second.next('teleop.joined');
    expect(b.role).toBe('viewer');
    expect(b.controller?.name).toBe('山田 太郎');
    second.send({ type: 'teleop.request', sessionId: b.sessionId });
    expect((await second.next('teleop.error', (m) => m.sessionId === b.sessionId)).code).toBe('TELEOP_LOCKED');
    second.send({ type: 'teleop.takeover', sessionId: b.sessionId });
    await second.next('teleop.error', (m) => m.code === 'FORBIDDEN');

    // An administrator takes over: the first operator is told who did, the robot gets both roles.
    const admin = await open(await tokenOf('orgadmin@demo.example'));
    admin.send({ type: 'teleop.join', robotId: robot.robot.id, want: 'watch' });
    const c = await admin.next('teleop.joined');
    expect(c.role).toBe('viewer');
    admin.send({ type: 'teleop.signal', sessionId: c.sessionId, signal: { kind: 'offer', sdp: 'v=0 admin' } });
    await admin.next('teleop.signal', (m) => m.signal.kind === 'answer');
    admin.send({ type: 'teleop.takeover', sessionId: c.sessionId });
    const told = await first.next('teleop.controller', (m) => m.reason === 'takenOver');
    expect(told).toMatchObject({ role: 'viewer', by: { name: '鈴木 一郎' }, controller: { name: '鈴木 一郎' } });
    expect((await admin.next('teleop.controller', (m) => m.reason === 'takenOver')).role).toBe('controller');
    expect((await second.next('teleop.controller', (m) => m.reason === 'takenOver')).controller?.name).toBe(
      '鈴木 一郎',
    );
    await until(() => robotMessages(a.sessionId).find((m) => m.kind === 'role' && m.role === 'viewer') ?? null);
    await until(() => robotMessages(c.sessionId).find((m) => m.kind === 'role' && m.role === 'controller') ?? null);
    expect(sim.teleopController.status().controller).toBe(c.sessionId);

    // The administrator's socket drops: the robot hears close, the controls are free again.
    admin.ws.terminate();
    await until(() => robotMessages(c.sessionId).find((m) => m.kind === 'close') ?? null);
    expect((await first.next('teleop.controller', (m) => m.reason === 'left')).controller).toBeNull();
    expect(sim.teleopController.status().controller).toBeNull();
    second.send({ type: 'teleop.request', sessionId: b.sessionId });
    expect((await second.next('teleop.controller', (m) => m.reason === 'granted')).role).toBe('controller');
    first.send({ type: 'teleop.leave', sessionId: a.sessionId });
    second.send({ type: 'teleop.leave', sessionId: b.sessionId });
    await second.next('teleop.closed');
  });

  it('shares the lock with a second server on the same broker: watch, takeover, release', async () => {
    const silent = new Proxy({} as Parameters<typeof createRobotLink>[0]['log'], { get: () => () => undefined });
    const secondLink = await createRobotLink({
      db: t.db.kysely,
      log: silent,
      clock: () => new Date(),
      transport: mqttTransport(t.brokerUrl, serverMqttCredentials(t.config.secretKey), silent),
      robotBrokerUrl: t.brokerUrl,
    });
    const second = createTeleopService({ robotLink: secondLink, log: silent, iceServers: [] });
    try {
      await secondLink.ready;
      await until(() => secondLink.live({ id: robot.robot.id, status: 1 }).online || null);
      // A browser connected to the second server: the demo organization's administrator.
      const row = await t.db.kysely
        .selectFrom('operators')
        .selectAll()
        .where('login_id', '=', 'orgadmin@demo.example')
        .executeTakeFirstOrThrow();
      const principal = {
        sessionId: 0,
        operatorId: row.id,
        organizationId: row.organization_id,
        buildingId: row.building_id,
        type: Number(row.type),
        language: null,
        email: row.login_id,
        firstName: row.first_name,
        lastName: row.last_name,
        labsEnabled: false,
      } as Principal;
      const got: WsServerMessage[] = [];
      const client: TeleopClient = { principal, send: (m) => got.push(m) };
      const next = <T extends WsServerMessage['type']>(
        type: T,
        where: (m: Extract<WsServerMessage, { type: T }>) => boolean = () => true,
      ) =>
        until(() =>
          got.find(
            (m): m is Extract<WsServerMessage, { type: T }> =>
              m.type === type && where(m as Extract<WsServerMessage, { type: T }>),
          ),
        );

      // The operator on the first server has the controls; the second server knows it.
      const op = await open(await tokenOf('operator@demo.example'));
      op.send({ type: 'teleop.join', robotId: robot.robot.id, want: 'control' });
      const a = await op.next('teleop.joined');
      expect(a.role).toBe('controller');
      await until(() => second.controllerOf(robot.robot.id));
      await second.handle(client, { type: 'teleop.join', robotId: robot.robot.id, want: 'control' });
      const b = await next('teleop.joined');
      expect(b).toMatchObject({ role: 'viewer', controller: { name: '山田 太郎' } });
      await second.handle(client, { type: 'teleop.request', sessionId: b.sessionId });
      expect((await next('teleop.error')).code).toBe('TELEOP_LOCKED');

      // The administrator takes over on the second server: the first server's operator is told, and
      // the robot hears both role changes.
      await second.handle(client, { type: 'teleop.takeover', sessionId: b.sessionId });
      expect((await next('teleop.controller', (m) => m.reason === 'takenOver')).role).toBe('controller');
      const told = await op.next('teleop.controller', (m) => m.reason === 'takenOver');
      expect(told).toMatchObject({ role: 'viewer', by: { name: '鈴木 一郎' } });
      await until(() => robotMessages(a.sessionId).find((m) => m.kind === 'role' && m.role === 'viewer') ?? null);
      await until(() => sim.teleopController.status().controller === b.sessionId || null);
      expect(t.link.live({ id: robot.robot.id, status: 1 }).online).toBe(true);

      // The administrator leaves: the controls are free on both servers.
      await second.handle(client, { type: 'teleop.leave', sessionId: b.sessionId });
      expect((await op.next('teleop.controller', (m) => m.reason === 'left')).controller).toBeNull();
      op.send({ type: 'teleop.request', sessionId: a.sessionId });
      expect((await op.next('teleop.controller', (m) => m.reason === 'granted')).role).toBe('controller');
      await until(() => second.controllerOf(robot.robot.id)?.name === '山田 太郎' || null);
      op.send({ type: 'teleop.leave', sessionId: a.sessionId });
      await op.next('teleop.closed');
    } finally {
      second.close();
      await secondLink.close();
    }
  });

  it('rejects malformed teleop messages without relaying anything', async () => {
    const op = await open(await tokenOf('operator@demo.example'));
    const before = received.length;
    op.send({ type: 'teleop.join', robotId: 'one', want: 'control' });
    op.send({ type: 'teleop.signal', sessionId: 'x', signal: { kind: 'answer', sdp: 'v=0' } });
    op.send({ type: 'teleop.join', robotId: robot.robot.id, want: 'drive' });
    await until(() => (op.messages.filter((m) => m.type === 'error').length >= 3 ? true : null));
    expect(op.messages.filter((m) => m.type === 'error').every((m) => m.code === 'VALIDATION_FAILED')).toBe(true);
    expect(received.length).toBe(before);
  });

  it('ends the sessions when the robot goes offline', async () => {
    const op = await open(await tokenOf('operator@demo.example'));
    op.send({ type: 'teleop.join', robotId: robot.robot.id, want: 'control' });
    const j = await op.next('teleop.joined');
    await sim.disconnect({ graceful: true });
    expect((await op.next('teleop.closed', (m) => m.sessionId === j.sessionId)).reason).toBe('robotOffline');
    op.send({ type: 'teleop.join', robotId: robot.robot.id, want: 'control' });
    expect((await op.next('teleop.error', (m) => m.code === 'ROBOT_OFFLINE')).robotId).toBe(robot.robot.id);
    await sim.reconnect();
  });
});
