/**
 * `npm run bench:flows`: 200 simulated robots (4 buildings × 50), each running a looping patrol flow
 * (six waypoints; at each a photo and a sentence spoken) on one server, measured for 60 s. Figures:
 * step transition latency p50/p95/p99 (goal p99 < 50 ms), runs stuck or lost (goal 0), failed steps,
 * server CPU and peak RSS. Results in bench/results/flows.json.
 *
 * Three processes, as bench:fleet: the server (a child, as `npm run serve` starts it, in a temporary
 * DATA_DIR on free ports, no demo data, no simulated robots of its own); the simulator (a second
 * child, bench/lib/flows-sim.ts: the robots' MQTT traffic and physics, and the latency measurement on
 * the robots' side); and this process, which seeds through the API, starts the runs, watches them and
 * prints the figures.
 *
 * How a run goes (docs/flow-runner.md): one VDA 5050 order per run, extended by order updates; the
 * photo and the speech after a move ride as HARD node actions on the move's goal node; the runner
 * sends the next move's update once the robot's state shows the goal reached and the node actions
 * FINISHED (or FAILED).
 *
 * Step transition latency, the goal's figure ("robot reports a node reached → the next order update
 * is on the wire"), is timed in the server process on its clock (bench/lib/flows-wire-probe.ts, always
 * loaded): from the moment the embedded broker has read the robot's state message that first shows the
 * previous base end reached with all its node actions FINISHED or FAILED (the message the runner reacts
 * to) to the moment the broker writes the next order update to that robot's socket. The server's own
 * part (until its publish to the broker) is printed too. The simulator (bench/lib/flows-sim.ts) names
 * each such pair of messages, and also times the same transitions on the robots' side (its own clock):
 * state publish → the update's arrival at the robot, which adds the robot's socket hops and the
 * simulator's own event-loop delay (200 robots in one process); that figure is printed beside it.
 *
 * Stuck or lost: after the window every run must still be `running` and its `stepsStarted` must have
 * grown in the last FLOWS_STALL_S seconds (default 15); a run that ended (fail, unknown...) or stood
 * still counts. The failed (and skipped) steps are counted from the runs' step records.
 *
 * Options (environment): FLOWS_DURATION_S (measured seconds, default 60), FLOWS_ROBOTS_PER_BUILDING
 * (default 50), FLOWS_BUILDINGS (default 4), FLOWS_SPEED_SCALE (simulated time per real time, default
 * 5: each leg takes 1.2 to 2.3 s), FLOWS_VISUALIZATION_HZ (default 5), FLOWS_SERVER_PROFILE=1 (run the
 * server with --cpu-prof; the profile is written to bench/results/flows-server-profile/ when it stops;
 * summarize with `node --import tsx bench/lib/profile-summary.ts <file>`), FLOWS_SERVER_PROBE=1 (load
 * bench/lib/fleet-probe.ts into the server: the broker's routing queue and the event loop, printed for
 * the window), FLOWS_PRIORITY=-10 (the server and the simulator at that nice value, so other work on a
 * shared machine competes less; below 0 needs root), FLOWS_SQL_PROBE=1 (load bench/lib/flows-sql-probe.ts into the server: the SQLite statements
 * that took most time in the window, and how long transactions held the connection), FLOWS_PHOTOS=0
 * (the flow without its photos: diagnosis).
 */
