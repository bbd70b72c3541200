/**
 * `npm run bench:fleet`: 1,000 simulated robots across 20 buildings (50 each) at 5 Hz visualization
 * and state on change, and 200 WebSocket clients each watching one building (10 per building), against
 * a real server. Prints messages in per second (robots → server, MQTT), messages out per second
 * (server → browsers, WebSocket), publish-to-client latency p50/p95/p99 of positions and of live-state
 * changes, server CPU and peak RSS.
 *
 * Goals on the 2-core machine: p99 < 100 ms (positions and live-state changes), no state change lost,
 * server RSS < 500 MB.
 *
 * Three processes: the server (a child, as `npm run serve` starts it, in a temporary DATA_DIR on free
 * ports, no demo data, no simulated robots of its own); the simulator (a second child,
 * bench/lib/fleet-sim.ts: its 1,000 MQTT clients and 5,000 messages a second must not share an event
 * loop with the clients that timestamp arrivals, and its CPU is then measured apart); and this
 * process, which seeds through the API, runs the 200 WebSocket clients and measures.
 *
 * The robots stand still (no orders): the server forwards every visualization message whether the
 * robot moved or not, so the position path costs the same, and the state changes are the bench's own,
 * to be checked one by one. During the measured window the simulator sets the battery of
 * FLEET_CHANGES_PER_S robots a second (default 100; each robot every 10 s) to a new value; each change
 * is owed to the 10 clients of the robot's building as a `live` message with that battery. A delivery
 * that never comes is a lost state change.
 *
 * Latency: positions from the robot's own timestamp (`poses[].at`) to arrival at a client, which
 * includes the server's coalescing of positions (flushed every 50 ms); state changes from the moment
 * the simulator set the battery to arrival. One clock (one machine), millisecond resolution.
 *
 * Options (environment): FLEET_DURATION_S (measured seconds, default 30), FLEET_CHANGES_PER_S
 * (default 100), FLEET_SERVER_PROFILE=1 (run the server with --cpu-prof; the profile is written to
 * bench/results/fleet-server-profile/ when it stops), FLEET_SERVER_PROBE=1 (load bench/lib/fleet-probe.ts
 * into the server: the embedded broker's routing queue and the event loop, printed for the window).
 */
