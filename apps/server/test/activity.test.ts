import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startRobot, type SimRobot } from '@portal/robot-sim';
import { robotActivityEntrySchema, type CreatedRobot, type InitData, type RobotActivityEntry } from '@portal/contract';
import { activityService } from '../src/modules/activity/activity-service.ts';
import { startActivityWatcher } from '../src/modules/activity/activity-watcher.ts';
import { createRobotLink } from '../src/modules/robot-link/link.ts';
import { serverMqttCredentials } from '../src/modules/robot-link/index.ts';
import { mqttTransport } from '../src/modules/robot-link/transport.ts';
import { createTestApp, errorOf, registerDemoRobot, simOptions, until, type TestApp } from './helpers.ts';
import { openProbe, type Probe } from './ws-probe.ts';

const otherData: InitData = {
  organization: { name: 'Activity Other Org', type: 0, labOption: false },
  buildings: [{ name: 'Activity Other Building', floors: [{ name: '1F', index: 1, type: 'office' }] }],
  operators: [
    {
      loginId: 'admin@activity-other.example',
      firstName: 'A',
      lastName: 'Other',
      password: 'Other-Admin-2026',
      type: 2,
      building: 0,
    },
  ],
};

/**
 * The robot activity log with the real simulator over MQTT: connection changes (written once with
 * two servers on the broker), robot errors appearing and clearing, the emergency stop, teleop
 * control, low battery and its re-arm; the API's tenancy, filters, paging and bad input.
 */
