/**
 * `npm run bench:api`: the list call the portal makes most (spec section 7, GET /api/buildings with
 * status 1, newest first, groups and flowGroups included, 50 per page) against a real server with
 * 1,000 buildings, under 50 concurrent connections. Goal: p99 < 25 ms.
 *
 * Starts its own server (temporary DATA_DIR, free ports, no demo data, no simulated robots) and
 * stops it at the end, on errors and on Ctrl-C.
 */
import autocannon from 'autocannon';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { initDataSchema } from '@portal/contract';
import { round, writeResults, type Figure } from './lib/results.ts';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const ADMIN = { loginId: 'bench-admin@example.com', loginPw: 'Bench-Pass-2024!' };
const ORGANIZATIONS = 10;
const BUILDINGS_PER_ORGANIZATION = 100;
const CONNECTIONS = 50;
const WARMUP_SECONDS = 2;
const DURATION_SECONDS = 10;
const GOAL_P99_MS = 25;
const FILTER = { where: { status: 1 }, order: 'updatedAt DESC', include: ['groups', 'flowGroups'], limit: 50 };

let server: ChildProcess | null = null;
let dataDir: string | null = null;
const serverLog: string[] = [];

function remember(chunk: Buffer) {
  for (const line of chunk.toString('utf8').split('\n')) {
    if (line.trim() === '') continue;
    serverLog.push(line);
    if (serverLog.length > 200) serverLog.shift();
  }
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.unref();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const address = srv.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      srv.close(() => resolve(port));
    });
  });
}

function startServer(port: number, mqttPort: number, dir: string): ChildProcess {
  const child = spawn(process.execPath, ['--import', 'tsx', 'apps/server/src/main.ts'], {
    cwd: ROOT,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: {
      ...process.env,
      NODE_ENV: 'production',
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dir,
      ADMIN_EMAIL: ADMIN.loginId,
      ADMIN_PASSWORD: ADMIN.loginPw,
      SEED_DEMO: '0',
      LOG_LEVEL: 'warn',
      MQTT_PORT: String(mqttPort),
      SIMULATED_ROBOTS: '0',
      RATE_LIMIT_LOGIN: '1000',
      // The API alone is measured: point the web app at a folder without one, so no static hosting.
      WEB_DIST: path.join(dir, 'no-web-app'),
    },
  });
  child.stdout?.on('data', remember);
  child.stderr?.on('data', remember);
  return child;
}

