import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  buildingSchema,
  errorBodySchema,
  organizationSchema,
  PREFECTURE_CODES,
  type Building,
  type Organization,
} from '@portal/contract';
import { prefectureCodeOf, up as migratePrefectures } from '../src/db/migrations/013-prefecture-codes.ts';
import { createTestApp, type TestApp } from './helpers.ts';

/**
 * Where buildings and organizations are: the prefecture is one of the 47 codes (JIS X 0401), a
 * building has an IANA time zone (default Asia/Tokyo), and migration 013 turns stored prefecture
 * names into codes.
 */
let t: TestApp;
let sys: string;
let orgAdmin: string;
let demo: Building;
let demoOrg: Organization;

beforeAll(async () => {
  t = await createTestApp();
  sys = (await t.as('sysadmin@demo.example')).authorization;
  orgAdmin = (await t.as('orgadmin@demo.example')).authorization;
  const row = await t.db.kysely
    .selectFrom('buildings')
    .select(['id', 'organization_id'])
    .where('name', '=', 'Demo Tower')
    .executeTakeFirstOrThrow();
  demo = buildingSchema.parse((await t.call('GET', `/buildings/${row.id}`, sys)).json());
  demoOrg = organizationSchema.parse((await t.call('GET', `/organizations/${row.organization_id}`, sys)).json());
});
afterAll(async () => {
  await t?.close();
});

const buildingBody = (b: Building, change: Record<string, unknown> = {}) => ({
  name: b.name,
  prefecture: b.prefecture ?? '',
  city: b.city ?? '',
  address: b.address ?? '',
  postalCode: b.postalCode ?? '',
  latitude: b.latitude,
  longitude: b.longitude,
  organizationId: b.organizationId,
  status: b.status,
  timeZone: b.timeZone,
  ...change,
});

const orgBody = (o: Organization, change: Record<string, unknown> = {}) => ({
  name: o.name,
  type: o.type,
  level: o.level,
  prefecture: o.prefecture ?? '',
  city: o.city ?? '',
  address: o.address ?? '',
  postalCode: o.postalCode ?? '',
  status: o.status,
  labOption: o.labOption,
  updatedAt: o.updatedAt,
  ...change,
});

const detailsOf = (res: { json: () => unknown }) => errorBodySchema.parse(res.json()).error.details ?? [];

