/**
 * `npm run bench:notify` (issue 17, "Benchmark"): notifications under a burst, across a kill -9.
 *
 * One production-built server (`serverEntry()`, SQLite, embedded broker, default notification
 * settings), NOTIFY_ROBOTS (1,000) simulated robots (@portal/robot-sim, in this process, slow state
 * interval, no visualization) talking VDA 5050 over MQTT as real robots do. Receivers in this
 * process: an SMTP server (`smtp-server`) for the buildings' email targets (one per building,
 * English) and an HTTP receiver for one system webhook (every kind).
 *
 * Events: a burst of NOTIFY_EVENTS (500) over NOTIFY_BURST_S (10) seconds, emergency stops and FATAL
 * hardware errors on distinct robots, plus steady low-battery crossings (NOTIFY_BATTERY_PER_S a
 * second) on the other robots from the start of the burst to its end. Halfway through the burst the
 * server is killed with SIGKILL and started again on the same data and ports; robots reconnect.
 *
 * Figures: event → delivered p50/p99 (from the moment the robot's state message with the change was
 * published to the arrival of the mail or webhook request carrying it; a grouped delivery counts for
 * each event it carries), deliveries lost (expected (event, recipient) pairs that never arrived
 * within NOTIFY_SETTLE_S after the last event), duplicates (an event arriving twice at a recipient;
 * also a webhook event id seen twice), server peak RSS (VmHWM of both server processes).
 */
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { createServer as createHttpServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import {
  adminOps,
  authOps,
  buildingOps,
  buildingSchema,
  floorMapId,
  floorOps,
  initDataSchema,
  organizationOps,
  robotOps,
  webhookOps,
} from '@portal/contract';
import { startFleet, type RobotOptions, type SimFleet, type SimRobot } from '@portal/robot-sim';
import { SMTPServer } from 'smtp-server';
import { processMemory } from './lib/fleet-measure.ts';
import {
  BenchError,
  benchApi,
  freePort,
  pool,
  rememberTempDir,
  serverLog,
  startServer,
  stopAll,
  stopChild,
  waitForHealth,
} from './lib/fleet-server.ts';
import { writeResults, type Figure } from './lib/results.ts';

function envNumber(name: string, fallback: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  const n = Number(raw);
  if (!Number.isFinite(n) || n < 0) throw new Error(`${name} must be a number ≥ 0, not ${raw}`);
  return n;
}

const ROBOTS = envNumber('NOTIFY_ROBOTS', 1000);
const EVENTS = Math.min(envNumber('NOTIFY_EVENTS', 500), ROBOTS);
const BURST_S = envNumber('NOTIFY_BURST_S', 10);
const BATTERY_PER_S = envNumber('NOTIFY_BATTERY_PER_S', 5);
const SETTLE_S = envNumber('NOTIFY_SETTLE_S', 120);
const KILL = envNumber('NOTIFY_KILL', 1) > 0;
const ROBOTS_PER_BUILDING = 50;
const BUILDINGS_PER_ORGANIZATION = 5;
const ADMIN = { loginId: 'bench-admin@example.com', loginPw: 'Bench-Admin-2026' };
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

type Kind = 'emergencyStop' | 'hardwareError' | 'lowBattery';
const TITLE_KIND: Record<string, Kind> = {
  'Emergency stop': 'emergencyStop',
  'Hardware error': 'hardwareError',
  'Low battery': 'lowBattery',
};

// ---------------------------------------------------------------- receivers

/** Arrivals: key `${recipient}|${kind}|${serial}` → arrival times (ms since epoch). */
const arrivals = new Map<string, number[]>();
const webhookIds = new Map<string, number>();
/** Webhook events: `${kind}|${serial}` → when the server recorded the event (its occurredAt) and when it arrived. */
const recorded = new Map<string, { recordedAt: number; arrivedAt: number }>();
let mailsReceived = 0;
let webhookRequests = 0;

function arrive(recipient: string, kind: string, serial: string, at: number): void {
  const key = `${recipient}|${kind}|${serial}`;
  const list = arrivals.get(key) ?? [];
  list.push(at);
  arrivals.set(key, list);
}

function decodeMailText(raw: string): { to: string; subject: string; text: string } {
  const split = raw.indexOf('\r\n\r\n');
  const head = raw.slice(0, split).replace(/\r\n[ \t]+/g, ' ');
  const body = raw.slice(split + 4);
  const header = (name: string) =>
    head
      .split('\r\n')
      .find((l) => l.toLowerCase().startsWith(`${name.toLowerCase()}:`))
      ?.slice(name.length + 1)
      .trim() ?? '';
  const enc = header('Content-Transfer-Encoding').toLowerCase();
  const text =
    enc === 'base64'
      ? Buffer.from(body.replace(/\s+/g, ''), 'base64').toString('utf8')
      : enc === 'quoted-printable'
        ? Buffer.from(
            body
              .replace(/=\r?\n/g, '')
              .replace(/=([0-9A-F]{2})/gi, (_m, h: string) => String.fromCharCode(parseInt(h, 16))),
            'latin1',
          ).toString('utf8')
        : body;
  return { to: header('To'), subject: header('Subject'), text };
}

async function startSmtp(): Promise<{ url: string; close(): Promise<void> }> {
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    size: 20 * 1024 * 1024,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        const at = Date.now();
        mailsReceived += 1;
        const mail = decodeMailText(Buffer.concat(chunks).toString('utf8'));
        const title = Object.keys(TITLE_KIND).find((t) => mail.subject.includes(t));
        for (const rcpt of session.envelope.rcptTo) {
          for (const m of mail.text.matchAll(/\(serial ([^)]+)\)/g)) {
            arrive(`mail:${rcpt.address}`, title ? TITLE_KIND[title]! : 'unknown', m[1]!, at);
          }
        }
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.server.address() as AddressInfo).port;
  return { url: `smtp://127.0.0.1:${port}`, close: () => new Promise((r) => server.close(() => r())) };
}