import { fork, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { authOps, flowRunOps, isApiError, type FlowRun } from '@portal/contract';
import { cpuCount, machineBusyPercent, machineCpu, processCpuMs, processMemory } from './lib/fleet-measure.ts';
import {
  BenchError,
  benchApi,
  freePort,
  pool,
  rememberTempDir,
  ROOT,
  serverLog,
  startServer,
  stopAll,
  stopChild,
  waitForHealth,
} from './lib/fleet-server.ts';
import type { FromFlowSim, ToFlowSim, TransitionReport } from './lib/flows-protocol.ts';
import type { SqlProbeLine } from './lib/flows-sql-probe.ts';
import { registerRobots, seedBuildings, type BenchRobot, type SeededBuilding } from './lib/flows-seed.ts';
import { resultsDir, round, writeResults, type Figure } from './lib/results.ts';

const ADMIN = { loginId: 'bench-admin@example.com', loginPw: 'Bench-Pass-2024!' };
const BUILDINGS = envNumber('FLOWS_BUILDINGS', 4);
const ROBOTS_PER_BUILDING = envNumber('FLOWS_ROBOTS_PER_BUILDING', 50);
const ROBOTS = BUILDINGS * ROBOTS_PER_BUILDING;
const SPEED_SCALE = envNumber('FLOWS_SPEED_SCALE', 5);
const VISUALIZATION_HZ = envNumber('FLOWS_VISUALIZATION_HZ', 5);
/** State messages go out on every change, and at least this often (the simulator's default). */
const STATE_INTERVAL_MS = 5_000;
const WARMUP_SECONDS = 10;
const DURATION_SECONDS = envNumber('FLOWS_DURATION_S', 60);
/** A run whose stepsStarted did not grow in this many seconds before the end of the window is stuck. */
const STALL_SECONDS = envNumber('FLOWS_STALL_S', 15);
const PROFILE_SERVER = process.env.FLOWS_SERVER_PROFILE === '1';
const PROBE_SERVER = process.env.FLOWS_SERVER_PROBE === '1';
const SQL_PROBE = process.env.FLOWS_SQL_PROBE === '1';
/** FLOWS_PHOTOS=0: the flow without its photos (diagnosis: what storing photos costs the transitions). */
const PHOTOS = process.env.FLOWS_PHOTOS !== '0';
/** Scheduling priority of the server and the simulator (nice value; below 0 needs root); unset: inherited. */
const PRIORITY = process.env.FLOWS_PRIORITY ? envInteger('FLOWS_PRIORITY') : null;
const REGISTER_CONCURRENCY = 8;
const RUN_START_CONCURRENCY = 8;
const SIM_START_CONCURRENCY = 50;
const RSS_POLL_MS = 250;
const RUNS_POLL_MS = 5_000;

const GOAL_P99_MS = 50;
const MB = 1024 * 1024;

function envNumber(name: string, fallback: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  const n = Number(raw);
  if (!Number.isFinite(n) || n < 0) throw new Error(`${name} must be a number ≥ 0, not ${raw}`);
  return n;
}

function envInteger(name: string): number {
  const n = Number(process.env[name]);
  if (!Number.isInteger(n) || n < -20 || n > 19) throw new Error(`${name} must be a nice value, -20 to 19`);
  return n;
}

let restoreAutogroup: (() => void) | null = null;

/**
 * Gives a child process the FLOWS_PRIORITY nice value (when set): every thread of it (on Linux the
 * nice value is a thread's: the libuv pool that writes files and hashes, V8's GC helpers), and the
 * threads it starts later inherit it.
 */
function prioritize(pid: number | undefined, what: string): void {
  if (PRIORITY === null || pid === undefined) return;
  try {
    let tids = [pid];
    try {
      tids = readdirSync(`/proc/${pid}/task`).map(Number);
    } catch {
      // not Linux: the process only
    }
    for (const tid of tids) os.setPriority(tid, PRIORITY);
    // With autogroup scheduling (Linux, sched_autogroup_enabled) CPU time is first shared between
    // sessions, whatever the nice values inside them: the session's group gets the nice value too.
    let group = '';
    try {
      const file = `/proc/${pid}/autogroup`;
      const before = /nice (-?\d+)/.exec(readFileSync(file, 'utf8'))?.[1];
      writeFileSync(file, String(PRIORITY));
      // The group is the bench's session's (the shell's too): its nice value goes back at the end.
      if (before !== undefined && restoreAutogroup === null) {
        restoreAutogroup = () => {
          try {
            writeFileSync('/proc/self/autogroup', before);
          } catch {
            // gone already
          }
        };
      }
      group = `, its session's autogroup too`;
    } catch {
      // no autogroups
    }
    console.log(`  ${what} runs at nice ${PRIORITY} (${tids.length} threads${group})`);
  } catch (err) {
    throw new BenchError(`FLOWS_PRIORITY: cannot set the ${what}'s priority (${(err as Error).message})`);
  }
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

// ---------------------------------------------------------------- the simulator process

class Simulator {
  private nextId = 1;
  private readonly pending = new Map<number, (r: TransitionReport) => void>();
  private started: ((m: Extract<FromFlowSim, { type: 'started' }>) => void) | null = null;
  private failure: ((e: Error) => void) | null = null;

  constructor(readonly child: ChildProcess) {
    child.on('message', (msg: FromFlowSim) => {
      if (msg.type === 'report') {
        this.pending.get(msg.id)?.(msg);
        this.pending.delete(msg.id);
      } else if (msg.type === 'started') this.started?.(msg);
      else if (msg.type === 'failed') this.failure?.(new BenchError(`simulator: ${msg.message}`));
    });
    child.on('exit', (code, signal) => this.failure?.(new BenchError(`simulator exited (${signal ?? code})`)));
  }

  private send(msg: ToFlowSim): void {
    this.child.send(msg);
  }

  start(robots: BenchRobot[], timeoutMs = 300_000): Promise<Extract<FromFlowSim, { type: 'started' }>> {
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new BenchError('the simulated fleet did not start in time')), timeoutMs);
      this.started = (m) => (clearTimeout(timer), resolve(m));
      this.failure = (e) => (clearTimeout(timer), reject(e));
      this.send({
        type: 'start',
        robots: robots.map(({ flowId: _flowId, ...spec }) => spec),
        visualizationHz: VISUALIZATION_HZ,
        stateIntervalMs: STATE_INTERVAL_MS,
        speedScale: SPEED_SCALE,
        concurrency: SIM_START_CONCURRENCY,
      });
    });
  }

  measureOn(): void {
    this.send({ type: 'measure', on: true });
  }

  measureOff(): Promise<TransitionReport> {
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new BenchError('the simulator did not answer')), 10_000);
      this.pending.set(id, (r) => (clearTimeout(timer), resolve(r)));
      this.send({ type: 'measure', on: false, id });
    });
  }

  /** Robots say OFFLINE and the process ends; killed by PID if it takes too long. */
  async stop(): Promise<void> {
    this.failure = null;
    if (this.child.exitCode !== null || this.child.signalCode !== null) return;
    const exited = new Promise<void>((r) => this.child.once('exit', () => r()));
    try {
      this.send({ type: 'stop' });
    } catch {
      // the channel is gone; stopChild below ends it
    }
    await Promise.race([exited, sleep(15_000)]);
    await stopChild(this.child, 2_000);
  }
}