/** Stops the server by its PID: SIGTERM, then SIGKILL after 10 s. */
async function stopServer(): Promise<void> {
  const child = server;
  server = null;
  if (!child?.pid || child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  process.kill(child.pid, 'SIGTERM');
  const timer = setTimeout(() => {
    if (child.pid && child.exitCode === null && child.signalCode === null) process.kill(child.pid, 'SIGKILL');
  }, 10_000);
  await exited;
  clearTimeout(timer);
}

function removeDataDir() {
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  dataDir = null;
}

async function cleanup() {
  await stopServer();
  removeDataDir();
}

// Last resort if the process goes down some other way: no orphaned server.
process.on('exit', () => {
  if (server?.pid && server.exitCode === null && server.signalCode === null) {
    try {
      process.kill(server.pid, 'SIGKILL');
    } catch {
      // already gone
    }
  }
  removeDataDir();
});
process.once('SIGINT', () => {
  console.error('\ninterrupted; stopping the server');
  void cleanup().finally(() => process.exit(130));
});

class BenchError extends Error {}

async function waitForHealth(base: string, child: ChildProcess, timeoutMs = 90_000): Promise<number> {
  const started = performance.now();
  let exit: string | null = null;
  child.once('exit', (code, signal) => (exit = `exited with ${signal ?? `code ${code}`}`));
  let last = 'no answer';
  while (performance.now() - started < timeoutMs) {
    if (exit) throw new BenchError(`The server ${exit} before it was ready`);
    try {
      const res = await fetch(`${base}/api/health`, { signal: AbortSignal.timeout(2000) });
      if (res.status === 200) return performance.now() - started;
      last = `${res.status} ${await res.text()}`;
    } catch (err) {
      last = (err as Error).message;
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new BenchError(`GET /api/health did not answer 200 within ${timeoutMs / 1000} s (last: ${last})`);
}

async function call(
  base: string,
  method: string,
  url: string,
  body?: unknown,
  token?: string,
): Promise<{ status: number; headers: Headers; json: unknown }> {
  const res = await fetch(`${base}${url}`, {
    method,
    headers: {
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      ...(token ? { authorization: `Bearer ${token}` } : {}),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
    signal: AbortSignal.timeout(60_000),
  });
  const text = await res.text();
  let json: unknown = text;
  try {
    json = text ? JSON.parse(text) : null;
  } catch {
    // keep the text
  }
  return { status: res.status, headers: res.headers, json };
}

const show = (v: unknown) => JSON.stringify(v).slice(0, 500);

async function login(base: string): Promise<string> {
  const res = await call(base, 'POST', '/api/operators/login', ADMIN);
  const token = (res.json as { token?: unknown } | null)?.token;
  if (res.status !== 200 || typeof token !== 'string') {
    throw new BenchError(`POST /api/operators/login answered ${res.status} ${show(res.json)}`);
  }
  return token;
}

/** 10 organizations of 100 buildings each, through POST /api/init-data. Returns the mean ms per call. */
async function seed(base: string, token: string): Promise<number> {
  const times: number[] = [];
  for (let o = 1; o <= ORGANIZATIONS; o++) {
    const body = initDataSchema.parse({
      organization: { name: `Bench Organization ${o}` },
      buildings: Array.from({ length: BUILDINGS_PER_ORGANIZATION }, (_, b) => ({
        name: `Bench Building ${o}-${b + 1}`,
        floors: [],
      })),
      operators: [],
    });
    const started = performance.now();
    const res = await call(base, 'POST', '/api/init-data', body, token);
    times.push(performance.now() - started);
    if (res.status !== 201)
      throw new BenchError(`POST /api/init-data (#${o}) answered ${res.status} ${show(res.json)}`);
  }
  return times.reduce((a, b) => a + b, 0) / times.length;
}

/** One request by hand first: the bench must measure the right answer, not a fast error. */
async function checkTarget(base: string, pathAndQuery: string, token: string) {
  const res = await call(base, 'GET', pathAndQuery, undefined, token);
  if (res.status !== 200) throw new BenchError(`GET ${pathAndQuery} answered ${res.status} ${show(res.json)}`);
  const items = res.json as Array<Record<string, unknown>>;
  const problems: string[] = [];
  if (!Array.isArray(items)) throw new BenchError(`GET /api/buildings did not answer an array: ${show(res.json)}`);
  if (items.length !== FILTER.limit) problems.push(`${items.length} items instead of ${FILTER.limit}`);
  const total = Number(res.headers.get('x-total-count'));
  if (!(total >= ORGANIZATIONS * BUILDINGS_PER_ORGANIZATION)) {
    problems.push(`X-Total-Count is ${res.headers.get('x-total-count')}, expected at least 1000`);
  }
  items.forEach((it, i) => {
    if (it.status !== 1) problems.push(`item ${i} has status ${show(it.status)}`);
    if (!Array.isArray(it.groups) || !Array.isArray(it.flowGroups)) problems.push(`item ${i} lacks groups/flowGroups`);
    const prev = items[i - 1];
    if (prev && String(prev.updatedAt) < String(it.updatedAt)) problems.push(`item ${i} is out of updatedAt order`);
  });
  if (problems.length > 0)
    throw new BenchError(`GET /api/buildings answered wrongly: ${problems.slice(0, 5).join('; ')}`);
  return { total, bytes: JSON.stringify(items).length };
}

function runCannon(
  opts: autocannon.Options,
  onResponse?: (status: number, ms: number) => void,
): Promise<autocannon.Result> {
  return new Promise((resolve, reject) => {
    const instance = autocannon(opts, (err: unknown, result: autocannon.Result) =>
      err ? reject(err instanceof Error ? err : new Error(String(err))) : resolve(result),
    );
    if (onResponse) instance.on('response', (_client, status, _bytes, ms) => onResponse(status, ms));
  });
}

/**
 * CPU time (user + system, ms) a process has used so far, from /proc (Linux; null elsewhere).
 * Per request, it is the server's cost independent of how busy the machine is.
 */
function processCpuMs(pid: number | undefined): number | null {
  if (!pid || process.platform !== 'linux') return null;
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Fields after "(comm)": state is field 3, utime field 14, stime field 15, in clock ticks (100 per second).
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) * 10;
  } catch {
    return null;
  }
}

/** Nearest-rank percentile of sorted values. */
function percentile(sorted: Float64Array, p: number): number {
  if (sorted.length === 0) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))]!;
}

