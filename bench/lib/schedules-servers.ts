/**
 * The processes of `npm run bench:schedules`: the portal servers (one on SQLite with its embedded
 * broker, or two on one PostgreSQL database sharing bench/lib/schedules-broker.ts as their external
 * broker, as docs/deployment.md "Several servers" describes) and that broker. Each is remembered by
 * PID: stopped by PID at the end, killed (SIGKILL) by PID when the bench says so, and, as a last
 * resort, when the bench process exits.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { BenchError, ROOT, serverEntry, serverLog } from './fleet-server.ts';

const mine = new Set<ChildProcess>();
const running = (c: ChildProcess) => c.pid !== undefined && c.exitCode === null && c.signalCode === null;

process.on('exit', () => {
  for (const c of mine) if (running(c)) c.kill('SIGKILL');
});

function remember(name: string) {
  return (chunk: Buffer) => {
    for (const line of chunk.toString('utf8').split('\n')) {
      if (line.trim() === '') continue;
      serverLog.push(`[${name}] ${line}`);
      if (serverLog.length > 300) serverLog.shift();
    }
  };
}

const WIRE_PROBE = new URL('./schedules-wire-probe.ts', import.meta.url).href;

export interface ScheduleServerOptions {
  name: string;
  port: number;
  /** The embedded broker's port (one server), or null with `mqttUrl`. */
  mqttPort: number | null;
  dataDir: string;
  admin: { loginId: string; loginPw: string };
  /** PostgreSQL (two servers); absent: SQLite in dataDir. */
  databaseUrl?: string;
  /** The shared external broker (two servers), and the address robots are given. */
  mqttUrl?: string;
  mqttPublicUrl?: string;
  /** The wire probe's file when this server's embedded broker is the robots' broker. */
  wireFile?: string;
  secretKey: string;
  env: Record<string, string>;
}

/** Starts the built server (`serverEntry`) as a child: no demo data, no simulated robots of its own. */
export function startScheduleServer(o: ScheduleServerOptions): ChildProcess {
  const env: NodeJS.ProcessEnv = { ...process.env };
  for (const key of ['DATABASE_URL', 'MQTT_URL', 'MQTT_PUBLIC_URL', 'READ_CACHE', 'API_BASE', 'TEST_DATABASE_URL'])
    delete env[key];
  Object.assign(env, {
    NODE_ENV: 'production',
    PORT: String(o.port),
    HOST: '127.0.0.1',
    DATA_DIR: o.dataDir,
    ADMIN_EMAIL: o.admin.loginId,
    ADMIN_PASSWORD: o.admin.loginPw,
    SEED_DEMO: '0',
    SIMULATED_ROBOTS: '0',
    LOG_LEVEL: 'warn',
    RATE_LIMIT_LOGIN: '10000',
    SECRET_KEY: o.secretKey,
    WEB_DIST: path.join(o.dataDir, 'no-web-app'),
    ...(o.mqttPort !== null ? { MQTT_PORT: String(o.mqttPort) } : {}),
    ...(o.databaseUrl ? { DATABASE_URL: o.databaseUrl } : {}),
    ...(o.mqttUrl ? { MQTT_URL: o.mqttUrl } : {}),
    ...(o.mqttPublicUrl ? { MQTT_PUBLIC_URL: o.mqttPublicUrl } : {}),
    ...(o.wireFile ? { SCHEDULES_WIRE_FILE: o.wireFile } : {}),
    ...o.env,
  });
  const child = spawn(
    process.execPath,
    [
      ...(o.wireFile ? ['--import', 'tsx', '--import', WIRE_PROBE] : []),
      // SCHEDULES_PROFILE=DIR: a V8 CPU profile of each server (written when it stops, not when killed).
      ...(process.env.SCHEDULES_PROFILE ? ['--cpu-prof', `--cpu-prof-dir=${process.env.SCHEDULES_PROFILE}`] : []),
      serverEntry(),
    ],
    { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'], env },
  );
  mine.add(child);
  child.stdout?.on('data', remember(o.name));
  child.stderr?.on('data', remember(o.name));
  return child;
}

/** Starts bench/lib/schedules-broker.ts with the wire probe; resolves once it listens. */
export async function startBroker(port: number, wireFile: string): Promise<ChildProcess> {
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', '--import', WIRE_PROBE, 'bench/lib/schedules-broker.ts', String(port)],
    { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, SCHEDULES_WIRE_FILE: wireFile } },
  );
  mine.add(child);
  child.stderr?.on('data', remember('broker'));
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new BenchError('the bench broker did not start')), 30_000);
    child.stdout?.on('data', (b: Buffer) => {
      if (b.toString().includes('listening')) {
        clearTimeout(timer);
        resolve();
      }
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new BenchError(`the bench broker exited (${code})`));
    });
  });
  return child;
}

/** SIGKILL by PID (the crash the bench measures); resolves once the process is gone. */
export async function killHard(child: ChildProcess): Promise<void> {
  if (!running(child)) return;
  const exited = new Promise<void>((r) => child.once('exit', () => r()));
  child.kill('SIGKILL');
  await exited;
  mine.delete(child);
}

export function forget(child: ChildProcess): void {
  mine.delete(child);
}