import type { ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import {
  adminOps,
  authOps,
  buildingOps,
  buildingSchema,
  floorOps,
  initDataSchema,
  robotOps,
  ROBOT_MODELS,
  floorMapId,
  WS_PATH,
} from '@portal/contract';
import { ClientMeter, FleetClient, matchChanges } from './lib/fleet-clients.ts';
import { cpuCount, machineBusyPercent, machineCpu, processCpuMs, processMemory } from './lib/fleet-measure.ts';
import type { Change, FromSim, SimCounts, SimRobotSpec, ToSim } from './lib/fleet-protocol.ts';
import {
  BenchError,
  benchApi,
  freePort,
  pool,
  rememberTempDir,
  serverLog,
  startServer,
  startSimulator,
  stopAll,
  stopChild,
  waitForHealth,
} from './lib/fleet-server.ts';
import { resultsDir, round, writeResults, type Figure } from './lib/results.ts';

const ADMIN = { loginId: 'bench-admin@example.com', loginPw: 'Bench-Pass-2024!' };
const OPERATOR_PASSWORD = 'Fleet-Watch-2024!';
const ORGANIZATIONS = 4;
const BUILDINGS_PER_ORGANIZATION = 5;
const BUILDINGS = ORGANIZATIONS * BUILDINGS_PER_ORGANIZATION;
const ROBOTS_PER_BUILDING = 50;
const ROBOTS = BUILDINGS * ROBOTS_PER_BUILDING;
const CLIENTS_PER_BUILDING = 10;
const CLIENTS = BUILDINGS * CLIENTS_PER_BUILDING;
const VISUALIZATION_HZ = 5;
/** State messages go out on every change, and at least this often (the simulator's default). */
const STATE_INTERVAL_MS = 5_000;
const WARMUP_SECONDS = 5;
const DURATION_SECONDS = envNumber('FLEET_DURATION_S', 30);
/** After the window: time for the last changes' messages to arrive before they count as lost. */
const GRACE_SECONDS = 3;
const CHANGES_PER_SECOND = envNumber('FLEET_CHANGES_PER_S', 100);
const PROFILE_SERVER = process.env.FLEET_SERVER_PROFILE === '1';
const PROBE_SERVER = process.env.FLEET_SERVER_PROBE === '1';
/** Registration calls in flight at once; robots started at once by the simulator. */
const REGISTER_CONCURRENCY = 8;
const SIM_START_CONCURRENCY = 50;
const CLIENT_CONNECT_CONCURRENCY = 20;
const RSS_POLL_MS = 250;
const PING_EVERY_MS = 100;

const GOAL_P99_MS = 100;
const GOAL_RSS_MB = 500;
const MB = 1024 * 1024;

function envNumber(name: string, fallback: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  const n = Number(raw);
  if (!Number.isFinite(n) || n < 0) throw new Error(`${name} must be a number ≥ 0, not ${raw}`);
  return n;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

// ---------------------------------------------------------------- seeding

interface SeededBuilding {
  id: number;
  name: string;
  floorId: number;
  /** A general operator of this building (what a building's browsers sign in as). */
  operator: string;
}

/** 4 organizations × 5 buildings, one floor each, one general operator per building. */
async function seed(base: string, token: string): Promise<SeededBuilding[]> {
  const api = benchApi(base);
  const out: SeededBuilding[] = [];
  for (let o = 1; o <= ORGANIZATIONS; o++) {
    const pad = (n: number) => String(n).padStart(2, '0');
    const body = initDataSchema.parse({
      organization: { name: `Fleet Bench Organization ${o}` },
      buildings: Array.from({ length: BUILDINGS_PER_ORGANIZATION }, (_, b) => ({
        name: `Fleet Bench Building ${o}-${pad(b + 1)}`,
        floors: [{ name: '1F', index: 1 }],
      })),
      operators: Array.from({ length: BUILDINGS_PER_ORGANIZATION }, (_, b) => ({
        loginId: `fleet-watch-${o}-${pad(b + 1)}@example.com`,
        firstName: 'Fleet',
        lastName: `Watch ${o}-${pad(b + 1)}`,
        password: OPERATOR_PASSWORD,
        type: 0,
        building: b,
      })),
    });
    const { organizationId } = await api.call(adminOps.importInitData, { token, body });
    const filter = { where: { organizationId }, order: 'name ASC', limit: 100 };
    const buildings = buildingSchema
      .array()
      .parse(await api.call(buildingOps.listBuildings, { token, query: { filter } }));
    if (buildings.length !== BUILDINGS_PER_ORGANIZATION) {
      throw new BenchError(`organization ${organizationId} has ${buildings.length} buildings`);
    }
    for (const [b, building] of buildings.entries()) {
      const floors = await api.call(floorOps.listFloors, { token, params: { id: building.id } });
      if (!floors[0]) throw new BenchError(`building ${building.id} has no floor`);
      out.push({
        id: building.id,
        name: building.name,
        floorId: floors[0].id!,
        operator: `fleet-watch-${o}-${pad(b + 1)}@example.com`,
      });
    }
  }
  return out;
}

async function login(base: string, loginId: string, loginPw: string): Promise<string> {
  const res = await benchApi(base).call(authOps.login, { body: { loginId, loginPw } });
  if (!('token' in res)) throw new BenchError(`login of ${loginId} asks for a verification code`);
  return res.token;
}

/** 50 robots per building through POST /api/robots; answers what the simulator needs of each. */
async function registerRobots(base: string, token: string, buildings: SeededBuilding[]): Promise<SimRobotSpec[]> {
  const plan = buildings.flatMap((b, bi) =>
    Array.from({ length: ROBOTS_PER_BUILDING }, (_, r) => ({ building: b, bi, r })),
  );
  return pool(plan, REGISTER_CONCURRENCY, async ({ building, bi, r }) => {
    const model = ROBOT_MODELS[r % ROBOT_MODELS.length]!;
    const created = await benchApi(base).call(robotOps.createRobot, {
      token,
      body: {
        serialNo: `fleet-${String(bi + 1).padStart(2, '0')}-${String(r + 1).padStart(3, '0')}`,
        name: `Fleet robot ${bi + 1}-${r + 1}`,
        model,
        version: '',
        hardwareRevision: '',
        buildingId: building.id,
        floorId: building.floorId,
        groupId: null,
        status: 1,
        longTermRecordingAutoStart: false,
        videoMode: 'high',
        notes: '',
      },
    });
    const c = created.credentials;
    return {
      robotId: created.robot.id,
      buildingId: building.id,
      brokerUrl: c.mqttUrl,
      username: c.username,
      password: c.password,
      manufacturer: c.manufacturer,
      serialNumber: c.serialNumber,
      model,
      mapId: floorMapId(building.floorId),
      // A 10 × 5 grid, 2 m apart.
      x: 2 + (r % 10) * 2,
      y: 2 + Math.floor(r / 10) * 2,
    };
  });
}

// ---------------------------------------------------------------- the simulator process

class Simulator {
  readonly changes: Change[] = [];
  private nextId = 1;
  private readonly pending = new Map<number, (c: SimCounts) => void>();
  private started: ((m: Extract<FromSim, { type: 'started' }>) => void) | null = null;
  private failure: ((e: Error) => void) | null = null;
  recordChanges = false;

  constructor(readonly child: ChildProcess) {
    child.on('message', (msg: FromSim) => {
      if (msg.type === 'changes') {
        if (this.recordChanges) this.changes.push(...msg.changes);
      } else if (msg.type === 'counts') {
        this.pending.get(msg.id)?.(msg);
        this.pending.delete(msg.id);
      } else if (msg.type === 'started') this.started?.(msg);
      else if (msg.type === 'failed') this.failure?.(new BenchError(`simulator: ${msg.message}`));
    });
    child.on('exit', (code, signal) => this.failure?.(new BenchError(`simulator exited (${signal ?? code})`)));
  }

  private send(msg: ToSim): void {
    this.child.send(msg);
  }

  start(robots: SimRobotSpec[], timeoutMs = 300_000): Promise<Extract<FromSim, { type: 'started' }>> {
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new BenchError('the simulated fleet did not start in time')), timeoutMs);
      this.started = (m) => (clearTimeout(timer), resolve(m));
      this.failure = (e) => (clearTimeout(timer), reject(e));
      this.send({
        type: 'start',
        robots,
        visualizationHz: VISUALIZATION_HZ,
        stateIntervalMs: STATE_INTERVAL_MS,
        concurrency: SIM_START_CONCURRENCY,
      });
    });
  }

  setChanges(perSecond: number): void {
    this.send({ type: 'changes', perSecond });
  }

  counts(): Promise<SimCounts> {
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new BenchError('the simulator did not answer')), 10_000);
      this.pending.set(id, (c) => (clearTimeout(timer), resolve(c)));
      this.send({ type: 'counts', id });
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