const readBody = (req: IncomingMessage) =>
  new Promise<string>((resolve) => {
    let data = '';
    req.on('data', (c: Buffer) => (data += c.toString('utf8')));
    req.on('end', () => resolve(data));
  });

async function startWebhookReceiver(): Promise<{ url: string; close(): Promise<void> }> {
  const server = createHttpServer((req, res) => {
    void readBody(req).then((raw) => {
      const at = Date.now();
      webhookRequests += 1;
      const id = String(req.headers['x-portal-event-id'] ?? '');
      webhookIds.set(id, (webhookIds.get(id) ?? 0) + 1);
      try {
        const body = JSON.parse(raw) as {
          data?: { events?: Array<{ kind: string; serialNo?: string | null; occurredAt: string }> };
        };
        for (const e of body.data?.events ?? []) {
          arrive('webhook', e.kind, e.serialNo ?? '', at);
          const key = `${e.kind}|${e.serialNo ?? ''}`;
          if (!recorded.has(key)) recorded.set(key, { recordedAt: Date.parse(e.occurredAt), arrivedAt: at });
        }
      } catch {
        // not JSON: counted as a request only
      }
      res.writeHead(200).end('ok');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}/hook`,
    close: () => new Promise((r) => server.close(() => r())),
  };
}

// ---------------------------------------------------------------- seeding

interface Seeded {
  buildings: Array<{ id: number; floorId: number; email: string }>;
  /** `serial`: the portal's serial number (what messages show); the simulator's is `spec.serialNumber`. */
  robots: Array<{ spec: RobotOptions; buildingEmail: string; serial: string }>;
}

async function login(base: string): Promise<string> {
  const res = await benchApi(base).call(authOps.login, { body: ADMIN });
  if (!('token' in res)) throw new BenchError('the admin login asks for a verification code');
  return res.token;
}

async function seed(base: string, token: string, webhookUrl: string): Promise<Seeded> {
  const api = benchApi(base);
  const buildingCount = Math.max(1, Math.ceil(ROBOTS / ROBOTS_PER_BUILDING));
  const organizations = Math.ceil(buildingCount / BUILDINGS_PER_ORGANIZATION);
  const buildings: Seeded['buildings'] = [];
  for (let o = 1; o <= organizations; o++) {
    const count = Math.min(BUILDINGS_PER_ORGANIZATION, buildingCount - buildings.length);
    const body = initDataSchema.parse({
      organization: { name: `Notify Bench Organization ${o}` },
      buildings: Array.from({ length: count }, (_, b) => ({
        name: `Notify Bench Building ${o}-${b + 1}`,
        floors: [{ name: '1F', index: 1 }],
      })),
      operators: [],
    });
    const { organizationId } = await api.call(adminOps.importInitData, { token, body });
    const filter = { where: { organizationId }, order: 'name ASC', limit: 100 };
    const list = buildingSchema.array().parse(await api.call(buildingOps.listBuildings, { token, query: { filter } }));
    for (const b of list) {
      const floors = await api.call(floorOps.listFloors, { token, params: { id: b.id } });
      const email = `alerts-${b.id}@bench.example`;
      await api.call(organizationOps.createNotifTarget, {
        token,
        params: { id: organizationId },
        body: {
          type: 0,
          level: 0,
          buildingId: b.id,
          room: '',
          address: email,
          botLoginId: '',
          spaceId: '',
          language: 'en',
        },
      });
      buildings.push({ id: b.id, floorId: floors[0]!.id!, email });
    }
  }
  await api.call(webhookOps.createWebhook, {
    token,
    body: {
      name: 'Notify bench receiver',
      type: 0,
      url: webhookUrl,
      authType: 'none',
      authUsername: '',
      customHeaderName: '',
      status: 1,
      level: 0,
    },
  });
  const plan = Array.from({ length: ROBOTS }, (_, i) => ({
    i,
    building: buildings[Math.floor(i / ROBOTS_PER_BUILDING)]!,
  }));
  const robots = await pool(plan, 8, async ({ i, building }) => {
    const created = await api.call(robotOps.createRobot, {
      token,
      body: {
        serialNo: `notify-${String(i + 1).padStart(4, '0')}`,
        name: `Notify robot ${i + 1}`,
        model: 'mini',
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
    const r = i % ROBOTS_PER_BUILDING;
    const spec: RobotOptions = {
      brokerUrl: c.mqttUrl,
      username: c.username,
      password: c.password,
      manufacturer: c.manufacturer,
      serialNumber: c.serialNumber,
      model: 'mini',
      mapId: floorMapId(building.floorId),
      start: { x: 2 + (r % 10) * 2, y: 2 + Math.floor(r / 10) * 2, theta: 0 },
      battery: 80,
      visualizationHz: 0,
      stateIntervalMs: 30_000,
      connectTimeoutMs: 120_000,
    };
    return { spec, buildingEmail: building.email, serial: `notify-${String(i + 1).padStart(4, '0')}` };
  });
  return { buildings, robots };
}

// ---------------------------------------------------------------- the run

let server: ChildProcess | null = null;
let fleet: SimFleet | null = null;

async function cleanup(): Promise<void> {
  await fleet?.stop().catch(() => undefined);
  fleet = null;
  await stopChild(server, 15_000);
  server = null;
  await stopAll();
}

process.once('SIGINT', () => {
  console.error('\ninterrupted; stopping the server and the robots');
  void cleanup().finally(() => process.exit(130));
});

interface Caused {
  kind: Kind;
  serial: string;
  recipients: string[];
  at: number;
}

function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))]!;
}

async function main(): Promise<void> {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'bench-notify-'));
  rememberTempDir(dataDir);
  const smtp = await startSmtp();
  const hook = await startWebhookReceiver();
  const port = await freePort();
  const mqttPort = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const env = {
    SMTP_URL: smtp.url,
    OUTBOUND_ALLOW_HOSTS: '127.0.0.1',
    ...(process.env.NOTIFY_GROUP_WINDOW_MS ? { NOTIFY_GROUP_WINDOW_MS: process.env.NOTIFY_GROUP_WINDOW_MS } : {}),
    ...(process.env.NOTIFY_TICK_MS ? { NOTIFY_TICK_MS: process.env.NOTIFY_TICK_MS } : {}),
  };
  const start = () => startServer({ port, mqttPort, dataDir, admin: ADMIN, env });
  console.log(
    `bench:notify — ${ROBOTS} robots, ${EVENTS} burst events over ${BURST_S} s, ${BATTERY_PER_S}/s low battery`,
  );
  server = start();
  await waitForHealth(base, server);
  const token = await login(base);
  const t0 = performance.now();
  const seeded = await seed(base, token, hook.url);
  console.log(
    `seeded ${seeded.buildings.length} buildings and ${seeded.robots.length} robots in ${((performance.now() - t0) / 1000).toFixed(1)} s`,
  );
  const t1 = performance.now();
  fleet = await startFleet(
    seeded.robots.map((r) => r.spec),
    { concurrency: 50 },
  );
  console.log(`${fleet.robots.length} simulated robots online in ${((performance.now() - t1) / 1000).toFixed(1)} s`);
  const bySerial = new Map<string, SimRobot>(fleet.robots.map((r) => [r.serialNumber, r]));
  await sleep(3000);

  // The plan: the first EVENTS robots get one burst event each (e-stop or FATAL hardware error),
  // the others one low-battery crossing each, spread over the burst.
  const caused: Caused[] = [];
  const burst = seeded.robots.slice(0, EVENTS);
  const batteryRobots = seeded.robots.slice(EVENTS);
  const batteryCount = Math.min(batteryRobots.length, Math.round(BATTERY_PER_S * BURST_S));
  const memory: number[] = [];
  const sampleMemory = () => {
    const m = processMemory(server?.pid);
    // A killed server not yet reaped (a zombie) has no memory figures.
    if (m && Number.isFinite(m.hwm)) memory.push(m.hwm);
  };
  const memTimer = setInterval(sampleMemory, 500);
  const burstStart = Date.now();
  const burstMs = BURST_S * 1000;
  let killedAt: number | null = null;
  let restartedAt: number | null = null;
  const killer = KILL
    ? (async () => {
        await sleep(burstMs / 2);
        sampleMemory();
        killedAt = Date.now();
        server!.kill('SIGKILL');
        await new Promise((r) => server!.once('exit', r));
        server = start();
        await waitForHealth(base, server);
        restartedAt = Date.now();
        console.log(`server killed (SIGKILL) and back in ${((restartedAt - killedAt) / 1000).toFixed(1)} s`);
      })()
    : Promise.resolve();
  const fire = async (n: number, total: number, act: (i: number) => void) => {
    for (let i = 0; i < total; i++) {
      const due = burstStart + (i * burstMs) / Math.max(1, total);
      const wait = due - Date.now();
      if (wait > 0) await sleep(wait);
      act(i);
    }
    return n;
  };
  const recipientsOf = (email: string) => [`mail:${email}`, 'webhook'];
  await Promise.all([
    fire(0, burst.length, (i) => {
      const r = burst[i]!;
      const robot = bySerial.get(r.spec.serialNumber);
      if (!robot) return;
      const kind: Kind = i % 2 === 0 ? 'emergencyStop' : 'hardwareError';
      caused.push({ kind, serial: r.serial, recipients: recipientsOf(r.buildingEmail), at: Date.now() });
      robot.injectFault(kind);
    }),
    fire(1, batteryCount, (i) => {
      const r = batteryRobots[i]!;
      const robot = bySerial.get(r.spec.serialNumber);
      if (!robot) return;
      caused.push({ kind: 'lowBattery', serial: r.serial, recipients: recipientsOf(r.buildingEmail), at: Date.now() });
      robot.setBattery(15);
    }),
    killer,
  ]);
  const lastEvent = Date.now();
  console.log(`${caused.length} events caused; waiting up to ${SETTLE_S} s for their deliveries`);
  const expected = caused.flatMap((c) => c.recipients.map((to) => ({ c, key: `${to}|${c.kind}|${c.serial}` })));
  while (Date.now() - lastEvent < SETTLE_S * 1000) {
    if (expected.every((e) => arrivals.has(e.key))) break;
    await sleep(1000);
  }
  await sleep(2000);
  clearInterval(memTimer);
  sampleMemory();

  const latencies: number[] = [];
  let lost = 0;
  let duplicates = 0;
  for (const e of expected) {
    const got = arrivals.get(e.key);
    if (!got) {
      lost += 1;
      continue;
    }
    latencies.push(Math.min(...got) - e.c.at);
    if (got.length > 1) duplicates += got.length - 1;
  }
  const repeatedIds = [...webhookIds.values()].filter((n) => n > 1).reduce((a, n) => a + n - 1, 0);
  latencies.sort((a, b) => a - b);
  const during = (from: number | null, to: number | null) =>
    from === null || to === null
      ? []
      : expected
          .filter((e) => e.c.at >= from && e.c.at <= to && arrivals.has(e.key))
          .map((e) => Math.min(...arrivals.get(e.key)!) - e.c.at);
  const outage = during(killedAt, restartedAt).sort((a, b) => a - b);
  // The events a robot caused while a server was there to hear them (all of them without the kill).
  const [downFrom, downTo] = [killedAt, restartedAt];
  const up =
    downFrom === null || downTo === null
      ? latencies
      : expected
          .filter((e) => (e.c.at < downFrom || e.c.at > downTo) && arrivals.has(e.key))
          .map((e) => Math.min(...arrivals.get(e.key)!) - e.c.at)
          .sort((a, b) => a - b);
  const peakRss = memory.length ? Math.max(...memory) : NaN;
  // Where the time goes (webhook pairs): state message → event recorded by the server (robot link,
  // watcher), and event recorded → delivered (outbox, grouping, worker, sending).
  const ingest: number[] = [];
  const outboxPart: number[] = [];
  for (const c of caused) {
    const r = recorded.get(`${c.kind}|${c.serial}`);
    if (!r) continue;
    ingest.push(r.recordedAt - c.at);
    outboxPart.push(r.arrivedAt - r.recordedAt);
  }
  ingest.sort((a, b) => a - b);
  outboxPart.sort((a, b) => a - b);

  const figures: Figure[] = [
    { name: 'robots', value: fleet.robots.length, unit: 'robots' },
    { name: 'events caused', value: caused.length, unit: 'events' },
    { name: 'expected deliveries (event × recipient)', value: expected.length, unit: 'pairs' },
    { name: 'mails received', value: mailsReceived, unit: 'mails' },
    { name: 'webhook requests received', value: webhookRequests, unit: 'requests' },
    { name: 'event → delivered p50', value: percentile(latencies, 50), unit: 'ms' },
    {
      name: 'event → delivered p99',
      value: percentile(latencies, 99),
      unit: 'ms',
      goal: 'p99 < 2000 ms',
      met: percentile(latencies, 99) < 2000,
    },
    { name: 'event → delivered max', value: latencies.at(-1) ?? NaN, unit: 'ms' },
    { name: 'webhook: state message → event recorded p50', value: percentile(ingest, 50), unit: 'ms' },
    { name: 'webhook: state message → event recorded p99', value: percentile(ingest, 99), unit: 'ms' },
    { name: 'webhook: event recorded → delivered p50', value: percentile(outboxPart, 50), unit: 'ms' },
    { name: 'webhook: event recorded → delivered p99', value: percentile(outboxPart, 99), unit: 'ms' },
    { name: 'deliveries lost', value: lost, unit: 'pairs', goal: '0', met: lost === 0 },
    {
      name: 'duplicates (same event twice at a recipient)',
      value: duplicates,
      unit: 'pairs',
      goal: '0',
      met: duplicates === 0,
    },
    { name: 'webhook event ids received twice', value: repeatedIds, unit: 'ids', goal: '0', met: repeatedIds === 0 },
    { name: 'server peak RSS (VmHWM)', value: peakRss / 1024 / 1024, unit: 'MB' },
    ...(killedAt !== null && restartedAt !== null
      ? [
          { name: 'kill -9 → healthy again', value: restartedAt - killedAt, unit: 'ms' },
          { name: 'events caused while up: delivered p50', value: percentile(up, 50), unit: 'ms' },
          { name: 'events caused while up: delivered p99', value: percentile(up, 99), unit: 'ms' },
          { name: 'events caused while up: count delivered', value: up.length, unit: 'pairs' },
          { name: 'events caused while down: delivered p50', value: percentile(outage, 50), unit: 'ms' },
          { name: 'events caused while down: delivered p99', value: percentile(outage, 99), unit: 'ms' },
          { name: 'events caused while down: count delivered', value: outage.length, unit: 'pairs' },
        ]
      : []),
  ];
  writeResults('notify', figures);
  if (lost > 0) {
    const missing = expected.filter((e) => !arrivals.has(e.key)).slice(0, 10);
    console.log(`first missing: ${missing.map((m) => m.key).join(', ')}`);
  }
  await cleanup();
  await smtp.close();
  await hook.close();
}

main().then(
  () => process.exit(0),
  async (err: unknown) => {
    console.error(err instanceof Error ? (err.stack ?? err.message) : String(err));
    if (serverLog.length) console.error(serverLog.slice(-20).join(''));
    await cleanup();
    process.exit(1);
  },
);