/** bench/lib/flows-sim.ts with an IPC channel (stdout and stderr shared with the bench). */
function startSimulatorProcess(): ChildProcess {
  const child = fork(fileURLToPath(new URL('./lib/flows-sim.ts', import.meta.url)), [], {
    cwd: ROOT,
    execArgv: ['--import', 'tsx'],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  // Last resort: no orphaned simulator if the bench goes down some other way.
  process.on('exit', () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  });
  return child;
}

// ---------------------------------------------------------------- the runs

async function login(base: string): Promise<string> {
  const res = await benchApi(base).call(authOps.login, { body: ADMIN });
  if (!('token' in res)) throw new BenchError('the bench administrator signs in with a verification code');
  return res.token;
}

/**
 * POST /api/flows/{id}/runs for each robot. A robot the server has not seen online with a state yet
 * fails the health check (409 HEALTH_CHECK_FAILED): tried again for up to 30 s.
 */
async function startRuns(base: string, token: string, robots: BenchRobot[]): Promise<FlowRun[]> {
  const api = benchApi(base);
  return pool(robots, RUN_START_CONCURRENCY, async (r) => {
    const deadline = performance.now() + 30_000;
    for (;;) {
      try {
        return await api.call(flowRunOps.startFlowRun, {
          token,
          params: { id: r.flowId },
          body: { robotId: r.robotId },
        });
      } catch (err) {
        if (isApiError(err) && err.code === 'HEALTH_CHECK_FAILED' && performance.now() < deadline) {
          await sleep(500);
          continue;
        }
        throw new BenchError(`starting the run of robot ${r.serialNumber}: ${(err as Error).message}`);
      }
    }
  });
}

/** Every run of the bench's buildings (GET /api/flow-runs, one page per building). */
async function listRuns(base: string, token: string, buildings: SeededBuilding[]): Promise<FlowRun[]> {
  const api = benchApi(base);
  const pages = await Promise.all(
    buildings.map((b) =>
      api.call(flowRunOps.listFlowRuns, {
        token,
        query: { filter: JSON.stringify({ where: { buildingId: b.id }, limit: 200 }) },
      }),
    ),
  );
  return pages.flat();
}

interface Snapshot {
  at: number;
  steps: Map<number, number>;
}

const snapshotOf = (runs: FlowRun[]): Snapshot => ({
  at: performance.now(),
  steps: new Map(runs.map((r) => [r.id, r.stepsStarted])),
});

// ---------------------------------------------------------------- the run

let server: ChildProcess | null = null;
let simulator: Simulator | null = null;

async function cleanup(): Promise<void> {
  await simulator?.stop();
  simulator = null;
  // The server stops on SIGTERM (and writes its CPU profile then, with FLOWS_SERVER_PROFILE=1).
  await stopChild(server, 25_000);
  server = null;
  await stopAll();
  restoreAutogroup?.();
  restoreAutogroup = null;
}

process.once('SIGINT', () => {
  console.error('\ninterrupted; stopping the server and the simulator');
  void cleanup().finally(() => process.exit(130));
});

function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return Number.NaN;
  return sorted[Math.max(0, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

/**
 * The transitions the simulator named, timed at the broker (bench/lib/flows-wire-probe.ts), on the
 * server's clock, from the arrival of the robot's state message: `wire`, to the order update written
 * to the robot's socket (the goal's figure); `server`, to the server's publish of it to the broker.
 * `missing`: a transition whose state message or update the probe did not see.
 */
function wireLatencies(
  file: string,
  pairs: TransitionReport['pairs'],
): { wire: number[]; server: number[]; missing: number } {
  const states = new Map<string, number>();
  const published = new Map<string, number>();
  const written = new Map<string, number>();
  const text = existsSync(file) ? readFileSync(file, 'utf8') : '';
  for (const line of text.split('\n')) {
    const f = line.split(' ');
    if (f[0] === 'S' && f.length === 4) {
      const key = `${f[1]} ${f[2]}`;
      if (!states.has(key)) states.set(key, Number(f[3]));
    } else if ((f[0] === 'O' || f[0] === 'W') && f.length === 5) {
      const into = f[0] === 'O' ? published : written;
      const key = `${f[1]} ${f[2]} ${f[3]}`;
      if (!into.has(key)) into.set(key, Number(f[4]));
    }
  }
  const wire: number[] = [];
  const server: number[] = [];
  let missing = 0;
  for (const [prefix, headerId, orderId, updateId] of pairs) {
    const s = states.get(`${prefix} ${headerId}`);
    const key = `${prefix} ${orderId} ${updateId}`;
    const o = published.get(key);
    const w = written.get(key);
    if (s === undefined || o === undefined || w === undefined) missing++;
    else {
      wire.push(w - s);
      server.push(o - s);
    }
  }
  const up = (a: number, b: number) => a - b;
  return { wire: wire.sort(up), server: server.sort(up), missing };
}

/**
 * What bench/lib/fleet-probe.ts saw in the server during the window (FLOWS_SERVER_PROBE=1), one line
 * per 5 s: the embedded broker's routing queue (most, and in flight), messages routed, the event
 * loop's utilization and its delay p99 (worst of the 500 ms samples).
 */
function printProbe(file: string, from: number, to: number): void {
  if (!existsSync(file)) return console.log('probe: no data');
  type Line = { at: number; queued: number; inFlight: number; routed: number; elu: number; delayP99Ms: number };
  const lines = readFileSync(file, 'utf8')
    .split('\n')
    .filter((l) => l.trim() !== '')
    .map((l) => JSON.parse(l) as Line)
    .filter((l) => l.at >= from && l.at <= to);
  console.log('\nprobe (server, per 5 s of the window): broker queue, routed/s, loop utilization, loop delay p99');
  for (let i = 0; i < lines.length; i += 10) {
    const g = lines.slice(i, i + 10);
    const s = ((g[0]!.at - from) / 1000).toFixed(0).padStart(3);
    const queue = Math.max(...g.map((l) => l.queued));
    const routed = g.reduce((a, l) => a + l.routed, 0) / (g.length * 0.5);
    const elu = g.reduce((a, l) => a + l.elu, 0) / g.length;
    const delay = Math.max(...g.map((l) => l.delayP99Ms));
    console.log(
      `  ${s} s  queue max ${String(queue).padStart(6)}  routed ${routed.toFixed(0).padStart(5)}/s  ` +
        `ELU ${(elu * 100).toFixed(0).padStart(3)}%  delay p99 ${delay.toFixed(0).padStart(5)} ms`,
    );
  }
}

/** What bench/lib/flows-sql-probe.ts saw (FLOWS_SQL_PROBE=1): the statements that took most time in the window. */
function printSqlProbe(file: string, from: number, to: number, windowMs: number): void {
  if (!existsSync(file)) return console.log('SQL probe: no data');
  const lines = readFileSync(file, 'utf8')
    .split('\n')
    .filter((l) => l.trim() !== '')
    .map((l) => JSON.parse(l) as SqlProbeLine);
  const before = [...lines].reverse().find((l) => l.at <= from) ?? { at: from, sql: {} };
  const after = [...lines].reverse().find((l) => l.at <= to + 1000) ?? lines[lines.length - 1];
  if (!after) return console.log('SQL probe: no data');
  const rows = Object.entries(after.sql).map(([sql, [calls, ms]]) => {
    const [calls0, ms0] = before.sql[sql] ?? [0, 0];
    return { sql, calls: calls - calls0, ms: ms - ms0 };
  });
  const total = rows.reduce((a, r) => a + r.ms, 0);
  const calls = rows.reduce((a, r) => a + r.calls, 0);
  console.log(
    `\nSQL probe (server, the window): ${calls} statements (${round((calls / windowMs) * 1000)}/s), ` +
      `${round(total)} ms in SQLite (${round((total / windowMs) * 100)} % of one core); most time:`,
  );
  for (const r of rows.sort((a, b) => b.ms - a.ms).slice(0, 15)) {
    console.log(
      `  ${round(r.ms).toString().padStart(7)} ms ${String(r.calls).padStart(7)}× ` +
        `${round(r.ms / Math.max(1, r.calls))} ms  ${r.sql.slice(0, 110)}`,
    );
  }
}

async function main(): Promise<void> {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'portal-bench-flows-'));
  rememberTempDir(dataDir);
  const port = await freePort();
  let mqttPort = await freePort();
  while (mqttPort === port) mqttPort = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const profileDir = path.join(resultsDir, 'flows-server-profile');
  const load = os.loadavg()[0]!;
  if (load > cpuCount() / 2) {
    console.log(
      `note: the machine is busy (load average ${load.toFixed(1)} on ${cpuCount()} CPUs); other work competes ` +
        `with the server, see "other processes CPU" in the figures`,
    );
  }
  console.log(`DATA_DIR ${dataDir}`);
  console.log(
    `starting the server on ${base} (MQTT ${mqttPort})${PROFILE_SERVER ? `, profiling to ${profileDir}` : ''}`,
  );
  const probeFile = path.join(dataDir, 'probe.jsonl');
  const sqlProbeFile = path.join(dataDir, 'sql-probe.jsonl');
  const wireFile = path.join(dataDir, 'wire.txt');
  server = startServer({
    port,
    mqttPort,
    dataDir,
    admin: ADMIN,
    nodeArgs: [
      '--import',
      new URL('./lib/flows-wire-probe.ts', import.meta.url).href,
      ...(PROFILE_SERVER ? ['--cpu-prof', `--cpu-prof-dir=${profileDir}`] : []),
      ...(PROBE_SERVER ? ['--import', new URL('./lib/fleet-probe.ts', import.meta.url).href] : []),
      ...(SQL_PROBE ? ['--import', new URL('./lib/flows-sql-probe.ts', import.meta.url).href] : []),
    ],
    env: {
      FLOWS_WIRE_FILE: wireFile,
      ...(PROBE_SERVER ? { FLEET_PROBE_FILE: probeFile } : {}),
      ...(SQL_PROBE ? { FLOWS_SQL_PROBE_FILE: sqlProbeFile } : {}),
    },
  });
  const serverPid = server.pid;
  prioritize(serverPid, 'server');
  const startMs = await waitForHealth(base, server);
  console.log(`healthy after ${Math.round(startMs)} ms (PID ${serverPid})`);

  let peakRss = 0;
  const rssTimer = setInterval(() => {
    const m = processMemory(serverPid);
    if (m && m.rss > peakRss) peakRss = m.rss;
  }, RSS_POLL_MS);
  rssTimer.unref();

  // 1. Buildings, maps, flows and robots through the API.
  const token = await login(base);
  let t = performance.now();
  const buildings = await seedBuildings(base, token, BUILDINGS, PHOTOS);
  console.log(
    `seeded ${BUILDINGS} buildings (a floor, its patrol map and a looping patrol flow${PHOTOS ? '' : ' without photos'} each) in ${Math.round(performance.now() - t)} ms`,
  );
  t = performance.now();
  const robots = await registerRobots(base, token, buildings, ROBOTS_PER_BUILDING, REGISTER_CONCURRENCY);
  console.log(`registered ${robots.length} robots in ${Math.round(performance.now() - t)} ms`);

  // 2. The fleet, in its own process.
  simulator = new Simulator(startSimulatorProcess());
  const simPid = simulator.child.pid;
  prioritize(simPid, 'simulator');
  console.log(
    `starting ${ROBOTS} simulated robots (speedScale ${SPEED_SCALE}, ${VISUALIZATION_HZ} Hz visualization, state on change)`,
  );
  const started = await simulator.start(robots);
  console.log(`  ${started.robots} robots connected in ${Math.round(started.ms)} ms`);

  // 3. A run on every robot.
  t = performance.now();
  const runs = await startRuns(base, token, robots);
  console.log(`started ${runs.length} runs in ${Math.round(performance.now() - t)} ms; warming up ${WARMUP_SECONDS} s`);
  await sleep(WARMUP_SECONDS * 1000);

  // 4. The measured window: the simulator times the transitions; the runs are read every 5 s.
  const snapshots: Snapshot[] = [snapshotOf(await listRuns(base, token, buildings))];
  const cpu0 = {
    server: processCpuMs(serverPid),
    sim: processCpuMs(simPid),
    bench: process.cpuUsage(),
    machine: machineCpu(),
  };
  const t0 = performance.now();
  const epoch0 = Date.now();
  simulator.measureOn();
  console.log(`measuring ${DURATION_SECONDS} s`);
  const end = t0 + DURATION_SECONDS * 1000;
  while (performance.now() < end) {
    await sleep(Math.min(RUNS_POLL_MS, end - performance.now()));
    const snap = snapshotOf(await listRuns(base, token, buildings));
    snapshots.push(snap);
    const steps = [...snap.steps.values()].reduce((a, b) => a + b, 0);
    console.log(`  ${Math.round((snap.at - t0) / 1000)} s: ${steps} steps started in all`);
  }
  const report = await simulator.measureOff();
  const windowMs = performance.now() - t0;
  if (PROBE_SERVER) printProbe(probeFile, epoch0, Date.now());
  if (SQL_PROBE) printSqlProbe(sqlProbeFile, epoch0, Date.now(), windowMs);
  const cpu1 = {
    server: processCpuMs(serverPid),
    sim: processCpuMs(simPid),
    bench: process.cpuUsage(cpu0.bench),
    machine: machineCpu(),
  };
  const hwm = processMemory(serverPid)?.hwm ?? Number.NaN;

  // 5. Stuck or lost: every run still running, its steps grown within the last STALL_SECONDS.
  const finalRuns = await listRuns(base, token, buildings);
  const last = snapshots[snapshots.length - 1]!;
  const reference = [...snapshots].reverse().find((s) => last.at - s.at >= STALL_SECONDS * 1000) ?? snapshots[0]!;
  const first = snapshots[0]!;
  const ours = new Set(runs.map((r) => r.id));
  const problems: string[] = [];
  let ended = 0;
  let stalled = 0;
  for (const id of ours) {
    const run = finalRuns.find((r) => r.id === id);
    if (!run || run.status !== 'running') {
      ended++;
      problems.push(`run ${id}: ${run ? `${run.status} ${run.errorCode ?? ''} ${run.message ?? ''}` : 'missing'}`);
      continue;
    }
    if ((reference.steps.get(id) ?? 0) >= run.stepsStarted) {
      stalled++;
      problems.push(
        `run ${id} (${run.robotName}): no step started in the last ${STALL_SECONDS} s (at ${run.currentStepId})`,
      );
    }
  }
  const stepsInWindow = [...last.steps.entries()].reduce((a, [id, n]) => a + n - (first.steps.get(id) ?? n), 0);

  // 6. The step records: failed and skipped steps (each run's newest 500 steps).
  const api = benchApi(base);
  const details = await pool([...ours], 8, (id) => api.call(flowRunOps.getFlowRun, { token, params: { id } }));
  const failedSteps = details.flatMap((d) => d.steps.filter((s) => s.result === 'fail'));
  const skippedSteps = details.flatMap((d) => d.steps.filter((s) => s.result === 'skip'));
  const codes = new Map<string, number>();
  for (const s of [...failedSteps, ...skippedSteps]) {
    const key = `${s.kind} ${s.result} ${s.errorCode ?? ''}`.trim();
    codes.set(key, (codes.get(key) ?? 0) + 1);
  }

  // 7. Cancel every run; each must end as `cancel`.
  const cancelled = await pool([...ours], 8, async (id) => {
    try {
      return (await api.call(flowRunOps.cancelFlowRun, { token, params: { id } })).status;
    } catch (err) {
      return isApiError(err) ? err.code : String(err);
    }
  });
  const notCancelled = cancelled.filter((s) => s !== 'cancel').length;
  clearInterval(rssTimer);

  // ---------------------------------------------------------------- figures
  const sorted = [...report.latenciesMs].sort((a, b) => a - b);
  const mean = sorted.reduce((a, b) => a + b, 0) / Math.max(1, sorted.length);
  const wire = wireLatencies(wireFile, report.pairs);
  const p99 = percentile(wire.wire, 99);
  const serverCpuMs = cpu0.server !== null && cpu1.server !== null ? cpu1.server - cpu0.server : Number.NaN;
  const simCpuMs = cpu0.sim !== null && cpu1.sim !== null ? cpu1.sim - cpu0.sim : Number.NaN;
  const perRobot = Object.values(report.updatesPerRobot);
  // What the rest of the machine used meanwhile (other work competes with the server for the cores).
  const machineBusyMs = cpu0.machine && cpu1.machine ? (cpu1.machine.busy - cpu0.machine.busy) * 10 : Number.NaN;
  const benchCpuMs = (cpu1.bench.user + cpu1.bench.system) / 1000;
  const otherCpuMs = machineBusyMs - serverCpuMs - simCpuMs - benchCpuMs;
  const lost = ended + stalled;

  const pct = (a: number[]) =>
    `p50 ${round(percentile(a, 50))} ms, p95 ${round(percentile(a, 95))} ms, p99 ${round(percentile(a, 99))} ms, ` +
    `max ${round(a[a.length - 1] ?? Number.NaN)} ms`;
  console.log(
    `\nstep transition latency (the goal's figure): the robot's state message showing the node reached and ` +
      `its actions done, as the broker receives it → the next order update written to the robot's socket ` +
      `(server clock; bench/lib/flows-wire-probe.ts)`,
  );
  console.log(`  ${wire.wire.length} transitions timed (${wire.missing} not found at the broker): ${pct(wire.wire)}`);
  console.log(`  of which the server's own work (→ its publish to the broker): ${pct(wire.server)}`);
  console.log(
    `step transition latency at the robot: state publish → the update's arrival at the robot; both MQTT hops ` +
      `and the simulator's own event-loop delay included: p50 ${round(percentile(sorted, 50))} ms, p95 ` +
      `${round(percentile(sorted, 95))} ms, p99 ${round(percentile(sorted, 99))} ms`,
  );
  console.log(
    `  ${sorted.length} transitions in ${round(windowMs / 1000)} s (${round((sorted.length / windowMs) * 1000)}/s); ` +
      `${report.early} updates before the robot reported done; ${report.newOrders} new orders; ` +
      `updates per robot min ${Math.min(...perRobot)} max ${Math.max(...perRobot)} (${perRobot.length} robots)`,
  );
  console.log(
    `  simulator: ${report.statePublished} state messages (${report.stateParsed} parsed to check), ` +
      `${report.photos} photos, ${report.connected} robots connected, event-loop delay p99 ` +
      `${round(report.loopDelayP99Ms)} ms max ${round(report.loopDelayMaxMs)} ms`,
  );
  console.log(`  runs: ${runs.length} started, ${stepsInWindow} steps started in the window`);
  if (codes.size > 0) console.log(`  failed/skipped steps: ${[...codes].map(([k, n]) => `${k} ×${n}`).join(', ')}`);
  for (const p of problems.slice(0, 20)) console.log(`  ${p}`);
  if (notCancelled > 0) console.log(`  ${notCancelled} runs did not end as cancel on POST .../cancel`);

  const figures: Figure[] = [
    { name: 'robots', value: ROBOTS, unit: 'robots' },
    ...(PHOTOS ? [] : [{ name: 'flow without photos (FLOWS_PHOTOS=0)', value: 1, unit: '' }]),
    { name: 'measured window', value: windowMs / 1000, unit: 's' },
    { name: 'step transitions', value: sorted.length, unit: 'count' },
    { name: 'steps started (all runs)', value: stepsInWindow, unit: 'count' },
    { name: 'transitions timed at the broker', value: wire.wire.length, unit: 'count' },
    { name: 'transitions not found at the broker', value: wire.missing, unit: 'count' },
    {
      name: 'transition latency p50 (node reached → update on the wire)',
      value: percentile(wire.wire, 50),
      unit: 'ms',
    },
    {
      name: 'transition latency p95 (node reached → update on the wire)',
      value: percentile(wire.wire, 95),
      unit: 'ms',
    },
    {
      name: 'transition latency p99 (node reached → update on the wire)',
      value: p99,
      unit: 'ms',
      goal: `p99 < ${GOAL_P99_MS} ms`,
      met: wire.wire.length > 0 && wire.missing === 0 && p99 < GOAL_P99_MS,
    },
    {
      name: 'transition latency max (node reached → update on the wire)',
      value: wire.wire[wire.wire.length - 1] ?? Number.NaN,
      unit: 'ms',
    },
    { name: 'server work p50 (node reached → publish to the broker)', value: percentile(wire.server, 50), unit: 'ms' },
    { name: 'server work p99 (node reached → publish to the broker)', value: percentile(wire.server, 99), unit: 'ms' },
    { name: 'transition latency p50 at the robot (both hops)', value: percentile(sorted, 50), unit: 'ms' },
    { name: 'transition latency p95 at the robot (both hops)', value: percentile(sorted, 95), unit: 'ms' },
    { name: 'transition latency p99 at the robot (both hops)', value: percentile(sorted, 99), unit: 'ms' },
    {
      name: 'transition latency max at the robot (both hops)',
      value: sorted[sorted.length - 1] ?? Number.NaN,
      unit: 'ms',
    },
    { name: 'transition latency mean at the robot (both hops)', value: mean, unit: 'ms' },
    { name: 'updates before done reported', value: report.early, unit: 'count' },
    { name: 'runs stuck or lost', value: lost, unit: 'runs', goal: '0', met: lost === 0 },
    { name: 'runs ended', value: ended, unit: 'runs' },
    { name: `runs without a new step in ${STALL_SECONDS} s`, value: stalled, unit: 'runs' },
    { name: 'steps failed', value: failedSteps.length, unit: 'steps' },
    { name: 'steps skipped (failed, policy skip)', value: skippedSteps.length, unit: 'steps' },
    { name: 'runs not cancelled at the end', value: notCancelled, unit: 'runs' },
    { name: 'server CPU', value: (serverCpuMs / windowMs) * 100, unit: '% of one core' },
    { name: 'simulator CPU', value: (simCpuMs / windowMs) * 100, unit: '% of one core' },
    { name: 'other processes CPU', value: (otherCpuMs / windowMs) * 100, unit: '% of one core' },
    {
      name: 'machine busy',
      value: machineBusyPercent(cpu0.machine, cpu1.machine),
      unit: `% of ${cpuCount()} cores`,
    },
    { name: 'server peak RSS', value: Math.max(peakRss, Number.isFinite(hwm) ? hwm : 0) / MB, unit: 'MB' },
    { name: 'simulator event-loop delay p99', value: report.loopDelayP99Ms, unit: 'ms' },
  ];
  writeResults('flows', figures);
  const missed = figures.filter((f) => f.met === false);
  console.log(
    missed.length === 0
      ? `\nall goals met (${ROBOTS} robots, ${DURATION_SECONDS} s)`
      : `\ngoals missed: ${missed.map((f) => `${f.name} ${round(f.value)} ${f.unit} (${f.goal})`).join('; ')}`,
  );
}

try {
  await main();
  await cleanup();
} catch (err) {
  console.error(
    `\nbench:flows failed: ${err instanceof BenchError ? err.message : ((err as Error).stack ?? String(err))}`,
  );
  if (isApiError(err)) console.error(`  ${err.status} ${err.code}: ${JSON.stringify(err.details).slice(0, 1000)}`);
  if (serverLog.length > 0) {
    console.error(`server output (last ${Math.min(serverLog.length, 40)} lines):`);
    for (const line of serverLog.slice(-40)) console.error(`  ${line.slice(0, 500)}`);
  }
  await cleanup();
  process.exitCode = 1;
}