const totalPublished = (c: SimCounts) => Object.values(c.published).reduce((a, b) => a + b, 0);

// ---------------------------------------------------------------- the run

let server: ChildProcess | null = null;
let simulator: Simulator | null = null;
let clients: FleetClient[] = [];

async function cleanup(): Promise<void> {
  for (const c of clients) c.close();
  clients = [];
  await simulator?.stop();
  simulator = null;
  // The server stops on SIGTERM (and writes its CPU profile then, with FLEET_SERVER_PROFILE=1).
  await stopChild(server, 25_000);
  server = null;
  await stopAll();
}

process.once('SIGINT', () => {
  console.error('\ninterrupted; stopping the server and the simulator');
  void cleanup().finally(() => process.exit(130));
});

async function main(): Promise<void> {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'portal-bench-fleet-'));
  rememberTempDir(dataDir);
  const port = await freePort();
  let mqttPort = await freePort();
  while (mqttPort === port) mqttPort = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const profileDir = path.join(resultsDir, 'fleet-server-profile');
  console.log(`DATA_DIR ${dataDir}`);
  console.log(
    `starting the server on ${base} (MQTT ${mqttPort})${PROFILE_SERVER ? `, profiling to ${profileDir}` : ''}`,
  );
  const probeFile = path.join(dataDir, 'probe.jsonl');
  server = startServer({
    port,
    mqttPort,
    dataDir,
    admin: ADMIN,
    nodeArgs: [
      ...(PROFILE_SERVER ? ['--cpu-prof', `--cpu-prof-dir=${profileDir}`] : []),
      ...(PROBE_SERVER ? ['--import', new URL('./lib/fleet-probe.ts', import.meta.url).href] : []),
    ],
    env: PROBE_SERVER ? { FLEET_PROBE_FILE: probeFile } : {},
  });
  const serverPid = server.pid;
  const serverStartedAt = performance.now();
  const startMs = await waitForHealth(base, server);
  console.log(`healthy after ${Math.round(startMs)} ms (PID ${serverPid})`);

  // Peak resident memory of the server, polled (VmHWM at the end says the same from the kernel).
  let peakRss = 0;
  const rssTimer = setInterval(() => {
    const m = processMemory(serverPid);
    if (m && m.rss > peakRss) peakRss = m.rss;
  }, RSS_POLL_MS);
  rssTimer.unref();

  // 1. Buildings, operators and robots through the API.
  const adminToken = await login(base, ADMIN.loginId, ADMIN.loginPw);
  let t = performance.now();
  const buildings = await seed(base, adminToken);
  console.log(
    `seeded ${BUILDINGS} buildings with a floor and an operator each in ${Math.round(performance.now() - t)} ms`,
  );
  t = performance.now();
  const robots = await registerRobots(base, adminToken, buildings);
  const registerMs = performance.now() - t;
  console.log(`registered ${robots.length} robots in ${Math.round(registerMs)} ms`);
  const buildingOf = new Map(robots.map((r) => [r.robotId, r.buildingId]));

  // 2. The fleet, in its own process.
  simulator = new Simulator(startSimulator());
  console.log(`starting ${ROBOTS} simulated robots (${VISUALIZATION_HZ} Hz visualization, state on change)`);
  const started = await simulator.start(robots);
  console.log(`  ${started.robots} robots connected in ${Math.round(started.ms)} ms`);

  // 3. The browsers: 10 per building; each building's signed in as its general operator.
  const tokens = new Map<number, string>();
  for (const b of buildings) tokens.set(b.id, await login(base, b.operator, OPERATOR_PASSWORD));
  const meter = new ClientMeter();
  clients = Array.from({ length: CLIENTS }, (_, i) => new FleetClient(i, buildings[i % BUILDINGS]!.id, meter));
  const wsUrl = `ws://127.0.0.1:${port}/api${WS_PATH}`;
  console.log(`connecting ${CLIENTS} WebSocket clients to ${wsUrl}`);
  t = performance.now();
  const snapshots = await pool(clients, CLIENT_CONNECT_CONCURRENCY, (c) => c.open(wsUrl, tokens.get(c.buildingId)!));
  const online = snapshots.reduce((n, s) => n + s.robots.filter((r) => r.live.online).length, 0);
  const wrong = snapshots.filter((s) => s.robots.length !== ROBOTS_PER_BUILDING).length;
  console.log(
    `  subscribed in ${Math.round(performance.now() - t)} ms; snapshots: ${online} of ` +
      `${CLIENTS * ROBOTS_PER_BUILDING} robots online` +
      (wrong > 0 ? `, ${wrong} snapshots without ${ROBOTS_PER_BUILDING} robots` : ''),
  );
  if (wrong > 0) throw new BenchError(`${wrong} snapshots did not list the building's ${ROBOTS_PER_BUILDING} robots`);
  clients[0]!.startPinging(PING_EVERY_MS);

  // 4. Warm-up, then the measured window with the battery changes.
  console.log(
    `warm-up ${WARMUP_SECONDS} s, then ${DURATION_SECONDS} s measured with ${CHANGES_PER_SECOND} state changes/s`,
  );
  await sleep(WARMUP_SECONDS * 1000);
  const benchLoop = monitorEventLoopDelay({ resolution: 10 });
  const load = os.loadavg()[0] ?? 0;
  const before = {
    at: performance.now(),
    server: processCpuMs(serverPid),
    sim: processCpuMs(simulator.child.pid),
    bench: process.cpuUsage(),
    machine: machineCpu(),
    counts: await simulator.counts(),
  };
  meter.measuring = true;
  simulator.recordChanges = true;
  simulator.setChanges(CHANGES_PER_SECOND);
  benchLoop.enable();
  await sleep(DURATION_SECONDS * 1000);
  simulator.setChanges(0);
  meter.measuring = false;
  benchLoop.disable();
  const after = {
    at: performance.now(),
    server: processCpuMs(serverPid),
    sim: processCpuMs(simulator.child.pid),
    bench: process.cpuUsage(before.bench),
    machine: machineCpu(),
    counts: await simulator.counts(),
  };
  if (PROFILE_SERVER) {
    const since = (at: number) => ((at - serverStartedAt) / 1000).toFixed(1);
    console.log(`profile: the measured window is ${since(before.at)}–${since(after.at)} s after the server started`);
  }
  await sleep(GRACE_SECONDS * 1000);
  simulator.recordChanges = false;
  if (PROBE_SERVER)
    printProbe(probeFile, Date.now() - (performance.now() - before.at), Date.now() - (performance.now() - after.at));
  const memory = processMemory(serverPid);
  if (memory && memory.rss > peakRss) peakRss = memory.rss;
  clearInterval(rssTimer);

  // 5. Figures.
  const seconds = (after.at - before.at) / 1000;
  const perSecond = (n: number) => n / seconds;
  const published = (k: keyof SimCounts['published']) => after.counts.published[k] - before.counts.published[k];
  const messagesIn = totalPublished(after.counts) - totalPublished(before.counts);
  const cpuPercent = (a: number | null, b: number | null) =>
    a === null || b === null ? Number.NaN : ((b - a) / (after.at - before.at)) * 100;
  const serverCpu = cpuPercent(before.server, after.server);
  const simCpu = cpuPercent(before.sim, after.sim);
  const benchCpu = ((after.bench.user + after.bench.system) / 1000 / (after.at - before.at)) * 100;
  const machineBusy = machineBusyPercent(before.machine, after.machine);
  const changes = matchChanges(clients, simulator.changes, buildingOf);
  const dropped = clients.filter((c) => c.droppedAt !== null).length;
  const clientErrors = clients.flatMap((c) => c.errors);
  const pose = meter.poseLatency;
  const live = changes.latency;
  const hwm = memory?.hwm ?? Number.NaN;
  const peak = Math.max(peakRss, Number.isFinite(hwm) ? hwm : 0);

  const goal = (text: string, met: boolean) => ({ goal: text, met });
  const figures: Figure[] = [
    { name: 'messages in (robots → server, MQTT)', value: perSecond(messagesIn), unit: 'msg/s' },
    { name: '  of which visualization', value: perSecond(published('visualization')), unit: 'msg/s' },
    { name: '  of which state', value: perSecond(published('state')), unit: 'msg/s' },
    { name: 'messages out (server → clients, WebSocket)', value: perSecond(meter.messages), unit: 'msg/s' },
    { name: '  of which poses frames', value: perSecond(meter.poseFrames), unit: 'msg/s' },
    { name: '  of which live', value: perSecond(meter.live), unit: 'msg/s' },
    { name: '  positions delivered (entries of poses frames)', value: perSecond(meter.poses), unit: 'pos/s' },
    { name: '  bytes out', value: perSecond(meter.bytes) / MB, unit: 'MB/s' },
    { name: 'position latency p50', value: pose.percentile(50), unit: 'ms' },
    { name: 'position latency p95', value: pose.percentile(95), unit: 'ms' },
    {
      name: 'position latency p99',
      value: pose.percentile(99),
      unit: 'ms',
      ...goal(`< ${GOAL_P99_MS} ms`, pose.percentile(99) < GOAL_P99_MS),
    },
    { name: 'position latency max', value: pose.max, unit: 'ms' },
    { name: 'state change latency p50', value: live.percentile(50), unit: 'ms' },
    { name: 'state change latency p95', value: live.percentile(95), unit: 'ms' },
    {
      name: 'state change latency p99',
      value: live.percentile(99),
      unit: 'ms',
      ...goal(`< ${GOAL_P99_MS} ms`, live.percentile(99) < GOAL_P99_MS),
    },
    { name: 'state change latency max', value: live.max, unit: 'ms' },
    { name: 'state changes made', value: simulator.changes.length, unit: 'changes' },
    { name: 'state change deliveries owed (changes × 10 clients)', value: changes.expected, unit: 'deliveries' },
    {
      name: 'state change deliveries lost',
      value: changes.lost,
      unit: 'deliveries',
      ...goal('0', changes.lost === 0 && changes.expected > 0),
    },
    { name: 'server CPU', value: serverCpu, unit: '% of one core' },
    {
      name: 'server peak RSS',
      value: peak / MB,
      unit: 'MB',
      ...goal(`< ${GOAL_RSS_MB} MB`, peak / MB < GOAL_RSS_MB),
    },
    { name: 'server RSS at the end', value: (memory?.rss ?? Number.NaN) / MB, unit: 'MB' },
    { name: 'server ping → pong round trip p50', value: meter.pingRtt.percentile(50), unit: 'ms' },
    { name: 'server ping → pong round trip p99', value: meter.pingRtt.percentile(99), unit: 'ms' },
    { name: 'simulator CPU', value: simCpu, unit: '% of one core' },
    { name: 'simulator event-loop delay p99', value: after.counts.loopDelayP99Ms, unit: 'ms' },
    { name: 'simulator robot timestamp → MQTT publish p50', value: after.counts.publishDelayP50Ms, unit: 'ms' },
    { name: 'simulator robot timestamp → MQTT publish p99', value: after.counts.publishDelayP99Ms, unit: 'ms' },
    { name: 'bench (clients) CPU', value: benchCpu, unit: '% of one core' },
    { name: 'bench event-loop delay p99', value: benchLoop.percentile(99) / 1e6, unit: 'ms' },
    { name: `machine CPU busy (${cpuCount()} cores)`, value: machineBusy, unit: '% of all cores' },
    { name: 'load average (1 min) at the start', value: load, unit: 'load' },
    {
      name: 'robots connected at the end',
      value: after.counts.connected,
      unit: 'robots',
      ...goal(`${ROBOTS}`, after.counts.connected === ROBOTS),
    },
    {
      name: 'WebSocket clients dropped',
      value: dropped,
      unit: 'clients',
      ...goal('0', dropped === 0),
    },
    { name: 'measured window', value: seconds, unit: 's' },
    { name: 'seed: robots registered (POST /api/robots)', value: registerMs / robots.length, unit: 'ms/robot' },
  ];

  printGoals(figures);
  if (changes.examples.length > 0) console.log(`lost deliveries, e.g.:\n  ${changes.examples.join('\n  ')}`);
  if (clientErrors.length > 0)
    console.log(`client errors (${clientErrors.length}), e.g.: ${clientErrors.slice(0, 3).join('; ')}`);
  writeResults('fleet', figures);
  if (serverLog.length > 0) {
    console.log(`\nserver output (last ${Math.min(serverLog.length, 20)} lines, LOG_LEVEL=warn):`);
    for (const line of serverLog.slice(-20)) console.log(`  ${line.slice(0, 300)}`);
  }
}

