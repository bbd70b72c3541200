import { execFileSync, spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, openSync, closeSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { startSmtpReceiver } from './support/smtp.ts';
import { ARTIFACTS_DIR, E2E_ADMIN, STATE_FILE, type E2eState } from './support/state.ts';

const ROOT = path.resolve(import.meta.dirname, '..');
const READY_TIMEOUT_MS = 60_000;

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const address = srv.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      srv.close(() => resolve(port));
    });
  });
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * Starts the real server (with the built web app from apps/web/dist) on free ports with an empty
 * data directory, so the demo accounts are seeded, and waits until `/api/health` answers 200.
 * Mail goes to a real local SMTP server run here (support/smtp.ts), which writes what it receives to
 * the state's `mailDir`; the returned function stops it after the run.
 */
export default async function globalSetup(): Promise<() => Promise<void>> {
  mkdirSync(ARTIFACTS_DIR, { recursive: true });
  const dataDir = mkdtempSync(path.join(tmpdir(), 'portal-e2e-'));
  const logFile = path.join(dataDir, 'server.log');
  const port = await freePort();
  let mqttPort = await freePort();
  while (mqttPort === port) mqttPort = await freePort();
  const baseUrl = `http://127.0.0.1:${port}`;
  const mailDir = path.join(dataDir, 'mail');
  const smtp = await startSmtpReceiver(mailDir);

  // Output goes to a file, not a pipe nobody reads, so a chatty server can never block on it.
  const log = openSync(logFile, 'a');
  // The production build of the server, as `npm start` runs it (decision 0009): built here, so the
  // tests always run the current source.
  execFileSync(process.execPath, ['apps/server/build.mjs'], { cwd: ROOT, stdio: 'inherit' });
  const child = spawn(process.execPath, ['apps/server/dist/main.mjs'], {
    cwd: ROOT,
    env: {
      ...process.env,
      HOST: '127.0.0.1',
      PORT: String(port),
      DATA_DIR: dataDir,
      MQTT_PORT: String(mqttPort),
      LOG_LEVEL: 'warn',
      SIMULATED_ROBOTS: '0',
      // The demo building's simulated elevators and security doors, for flows across floors (flow-run.spec.ts).
      SIMULATED_BUILDING_SYSTEMS: '1',
      RATE_LIMIT_LOGIN: '1000',
      ADMIN_EMAIL: E2E_ADMIN.loginId,
      ADMIN_PASSWORD: E2E_ADMIN.password,
      DATABASE_URL: '',
      MQTT_URL: '',
      // Set explicitly: the tests read what the server really delivered (meter-alert.spec.ts).
      SMTP_URL: smtp.url,
      // Links in notification mails point at this server.
      PUBLIC_URL: baseUrl,
    },
    stdio: ['ignore', log, log],
  });
  closeSync(log);
  const pid = child.pid;
  if (pid === undefined) throw new Error('e2e: could not start the server');
  // An object, so TypeScript does not narrow the field to its initial null across the awaits below.
  const status: { exited: string | null } = { exited: null };
  child.once('exit', (code, signal) => (status.exited = `exited with ${signal ?? `code ${code}`}`));

  const fail = (message: string): never => {
    const output = readFileSync(logFile, 'utf8');
    if (status.exited === null) child.kill('SIGKILL');
    void smtp.close();
    rmSync(dataDir, { recursive: true, force: true });
    rmSync(STATE_FILE, { force: true });
    throw new Error(`e2e: ${message}. Server output:\n${output}`);
  };

  const state: E2eState = { baseUrl, pid, dataDir, logFile, mailDir };
  writeFileSync(STATE_FILE, JSON.stringify(state, null, 2));
  process.env.E2E_BASE_URL = baseUrl;

  const deadline = Date.now() + READY_TIMEOUT_MS;
  let last = 'no answer yet';
  for (;;) {
    if (status.exited !== null) fail(`the server ${status.exited} before it became ready`);
    if (Date.now() > deadline) {
      fail(`the server did not answer 200 at ${baseUrl}/api/health within ${READY_TIMEOUT_MS / 1000} s (${last})`);
    }
    try {
      const res = await fetch(`${baseUrl}/api/health`, { signal: AbortSignal.timeout(2_000) });
      if (res.status === 200) break;
      last = `HTTP ${res.status}`;
    } catch (err) {
      last = err instanceof Error ? err.message : String(err);
    }
    await sleep(250);
  }
  // The tests drive the web app, not only the API: say so clearly when it was not built.
  const index = await fetch(`${baseUrl}/login`);
  if (!index.ok || !(index.headers.get('content-type') ?? '').includes('text/html')) {
    fail(`GET /login answered ${index.status} without the web app; run \`npm run build:web\` first`);
  }
  return () => smtp.close();
}