describe('prefectures', () => {
  it('are the 47 two-digit codes, and the demo data is in Tokyo (13)', () => {
    expect(PREFECTURE_CODES).toHaveLength(47);
    expect(PREFECTURE_CODES[0]).toBe('01');
    expect(PREFECTURE_CODES[46]).toBe('47');
    expect(demo.prefecture).toBe('13');
    expect(demoOrg.prefecture).toBe('13');
  });

  it('stores a building’s code, clears it with an empty value and refuses anything else with a localized 400', async () => {
    const created = await t.call(
      'POST',
      '/buildings',
      orgAdmin,
      buildingBody(demo, { name: 'Osaka Annex', prefecture: '27' }),
    );
    expect(created.statusCode).toBe(201);
    const b = buildingSchema.parse(created.json());
    expect(b.prefecture).toBe('27');

    for (const bad of ['東京都', 'Tokyo', '48', '00', '1', 13]) {
      const res = await t.call('PATCH', `/buildings/${b.id}`, orgAdmin, {
        ...buildingBody(b, { prefecture: bad }),
        updatedAt: b.updatedAt,
      });
      expect({ bad, status: res.statusCode }).toEqual({ bad, status: 400 });
      expect(detailsOf(res)).toEqual([
        expect.objectContaining({ path: 'prefecture', message: 'validation.prefecture' }),
      ]);
    }
    const cleared = await t.call('PATCH', `/buildings/${b.id}`, orgAdmin, {
      ...buildingBody(b, { prefecture: '' }),
      updatedAt: b.updatedAt,
    });
    expect(cleared.statusCode).toBe(200);
    expect(buildingSchema.parse(cleared.json()).prefecture).toBeNull();
  });

  it('stores an organization’s code and refuses a name with a localized 400', async () => {
    const bad = await t.call(
      'PATCH',
      `/organizations/${demoOrg.id}`,
      orgAdmin,
      orgBody(demoOrg, { prefecture: 'Osaka' }),
    );
    expect(bad.statusCode).toBe(400);
    expect(detailsOf(bad)).toEqual([expect.objectContaining({ path: 'prefecture', message: 'validation.prefecture' })]);
    const ok = await t.call('PATCH', `/organizations/${demoOrg.id}`, orgAdmin, orgBody(demoOrg, { prefecture: '01' }));
    expect(ok.statusCode).toBe(200);
    expect(organizationSchema.parse(ok.json()).prefecture).toBe('01');
    const back = organizationSchema.parse(ok.json());
    expect(
      (await t.call('PATCH', `/organizations/${demoOrg.id}`, orgAdmin, orgBody(back, { prefecture: '13' }))).statusCode,
    ).toBe(200);
  });

  it('lists buildings filtered by a prefecture code', async () => {
    const filter = JSON.stringify({ where: { prefecture: '13' }, fields: ['id', 'prefecture'] });
    const res = await t.call('GET', `/buildings?filter=${encodeURIComponent(filter)}`, sys);
    expect(res.statusCode).toBe(200);
    const rows = res.json<Array<{ id: number; prefecture: string }>>();
    expect(rows.map((r) => r.id)).toContain(demo.id);
    expect(new Set(rows.map((r) => r.prefecture))).toEqual(new Set(['13']));
  });

  it('migration 013 reads prefecture names in Japanese and English, in any usual spelling', () => {
    const cases: Array<[string, string | null]> = [
      ['東京都', '13'],
      ['東京', '13'],
      ['京都府', '26'],
      ['京都', '26'],
      ['大阪', '27'],
      ['北海道', '01'],
      ['神奈川県', '14'],
      ['Tokyo', '13'],
      ['TOKYO', '13'],
      ['  tokyo-to ', '13'],
      ['Tōkyō', '13'],
      ['Ｔｏｋｙｏ', '13'],
      ['Tokyo Metropolis', '13'],
      ['Osaka-fu', '27'],
      ['Aichi Prefecture', '23'],
      ['Aomori-ken', '02'],
      ['Hokkaido', '01'],
      ['Hokkai-do', '01'],
      ['Hyōgo', '28'],
      ['Kyoto', '26'],
      ['Ōita', '44'],
      ['13', '13'],
      ['1', '01'],
      ['Atlantis', null],
      ['東京都千代田区', null],
      ['California', null],
    ];
    for (const [text, code] of cases) expect({ text, code: prefectureCodeOf(text) }).toEqual({ text, code });
  });

  it('migration 013 turns stored names into codes, blanks into null, and leaves unknown text as it was', async () => {
    const db = t.db.kysely;
    const now = new Date().toISOString();
    const texts = ['東京都', 'Osaka', ' ', 'Atlantis', '47'];
    const ids: number[] = [];
    for (const [i, prefecture] of texts.entries()) {
      const row = await db
        .insertInto('buildings')
        .values({
          organization_id: demo.organizationId,
          name: `Legacy ${i}`,
          prefecture,
          city: null,
          address: null,
          postal_code: null,
          latitude: null,
          longitude: null,
          status: 1,
          ip_restriction_enabled: 0,
          created_at: now,
          updated_at: now,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      ids.push(row.id);
    }
    await db.updateTable('organizations').set({ prefecture: '大阪府' }).where('id', '=', demoOrg.id).execute();
    await migratePrefectures(db as never);
    const after = await db
      .selectFrom('buildings')
      .select(['id', 'prefecture', 'time_zone'])
      .where('id', 'in', ids)
      .orderBy('id')
      .execute();
    expect(after.map((r) => r.prefecture)).toEqual(['13', '27', null, 'Atlantis', '47']);
    // A building written without a zone has the default.
    expect(new Set(after.map((r) => r.time_zone))).toEqual(new Set(['Asia/Tokyo']));
    const org = await db
      .selectFrom('organizations')
      .select('prefecture')
      .where('id', '=', demoOrg.id)
      .executeTakeFirstOrThrow();
    expect(org.prefecture).toBe('27');
    // The legacy text is answered as it is (the web app shows it raw).
    const legacy = await t.call('GET', `/buildings/${ids[3]}`, sys);
    expect(buildingSchema.parse(legacy.json()).prefecture).toBe('Atlantis');
    await db.updateTable('organizations').set({ prefecture: '13' }).where('id', '=', demoOrg.id).execute();
  });
});

describe('building time zone', () => {
  it('is Asia/Tokyo for the demo building and for a new building that names none', async () => {
    expect(demo.timeZone).toBe('Asia/Tokyo');
    const { timeZone: _omitted, ...body } = buildingBody(demo, { name: 'No Zone Annex' });
    const res = await t.call('POST', '/buildings', orgAdmin, body);
    expect(res.statusCode).toBe(201);
    expect(buildingSchema.parse(res.json()).timeZone).toBe('Asia/Tokyo');
  });

  it('stores a zone the runtime knows, keeps it when an edit names none, and answers it in lists', async () => {
    const res = await t.call(
      'POST',
      '/buildings',
      orgAdmin,
      buildingBody(demo, { name: 'NY Office', timeZone: 'America/New_York' }),
    );
    expect(res.statusCode).toBe(201);
    const b = buildingSchema.parse(res.json());
    expect(b.timeZone).toBe('America/New_York');

    const { timeZone: _omitted, ...withoutZone } = buildingBody(b, { city: 'Manhattan' });
    const kept = await t.call('PATCH', `/buildings/${b.id}`, orgAdmin, { ...withoutZone, updatedAt: b.updatedAt });
    expect(kept.statusCode).toBe(200);
    const k = buildingSchema.parse(kept.json());
    expect(k.timeZone).toBe('America/New_York');

    const utc = await t.call('PATCH', `/buildings/${b.id}`, orgAdmin, {
      ...buildingBody(k, { timeZone: 'UTC' }),
      updatedAt: k.updatedAt,
    });
    expect(utc.statusCode).toBe(200);
    expect(buildingSchema.parse(utc.json()).timeZone).toBe('UTC');

    const filter = JSON.stringify({ where: { id: b.id }, fields: ['id', 'timeZone'] });
    const list = await t.call('GET', `/buildings?filter=${encodeURIComponent(filter)}`, sys);
    expect(list.json()).toEqual([{ id: b.id, timeZone: 'UTC' }]);
  });

  it('refuses a zone that does not exist with a localized 400, never a 500', async () => {
    for (const bad of ['Mars/Olympus_Mons', 'Tokyo', 'asia/tokyo', 'JST', '+09:00', '', 'A'.repeat(100), 9, null]) {
      const res = await t.call('PATCH', `/buildings/${demo.id}`, orgAdmin, {
        ...buildingBody(demo, { timeZone: bad }),
        updatedAt: demo.updatedAt,
      });
      expect({ bad, status: res.statusCode }).toEqual({ bad, status: 400 });
      expect(detailsOf(res)).toEqual([expect.objectContaining({ path: 'timeZone', message: 'validation.timeZone' })]);
    }
  });

  it('is imported with the initial data', async () => {
    const res = await t.call('POST', '/init-data', sys, {
      organization: { name: 'Zoned Org', type: 0, labOption: false, prefecture: '40' },
      buildings: [
        { name: 'Fukuoka Site', prefecture: '40', timeZone: 'Asia/Tokyo', floors: [] },
        { name: 'Plain Site', floors: [] },
      ],
      operators: [],
    });
    expect(res.statusCode).toBe(201);
    const orgId = res.json<{ organizationId: number }>().organizationId;
    const rows = await t.db.kysely
      .selectFrom('buildings')
      .select(['name', 'prefecture', 'time_zone'])
      .where('organization_id', '=', orgId)
      .orderBy('name')
      .execute();
    expect(rows).toEqual([
      { name: 'Fukuoka Site', prefecture: '40', time_zone: 'Asia/Tokyo' },
      { name: 'Plain Site', prefecture: null, time_zone: 'Asia/Tokyo' },
    ]);
    const bad = await t.call('POST', '/init-data', sys, {
      organization: { name: 'Bad Zoned Org', type: 0, labOption: false },
      buildings: [{ name: 'X', timeZone: 'Nowhere/Land', prefecture: 'Tokyo', floors: [] }],
      operators: [],
    });
    expect(bad.statusCode).toBe(400);
    expect(
      detailsOf(bad)
        .map((d) => d.message)
        .sort(),
    ).toEqual(['validation.prefecture', 'validation.timeZone']);
  });
});
