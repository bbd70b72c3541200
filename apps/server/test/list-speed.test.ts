import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { operatorSchema } from '@portal/contract';
import { createTestApp, usingPostgres, type TestApp } from './helpers.ts';

/**
 * What migration 025 and the fourth round of docs/decisions/0002-read-caches.md changed, on SQLite and
 * (with `npm run test:server:pg`) PostgreSQL, with the read caches off so every answer comes from SQL:
 * the operator list's total read from `live_counts` (kept by triggers) is the true count whatever
 * writes the operators, and search ignores case and finds Japanese names, whether the trigram
 * indexes serve it (three characters or more, PostgreSQL) or not.
 */
let t: TestApp;
let sys: string;
let orgAdmin: string;
let orgId: number;
let buildingId: number;

const list = async (who: string, filter: object) => {
  const res = await t.call('GET', `/operators?filter=${encodeURIComponent(JSON.stringify(filter))}`, who);
  expect(res.statusCode).toBe(200);
  return { rows: operatorSchema.array().parse(res.json()), total: Number(res.headers['x-total-count']) };
};

/** The live operators counted by hand, all or of one organization. */
const counted = async (organizationId?: number) => {
  let q = t.db.kysely
    .selectFrom('operators')
    .select((eb) => eb.fn.countAll<number | string>().as('n'))
    .where('deleted_at', 'is', null);
  if (organizationId !== undefined) q = q.where('organization_id', '=', organizationId);
  return Number((await q.executeTakeFirstOrThrow()).n);
};

let serial = 0;
const create = async (lastName: string, firstName = 'Test', loginId = `list-speed-${++serial}@demo.example`) => {
  const res = await t.call('POST', '/operators', orgAdmin, {
    loginId,
    firstName,
    lastName,
    type: 0,
    organizationId: orgId,
    buildingId,
    flowEditRestricted: false,
    password: 'Fresh-Pass-2026',
  });
  expect(res.statusCode).toBe(201);
  return operatorSchema.parse(res.json());
};

beforeAll(async () => {
  t = await createTestApp({ READ_CACHE: '0' });
  sys = (await t.as('sysadmin@demo.example')).authorization;
  orgAdmin = (await t.as('orgadmin@demo.example')).authorization;
  const b = await t.db.kysely
    .selectFrom('buildings')
    .select(['id', 'organization_id'])
    .where('name', '=', 'Demo Tower')
    .executeTakeFirstOrThrow();
  buildingId = b.id;
  orgId = b.organization_id;
});
afterAll(async () => {
  await t.close();
});

describe('the operator list total without a where (live_counts)', () => {
  const expectTotals = async () => {
    // First page and a page past the end (which asks the total apart), system and organization admin.
    expect((await list(sys, { limit: 5 })).total).toBe(await counted());
    expect((await list(sys, { limit: 5, skip: 100_000 })).total).toBe(await counted());
    expect((await list(orgAdmin, { limit: 5 })).total).toBe(await counted(orgId));
    expect((await list(orgAdmin, { limit: 5, skip: 100_000 })).total).toBe(await counted(orgId));
  };

  it('is the number of live operators after creates and deletes through the API', async () => {
    await expectTotals();
    const before = await counted(orgId);
    const a = await create('Counted');
    await create('Counted');
    expect((await list(orgAdmin, { limit: 5 })).total).toBe(before + 2);
    expect((await t.call('DELETE', `/operators/${a.id}`, orgAdmin)).statusCode).toBe(204);
    expect((await list(orgAdmin, { limit: 5 })).total).toBe(before + 1);
    await expectTotals();
  });

  it('follows writes straight through SQL: insert, soft delete and undo, a move to another organization, a hard delete', async () => {
    const other = await t.db.kysely
      .insertInto('organizations')
      .values({
        name: 'List Speed Org',
        created_at: '2026-01-01T00:00:00.000Z',
        updated_at: '2026-01-01T00:00:00.000Z',
      } as never)
      .returning('id')
      .executeTakeFirstOrThrow();
    const o = await create('Moved');
    const now = new Date().toISOString();
    await t.db.kysely.updateTable('operators').set({ deleted_at: now }).where('id', '=', o.id).execute();
    await expectTotals();
    await t.db.kysely.updateTable('operators').set({ deleted_at: null }).where('id', '=', o.id).execute();
    await expectTotals();
    // A write that touches neither column leaves the counts alone.
    await t.db.kysely.updateTable('operators').set({ login_count: 5 }).where('id', '=', o.id).execute();
    await expectTotals();
    await t.db.kysely
      .updateTable('operators')
      .set({ organization_id: other.id, building_id: null })
      .where('id', '=', o.id)
      .execute();
    await expectTotals();
    expect(await counted(other.id)).toBe(1);
    await t.db.kysely.deleteFrom('sessions').where('operator_id', '=', o.id).execute();
    await t.db.kysely.deleteFrom('operators').where('id', '=', o.id).execute();
    await expectTotals();
    const kept = await t.db.kysely
      .selectFrom('live_counts')
      .select(['organization_id', 'n'])
      .where('table_name', '=', 'operators')
      .execute();
    // Every organization's kept count is its true count.
    for (const row of kept) expect(Number(row.n)).toBe(await counted(row.organization_id));
  });

  it('a list with a where still counts its rows', async () => {
    const all = await list(sys, { where: { lastName: 'Counted' }, limit: 1 });
    expect(all.total).toBe(1);
  });
});

