import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DataVersion } from '../src/db/data-version.ts';
import { createReadCache, createReadCaches, SESSION_TTL_ACROSS_WRITERS_MS } from '../src/services/read-cache.ts';
import { createTestApp, usingPostgres, type TestApp } from './helpers.ts';

describe('ReadCache', () => {
  const clock = () => new Date(1_000_000);
  it('reuses a value only while the data version is unchanged', async () => {
    const version = new DataVersion();
    const cache = createReadCache({ version, enabled: true, clock, ttlMs: 10_000, maxEntries: 10 });
    let computed = 0;
    const read = () => cache.get('k', async () => ++computed);
    expect(await read()).toBe(1);
    expect(await read()).toBe(1);
    version.bump();
    expect(await read()).toBe(2);
  });

  it('does not keep a value computed while something was written', async () => {
    const version = new DataVersion();
    const cache = createReadCache({ version, enabled: true, clock, ttlMs: 10_000, maxEntries: 10 });
    let computed = 0;
    await cache.get('k', async () => {
      version.bump();
      return ++computed;
    });
    expect(await cache.get('k', async () => ++computed)).toBe(2);
  });

  it('keeps sessions 5 s where the exact caches are off, until a write here or an operator change', async () => {
    const version = new DataVersion();
    let now = 1_000_000;
    const caches = createReadCaches(version, false, () => new Date(now), true);
    let computed = 0;
    const read = () => caches.sessions.get('session:x', async () => ++computed);
    expect(await read()).toBe(1);
    now += SESSION_TTL_ACROSS_WRITERS_MS - 1;
    expect(await read()).toBe(1);
    now += 1;
    expect(await read()).toBe(2);
    version.bump();
    expect(await read()).toBe(3);
    caches.sessions.clear();
    expect(await read()).toBe(4);
    // Lists are never kept there, nor anything with READ_CACHE=0.
    let lists = 0;
    await caches.lists.get('l', async () => ++lists);
    await caches.lists.get('l', async () => ++lists);
    expect(lists).toBe(2);
    const off = createReadCaches(version, false, () => new Date(now), false);
    await off.sessions.get('session:x', async () => ++computed);
    await off.sessions.get('session:x', async () => ++computed);
    expect(computed).toBe(6);
  });

  it('computes every time when disabled, and evicts the oldest entry when full', async () => {
    const version = new DataVersion();
    const off = createReadCache({ version, enabled: false, clock, ttlMs: 10_000, maxEntries: 10 });
    let n = 0;
    await off.get('k', async () => ++n);
    await off.get('k', async () => ++n);
    expect(n).toBe(2);
    const small = createReadCache({ version, enabled: true, clock, ttlMs: 10_000, maxEntries: 2 });
    const calls: string[] = [];
    const get = (k: string) => small.get(k, async () => calls.push(k));
    await get('a');
    await get('b');
    await get('c');
    await get('a');
    expect(calls).toEqual(['a', 'b', 'c', 'a']);
  });
});

/** The caches must never show an answer older than the last write, on any path. */
describe('cached reads through the API', () => {
  let t: TestApp;
  let authorization: string;
  beforeAll(async () => {
    t = await createTestApp();
    authorization = (await t.as('orgadmin@demo.example')).authorization;
  });
  afterAll(async () => {
    await t.close();
  });
  const names = async () =>
    (await t.inject({ method: 'GET', url: '/api/buildings', headers: { authorization } }))
      .json<Array<{ name: string }>>()
      .map((b) => b.name);

  it('uses the caches on SQLite only', () => {
    expect(t.db.cacheable).toBe(!usingPostgres());
  });

  it('bumps the data version on writes but not on a session touch', async () => {
    const before = t.db.dataVersion.value;
    await t.db.kysely.selectFrom('buildings').selectAll().execute();
    expect(t.db.dataVersion.value).toBe(before);
    await t.db.kysely
      .updateTable('sessions')
      .set({ last_used_at: new Date().toISOString() })
      .where('id', '=', -1)
      .execute();
    expect(t.db.dataVersion.value).toBe(before);
    await t.db.kysely.updateTable('sessions').set({ device: 'x' }).where('id', '=', -1).execute();
    expect(t.db.dataVersion.value).toBeGreaterThan(before);
  });

  it('shows a change made through the API on the very next list', async () => {
    expect(await names()).toEqual(['Demo Tower']);
    const b = await t.db.kysely.selectFrom('buildings').select(['id', 'updated_at']).executeTakeFirstOrThrow();
    const detail = (await t.inject({ method: 'GET', url: `/api/buildings/${b.id}`, headers: { authorization } })).json<
      Record<string, unknown>
    >();
    const patch = await t.inject({
      method: 'PATCH',
      url: `/api/buildings/${b.id}`,
      headers: { authorization },
      payload: {
        name: 'Demo Tower East',
        prefecture: detail.prefecture ?? '',
        city: detail.city ?? '',
        address: detail.address ?? '',
        postalCode: detail.postalCode ?? '',
        latitude: detail.latitude,
        longitude: detail.longitude,
        organizationId: detail.organizationId,
        status: 1,
        updatedAt: detail.updatedAt,
      },
    });
    expect(patch.statusCode).toBe(200);
    expect(await names()).toEqual(['Demo Tower East']);
  });

  it('shows a change written straight to the database on the very next list', async () => {
    await names();
    await t.db.kysely.updateTable('buildings').set({ name: 'Renamed In SQL' }).execute();
    expect(await names()).toEqual(['Renamed In SQL']);
  });

  it('refuses a revoked or locked session on the very next request, however warm the cache', async () => {
    const { authorization: mine, id } = await t.as('operator@demo.example');
    const profile = () => t.inject({ method: 'GET', url: '/api/my/profile', headers: { authorization: mine } });
    expect((await profile()).statusCode).toBe(200);
    expect((await profile()).statusCode).toBe(200);
    await t.db.kysely.updateTable('operators').set({ status: 0 }).where('id', '=', id).execute();
    expect((await profile()).statusCode).toBe(403);
    await t.db.kysely.updateTable('operators').set({ status: 1 }).where('id', '=', id).execute();
    expect((await profile()).statusCode).toBe(200);
    await t.db.kysely
      .updateTable('sessions')
      .set({ revoked_at: new Date().toISOString() })
      .where('operator_id', '=', id)
      .execute();
    expect((await profile()).statusCode).toBe(401);
  });

  it('keeps each scope’s answers apart', async () => {
    const general = await t.as('operator@demo.example');
    const sys = await t.as('sysadmin@demo.example');
    const count = async (auth: string) =>
      (await t.inject({ method: 'GET', url: '/api/organizations', headers: { authorization: auth } })).json<unknown[]>()
        .length;
    expect(await count(sys.authorization)).toBe(2);
    expect(await count(general.authorization)).toBe(1);
    expect(await count(sys.authorization)).toBe(2);
  });
});
