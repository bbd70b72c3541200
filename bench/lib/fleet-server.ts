/**
 * The processes `npm run bench:fleet` starts (the portal server, the simulator) and the HTTP calls it
 * makes. Every child is remembered by PID and stopped by PID: at the end, on errors, on Ctrl-C and,
 * as a last resort, when the bench process exits.
 */
import { execFileSync, fork, spawn, type ChildProcess } from 'node:child_process';
import { rmSync } from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createApiClient } from '@portal/contract';

export const ROOT = fileURLToPath(new URL('../..', import.meta.url));

export class BenchError extends Error {}

let built = false;
/**
 * The server's entry as production runs it (`npm start`: the build of `npm run build:server`,
 * decision 0009), built once per bench process from the current source.
 */
export function serverEntry(): string {
  if (!built) {
    execFileSync(process.execPath, ['apps/server/build.mjs'], { cwd: ROOT, stdio: 'ignore' });
    built = true;
  }
  return 'apps/server/dist/main.mjs';
}

// ---------------------------------------------------------------- children, stopped by PID

const children = new Set<ChildProcess>();
const tempDirs = new Set<string>();

const running = (c: ChildProcess) => c.pid !== undefined && c.exitCode === null && c.signalCode === null;

/** Stops one child by its PID: SIGTERM, then SIGKILL after `graceMs`. */
export async function stopChild(child: ChildProcess | null, graceMs = 10_000): Promise<void> {
  if (!child) return;
  children.delete(child);
  if (!running(child)) return;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  child.kill('SIGTERM');
  const timer = setTimeout(() => {
    if (running(child)) child.kill('SIGKILL');
  }, graceMs);
  await exited;
  clearTimeout(timer);
}

export async function stopAll(): Promise<void> {
  await Promise.all([...children].map((c) => stopChild(c)));
  for (const dir of tempDirs) rmSync(dir, { recursive: true, force: true });
  tempDirs.clear();
}

/** A temporary directory removed with stopAll (and at exit). */
export function rememberTempDir(dir: string): void {
  tempDirs.add(dir);
}

// Last resort if the bench goes down some other way: no orphaned server or simulator.
process.on('exit', () => {
  for (const c of children) {
    if (running(c)) {
      try {
        c.kill('SIGKILL');
      } catch {
        // already gone
      }
    }
  }
  for (const dir of tempDirs) rmSync(dir, { recursive: true, force: true });
});

// ---------------------------------------------------------------- the server

/** The last lines the server printed (LOG_LEVEL=warn), for the report and for errors. */
export const serverLog: string[] = [];

function remember(chunk: Buffer) {
  for (const line of chunk.toString('utf8').split('\n')) {
    if (line.trim() === '') continue;
    serverLog.push(line);
    if (serverLog.length > 200) serverLog.shift();
  }
}

export function freePort(): Promise<number> {
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

export interface ServerOptions {
  port: number;
  mqttPort: number;
  dataDir: string;
  admin: { loginId: string; loginPw: string };
  /** Extra Node.js options (e.g. --cpu-prof, another --import), after `--import tsx`. */
  nodeArgs?: string[];
  env?: Record<string, string>;
}

/** Starts the built server (`serverEntry`) as a child: no demo data, no simulated robots of its own. */
export function startServer(o: ServerOptions): ChildProcess {
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    NODE_ENV: 'production',
    PORT: String(o.port),
    HOST: '127.0.0.1',
    DATA_DIR: o.dataDir,
    ADMIN_EMAIL: o.admin.loginId,
    ADMIN_PASSWORD: o.admin.loginPw,
    SEED_DEMO: '0',
    SIMULATED_ROBOTS: '0',
    LOG_LEVEL: 'warn',
    MQTT_PORT: String(o.mqttPort),
    RATE_LIMIT_LOGIN: '10000',
    // No static hosting of the web app: point at a folder without one.
    WEB_DIST: path.join(o.dataDir, 'no-web-app'),
    ...o.env,
  };
  // The default configuration: SQLite in DATA_DIR, embedded broker, read caches on.
  for (const key of ['DATABASE_URL', 'MQTT_URL', 'MQTT_PUBLIC_URL', 'READ_CACHE', 'API_BASE']) delete env[key];
  const child = spawn(process.execPath, [...(o.nodeArgs ?? []), serverEntry()], {
    cwd: ROOT,
    stdio: ['ignore', 'pipe', 'pipe'],
    env,
  });
  children.add(child);
  child.stdout?.on('data', remember);
  child.stderr?.on('data', remember);
  return child;
}

export async function waitForHealth(base: string, child: ChildProcess, timeoutMs = 90_000): Promise<number> {
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

// ---------------------------------------------------------------- the simulator process

/** Starts bench/lib/fleet-sim.ts with an IPC channel (stdout and stderr shared with the bench). */
export function startSimulator(): ChildProcess {
  const child = fork(fileURLToPath(new URL('./fleet-sim.ts', import.meta.url)), [], {
    cwd: ROOT,
    execArgv: ['--import', 'tsx'],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  children.add(child);
  return child;
}

// ---------------------------------------------------------------- HTTP

/**
 * The benchmarks speak to the server through the contract's typed client: every call names an
 * operation and every answer is checked against its schema.
 */
export const benchApi = (base: string) => createApiClient({ baseUrl: () => `${base}/api` });

export const show = (v: unknown) => JSON.stringify(v).slice(0, 500);

/** Runs `task` over `items` with at most `limit` at a time; answers the results in order. */
export async function pool<T, R>(items: readonly T[], limit: number, task: (item: T, i: number) => Promise<R>) {
  const out = new Array<R>(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const i = next++;
      out[i] = await task(items[i]!, i);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return out;
}
