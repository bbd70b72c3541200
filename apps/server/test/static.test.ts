import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from './helpers.ts';

/** The built web app is served with history-mode fallback; the API keeps its JSON 404. */
let t: TestApp;
let dist: string;
beforeAll(async () => {
  dist = mkdtempSync(join(tmpdir(), 'portal-dist-'));
  mkdirSync(join(dist, 'assets'));
  writeFileSync(join(dist, 'index.html'), '<!doctype html><html><head><title>Portal</title></head></html>');
  writeFileSync(join(dist, 'assets', 'app-abc123.js'), 'console.log(1)');
  t = await createTestApp({ WEB_DIST: dist });
});
afterAll(async () => {
  await t.close();
  rmSync(dist, { recursive: true, force: true });
});

describe('web app hosting', () => {
  it('answers index.html for app routes, with no-cache', async () => {
    for (const url of ['/', '/robot/control', '/my/messages/2?x=1', '/auth/login']) {
      const res = await t.inject({ method: 'GET', url });
      expect(res.statusCode).toBe(200);
      expect(res.body).toContain('<title>Portal</title>');
    }
    expect((await t.inject({ method: 'GET', url: '/robot/control' })).headers['cache-control']).toBe('no-cache');
  });

  it('serves hashed assets as immutable', async () => {
    const res = await t.inject({ method: 'GET', url: '/assets/app-abc123.js' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['cache-control']).toContain('immutable');
  });

  it('keeps the JSON 404 for unknown API routes and non-GET methods', async () => {
    const api = await t.inject({ method: 'GET', url: '/api/no-such-thing' });
    expect(api.statusCode).toBe(404);
    expect(api.json()).toMatchObject({ error: { code: 'NOT_FOUND' } });
    expect((await t.inject({ method: 'POST', url: '/robot/control' })).statusCode).toBe(404);
  });
});

describe('a non-default API_BASE', () => {
  it('is written into the served page so the same web build calls the right base', async () => {
    const other = await createTestApp({ WEB_DIST: dist, API_BASE: '/portal-api' });
    try {
      for (const url of ['/', '/robot/control', '/index.html']) {
        const page = await other.inject({ method: 'GET', url });
        expect(page.statusCode).toBe(200);
        expect(page.body).toContain('<meta name="portal-api-base" content="/portal-api" />');
      }
      expect((await other.inject({ method: 'GET', url: '/portal-api/health' })).statusCode).toBe(200);
      expect((await other.inject({ method: 'GET', url: '/portal-api/nope' })).json()).toMatchObject({
        error: { code: 'NOT_FOUND' },
      });
    } finally {
      await other.close();
    }
  });
});