describe('the building list total for no where or the status alone (building_counts)', () => {
  const buildings = async (who: string, filter: object) => {
    const res = await t.call('GET', `/buildings?filter=${encodeURIComponent(JSON.stringify(filter))}`, who);
    expect(res.statusCode).toBe(200);
    return { rows: res.json<Array<{ id: number }>>(), total: Number(res.headers['x-total-count']) };
  };
  /** The buildings counted by hand: of one organization or all, of one status or any. */
  const countedBuildings = async (organizationId?: number, status?: number) => {
    let q = t.db.kysely.selectFrom('buildings').select((eb) => eb.fn.countAll<number | string>().as('n'));
    if (organizationId !== undefined) q = q.where('organization_id', '=', organizationId);
    if (status !== undefined) q = q.where('status', '=', status);
    return Number((await q.executeTakeFirstOrThrow()).n);
  };
  const expectTotals = async () => {
    for (const status of [undefined, 0, 1]) {
      const where = status === undefined ? {} : { where: { status } };
      // First page and a page past the end (which asks the total apart), system and organization admin.
      expect((await buildings(sys, { ...where, limit: 2 })).total).toBe(await countedBuildings(undefined, status));
      expect((await buildings(sys, { ...where, limit: 2, skip: 100_000 })).total).toBe(
        await countedBuildings(undefined, status),
      );
      expect((await buildings(orgAdmin, { ...where, limit: 2 })).total).toBe(await countedBuildings(orgId, status));
    }
  };

  it('is the true count after creates, status changes, moves and deletes, through the API and straight through SQL', async () => {
    await expectTotals();
    const created = await t.call('POST', '/buildings', orgAdmin, {
      name: 'Counted Annex',
      prefecture: '',
      city: '',
      address: '',
      postalCode: '',
      latitude: null,
      longitude: null,
      organizationId: orgId,
      status: 1,
    });
    expect(created.statusCode).toBe(201);
    const id = created.json<{ id: number }>().id;
    await expectTotals();
    const activeBefore = await countedBuildings(orgId, 1);
    await t.db.kysely.updateTable('buildings').set({ status: 0 }).where('id', '=', id).execute();
    await expectTotals();
    expect((await buildings(orgAdmin, { where: { status: 1 }, limit: 1 })).total).toBe(activeBefore - 1);
    // A write that touches neither column leaves the counts alone.
    await t.db.kysely.updateTable('buildings').set({ city: 'Counted City' }).where('id', '=', id).execute();
    await expectTotals();
    const other = await t.db.kysely
      .selectFrom('organizations')
      .select('id')
      .where('id', '<>', orgId)
      .orderBy('id')
      .executeTakeFirstOrThrow();
    await t.db.kysely
      .updateTable('buildings')
      .set({ organization_id: other.id, status: 1 })
      .where('id', '=', id)
      .execute();
    await expectTotals();
    await t.db.kysely.updateTable('buildings').set({ organization_id: orgId }).where('id', '=', id).execute();
    expect((await t.call('DELETE', `/buildings/${id}`, orgAdmin)).statusCode).toBe(204);
    await expectTotals();
    const kept = await t.db.kysely.selectFrom('building_counts').select(['organization_id', 'status', 'n']).execute();
    // Every kept count is its true count.
    for (const row of kept) expect(Number(row.n)).toBe(await countedBuildings(row.organization_id, row.status));
  });

  it("a general operator's list (one building) and a list with another where still count their rows", async () => {
    const general = (await t.as('operator@demo.example')).authorization;
    expect((await buildings(general, { where: { status: 1 }, limit: 5 })).total).toBe(1);
    expect((await buildings(general, { limit: 5 })).total).toBe(1);
    const named = await buildings(sys, { where: { name: 'Demo Tower' }, limit: 5 });
    expect(named.total).toBe(1);
    expect((await buildings(sys, { where: { status: 1, name: 'Demo Tower' }, limit: 5 })).total).toBe(1);
  });
});

