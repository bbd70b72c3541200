/**
 * `npm run bench:schedules` (issue 15): 10,000 schedule entries (mixed repeats: none, daily, weekly,
 * monthly) over 1,000 simulated robots, on one server (SQLite, embedded broker), or on two servers
 * sharing one PostgreSQL database and one external broker (`scripts/with-postgres.sh npm run
 * bench:schedules`: with DATABASE_URL set, two servers unless SCHEDULES_SERVERS=1). Figures:
 *
 * - delay from an occurrence's due time to its run's first order written to the robot's socket
 *   (the flow's first step is a move), p50/p99, goal p99 < 1 s; timed by the broker
 *   (bench/lib/schedules-wire-probe.ts, wall clock, compared with the due time);
 * - occurrences doubled (goal 0): more than one log line for one entry and due time, more schedule-
 *   started runs on a robot than its log lines name, or more new orders on a robot's wire than its
 *   started occurrences;
 * - occurrences lost across a kill -9 and restart of one server (goal 0): a robot and due instant
 *   whose entries got no log line, or none of whose lines got a run (the priority rule lets one entry
 *   of a robot and instant run; the others are logged `fail` / `PRIORITY` by design);
 * - server CPU (sum over the servers and their restarted incarnation) and peak RSS.
 *
 * How it goes: the servers start (bench/lib/schedules-servers.ts), the buildings (Tokyo time), a short
 * two-move flow per building and the robots are made through the API (bench/lib/schedules-seed.ts),
 * the robots run in bench/lib/flows-sim.ts (no visualization, state every 10 s and on change). The
 * entries are due at SCHEDULES_INSTANTS minute boundaries (entries hold wall-clock minutes), so each
 * instant is a burst of (robots) starts and (entries / instants) log lines. Each instant is chosen when
 * its entries start to be saved, far enough ahead for them to be saved in time at the rate measured so
 * far (SCHEDULES_CREATE_RATE, default 25/s, for the first); the entries of the later instants are all
 * saved before the second, and the instants after it follow a minute apart. While the entries are saved the bench's own
 * POSTs load the servers too. SCHEDULES_KILL_AFTER_MS after the second instant one server is
 * killed with SIGKILL (one server: the only one, and its broker with it; two servers: the second) and
 * restarted at once on the same ports and database. Then the bench waits until every due entry has
 * a final log line (occurrences the killed server had claimed are taken over after their 60 s lease)
 * or SCHEDULES_SETTLE_S have passed after the last instant.
 *
 * Options (environment): SCHEDULES_ROBOTS (default 1000), SCHEDULES_ENTRIES (10000),
 * SCHEDULES_BUILDINGS (10), SCHEDULES_INSTANTS (3), SCHEDULES_CREATE_RATE (25), SCHEDULES_KILL=0 (no kill), SCHEDULES_KILL_AFTER_MS (300),
 * SCHEDULES_SETTLE_S (150), SCHEDULES_SERVERS (1 or 2; 2 needs DATABASE_URL), SCHEDULES_TICK_MS and
 * SCHEDULES_GRACE_MINUTES (the servers' SCHEDULE_TICK_MS and SCHEDULE_GRACE_MINUTES; defaults 1000
 * and 10), SCHEDULES_LOOKAHEAD_MS and SCHEDULES_PREPARE_MS (the servers' SCHEDULE_LOOKAHEAD_MS and SCHEDULE_PREPARE_MS, defaults 20000 and 10000), SCHEDULES_STATE_INTERVAL_MS (10000), SCHEDULES_SPEED_SCALE (5), SCHEDULES_START_CHECK=0 (the
 * servers' SCHEDULE_START_CHECK off: no reference photos when entries are saved and no start-position
 * check before a start; diagnosis, its own row in the results).
 * SCHEDULES_PROFILE=DIR: each server runs with `node --cpu-prof` and writes its V8 profile to DIR when
 * it stops (a killed server writes none).
 * Results: bench/results/schedules.json, one row per configuration (SQLite · 1 server, PostgreSQL ·
 * 2 servers); a run replaces its own configuration's row and keeps the other's.
 */
