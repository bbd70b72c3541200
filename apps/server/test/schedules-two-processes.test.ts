import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startRobot, type SimRobot } from '@portal/robot-sim';
import { toZoned, type FlowStep } from '@portal/contract';
import { demoMapDocument } from '../src/seed.ts';
import { createTestApp, registerDemoRobot, simOptions, until, usingPostgres, type TestApp } from './helpers.ts';

/**
 * Two real server processes on one PostgreSQL database (docs/api-schedules.md "Dispatcher"; spec:
 * exactly once with two server instances). Each is `node --import tsx apps/server/src/main.ts` on
 * 127.0.0.1, both use one external MQTT broker (bench/lib/schedules-broker.ts, as docs/deployment.md
 * "Several servers" describes) to which simulated robots (@portal/robot-sim) connect. The test app
 * in this process only prepares the data through the API (its dispatcher has no timer) and reads the
 * database. Entries hold wall-clock minutes, so the occurrences are due at the next minute boundaries.
 *
 * Several servers need PostgreSQL (docs/deployment.md): on SQLite this file is reported as skipped
 * (`npm run test:server:pg -- apps/server/test/schedules-two-processes.test.ts` runs it).
 */
const ROOT = fileURLToPath(new URL('../../..', import.meta.url));
const SECRET = 'test-secret-key-test-secret-key-0123456789';
const ROBOTS = 3;

const freePort = () =>
  new Promise<number>((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
  });

interface Proc {
  child: ChildProcess;
  output: string[];
}

function spawnLogged(name: string, args: string[], env: NodeJS.ProcessEnv): Proc {
  const child = spawn(process.execPath, ['--import', 'tsx', ...args], {
    cwd: ROOT,
    stdio: ['ignore', 'pipe', 'pipe'],
    env,
  });
  const output: string[] = [];
  const keep = (b: Buffer) => {
    for (const line of b.toString('utf8').split('\n')) if (line.trim()) output.push(`[${name}] ${line}`);
    if (output.length > 200) output.splice(0, output.length - 200);
  };
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  return { child, output };
}

const running = (c: ChildProcess) => c.exitCode === null && c.signalCode === null;

/** Stops a child by its PID (SIGTERM, then SIGKILL after 10 s); resolves once it is gone. */
async function stop(c: ChildProcess | undefined, signal: NodeJS.Signals = 'SIGTERM'): Promise<void> {
  if (!c || c.pid === undefined || !running(c)) return;
  const gone = new Promise<void>((r) => c.once('exit', () => r()));
  process.kill(c.pid, signal);
  const timer = setTimeout(() => running(c) && c.pid !== undefined && process.kill(c.pid, 'SIGKILL'), 10_000);
  await gone;
  clearTimeout(timer);
}

const sleepUntil = (ms: number) => new Promise((r) => setTimeout(r, Math.max(0, ms - Date.now())));

