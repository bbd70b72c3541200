import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import { afterAll, describe, expect, it } from 'vitest';

/**
 * The production build (`npm run build:server`, decision 0009) as `npm start` runs it: the bundle
 * starts, migrates and seeds, serves the API, the OpenAPI document and the web app, starts the
 * simulated robots from the repository (paths found from the bundle's folder), and its image worker
 * thread is a bundle of its own that answers jobs.
 */
const root = join(import.meta.dirname, '../../..');
// Inside the repository (git-ignored `.tmp/`): the bundle resolves node_modules from where it lies.
const out = join(root, 'apps/server/.tmp', `build-${process.pid}-${randomBytes(3).toString('hex')}`);
const dataDir = mkdtempSync(join(tmpdir(), 'portal-build-'));
let child: ChildProcess | null = null;

afterAll(async () => {
  if (child && child.exitCode === null && child.signalCode === null) {
    const exited = new Promise((r) => child!.once('exit', r));
    child.kill('SIGKILL');
    await exited;
  }
  rmSync(out, { recursive: true, force: true });
  rmSync(dataDir, { recursive: true, force: true });
});

const freePort = () =>
  new Promise<number>((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
  });

describe('the production build of the server', () => {
  it('builds a bundle whose image worker thread answers jobs', async () => {
    execFileSync(process.execPath, [join(root, 'apps/server/build.mjs'), out], { stdio: 'ignore' });
    const worker = new Worker(join(out, 'image-worker-thread.mjs'));
    try {
      const bytes = randomBytes(4096);
      const answer = await new Promise<{ id: number; hash?: string; error?: string }>((resolve, reject) => {
        worker.once('message', resolve);
        worker.once('error', reject);
        worker.postMessage({ kind: 'sha256', id: 7, bytes });
      });
      expect(answer).toEqual({ id: 7, hash: createHash('sha256').update(bytes).digest('hex') });
    } finally {
      await worker.terminate();
    }
  });

  it('starts from the bundle: health, sign-in, OpenAPI, the web app and the simulated robots; stops on SIGTERM', async () => {
    const web = join(dataDir, 'web');
    mkdirSync(web);
    writeFileSync(join(web, 'index.html'), '<!doctype html><title>portal build test</title><div id="root"></div>');
    const port = await freePort();
    const env: NodeJS.ProcessEnv = {
      ...process.env,
      NODE_ENV: 'production',
      HOST: '127.0.0.1',
      PORT: String(port),
      MQTT_PORT: String(await freePort()),
      DATA_DIR: dataDir,
      WEB_DIST: web,
      LOG_LEVEL: 'warn',
      SIMULATED_ROBOTS: '1',
      ADMIN_EMAIL: 'root@example.com',
      ADMIN_PASSWORD: 'Root-Password-2026',
    };
    for (const key of ['DATABASE_URL', 'MQTT_URL', 'SMTP_URL', 'API_BASE']) delete env[key];
    let output = '';
    child = spawn(process.execPath, [join(out, 'main.mjs')], { cwd: root, env, stdio: ['ignore', 'pipe', 'pipe'] });
    child.stdout!.on('data', (d: Buffer) => (output += d.toString()));
    child.stderr!.on('data', (d: Buffer) => (output += d.toString()));
    const base = `http://127.0.0.1:${port}`;

    await expect
      .poll(async () => (await fetch(`${base}/api/health`).catch(() => null))?.status ?? output, {
        timeout: 60_000,
        interval: 250,
      })
      .toBe(200);
    const login = await fetch(`${base}/api/operators/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ loginId: 'root@example.com', loginPw: 'Root-Password-2026' }),
    });
    expect(login.status).toBe(200);
    const auth = { authorization: `Bearer ${((await login.json()) as { token: string }).token}` };

    const doc = (await (await fetch(`${base}/api/docs/json`)).json()) as { paths: Record<string, unknown> };
    expect(Object.keys(doc.paths)).toContain('/api/buildings');

    const page = await fetch(`${base}/fleet`);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('portal build test');

    await expect
      .poll(
        async () => {
          const fleet = (await (await fetch(`${base}/api/robots/fleet`, { headers: auth })).json()) as Array<{
            serialNo: string;
            live: { online: boolean };
          }>;
          return fleet.filter((r) => r.live.online).map((r) => r.serialNo);
        },
        { timeout: 60_000, interval: 250 },
      )
      .toEqual(['SIM-0001']);

    const exited = new Promise<number | null>((r) => child!.once('exit', (code) => r(code)));
    child.kill('SIGTERM');
    expect(await exited).toBe(0);
  }, 120_000);
});
