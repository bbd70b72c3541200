import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { request } from 'node:http';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../src/config.ts';
import { startServer } from '../src/server.ts';

/** The real start-up path: migrate, seed, admin from the environment, broker, listen, and a clean stop. */
describe('startServer', () => {
  it('answers health, runs the demo fleet, finishes in-flight requests on stop, and seeds only once', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'portal-life-'));
    const env = {
      DATA_DIR: dir,
      PORT: '0',
      MQTT_PORT: '0',
      LOG_LEVEL: 'silent',
      ADMIN_EMAIL: 'root@example.com',
      ADMIN_PASSWORD: 'Root-Password-2026',
    };
    const write = process.stdout.write.bind(process.stdout);
    process.stdout.write = (() => true) as typeof process.stdout.write;
    try {
      const server = await startServer(loadConfig(env));
      expect((await fetch(`${server.url}/api/health`)).status).toBe(200);
      // Both the env admin and the demo system admin exist on a fresh database.
      const root = await fetch(`${server.url}/api/operators/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ loginId: 'root@example.com', loginPw: 'Root-Password-2026' }),
      });
      expect(root.status).toBe(200);
      // The simulated demo fleet (SIMULATED_ROBOTS, default 3) connects through the real broker.
      const auth = { authorization: `Bearer ${((await root.json()) as { token: string }).token}` };
      await expect
        .poll(
          async () => {
            const fleet = (await (await fetch(`${server.url}/api/robots/fleet`, { headers: auth })).json()) as Array<{
              serialNo: string;
              live: { online: boolean };
            }>;
            return fleet.filter((r) => r.live.online).map((r) => r.serialNo);
          },
          { timeout: 30_000, interval: 250 },
        )
        .toEqual(['SIM-0001', 'SIM-0002', 'SIM-0003']);
      // A request is in flight (headers and half of its body received) when the server is told to stop.
      const body = JSON.stringify({ loginId: 'operator@demo.example', loginPw: 'Demo-Operator-2026' });
      const { port } = new URL(server.url);
      const response = new Promise<{ status: number; body: string }>((resolve, reject) => {
        const req = request(
          {
            host: '127.0.0.1',
            port,
            path: '/api/operators/login',
            method: 'POST',
            agent: false,
            headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) },
          },
          (res) => {
            let text = '';
            res.on('data', (c: Buffer) => (text += c.toString()));
            res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text }));
          },
        );
        req.on('error', reject);
        req.write(body.slice(0, 10));
        setTimeout(() => {
          stopping = server.stop();
          setTimeout(() => req.end(body.slice(10)), 100);
        }, 100);
      });
      let stopping: Promise<void> | null = null;
      const answered = await response;
      expect(answered.status).toBe(200);
      expect(JSON.parse(answered.body)).toHaveProperty('token');
      await stopping;
      await expect(fetch(`${server.url}/api/health`)).rejects.toThrow();

      const again = await startServer(loadConfig(env));
      const login = await again.app.inject({
        method: 'POST',
        url: '/api/operators/login',
        payload: { loginId: 'root@example.com', loginPw: 'Root-Password-2026' },
      });
      const orgs = await again.app.inject({
        method: 'GET',
        url: '/api/organizations',
        headers: { authorization: `Bearer ${login.json<{ token: string }>().token}` },
      });
      // Portal Operations and the demo organization, not seeded a second time.
      expect(orgs.headers['x-total-count']).toBe('2');
      await again.stop();
    } finally {
      process.stdout.write = write;
      rmSync(dir, { recursive: true, force: true });
    }
  }, 90_000);
});
