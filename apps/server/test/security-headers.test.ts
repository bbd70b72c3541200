import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../src/app.ts';
import { createAudit } from '../src/services/audit.ts';
import { createMailer } from '../src/services/mailer.ts';
import { createReadCaches } from '../src/services/read-cache.ts';
import { createFileStore } from '../src/services/file-store.ts';
import { signFileUrl } from '../src/modules/files/signed-url.ts';
import { redactUrl } from '../src/plugins/request-log.ts';
import { createTestApp, type TestApp } from './helpers.ts';

/** Security headers on every answer, HSTS only over TLS, and signed file URLs kept out of the log. */
let t: TestApp;
let proxied: TestApp;
let dist: string;
beforeAll(async () => {
  dist = mkdtempSync(join(tmpdir(), 'portal-dist-'));
  mkdirSync(join(dist, 'assets'));
  writeFileSync(join(dist, 'index.html'), '<!doctype html><html><head><title>Portal</title></head></html>');
  t = await createTestApp({ WEB_DIST: dist });
  proxied = await createTestApp({ WEB_DIST: dist, TRUST_PROXY: 'true' });
});
afterAll(async () => {
  await t?.close();
  await proxied?.close();
  rmSync(dist, { recursive: true, force: true });
});

function expectSecurityHeaders(headers: Record<string, unknown>) {
  const csp = String(headers['content-security-policy']);
  expect(csp).toContain("default-src 'self'");
  expect(csp).toContain("script-src 'self'");
  expect(csp).not.toMatch(/script-src[^;]*unsafe-inline/);
  expect(csp).toContain("connect-src 'self' ws: wss:");
  expect(csp).toContain("frame-ancestors 'none'");
  expect(headers['x-content-type-options']).toBe('nosniff');
  expect(headers['referrer-policy']).toBe('strict-origin-when-cross-origin');
  expect(headers['x-frame-options']).toBe('DENY');
}

describe('security headers', () => {
  it('are on API answers, errors, the SPA page and assets', async () => {
    const responses = [
      await t.inject({ method: 'GET', url: '/api/health' }),
      await t.inject({ method: 'GET', url: '/api/no-such-thing' }),
      await t.inject({ method: 'GET', url: '/' }),
      await t.inject({ method: 'GET', url: '/robot/control' }),
    ];
    expect(responses.map((r) => r.statusCode)).toEqual([200, 404, 200, 200]);
    for (const res of responses) expectSecurityHeaders(res.headers);
  });

  it('send HSTS only when the request came over TLS (X-Forwarded-Proto honoured with TRUST_PROXY)', async () => {
    const plain = await t.inject({ method: 'GET', url: '/api/health' });
    expect(plain.headers['strict-transport-security']).toBeUndefined();
    // Without TRUST_PROXY a client cannot claim TLS.
    const claimed = await t.inject({ method: 'GET', url: '/api/health', headers: { 'x-forwarded-proto': 'https' } });
    expect(claimed.headers['strict-transport-security']).toBeUndefined();
    expect(
      (await proxied.inject({ method: 'GET', url: '/api/health' })).headers['strict-transport-security'],
    ).toBeUndefined();
    for (const url of ['/api/health', '/']) {
      const tls = await proxied.inject({ method: 'GET', url, headers: { 'x-forwarded-proto': 'https' } });
      expect(tls.headers['strict-transport-security']).toMatch(/^max-age=\d+/);
      expectSecurityHeaders(tls.headers);
    }
  });
});

describe('the request log', () => {
  it('redacts the sig query parameter', () => {
    expect(redactUrl('/api/files/a.png?exp=1&sig=abc_DEF-1')).toBe('/api/files/a.png?exp=1&sig=[redacted]');
    expect(redactUrl('/api/files/a.png?sig=abc&exp=1')).toBe('/api/files/a.png?sig=[redacted]&exp=1');
    expect(redactUrl('/api/health')).toBe('/api/health');
  });

  it('never contains the signature of a signed file URL', async () => {
    const lines: string[] = [];
    const clock = () => new Date();
    const silent = new Proxy({} as never, { get: () => () => undefined });
    const app = await buildApp({
      ctx: {
        config: t.config,
        db: t.db.kysely,
        dialect: t.db.dialect,
        dbVersion: t.db.version,
        clock,
        audit: createAudit(t.db.kysely, clock),
        mailer: createMailer({ db: t.db.kysely, clock, log: silent, smtpUrl: null, from: 'test@localhost' }),
        fileStore: createFileStore({ dir: join(t.config.dataDir, 'files'), db: t.db.kysely, clock }),
        caches: createReadCaches(t.db.dataVersion, false, clock),
        robotLink: t.link,
      },
      logger: { level: 'info', stream: { write: (line: string) => void lines.push(line) } },
    });
    try {
      await app.ready();
      const url = signFileUrl(t.config.secretKey, t.config.apiBase, 'no-such-file.png', new Date());
      const sig = new URL(url, 'http://x').searchParams.get('sig')!;
      expect(sig.length).toBeGreaterThan(8);
      const res = await app.inject({ method: 'GET', url });
      expect(res.statusCode).toBeGreaterThanOrEqual(400);
      const log = lines.join('');
      expect(log).toContain('no-such-file.png');
      expect(log).toContain('sig=[redacted]');
      expect(log).not.toContain(sig);
    } finally {
      await app.close();
    }
  });
});