/** What the probe saw in the server during the window (epoch ms from–to), one line per second. */
function printProbe(file: string, from: number, to: number): void {
  if (!existsSync(file)) return console.log('probe: no data');
  type Line = {
    at: number;
    queued: number;
    inFlight: number;
    routed: number;
    elu: number;
    delayP99Ms: number;
    rssMb: number;
  };
  const lines = readFileSync(file, 'utf8')
    .split('\n')
    .filter((l) => l.trim() !== '')
    .map((l) => JSON.parse(l) as Line)
    .filter((l) => l.at >= from && l.at <= to);
  console.log(
    '\nprobe (server, every 500 ms of the window): broker queue, in flight, routed/s, loop utilization, loop delay p99, RSS',
  );
  for (const l of lines) {
    const s = ((l.at - from) / 1000).toFixed(1).padStart(5);
    console.log(
      `  ${s} s  queue ${String(l.queued).padStart(6)}  in flight ${String(l.inFlight).padStart(3)}  ` +
        `routed ${String(l.routed * 2).padStart(5)}/s  ELU ${(l.elu * 100).toFixed(0).padStart(3)}%  ` +
        `delay p99 ${l.delayP99Ms.toFixed(0).padStart(4)} ms  RSS ${l.rssMb.toFixed(0)} MB`,
    );
  }
}

/** The goals of the issue, one line each, PASS or MISS. */
function printGoals(figures: Figure[]): void {
  const rows = figures
    .filter((f) => f.goal !== undefined)
    .map((f) => ({
      figure: f.name,
      value: round(f.value),
      unit: f.unit,
      goal: f.goal,
      result: f.met ? 'PASS' : 'MISS',
    }));
  console.log(`\ngoals (${ROBOTS} robots, ${BUILDINGS} buildings, ${CLIENTS} WebSocket clients):`);
  console.table(rows);
}

try {
  await main();
  await cleanup();
} catch (err) {
  console.error(
    `\nbench:fleet failed: ${err instanceof BenchError ? err.message : ((err as Error).stack ?? String(err))}`,
  );
  if (serverLog.length > 0) {
    console.error(`server output (last ${Math.min(serverLog.length, 40)} lines):`);
    for (const line of serverLog.slice(-40)) console.error(`  ${line.slice(0, 500)}`);
  }
  await cleanup();
  process.exitCode = 1;
}