import { fork, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { authOps, flowRunOps, scheduleOps, type FlowRun, type ScheduleLog } from '@portal/contract';
import { cpuCount, machineBusyPercent, machineCpu, processCpuMs, processMemory } from './lib/fleet-measure.ts';
import {
  BenchError,
  benchApi,
  freePort,
  rememberTempDir,
  ROOT,
  serverLog,
  stopAll,
  stopChild,
  waitForHealth,
} from './lib/fleet-server.ts';
import type { FromFlowSim, ToFlowSim } from './lib/flows-protocol.ts';
import { registerRobots, type BenchRobot } from './lib/flows-seed.ts';
import { resultsDir, round, writeResults, type BenchResults, type Figure } from './lib/results.ts';
import { createEntries, planEntries, seedScheduleBuildings, type CreatedEntry } from './lib/schedules-seed.ts';
import { killHard, startBroker, startScheduleServer, type ScheduleServerOptions } from './lib/schedules-servers.ts';

const ADMIN = { loginId: 'bench-admin@example.com', loginPw: 'Bench-Pass-2024!' };
const DATABASE_URL = process.env.DATABASE_URL ?? '';
const SERVERS = envNumber('SCHEDULES_SERVERS', DATABASE_URL ? 2 : 1);
const ROBOTS = envNumber('SCHEDULES_ROBOTS', 1000);
const ENTRIES = envNumber('SCHEDULES_ENTRIES', 10_000);
const BUILDINGS = envNumber('SCHEDULES_BUILDINGS', 10);
const INSTANTS = Math.max(1, envNumber('SCHEDULES_INSTANTS', 3));
const KILL = process.env.SCHEDULES_KILL !== '0';
const KILL_AFTER_MS = envNumber('SCHEDULES_KILL_AFTER_MS', 300);
const SETTLE_S = envNumber('SCHEDULES_SETTLE_S', 150);
const TICK_MS = envNumber('SCHEDULES_TICK_MS', 1000);
const GRACE_MINUTES = envNumber('SCHEDULES_GRACE_MINUTES', 10);
const STATE_INTERVAL_MS = envNumber('SCHEDULES_STATE_INTERVAL_MS', 10_000);
const SPEED_SCALE = envNumber('SCHEDULES_SPEED_SCALE', 5);
const LOOKAHEAD_MS = envNumber('SCHEDULES_LOOKAHEAD_MS', 20_000);
const PREPARE_MS = envNumber('SCHEDULES_PREPARE_MS', 10_000);
const PER_ROBOT = Math.max(1, Math.round(ENTRIES / ROBOTS));
/** SCHEDULES_START_CHECK=0: the servers without the start-position check and its reference photos (diagnosis). */
const START_CHECK = process.env.SCHEDULES_START_CHECK !== '0';
const CONFIG = `${DATABASE_URL ? 'PostgreSQL' : 'SQLite'} · ${SERVERS} server${SERVERS > 1 ? 's' : ''}${START_CHECK ? '' : ' · no start check'}`;
const REGISTER_CONCURRENCY = 8;
const CREATE_CONCURRENCY = 8;
const SAMPLE_MS = 250;
/** The API's largest page of schedule logs and flow runs. */
const PAGE = 200;
const GOAL_P99_MS = 1000;
const MB = 1024 * 1024;

function envNumber(name: string, fallback: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  const n = Number(raw);
  if (!Number.isFinite(n) || n < 0) throw new Error(`${name} must be a number ≥ 0, not ${raw}`);
  return n;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const sleepUntil = (epochMs: number) => sleep(Math.max(0, epochMs - Date.now()));
const iso = (ms: number) => new Date(ms).toISOString();

function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return Number.NaN;
  return sorted[Math.max(0, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

// ---------------------------------------------------------------- the simulator (bench/lib/flows-sim.ts)

function startSimulator(robots: BenchRobot[]): Promise<{ child: ChildProcess; ms: number }> {
  const child = fork(fileURLToPath(new URL('./lib/flows-sim.ts', import.meta.url)), [], {
    cwd: ROOT,
    execArgv: ['--import', 'tsx'],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  process.on('exit', () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  });
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new BenchError('the simulated fleet did not start in time')), 600_000);
    child.on('message', (msg: FromFlowSim) => {
      if (msg.type === 'started') {
        clearTimeout(timer);
        resolve({ child, ms: msg.ms });
      } else if (msg.type === 'failed') reject(new BenchError(`simulator: ${msg.message}`));
    });
    child.once('exit', (code, signal) => reject(new BenchError(`simulator exited (${signal ?? code})`)));
    const start: ToFlowSim = {
      type: 'start',
      robots: robots.map(({ flowId: _flowId, ...spec }) => spec),
      visualizationHz: 0,
      stateIntervalMs: STATE_INTERVAL_MS,
      speedScale: SPEED_SCALE,
      concurrency: 50,
    };
    child.send(start);
  });
}

async function stopSimulator(child: ChildProcess | null): Promise<void> {
  if (!child || child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((r) => child.once('exit', () => r()));
  try {
    child.send({ type: 'stop' } satisfies ToFlowSim);
  } catch {
    // the channel is gone
  }
  await Promise.race([exited, sleep(15_000)]);
  await stopChild(child, 2_000);
}

// ---------------------------------------------------------------- reading back

async function login(base: string): Promise<string> {
  const res = await benchApi(base).call(authOps.login, { body: ADMIN });
  if (!('token' in res)) throw new BenchError('the bench administrator signs in with a verification code');
  return res.token;
}

/** Every log line due at or after `fromMs` (GET /api/schedule-logs, pages of 200). */
async function readLogs(base: string, token: string, fromMs: number): Promise<ScheduleLog[]> {
  const api = benchApi(base);
  const out: ScheduleLog[] = [];
  for (let skip = 0; ; skip += PAGE) {
    const page = await api.call(scheduleOps.listScheduleLogs, {
      token,
      query: { filter: JSON.stringify({ where: { dueAt: { gte: iso(fromMs) } }, order: 'id ASC', limit: PAGE, skip }) },
    });
    out.push(...page);
    if (page.length < PAGE) return out;
  }
}

/** Every run of the bench's robots (GET /api/flow-runs, pages of 200). */
async function readRuns(base: string, token: string): Promise<FlowRun[]> {
  const api = benchApi(base);
  const out: FlowRun[] = [];
  for (let skip = 0; ; skip += PAGE) {
    const page = await api.call(flowRunOps.listFlowRuns, {
      token,
      query: { filter: JSON.stringify({ order: 'id ASC', limit: PAGE, skip }) },
    });
    out.push(...page);
    if (page.length < PAGE) return out;
  }
}

interface WireLine {
  prefix: string;
  orderId: string;
  update: number;
  ms: number;
}

function readWire(file: string): WireLine[] {
  if (!existsSync(file)) return [];
  return readFileSync(file, 'utf8')
    .split('\n')
    .filter((l) => l.startsWith('W '))
    .map((l) => {
      const [, prefix, orderId, update, ms] = l.split(' ');
      return { prefix: prefix!, orderId: orderId!, update: Number(update), ms: Number(ms) };
    });
}

// ---------------------------------------------------------------- the run

const servers: ChildProcess[] = [];
let broker: ChildProcess | null = null;
let simulator: ChildProcess | null = null;

async function cleanup(): Promise<void> {
  await stopSimulator(simulator);
  simulator = null;
  await Promise.all(servers.map((s) => stopChild(s, 25_000)));
  servers.length = 0;
  await stopChild(broker, 5_000);
  broker = null;
  await stopAll();
}

process.once('SIGINT', () => {
  console.error('\ninterrupted; stopping the servers and the simulator');
  void cleanup().finally(() => process.exit(130));
});

/** CPU and peak RSS of every server process (a restarted server is a new process: both count). */
class ServerMeter {
  private readonly first = new Map<number, number>();
  private readonly last = new Map<number, number>();
  peakRss = 0;
  private timer: NodeJS.Timeout | null = null;

  start(pids: () => Array<number | undefined>): void {
    this.timer = setInterval(() => this.sample(pids()), SAMPLE_MS);
    this.sample(pids());
  }

  sample(pids: Array<number | undefined>): void {
    for (const pid of pids) {
      if (!pid) continue;
      const cpu = processCpuMs(pid);
      if (cpu !== null) {
        if (!this.first.has(pid)) this.first.set(pid, cpu);
        this.last.set(pid, cpu);
      }
      const m = processMemory(pid);
      // A killed process not yet reaped has no VmRSS (NaN): skipped.
      if (m) for (const v of [m.rss, m.hwm]) if (Number.isFinite(v)) this.peakRss = Math.max(this.peakRss, v);
    }
  }

  /** From now on: CPU counted from here (the window starts at the first instant less 5 s). */
  rebase(): void {
    for (const [pid, last] of this.last) this.first.set(pid, last);
  }

  stop(): number {
    if (this.timer) clearInterval(this.timer);
    let ms = 0;
    for (const [pid, last] of this.last) ms += last - (this.first.get(pid) ?? last);
    return ms;
  }
}

async function main(): Promise<void> {
  if (SERVERS !== 1 && SERVERS !== 2) throw new BenchError('SCHEDULES_SERVERS is 1 or 2');
  if (SERVERS === 2 && !DATABASE_URL)
    throw new BenchError('two servers need PostgreSQL: scripts/with-postgres.sh npm run bench:schedules');
  const load = os.loadavg()[0]!;
  if (load > cpuCount() / 2)
    console.log(`note: the machine is busy (load average ${load.toFixed(1)} on ${cpuCount()} CPUs)`);
  const workDir = mkdtempSync(path.join(os.tmpdir(), 'portal-bench-schedules-'));
  rememberTempDir(workDir);
  const wireFile = path.join(workDir, 'wire.txt');
  const secretKey = `bench-schedules-${'k'.repeat(40)}`;
  const serverEnv = {
    SCHEDULE_TICK_MS: String(TICK_MS),
    SCHEDULE_GRACE_MINUTES: String(GRACE_MINUTES),
    SCHEDULE_START_CHECK: START_CHECK ? '1' : '0',
    SCHEDULE_LOOKAHEAD_MS: String(LOOKAHEAD_MS),
    SCHEDULE_PREPARE_MS: String(PREPARE_MS),
  };

  // 1. The servers (and the shared broker with two).
  const options: ScheduleServerOptions[] = [];
  if (SERVERS === 1) {
    options.push({
      name: 'server',
      port: await freePort(),
      mqttPort: await freePort(),
      dataDir: path.join(workDir, 'server-1'),
      admin: ADMIN,
      wireFile,
      secretKey,
      env: serverEnv,
    });
  } else {
    const brokerPort = await freePort();
    broker = await startBroker(brokerPort, wireFile);
    console.log(`shared broker on mqtt://127.0.0.1:${brokerPort} (PID ${broker.pid})`);
    for (let i = 1; i <= 2; i++) {
      options.push({
        name: `server-${i}`,
        port: await freePort(),
        mqttPort: null,
        dataDir: path.join(workDir, `server-${i}`),
        admin: ADMIN,
        databaseUrl: DATABASE_URL,
        mqttUrl: `mqtt://portal-server-${i}:bench@127.0.0.1:${brokerPort}`,
        mqttPublicUrl: `mqtt://127.0.0.1:${brokerPort}`,
        secretKey,
        env: serverEnv,
      });
    }
  }
  const bases = options.map((o) => `http://127.0.0.1:${o.port}`);
  for (const [i, o] of options.entries()) {
    const child = startScheduleServer(o);
    servers[i] = child;
    const ms = await waitForHealth(bases[i]!, child, 120_000);
    console.log(`${o.name} on ${bases[i]} healthy after ${Math.round(ms)} ms (PID ${child.pid}; ${CONFIG})`);
  }

  // 2. Buildings, flows, robots; the fleet.
  const token = await login(bases[0]!);
  let t = performance.now();
  const buildings = await seedScheduleBuildings(bases[0]!, token, BUILDINGS);
  const robots = await registerRobots(
    bases[0]!,
    token,
    buildings,
    Math.ceil(ROBOTS / BUILDINGS),
    REGISTER_CONCURRENCY,
  ).then((r) => r.slice(0, ROBOTS));
  console.log(`seeded ${BUILDINGS} buildings and ${robots.length} robots in ${Math.round(performance.now() - t)} ms`);
  const sim = await startSimulator(robots);
  simulator = sim.child;
  console.log(`${robots.length} simulated robots connected in ${Math.round(sim.ms)} ms`);
  await sleep(3_000);

  // 3. The entries, due at INSTANTS minute boundaries. Each instant is set, when its entries start to
  // be saved, far enough ahead for them all to be saved before it (at the rate measured so far); the
  // entries of the second and later instants are all saved before the second instant (the kill).
  const plan = planEntries(robots, PER_ROBOT, INSTANTS);
  const batches = Array.from({ length: INSTANTS }, (_, i) => plan.filter((p) => p.instant === i));
  let rate = envNumber('SCHEDULES_CREATE_RATE', 25);
  const instants: number[] = [];
  const created: CreatedEntry[] = [];
  const minute = (ms: number) => Math.ceil(ms / 60_000) * 60_000;
  console.log(`saving ${plan.length} entries (${PER_ROBOT} per robot, ${INSTANTS} due instants)`);
  t = performance.now();
  let meterStarted = false;
  const meter = new ServerMeter();
  for (let i = 0; i < INSTANTS; i++) {
    if (i <= 1) {
      const count = i === 0 ? batches[0]!.length : plan.length - batches[0]!.length;
      const at = minute(Date.now() + (count / rate) * 1250 + 15_000);
      instants[i] = Math.max(at, (instants[i - 1] ?? 0) + 60_000);
    } else instants[i] = instants[i - 1]! + 60_000;
    const t0 = performance.now();
    const batch = await createEntries(bases, token, batches[i]!, instants[i]!, CREATE_CONCURRENCY);
    created.push(...batch);
    rate = Math.min(i === 0 ? Infinity : rate, (batch.length / (performance.now() - t0)) * 1000);
    console.log(
      `  ${batch.length} entries due at ${iso(instants[i]!).slice(11, 19)} UTC saved at ${round(rate)}/s, ` +
        `${Math.round((instants[i]! - Date.now()) / 1000)} s before it`,
    );
    if (!meterStarted) {
      meterStarted = true;
      meter.start(() => servers.map((s) => s.pid));
    }
  }
  const first = instants[0]!;
  const createMs = performance.now() - t;
  const late = created.filter((e) => !e.onTime).length;
  console.log(`  all saved in ${Math.round(createMs / 1000)} s`);
  if (late > 0) console.log(`  ${late} entries saved after their instant (not due in the bench)`);
  const due = created.filter((e) => e.onTime);
  if (due.length === 0) throw new BenchError('no entry was saved before its instant');

  // 4. The instants, the kill -9 and the restart, measured.
  // The measured window (CPU, machine busy) starts 5 s before the first instant, or now if later.
  await sleepUntil(first - 5_000);
  meter.sample(servers.map((s) => s.pid));
  meter.rebase();
  const machine0 = machineCpu();
  const windowStart = Date.now();
  const victim = SERVERS === 1 ? 0 : 1;
  let killedAt: number | null = null;
  let downMs = Number.NaN;
  if (KILL && INSTANTS >= 2) {
    await sleepUntil(instants[1]! + KILL_AFTER_MS);
    meter.sample(servers.map((s) => s.pid));
    killedAt = Date.now();
    await killHard(servers[victim]!);
    console.log(`${options[victim]!.name} killed (SIGKILL) ${killedAt - instants[1]!} ms after the second instant`);
    const child = startScheduleServer(options[victim]!);
    servers[victim] = child;
    await waitForHealth(bases[victim]!, child, 120_000);
    downMs = Date.now() - killedAt;
    console.log(`  restarted, healthy again after ${downMs} ms (PID ${child.pid})`);
  }
  const last = instants[instants.length - 1]!;
  await sleepUntil(last + 5_000);
  const reader = bases[0]!;
  const readToken = SERVERS === 1 && killedAt !== null ? await login(reader) : token;
  let logs: ScheduleLog[] = [];
  const settleBy = last + SETTLE_S * 1000;
  for (;;) {
    logs = await readLogs(reader, readToken, first);
    const open = logs.filter((l) => l.result === 'running').length;
    const missing = due.length - logs.length;
    console.log(
      `  ${Math.round((Date.now() - last) / 1000)} s after the last instant: ${logs.length} log lines, ${open} running`,
    );
    if ((open === 0 && missing <= 0) || Date.now() > settleBy) break;
    await sleep(5_000);
  }
  const windowMs = Date.now() - windowStart;
  const serverCpuMs = meter.stop();
  const machine1 = machineCpu();
  // The runs are read before the final log lines: a run started between two reads is then named
  // by a line read after it, not counted as doubled.
  const runs = (await readRuns(reader, readToken)).filter((r) => r.startedBy === null);
  logs = await readLogs(reader, readToken, first);

  // ---------------------------------------------------------------- figures
  const robotById = new Map(robots.map((r) => [r.robotId, r]));
  const prefixOf = (robotId: number) => {
    const r = robotById.get(robotId)!;
    return `uagv/v2/${r.manufacturer}/${r.serialNumber}`;
  };
  const entryById = new Map<number, CreatedEntry>(due.map((e) => [e.scheduleId, e]));
  const ours = logs.filter((l) => l.scheduleId !== null && entryById.has(l.scheduleId));

  // Doubled: lines per entry and due time; runs per robot beyond the lines naming them; new orders.
  const lineKey = (l: ScheduleLog) => `${l.scheduleId} ${Date.parse(l.dueAt)}`;
  const lineCount = new Map<string, number>();
  for (const l of ours) lineCount.set(lineKey(l), (lineCount.get(lineKey(l)) ?? 0) + 1);
  const doubledLines = [...lineCount.values()].reduce((a, n) => a + n - 1, 0);
  const namedRuns = new Map<number, Set<number>>();
  for (const l of ours)
    if (l.flowRunId !== null && l.robotId !== null)
      namedRuns.set(l.robotId, (namedRuns.get(l.robotId) ?? new Set()).add(l.flowRunId));
  const runsSince = runs.filter((r) => Date.parse(r.startedAt) >= first && robotById.has(r.robotId));
  const runsPerRobot = new Map<number, number>();
  for (const r of runsSince) runsPerRobot.set(r.robotId, (runsPerRobot.get(r.robotId) ?? 0) + 1);
  // A robot with a claimed line not started yet (the bench stopped waiting before the dispatcher was
  // done) may be starting its run right now: its extra runs or orders are counted as unsettled.
  const unsettledRobots = new Set(
    ours.filter((l) => l.result === 'running' && l.flowRunId === null).map((l) => l.robotId),
  );
  let doubledRuns = 0;
  let unsettled = 0;
  const doubledDetails: string[] = [];
  for (const [robotId, n] of runsPerRobot) {
    const over = Math.max(0, n - (namedRuns.get(robotId)?.size ?? 0));
    if (unsettledRobots.has(robotId)) unsettled += over;
    const extra = unsettledRobots.has(robotId) ? 0 : over;
    doubledRuns += extra;
    if (extra === 0 || doubledDetails.length >= 10) continue;
    const named = namedRuns.get(robotId) ?? new Set<number>();
    const theirs = runsSince.filter((r) => r.robotId === robotId);
    const lines = ours.filter((l) => l.robotId === robotId && l.flowRunId !== null);
    doubledDetails.push(
      `robot ${robotId}: runs ${theirs.map((r) => `${r.id}${named.has(r.id) ? '' : '(no line)'} ${r.startedAt.slice(11, 23)} ${r.status} ${r.errorCode ?? ''}`.trim()).join('; ')}` +
        ` | lines ${lines.map((l) => `due ${l.dueAt.slice(11, 19)} run ${l.flowRunId} ${l.result} ${l.reason ?? ''} started ${l.startedAt?.slice(11, 23) ?? '-'}`.trim()).join('; ')}`,
    );
  }
  const wire = readWire(wireFile).filter((w) => w.ms >= first - 1000);
  const newOrders = new Map<string, Set<string>>();
  for (const w of wire)
    if (w.update === 0) newOrders.set(w.prefix, (newOrders.get(w.prefix) ?? new Set()).add(w.orderId));
  let doubledOrders = 0;
  for (const r of robots) {
    const orders = newOrders.get(prefixOf(r.robotId))?.size ?? 0;
    if (!unsettledRobots.has(r.robotId)) doubledOrders += Math.max(0, orders - (namedRuns.get(r.robotId)?.size ?? 0));
  }
  const doubled = doubledLines + doubledRuns + doubledOrders;
  const unsettledLines = ours.filter((l) => l.result === 'running' && l.flowRunId === null).length;

  // Lost: a robot and instant with due entries but no line, or no line with a run.
  const slots = new Map<string, { robotId: number; dueMs: number; entries: number; lines: ScheduleLog[] }>();
  for (const e of due) {
    const key = `${e.robotId} ${e.dueMs}`;
    const s = slots.get(key) ?? { robotId: e.robotId, dueMs: e.dueMs, entries: 0, lines: [] };
    s.entries++;
    slots.set(key, s);
  }
  for (const l of ours) slots.get(`${l.robotId} ${Date.parse(l.dueAt)}`)?.lines.push(l);
  const linesMissing = due.length - new Set(ours.map(lineKey)).size;
  // A robot and instant whose line is still claimed, not started, when the bench stopped waiting is
  // unsettled (the dispatcher was still working), not lost.
  const lostSlots = [...slots.values()].filter(
    (s) => !s.lines.some((l) => l.flowRunId !== null || l.result === 'running'),
  );
  const lostNoRun = lostSlots.length + Math.max(0, linesMissing - lostSlots.reduce((a, s) => a + s.entries, 0));
  const outcomes = new Map<string, number>();
  for (const l of ours) {
    const k = `${l.result}${l.reason ? ` ${l.reason}` : ''}`;
    outcomes.set(k, (outcomes.get(k) ?? 0) + 1);
  }

  // Delay: each started occurrence → the first new order to its robot on the wire after its due time.
  const wireBy = new Map<string, WireLine[]>();
  for (const w of wire) if (w.update === 0) wireBy.set(w.prefix, [...(wireBy.get(w.prefix) ?? []), w]);
  // A run's first order: the robot's first new order at or after its due time and after its line's
  // startedAt (less 1 s: the clocks are one, the resolution is not); runs of one robot are sequential.
  const firstOrder = (s: { robotId: number; dueMs: number; lines: ScheduleLog[] }) => {
    const started = s.lines.find((l) => l.flowRunId !== null)?.startedAt;
    const from = Math.max(s.dueMs, started ? Date.parse(started) - 1000 : s.dueMs);
    return (wireBy.get(prefixOf(s.robotId)) ?? []).find((x) => x.ms >= from);
  };
  const killInstant = killedAt !== null ? instants[1]! : null;
  const delays: number[] = [];
  const killDelays: number[] = [];
  let noOrder = 0;
  let lostUnknown = 0;
  for (const s of slots.values()) {
    if (!s.lines.some((l) => l.flowRunId !== null)) continue;
    const w = firstOrder(s);
    if (!w) {
      noOrder++;
      // A run that never reached its robot and was closed as `unknown` (a server restart) is lost.
      if (s.lines.every((l) => l.flowRunId === null || l.result === 'unknown')) lostUnknown++;
      continue;
    }
    (s.dueMs === killInstant ? killDelays : delays).push(w.ms - s.dueMs);
  }
  delays.sort((a, b) => a - b);
  killDelays.sort((a, b) => a - b);
  const lost = lostNoRun + lostUnknown;
  // Where the time goes (instants without the kill): due → the line's startedAt (the claimer marks it
  // just before starting the run; server clock = this machine's clock).
  const claimDelays = ours
    .filter((l) => l.flowRunId !== null && l.startedAt !== null && Date.parse(l.dueAt) !== killInstant)
    .map((l) => Date.parse(l.startedAt!) - Date.parse(l.dueAt))
    .sort((a, b) => a - b);
  const all = [...delays, ...killDelays].sort((a, b) => a - b);
  const p99 = percentile(delays, 99);
  const perInstant = instants.map((d) => {
    const list: number[] = [];
    for (const s of slots.values()) {
      if (s.dueMs !== d || !s.lines.some((l) => l.flowRunId !== null)) continue;
      const w = firstOrder(s);
      if (w) list.push(w.ms - d);
    }
    return list.sort((a, b) => a - b);
  });

  const pct = (a: number[]) =>
    `n ${a.length}, p50 ${round(percentile(a, 50))} ms, p99 ${round(percentile(a, 99))} ms, max ${round(a[a.length - 1] ?? Number.NaN)} ms`;
  console.log(`\n${CONFIG}: ${due.length} occurrences due over ${robots.length} robots at ${INSTANTS} instants`);
  instants.forEach((d, i) =>
    console.log(
      `  instant ${i + 1} (${iso(d).slice(11, 19)}${d === killInstant ? ', the kill' : ''}): delay ${pct(perInstant[i]!)}`,
    ),
  );
  console.log(`  due → the line's startedAt (run about to start), instants without the kill: ${pct(claimDelays)}`);
  console.log(`  log lines: ${[...outcomes].map(([k, n]) => `${k} ×${n}`).join(', ')}`);
  console.log(
    `  doubled: ${doubledLines} lines, ${doubledRuns} runs, ${doubledOrders} orders; lost: ${lostSlots.length} robot-instants without a run, ${linesMissing} occurrences without a line, ${lostUnknown} runs closed unknown without an order on the wire; ${noOrder} started without an order seen; unsettled (claimed, not started when the bench stopped waiting): ${unsettledLines} lines, ${unsettled} runs`,
  );
  for (const d of doubledDetails) console.log(`    doubled? ${d}`);
  // The dispatchers' slow batches (claim and priority phases, ms), from the servers' warnings.
  for (const l of serverLog.filter((x) => x.includes('schedule')).slice(-15))
    console.log(`    server: ${l.slice(0, 300)}`);
  for (const s of lostSlots.slice(0, 10))
    console.log(
      `    robot ${s.robotId} at ${iso(s.dueMs)}: ${s.lines.map((l) => `${l.result} ${l.reason ?? ''} ${l.detail}`.trim()).join('; ') || 'no line'}`,
    );

  const row = CONFIG;
  const f = (column: string, value: number, unit: string, goal?: string, met?: boolean): Figure => ({
    name: `${row}: ${column}`,
    row,
    column: `${column} (${unit})`,
    value,
    unit,
    ...(goal !== undefined ? { goal, met } : {}),
  });
  const figures: Figure[] = [
    f('robots', robots.length, 'count'),
    f('occurrences due', due.length, 'count'),
    f('entries saved too late', late, 'count'),
    f('delay p50', percentile(delays, 50), 'ms'),
    f('delay p99', p99, 'ms', `p99 < ${GOAL_P99_MS} ms`, delays.length > 0 && noOrder === 0 && p99 < GOAL_P99_MS),
    f('delay max', delays[delays.length - 1] ?? Number.NaN, 'ms'),
    f('due → startedAt p50', percentile(claimDelays, 50), 'ms'),
    f('due → startedAt p99', percentile(claimDelays, 99), 'ms'),
    f('kill instant delay p50', percentile(killDelays, 50), 'ms'),
    f('kill instant delay max', killDelays[killDelays.length - 1] ?? Number.NaN, 'ms'),
    f('all delays p99', percentile(all, 99), 'ms'),
    f('doubled', doubled, 'count', '0', doubled === 0),
    f('lost', lost, 'count', '0', lost === 0),
    f('unsettled lines', unsettledLines, 'count'),
    f('downtime', downMs, 'ms'),
    f('server CPU', (serverCpuMs / windowMs) * 100, '% of one core'),
    f('machine busy', machineBusyPercent(machine0, machine1), `% of ${cpuCount()} cores`),
    f('server peak RSS', meter.peakRss / MB, 'MB'),
  ];
  // One file for both configurations: this run replaces its own row.
  const file = `${resultsDir}schedules.json`;
  let kept: Figure[] = [];
  if (existsSync(file)) {
    try {
      kept = (JSON.parse(readFileSync(file, 'utf8')) as BenchResults).figures.filter((x) => x.row !== row);
    } catch {
      kept = [];
    }
  }
  writeResults('schedules', [...kept, ...figures]);
  const missed = figures.filter((x) => x.met === false);
  console.log(
    missed.length === 0
      ? `\nall goals met (${CONFIG})`
      : `\ngoals missed (${CONFIG}): ${missed.map((x) => `${x.column} ${round(x.value)} (${x.goal})`).join('; ')}`,
  );
}

try {
  await main();
  await cleanup();
} catch (err) {
  console.error(
    `\nbench:schedules failed: ${err instanceof BenchError ? err.message : ((err as Error).stack ?? String(err))}`,
  );
  if (serverLog.length > 0) {
    console.error(`server output (last ${Math.min(serverLog.length, 40)} lines):`);
    for (const line of serverLog.slice(-40)) console.error(`  ${line.slice(0, 500)}`);
  }
  await cleanup();
  process.exitCode = 1;
}
