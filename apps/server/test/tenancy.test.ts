import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { errorBodySchema, type InitData } from '@portal/contract';
import { createTestApp, type TestApp } from './helpers.ts';

/**
 * Roles and tenancy, enforced by the server for every route: a second organization is imported,
 * and each of its operators tries every route against the first organization's data.
 */
let t: TestApp;
let other: { orgId: number; buildingId: number; admin: string; general: string };
let demoBuildingId: number;
let demoOrgId: number;

const otherData: InitData = {
  organization: { name: 'Other Org', type: 0, labOption: false },
  buildings: [{ name: 'Other Building', floors: [{ name: '1F', index: 1, type: 'office' }] }],
  operators: [
    {
      loginId: 'admin@other.example',
      firstName: 'A',
      lastName: 'Other',
      password: 'Other-Admin-2026',
      type: 2,
      building: 0,
    },
    {
      loginId: 'ops@other.example',
      firstName: 'B',
      lastName: 'Other',
      password: 'Other-Ops-2026x',
      type: 0,
      building: 0,
    },
  ],
};

async function bearer(loginId: string, password: string) {
  const res = await t.login(loginId, password);
  expect(res.statusCode).toBe(200);
  return `Bearer ${res.json<{ token: string }>().token}`;
}

beforeAll(async () => {
  t = await createTestApp();
  const sys = await t.as('sysadmin@demo.example');
  const imported = await t.inject({
    method: 'POST',
    url: '/api/init-data',
    headers: { authorization: sys.authorization },
    payload: otherData,
  });
  expect(imported.statusCode).toBe(201);
  const orgId = imported.json<{ organizationId: number }>().organizationId;
  const b = await t.db.kysely
    .selectFrom('buildings')
    .select('id')
    .where('organization_id', '=', orgId)
    .executeTakeFirstOrThrow();
  other = {
    orgId,
    buildingId: b.id,
    admin: await bearer('admin@other.example', 'Other-Admin-2026'),
    general: await bearer('ops@other.example', 'Other-Ops-2026x'),
  };
  const demoB = await t.db.kysely
    .selectFrom('buildings')
    .select(['id', 'organization_id'])
    .where('name', '=', 'Demo Tower')
    .executeTakeFirstOrThrow();
  demoBuildingId = demoB.id;
  demoOrgId = demoB.organization_id;
});
afterAll(async () => {
  await t.close();
});

const get = (url: string, authorization: string) => t.inject({ method: 'GET', url, headers: { authorization } });