describe.skipIf(!usingPostgres())('schedules on two server processes (PostgreSQL only)', () => {
  let t: TestApp;
  let admin: string;
  let broker: Proc | undefined;
  let brokerUrl: string;
  const servers: Array<{ name: string; port: number; dataDir: string; proc?: Proc }> = [];
  const robots: SimRobot[] = [];
  const robotIds: number[] = [];
  let flowId: number;
  let buildingId: number;
  let floorId: number;
  const dirs: string[] = [];

  const output = () => [...(broker?.output ?? []), ...servers.flatMap((s) => s.proc?.output ?? [])].join('\n');

  async function startServer(s: (typeof servers)[number]): Promise<void> {
    const env: NodeJS.ProcessEnv = { ...process.env };
    for (const key of ['TEST_DATABASE_URL', 'MQTT_PORT', 'READ_CACHE', 'API_BASE']) delete env[key];
    if (t.config.database.kind !== 'postgres') throw new Error('PostgreSQL only');
    Object.assign(env, {
      NODE_ENV: 'production',
      HOST: '127.0.0.1',
      PORT: String(s.port),
      DATA_DIR: s.dataDir,
      DATABASE_URL: t.config.database.url,
      MQTT_URL: brokerUrl,
      MQTT_PUBLIC_URL: brokerUrl,
      SECRET_KEY: SECRET,
      SEED_DEMO: '0',
      SIMULATED_ROBOTS: '0',
      LOG_LEVEL: 'warn',
      WEB_DIST: join(s.dataDir, 'no-web-app'),
      SCHEDULE_TICK_MS: '250',
      SCHEDULE_GRACE_MINUTES: '10',
      SCHEDULE_START_CHECK: '0',
    });
    s.proc = spawnLogged(s.name, ['apps/server/src/main.ts'], env);
    let last = 'no answer';
    await until(async () => {
      if (!running(s.proc!.child)) throw new Error(`${s.name} exited:\n${output()}`);
      try {
        const res = await fetch(`http://127.0.0.1:${s.port}/api/health`);
        last = `${res.status} ${await res.text()}`;
        return res.status === 200;
      } catch (err) {
        last = String(err);
        return false;
      }
    }, 120_000).catch((err: unknown) => {
      throw new Error(`${s.name} not healthy (${last}): ${String(err)}\n${output()}`);
    });
  }

  /** The next minute boundary at least `leadMs` away (entries hold wall-clock minutes). */
  const nextMinute = (leadMs: number) => Math.ceil((Date.now() + leadMs) / 60_000) * 60_000;

  async function createEntry(robotId: number, dueMs: number, title: string, priority = false): Promise<number> {
    const res = await t.call('POST', '/schedules', admin, {
      title,
      description: '',
      robotId,
      flowId,
      start: toZoned(dueMs, 'Asia/Tokyo'),
      end: toZoned(dueMs + 30 * 60_000, 'Asia/Tokyo'),
      repeat: 'none',
      weekdays: [new Date(dueMs + 9 * 3_600_000).getUTCDay()],
      repeatUntil: null,
      priority,
      skipHolidays: false,
      enabled: true,
      exceptions: [],
    });
    expect(res.statusCode, res.body).toBe(201);
    return res.json<{ id: number }>().id;
  }

  const linesOf = (scheduleIds: number[]) =>
    t.db.kysely
      .selectFrom('schedule_logs')
      .select(['id', 'schedule_id', 'due_at', 'result', 'reason', 'flow_run_id', 'robot_id'])
      .where('schedule_id', 'in', scheduleIds)
      .execute();
  /** Runs the schedule started (started by nobody) per robot since `sinceMs`. */
  const scheduleRuns = async (sinceMs: number) =>
    t.db.kysely
      .selectFrom('flow_runs')
      .select(['id', 'robot_id', 'started_at'])
      .where('started_by', 'is', null)
      .where('started_at', '>=', new Date(sinceMs).toISOString())
      .execute();

  beforeAll(async () => {
    t = await createTestApp({ SCHEDULE_TICK_MS: '0', SCHEDULE_START_CHECK: '0', SECRET_KEY: SECRET });
    admin = (await t.as('orgadmin@demo.example')).authorization;
    const brokerPort = await freePort();
    brokerUrl = `mqtt://127.0.0.1:${brokerPort}`;
    broker = spawnLogged('broker', ['bench/lib/schedules-broker.ts', String(brokerPort)], { ...process.env });
    await until(() => broker!.output.some((l) => l.includes('listening')), 30_000);

    const created = [];
    for (let i = 0; i < ROBOTS; i += 1) {
      const r = await registerDemoRobot(t, { serialNo: `TWO-PROC-${i}`, name: `Two servers ${i}`, model: 'pro' });
      created.push(r.created);
      robotIds.push(r.created.robot.id);
      buildingId = r.buildingId;
      floorId = r.floorId;
    }
    const saved = await t.call('PUT', `/floors/${floorId}/map`, admin, {
      baseRevision: 0,
      document: demoMapDocument(),
    });
    expect(saved.statusCode, saved.body).toBe(200);
    const steps: FlowStep[] = [{ kind: 'wait', id: 'w', seconds: 1 }];
    const flow = await t.call('POST', '/flows', admin, {
      name: 'Two servers wait',
      description: '',
      buildingId,
      floorId,
      flowGroupId: null,
      enabled: true,
      definition: { version: 1, steps },
    });
    expect(flow.statusCode, flow.body).toBe(201);
    flowId = flow.json<{ id: number }>().id;

    for (const name of ['server-a', 'server-b']) {
      const dataDir = mkdtempSync(join(tmpdir(), `portal-two-${name}-`));
      dirs.push(dataDir);
      servers.push({ name, port: await freePort(), dataDir });
    }
    await Promise.all(servers.map((s) => startServer(s)));

    for (const c of created)
      robots.push(
        await startRobot({
          ...simOptions(c, {
            model: 'pro',
            mapId: `floor-${floorId}`,
            start: { x: 3, y: 1, theta: 0 },
            battery: 90,
            speedScale: 10,
            visualizationHz: 1,
          }),
          brokerUrl,
        }),
      );
    // Both servers see every robot online (through the shared broker).
    for (const s of servers)
      await until(async () => {
        const res = await fetch(`http://127.0.0.1:${s.port}/api/robots/fleet`, { headers: { authorization: admin } });
        if (res.status !== 200) return false;
        const fleet = (await res.json()) as Array<{ live: { robotId: number; online: boolean } }>;
        return robotIds.every((id) => fleet.some((r) => r.live.robotId === id && r.live.online));
      }, 30_000);
  }, 180_000);

  afterAll(async () => {
    for (const r of robots) await r.stop().catch(() => undefined);
    for (const s of servers) await stop(s.proc?.child);
    await stop(broker?.child);
    await t?.close();
    for (const d of dirs) rmSync(d, { recursive: true, force: true });
  });

  it('each occurrence has one log line and one run; a server killed right before a due time still has its occurrences started once', async () => {
    try {
      // ---- 1. Both servers up: each robot has a priority and a plain entry due at the same minute.
      const t1 = nextMinute(15_000);
      const first: Array<{ robotId: number; urgent: number; plain: number }> = [];
      for (const robotId of robotIds)
        first.push({
          robotId,
          urgent: await createEntry(robotId, t1, `Urgent ${robotId}`, true),
          plain: await createEntry(robotId, t1, `Plain ${robotId}`),
        });
      const firstIds = first.flatMap((e) => [e.urgent, e.plain]);
      await sleepUntil(t1);
      const settled = await until(async () => {
        const lines = await linesOf(firstIds);
        return lines.length === firstIds.length && lines.every((l) => l.result !== 'pending') ? lines : false;
      }, 60_000);
      for (const id of firstIds) expect(settled.filter((l) => l.schedule_id === id)).toHaveLength(1);
      for (const e of first) {
        const urgent = settled.find((l) => l.schedule_id === e.urgent)!;
        expect(urgent.flow_run_id, JSON.stringify(urgent)).not.toBeNull();
        expect(settled.find((l) => l.schedule_id === e.plain)).toMatchObject({ result: 'fail', reason: 'PRIORITY' });
      }
      const runs1 = await scheduleRuns(t1 - 1000);
      for (const robotId of robotIds) expect(runs1.filter((r) => r.robot_id === robotId)).toHaveLength(1);
      expect(new Set(settled.map((l) => l.flow_run_id).filter((id) => id !== null)).size).toBe(ROBOTS);

      // ---- 2. One server is killed (SIGKILL) just before the next due minute, then restarted.
      const t2 = nextMinute(15_000);
      const second: number[] = [];
      for (const robotId of robotIds) second.push(await createEntry(robotId, t2, `After the kill ${robotId}`));
      const killed = servers[1]!;
      await sleepUntil(t2 - 300);
      await stop(killed.proc!.child, 'SIGKILL');
      expect(killed.proc!.child.signalCode).toBe('SIGKILL');
      await startServer(killed);
      // Lines the killed server claimed ahead are taken over when their lease (60 s after the due time) ends.
      const lines2 = await until(async () => {
        const lines = await linesOf(second);
        return lines.length === second.length && lines.every((l) => l.flow_run_id !== null) ? lines : false;
      }, 150_000);
      for (const id of second) expect(lines2.filter((l) => l.schedule_id === id)).toHaveLength(1);
      const runs2 = await scheduleRuns(t2 - 1000);
      for (const robotId of robotIds) expect(runs2.filter((r) => r.robot_id === robotId)).toHaveLength(1);
      expect(new Set(lines2.map((l) => l.flow_run_id)).size).toBe(ROBOTS);
      // Every line names one of those runs, and no line was logged as a failure.
      expect(lines2.every((l) => runs2.some((r) => r.id === l.flow_run_id))).toBe(true);
      expect(lines2.filter((l) => l.result === 'fail')).toEqual([]);
    } catch (err) {
      throw new Error(`${(err as Error).message}\n--- server output ---\n${output()}`, { cause: err });
    }
  }, 330_000);
});
