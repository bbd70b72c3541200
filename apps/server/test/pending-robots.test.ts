import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PENDING_ROBOTS_MAX, registryRepo } from '../src/modules/robot-link/registry-repo.ts';
import { createTestApp, type TestApp } from './helpers.ts';

/** Unknown MQTT clients are recorded as awaiting registration, in a bounded table. */
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t?.close();
});

const pending = () =>
  t.db.kysely.selectFrom('pending_robots').select(['username', 'last_seen_at']).orderBy('last_seen_at').execute();
const at = (base: number, seconds: number) => new Date(base + seconds * 1000).toISOString();

describe('pending robots', () => {
  it('keeps at most 500 entries, the most recently seen', async () => {
    await t.db.kysely.deleteFrom('pending_robots').execute();
    const repo = registryRepo(t.db.kysely);
    const base = Date.parse('2026-03-01T00:00:00.000Z');
    for (let i = 0; i < 510; i++) await repo.recordPending(`unknown-${i}`, `client-${i}`, '10.0.0.1', at(base, i));
    const rows = await pending();
    expect(PENDING_ROBOTS_MAX).toBe(500);
    expect(rows).toHaveLength(500);
    expect(rows[0]!.username).toBe('unknown-10');
    expect(rows.at(-1)!.username).toBe('unknown-509');
    // A client seen again is kept (its sighting is the newest), the least recently seen one gives way.
    await repo.recordPending('unknown-10', 'client-10', '10.0.0.1', at(base, 600));
    await repo.recordPending('unknown-new', 'client-new', '10.0.0.1', at(base, 601));
    const after = (await pending()).map((r) => r.username);
    expect(after).toHaveLength(500);
    expect(after).toContain('unknown-10');
    expect(after).toContain('unknown-new');
    expect(after).not.toContain('unknown-11');
  });

  it('forgets entries not seen for 7 days', async () => {
    await t.db.kysely.deleteFrom('pending_robots').execute();
    const repo = registryRepo(t.db.kysely);
    const base = Date.parse('2026-03-01T00:00:00.000Z');
    await repo.recordPending('stale', 'stale-client', '10.0.0.2', at(base, 0));
    await repo.recordPending('recent', 'recent-client', '10.0.0.2', at(base, 6 * 86_400));
    await repo.recordPending('newest', 'newest-client', '10.0.0.2', at(base, 7 * 86_400 + 60));
    expect((await pending()).map((r) => r.username)).toEqual(['recent', 'newest']);
  });
});