describe('kept statements', () => {
  it('a list whose table gains a column (another server migrating) still answers, with the same rows', async () => {
    const url = `/buildings?filter=${encodeURIComponent(JSON.stringify({ order: 'name ASC', limit: 5 }))}`;
    // Enough runs for the statement to be prepared (PostgreSQL) and its plan kept.
    let before: unknown;
    for (let i = 0; i < 7; i++) {
      const res = await t.call('GET', url, sys);
      expect(res.statusCode).toBe(200);
      before = res.json();
    }
    await sql`alter table buildings add column list_speed_probe integer`.execute(t.db.kysely);
    try {
      for (let i = 0; i < 3; i++) {
        const res = await t.call('GET', url, sys);
        expect(res.statusCode).toBe(200);
        expect(res.json()).toEqual(before);
      }
    } finally {
      await sql`alter table buildings drop column list_speed_probe`.execute(t.db.kysely);
    }
    expect((await t.call('GET', url, sys)).json()).toEqual(before);
  });
});

describe('search (like) ignores case and finds Japanese names on either database', () => {
  beforeAll(async () => {
    await create('McKay', 'Roxanne', 'roxanne.mckay@demo.example');
    await create('MACKENZIE', 'Ian', 'ian.m@demo.example');
    await create('勅使河原', '健太郎', 'kentaro.t@demo.example');
    await create('東海林', '花子', 'hanako.s@demo.example');
    await create('Ōkubo', '一郎', 'TESHIGAWARA.ichiro@demo.example');
  });

  const search = async (text: string) => {
    const like = { like: `%${text}%` };
    const found = await list(sys, {
      where: { or: [{ lastName: like }, { firstName: like }, { loginId: like }] },
      order: 'lastName ASC',
      limit: 50,
    });
    expect(found.total).toBe(found.rows.length);
    return found.rows.map((r) => r.lastName).sort();
  };

  it('finds mixed case whatever the case of the text (long enough for a trigram index, and shorter)', async () => {
    expect(await search('mckay')).toEqual(['McKay']);
    expect(await search('MCKAY')).toEqual(['McKay']);
    expect(await search('mAcKeNz')).toEqual(['MACKENZIE']);
    expect(await search('Mc')).toEqual(['McKay']);
    expect(await search('teshigawara')).toEqual(['Ōkubo']);
  });

  it('finds Japanese names by two characters and by three or more', async () => {
    expect(await search('勅使河原')).toEqual(['勅使河原']);
    expect(await search('健太郎')).toEqual(['勅使河原']);
    expect(await search('東海林')).toEqual(['東海林']);
    expect(await search('勅使')).toEqual(['勅使河原']);
    expect(await search('海林')).toEqual(['東海林']);
    expect(await search('河')).toEqual(['勅使河原']);
  });

  it('the same search shape answers each text rightly however often it is asked (no plan kept for another text)', async () => {
    // PostgreSQL keeps a prepared statement's plan after five runs; a search is never prepared, so a
    // short text after many long ones (and back) is planned for itself. The answers prove the rows.
    for (let i = 0; i < 8; i++) expect(await search('mckay')).toEqual(['McKay']);
    for (let i = 0; i < 3; i++) expect(await search('Mc')).toEqual(['McKay']);
    expect(await search('zzzz-nobody')).toEqual([]);
  });

  it('uses the trigram indexes on PostgreSQL where the extension could be created', async () => {
    if (!usingPostgres()) return;
    const { rows } = await sql<{ indexname: string }>`
      select indexname from pg_indexes where tablename in ('operators', 'buildings') and indexname like '%trgm%'
      order by indexname`.execute(t.db.kysely);
    expect(rows.map((r) => r.indexname)).toEqual([
      'buildings_trgm_name',
      'operators_trgm_first_name',
      'operators_trgm_last_name',
      'operators_trgm_login_id',
    ]);
  });
});