describe('tenancy', () => {
  it('lists only the operator’s own organization and buildings', async () => {
    const orgs = (await get('/api/organizations', other.admin)).json<Array<{ id: number }>>();
    expect(orgs.map((o) => o.id)).toEqual([other.orgId]);
    const buildings = (await get('/api/buildings', other.admin)).json<Array<{ id: number }>>();
    expect(buildings.map((b) => b.id)).toEqual([other.buildingId]);
    const asDemo = (await get('/api/buildings', (await t.as('orgadmin@demo.example')).authorization)).json<
      Array<{ organizationId: number }>
    >();
    expect(asDemo.every((b) => b.organizationId === demoOrgId)).toBe(true);
  });

  it('cannot reach another organization’s data through a filter', async () => {
    const filter = encodeURIComponent(
      JSON.stringify({ where: { or: [{ organizationId: demoOrgId }, { id: demoBuildingId }] } }),
    );
    const res = await get(`/api/buildings?filter=${filter}`, other.admin);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual([]);
    const orgFilter = encodeURIComponent(JSON.stringify({ where: { id: demoOrgId } }));
    expect((await get(`/api/organizations?filter=${orgFilter}`, other.admin)).json()).toEqual([]);
  });

  it('answers 404 for another organization’s floors', async () => {
    const res = await get(`/api/buildings/${demoBuildingId}/floors`, other.admin);
    expect(res.statusCode).toBe(404);
    expect(errorBodySchema.parse(res.json()).error.code).toBe('NOT_FOUND');
  });

  it('keeps a general operator to their own building within the organization', async () => {
    const sys = await t.as('sysadmin@demo.example');
    // A second building in the demo organization.
    const now = new Date().toISOString();
    const second = await t.db.kysely
      .insertInto('buildings')
      .values({
        organization_id: demoOrgId,
        name: 'Annex',
        prefecture: null,
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
    const general = await t.as('operator@demo.example');
    const seen = (await get('/api/buildings', general.authorization)).json<Array<{ id: number }>>();
    expect(seen.map((b) => b.id)).toEqual([demoBuildingId]);
    expect((await get(`/api/buildings/${second.id}/floors`, general.authorization)).statusCode).toBe(404);
    const manager = await t.as('manager@demo.example');
    const managerSees = (await get('/api/buildings', manager.authorization)).json<Array<{ id: number }>>();
    expect(managerSees.map((b) => b.id).sort()).toEqual([demoBuildingId, second.id].sort());
    const all = (await get('/api/buildings', sys.authorization)).json<Array<{ id: number }>>();
    expect(all.map((b) => b.id)).toEqual(expect.arrayContaining([demoBuildingId, second.id, other.buildingId]));
    // Changing location is for administrators, and only within their scope.
    const move = (authorization: string, buildingId: number) =>
      t.inject({ method: 'POST', url: '/api/my/location', headers: { authorization }, payload: { buildingId } });
    expect((await move(general.authorization, second.id)).statusCode).toBe(403);
    expect((await move(manager.authorization, second.id)).statusCode).toBe(200);
    expect((await move(manager.authorization, other.buildingId)).statusCode).toBe(404);
    await move(manager.authorization, demoBuildingId);
  });

  it('cannot revoke another operator’s session or read their messages', async () => {
    const victim = await t.as('operator@demo.example');
    const sessions = await t.db.kysely
      .selectFrom('sessions')
      .select('id')
      .where('operator_id', '=', victim.id)
      .execute();
    for (const s of sessions) {
      const res = await t.inject({
        method: 'DELETE',
        url: `/api/my/devices/${s.id}`,
        headers: { authorization: other.general },
      });
      expect(res.statusCode).toBe(404);
    }
    expect((await get('/api/my/profile', victim.authorization)).statusCode).toBe(200);
    const msg = await t.db.kysely
      .selectFrom('messages')
      .select('id')
      .where('operator_id', '=', victim.id)
      .executeTakeFirstOrThrow();
    const read = await t.inject({
      method: 'POST',
      url: `/api/my/messages/${msg.id}/read`,
      headers: { authorization: other.general },
    });
    expect(read.statusCode).toBe(404);
    const after = await t.db.kysely
      .selectFrom('messages')
      .select('read_at')
      .where('id', '=', msg.id)
      .executeTakeFirstOrThrow();
    expect(after.read_at).toBeNull();
    const mine = (await get('/api/my/messages', other.general)).json<{ items: unknown[] }>();
    expect(mine.items).toHaveLength(0);
  });
});

describe('every route', () => {
  it('answers 401 to every non-public route without a token', async () => {
    const routes = t.app.apiRoutes.filter((r) => r.access !== 'public');
    expect(routes.length).toBeGreaterThan(15);
    for (const r of routes) {
      const url = r.url.replace(/:(\w+)/g, '1');
      const res = await t.inject({
        method: r.method as 'GET',
        url,
        payload: r.method === 'GET' || r.method === 'DELETE' ? undefined : {},
      });
      expect({ route: `${r.method} ${r.url}`, status: res.statusCode }).toEqual({
        route: `${r.method} ${r.url}`,
        status: 401,
      });
    }
  });

  it('answers 403 to system routes for every other role, and changes nothing', async () => {
    const routes = t.app.apiRoutes.filter((r) => r.access === 'system');
    expect(routes.map((r) => r.url)).toEqual(expect.arrayContaining(['/api/deliveries', '/api/init-data']));
    const before = await t.db.kysely
      .selectFrom('organizations')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    for (const who of ['operator@demo.example', 'manager@demo.example', 'orgadmin@demo.example'] as const) {
      const { authorization } = await t.as(who);
      for (const r of routes) {
        const res = await t.inject({
          method: r.method as 'GET',
          url: r.url,
          headers: { authorization },
          payload: r.method === 'GET' ? undefined : otherData,
        });
        expect({ who, route: r.url, status: res.statusCode }).toEqual({ who, route: r.url, status: 403 });
      }
    }
    const after = await t.db.kysely
      .selectFrom('organizations')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    expect(Number(after.n)).toBe(Number(before.n));
  });
});