async function main() {
  dataDir = mkdtempSync(path.join(os.tmpdir(), 'portal-bench-api-'));
  const port = await freePort();
  let mqttPort = await freePort();
  while (mqttPort === port) mqttPort = await freePort();
  const base = `http://127.0.0.1:${port}`;

  console.log(`starting the server on ${base} (MQTT ${mqttPort}, DATA_DIR ${dataDir})`);
  server = startServer(port, mqttPort, dataDir);
  const startMs = await waitForHealth(base, server);
  console.log(`healthy after ${Math.round(startMs)} ms`);

  const token = await login(base);
  console.log(`seeding ${ORGANIZATIONS} organizations × ${BUILDINGS_PER_ORGANIZATION} buildings`);
  const seedMs = await seed(base, token);

  const pathAndQuery = `/api/buildings?filter=${encodeURIComponent(JSON.stringify(FILTER))}`;
  const target = await checkTarget(base, pathAndQuery, token);
  console.log(`GET ${decodeURIComponent(pathAndQuery)}: ${target.total} in total, ${target.bytes} bytes per page`);

  const opts: autocannon.Options = {
    url: `${base}${pathAndQuery}`,
    connections: CONNECTIONS,
    headers: { authorization: `Bearer ${token}` },
  };
  console.log(`warm-up ${WARMUP_SECONDS} s, then ${DURATION_SECONDS} s with ${CONNECTIONS} connections`);
  await runCannon({ ...opts, duration: WARMUP_SECONDS });

  // Other work on the machine (its CPUs are shared with the load generator) moves these figures.
  const loadBefore = os.loadavg()[0] ?? 0;
  const latencies: number[] = [];
  const cpuBefore = processCpuMs(server.pid);
  const result = await runCannon({ ...opts, duration: DURATION_SECONDS }, (status, ms) => {
    if (status >= 200 && status < 300) latencies.push(ms);
  });
  const cpuAfter = processCpuMs(server.pid);
  const sorted = Float64Array.from(latencies).sort();
  const p99 = percentile(sorted, 99);
  const errors = result.errors;
  const non2xx = result.non2xx;

  const figures: Figure[] = [
    { name: 'requests per second (mean)', value: result.requests.average, unit: 'req/s' },
    { name: 'requests in total', value: result.requests.total, unit: 'requests' },
    { name: 'latency p50', value: percentile(sorted, 50), unit: 'ms' },
    { name: 'latency p95', value: percentile(sorted, 95), unit: 'ms' },
    { name: 'latency p99', value: p99, unit: 'ms', goal: `p99 < ${GOAL_P99_MS} ms`, met: p99 < GOAL_P99_MS },
    { name: 'latency max', value: sorted.at(-1) ?? Number.NaN, unit: 'ms' },
    { name: 'errors (connection, timeout)', value: errors, unit: 'count', goal: '0', met: errors === 0 },
    { name: 'non-2xx responses', value: non2xx, unit: 'count', goal: '0', met: non2xx === 0 },
    ...(cpuBefore !== null && cpuAfter !== null && result.requests.total > 0
      ? [{ name: 'server CPU per request', value: (cpuAfter - cpuBefore) / result.requests.total, unit: 'ms' }]
      : []),
    { name: 'seed: POST /api/init-data, 100 buildings (mean)', value: seedMs, unit: 'ms' },
    { name: 'host load average (1 min) before the run', value: loadBefore, unit: 'load' },
  ];
  writeResults('api', figures);
  console.log(
    `autocannon's own latency (2xx, 1 ms buckets): p50 ${result.latency.p50} ms, p99 ${result.latency.p99} ms, ` +
      `throughput ${round(result.throughput.average / 1024 / 1024)} MiB/s`,
  );
  if (result.statusCodeStats) console.log('status codes:', JSON.stringify(result.statusCodeStats));
  if (serverLog.length > 0) {
    console.log(`\nserver output (last ${Math.min(serverLog.length, 20)} lines, LOG_LEVEL=warn):`);
    for (const line of serverLog.slice(-20)) console.log(`  ${line.slice(0, 300)}`);
  }
}

try {
  await main();
  await cleanup();
} catch (err) {
  console.error(
    `\nbench:api failed: ${err instanceof BenchError ? err.message : ((err as Error).stack ?? String(err))}`,
  );
  if (serverLog.length > 0) {
    console.error(`server output (last ${Math.min(serverLog.length, 40)} lines):`);
    for (const line of serverLog.slice(-40)) console.error(`  ${line.slice(0, 500)}`);
  }
  await cleanup();
  process.exitCode = 1;
}