describe('robot activity log', () => {
  let t: TestApp;
  let created: CreatedRobot;
  let sim: SimRobot;
  let admin: string;
  const probes: Probe[] = [];
  const id = () => created.robot.id;
  const silent = new Proxy({} as Parameters<typeof createRobotLink>[0]['log'], { get: () => () => undefined });

  /** Every entry of the robot, oldest first, read straight from the table. */
  const rows = async () =>
    t.db.kysely.selectFrom('robot_activity').selectAll().where('robot_id', '=', id()).orderBy('id').execute();
  const count = async (kind: string, code: string) =>
    (await rows()).filter((r) => r.kind === kind && r.code === code).length;

  async function list(filter?: object, auth = admin) {
    const q = filter ? `?filter=${encodeURIComponent(JSON.stringify(filter))}` : '';
    return t.call('GET', `/robots/${id()}/activity${q}`, auth);
  }

  beforeAll(async () => {
    t = await createTestApp();
    admin = (await t.as('orgadmin@demo.example')).authorization;
    const r = await registerDemoRobot(t, { serialNo: 'ACT-001', name: 'Activity robot', model: 'ex' });
    created = r.created;
    sim = await startRobot(
      simOptions(created, { model: 'ex', mapId: `floor-${r.floorId}`, start: { x: 3, y: 3, theta: 0 }, battery: 80 }),
    );
    await until(async () => (await count('connection', 'online')) === 1);
  });

  afterAll(async () => {
    for (const p of probes) p.ws.terminate();
    await sim?.stop();
    await t?.close();
  });

  it('writes a connection change once, with two servers hearing the robot', async () => {
    // Two more servers on the same broker and database, each with its own link and watcher.
    const servers = await Promise.all(
      [1, 2].map(async () => {
        const link = await createRobotLink({
          db: t.db.kysely,
          log: silent,
          clock: () => new Date(),
          transport: mqttTransport(t.brokerUrl, serverMqttCredentials(t.config.secretKey), silent),
          robotBrokerUrl: t.brokerUrl,
        });
        await link.ready;
        const activity = activityService({ db: t.db.kysely, clock: () => new Date(), robotLink: link });
        const watcher = startActivityWatcher({ link, activity, log: silent });
        return { link, watcher };
      }),
    );
    try {
      for (const s of servers) await until(() => s.link.live({ id: id(), status: 1 }).online);
      await sim.disconnect({ graceful: false });
      for (const s of servers) await until(() => !s.link.live({ id: id(), status: 1 }).online);
      await until(async () => (await count('connection', 'connectionBroken')) >= 1);
      for (const s of servers) await s.watcher.idle();
      // The mark changed with the first entry: every other server's write found it changed.
      expect(await count('connection', 'connectionBroken')).toBe(1);

      await sim.reconnect();
      for (const s of servers) await until(() => s.link.live({ id: id(), status: 1 }).online);
      await until(async () => (await count('connection', 'online')) >= 2);
      for (const s of servers) await s.watcher.idle();
      expect(await count('connection', 'online')).toBe(2);
    } finally {
      for (const s of servers) {
        await s.watcher.stop();
        await s.link.close();
      }
    }
    const res = await list({ where: { kind: 'connection' } });
    expect(res.statusCode, res.body).toBe(200);
    const items = robotActivityEntrySchema.array().parse(res.json());
    expect(items.map((i) => i.code)).toEqual(['online', 'connectionBroken', 'online']);
    expect(items[1]).toMatchObject({ level: 4, kind: 'connection', robotId: id() });
  });

  it('writes a robot error when it appears (level from errorLevel) and when it clears, not on every state', async () => {
    sim.injectFault('hardwareError');
    await until(async () => (await count('robotError', 'errorRaised')) === 1);
    // The robot keeps reporting the error: several more states pass, nothing more is written.
    await sim.waitFor((s) => s.errors.some((e) => e.errorType === 'hardwareError'));
    sim.injectFault('motorTemperatureHigh');
    await until(async () => (await count('robotError', 'errorRaised')) === 2);
    sim.clearFault('hardwareError');
    await until(async () => (await count('robotError', 'errorCleared')) === 1);
    sim.clearFault('motorTemperatureHigh');
    await until(async () => (await count('robotError', 'errorCleared')) === 2);
    const errors = (await rows()).filter((r) => r.kind === 'robotError');
    expect(errors.map((r) => [r.code, r.level, JSON.parse(r.params).errorType])).toEqual([
      ['errorRaised', 2, 'hardwareError'],
      ['errorRaised', 4, 'motorTemperatureHigh'],
      ['errorCleared', 6, 'hardwareError'],
      ['errorCleared', 6, 'motorTemperatureHigh'],
    ]);
  });

  it('writes the emergency stop pressed and released', async () => {
    sim.injectFault('emergencyStop');
    await until(async () => (await count('emergencyStop', 'pressed')) === 1);
    sim.clearFault('emergencyStop');
    await until(async () => (await count('emergencyStop', 'released')) === 1);
    const stops = (await rows()).filter((r) => r.kind === 'emergencyStop');
    expect(stops.map((r) => [r.code, r.level])).toEqual([
      ['pressed', 1],
      ['released', 5],
    ]);
    // The emergency stop is its own kind, not also a robot error.
    expect((await rows()).some((r) => r.kind === 'robotError' && r.params.includes('emergencyStop'))).toBe(false);
  });

  it('writes low battery once below 20 %, and again only after it came back above', async () => {
    sim.setBattery(19);
    await until(async () => (await count('battery', 'low')) === 1);
    sim.setBattery(15);
    await sim.waitFor((s) => Math.round(s.batteryState.batteryCharge) === 15);
    sim.setBattery(20);
    await sim.waitFor((s) => Math.round(s.batteryState.batteryCharge) === 20);
    sim.setBattery(18);
    await sim.waitFor((s) => Math.round(s.batteryState.batteryCharge) === 18);
    sim.setBattery(60);
    await until(async () => (await count('battery', 'recovered')) === 1);
    // 15, 20 (not above) and 18 did not re-arm it: one low entry so far.
    expect(await count('battery', 'low')).toBe(1);
    sim.setBattery(10);
    await until(async () => (await count('battery', 'low')) === 2);
    const low = (await rows()).find((r) => r.kind === 'battery' && r.code === 'low')!;
    expect(low.level).toBe(1);
    expect(JSON.parse(low.params)).toMatchObject({ percent: 19, threshold: 20 });
    sim.setBattery(80);
    await until(async () => (await count('battery', 'recovered')) === 2);
  });

  it('writes teleoperation control taken and given up, with who', async () => {
    const operator = await t.as('operator@demo.example');
    const probe = await openProbe(t, operator.token);
    probes.push(probe);
    probe.send({ type: 'teleop.join', robotId: id(), want: 'control' });
    const joined = await probe.next('teleop.joined');
    expect(joined.role).toBe('controller');
    await until(async () => (await count('teleop', 'controlStarted')) === 1);
    probe.send({ type: 'teleop.release', sessionId: joined.sessionId });
    await until(async () => (await count('teleop', 'controlEnded')) === 1);
    const teleop = (await rows()).filter((r) => r.kind === 'teleop');
    expect(teleop.map((r) => [r.code, JSON.parse(r.params)])).toEqual([
      ['controlStarted', { operatorId: operator.id, operatorName: '山田 太郎', reason: 'granted' }],
      ['controlEnded', { operatorId: operator.id, operatorName: '山田 太郎', reason: 'released' }],
    ]);
  });

  it('answers the log newest first, paged with X-Total-Count, filtered by level, kind and date', async () => {
    const all = await list();
    expect(all.statusCode, all.body).toBe(200);
    const items = robotActivityEntrySchema.array().parse(all.json());
    const total = Number(all.headers['x-total-count']);
    expect(total).toBe((await rows()).length);
    const sorted = [...items].sort((a, b) => (a.at === b.at ? b.id - a.id : b.at.localeCompare(a.at)));
    expect(items.map((i) => i.id)).toEqual(sorted.map((i) => i.id));

    const page2 = await list({ limit: 3, skip: 3 });
    expect(page2.headers['x-total-count']).toBe(String(total));
    expect(page2.json<RobotActivityEntry[]>().map((i) => i.id)).toEqual(items.slice(3, 6).map((i) => i.id));

    const severe = robotActivityEntrySchema.array().parse((await list({ where: { level: { lte: 2 } } })).json());
    expect(severe.length).toBeGreaterThan(0);
    expect(severe.every((i) => i.level <= 2)).toBe(true);
    expect(new Set(severe.map((i) => i.kind))).toEqual(new Set(['robotError', 'emergencyStop', 'battery']));

    const kinds = robotActivityEntrySchema.array().parse((await list({ where: { kind: 'teleop' } })).json());
    expect(kinds.map((i) => i.code)).toEqual(['controlEnded', 'controlStarted']);

    const middle = items[Math.floor(items.length / 2)]!;
    const since = robotActivityEntrySchema.array().parse((await list({ where: { at: { gte: middle.at } } })).json());
    expect(since.every((i) => i.at >= middle.at)).toBe(true);
    const future = await list({ where: { and: [{ at: { gte: '2099-01-01' } }, { at: { lte: '2099-12-31' } }] } });
    expect(future.json()).toEqual([]);
    expect(future.headers['x-total-count']).toBe('0');
  });

  it('answers another organization’s robot and an unknown robot 404, bad filters 400', async () => {
    const sys = await t.as('sysadmin@demo.example');
    expect(
      (await t.inject({ method: 'POST', url: '/api/init-data', headers: sys, payload: otherData })).statusCode,
    ).toBe(201);
    const other = (await t.login('admin@activity-other.example', 'Other-Admin-2026')).json<{ token: string }>().token;
    const res = await list(undefined, `Bearer ${other}`);
    expect(res.statusCode).toBe(404);
    expect(errorOf(res).code).toBe('NOT_FOUND');
    expect((await t.call('GET', '/robots/999999/activity', admin)).statusCode).toBe(404);
    // The system administrator sees every robot's log.
    expect((await list(undefined, sys.authorization)).statusCode).toBe(200);

    for (const bad of [
      { where: { level: { lte: 'high' } } },
      { where: { level: 1.5 } },
      { where: { at: { gte: 'yesterday' } } },
      { where: { params: 'x' } },
      { order: 'params DESC' },
      { limit: 100_000 },
      { fields: ['id'] },
    ]) {
      const r = await list(bad);
      expect(r.statusCode, JSON.stringify(bad)).toBe(400);
      expect(errorOf(r).code).toBe('BAD_FILTER');
    }
    expect((await t.call('GET', `/robots/${id()}/activity?filter=%7Bnope`, admin)).statusCode).toBe(400);
    expect((await t.call('GET', '/robots/abc/activity', admin)).statusCode).toBe(400);
  });

  it('writes an OS update asked for (who) and the new version the robot comes back with', async () => {
    const before = t.link.details(id())?.teleop?.osVersion;
    expect(before).toBeTruthy();
    const res = await t.call('POST', `/robots/${id()}/os-update`, admin, {});
    expect(res.statusCode, res.body).toBe(202);
    await until(async () => (await count('osUpdate', 'updated')) === 1, 30_000);
    const os = (await rows()).filter((r) => r.kind === 'osUpdate');
    expect(os.map((r) => r.code)).toEqual(['requested', 'updated']);
    expect(JSON.parse(os[0]!.params)).toMatchObject({ operatorName: '鈴木 一郎', from: before });
    expect(JSON.parse(os[1]!.params)).toMatchObject({ from: before, to: t.link.details(id())?.teleop?.osVersion });
    // The restart is a clean goodbye (connection OFFLINE), then online again.
    const connection = (await rows()).filter((r) => r.kind === 'connection').map((r) => r.code);
    expect(connection.slice(-2)).toEqual(['offline', 'online']);
  }, 40_000);

  it('records through the service API, bounds parameters and prunes beyond the retention', async () => {
    const activity = activityService({ db: t.db.kysely, clock: () => new Date(), robotLink: t.link });
    const long = 'x'.repeat(1000);
    const params = Object.fromEntries(Array.from({ length: 30 }, (_, i) => [`p${i}`, i === 0 ? long : i]));
    const entryId = await activity.record({ robotId: id(), kind: 'healthCheck', code: 'failed', params });
    expect(entryId).toBeGreaterThan(0);
    const row = (await rows()).find((r) => r.id === entryId)!;
    expect(row.level).toBe(0);
    const stored = JSON.parse(row.params) as Record<string, unknown>;
    expect(Object.keys(stored)).toHaveLength(16);
    expect((stored.p0 as string).length).toBe(200);
    expect(await activity.record({ robotId: 999_999, kind: 'flow', code: 'started' })).toBeNull();

    // An entry older than the retention goes; beyond `keep` per robot, the oldest go.
    await t.db.kysely
      .updateTable('robot_activity')
      .set({ at: '2000-01-01T00:00:00.000Z' })
      .where('id', '=', entryId)
      .execute();
    const before = (await rows()).length;
    expect(await activity.prune()).toBe(1);
    expect((await rows()).length).toBe(before - 1);
    const newest = (await rows()).sort((a, b) => (a.at === b.at ? b.id - a.id : b.at.localeCompare(a.at))).slice(0, 5);
    await activity.prune(5);
    expect((await rows()).map((r) => r.id).sort()).toEqual(newest.map((r) => r.id).sort());
  });
});
