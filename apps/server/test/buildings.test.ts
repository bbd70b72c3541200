import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { InjectOptions } from 'fastify';
import {
  buildingLinksSchema,
  buildingSchema,
  errorBodySchema,
  groupSchema,
  ipRestrictionSchema,
  ipRuleSchema,
  speechTextSchema,
  type Building,
  type Group,
  type InitData,
} from '@portal/contract';
import { createTestApp, type TestApp } from './helpers.ts';

/**
 * Buildings and their sections (groups, speech texts, IP restriction, system links): roles,
 * tenancy (a second organization is imported), concurrency, audit and secrets.
 */
let t: TestApp;
let demoBuildingId: number;
let demoOrgId: number;
const auth: Record<'general' | 'manager' | 'orgAdmin' | 'sysAdmin' | 'otherAdmin' | 'otherGeneral', string> = {
  general: '',
  manager: '',
  orgAdmin: '',
  sysAdmin: '',
  otherAdmin: '',
  otherGeneral: '',
};
let other: { orgId: number; buildingId: number };

const otherData: InitData = {
  organization: { name: 'Other Buildings Org', type: 0, labOption: false },
  buildings: [{ name: 'Other Building', floors: [{ name: '1F', index: 1, type: 'office' }] }],
  operators: [
    {
      loginId: 'admin@other-b.example',
      firstName: 'A',
      lastName: 'Other',
      password: 'Other-Admin-2026',
      type: 2,
      building: 0,
    },
    {
      loginId: 'ops@other-b.example',
      firstName: 'B',
      lastName: 'Other',
      password: 'Other-Ops-2026x',
      type: 0,
      building: 0,
    },
  ],
};

async function bearer(loginId: string, password: string, remoteAddress?: string) {
  const res = await t.login(loginId, password, remoteAddress ? { remoteAddress } : {});
  expect(res.statusCode).toBe(200);
  return `Bearer ${res.json<{ token: string }>().token}`;
}

const call: TestApp['call'] = (...args) => t.call(...args);

const codeOf = (res: { json: () => unknown }) => errorBodySchema.parse(res.json()).error.code;

const newBuilding = (organizationId: number, name = 'Annex') => ({
  name,
  prefecture: '',
  city: 'Chiyoda',
  address: '',
  postalCode: '',
  latitude: null,
  longitude: null,
  organizationId,
  status: 1,
});

async function createBuilding(name: string, organizationId = demoOrgId): Promise<Building> {
  const res = await call('POST', '/buildings', auth.orgAdmin, newBuilding(organizationId, name));
  expect(res.statusCode).toBe(201);
  return buildingSchema.parse(res.json());
}

async function auditActions(action: string) {
  return t.db.kysely.selectFrom('audit_logs').selectAll().where('action', '=', action).execute();
}

beforeAll(async () => {
  t = await createTestApp();
  auth.sysAdmin = (await t.as('sysadmin@demo.example')).authorization;
  const imported = await call('POST', '/init-data', auth.sysAdmin, otherData);
  expect(imported.statusCode).toBe(201);
  const orgId = imported.json<{ organizationId: number }>().organizationId;
  const b = await t.db.kysely
    .selectFrom('buildings')
    .select('id')
    .where('organization_id', '=', orgId)
    .executeTakeFirstOrThrow();
  other = { orgId, buildingId: b.id };
  auth.otherAdmin = await bearer('admin@other-b.example', 'Other-Admin-2026');
  auth.otherGeneral = await bearer('ops@other-b.example', 'Other-Ops-2026x');
  auth.general = (await t.as('operator@demo.example')).authorization;
  auth.manager = (await t.as('manager@demo.example')).authorization;
  auth.orgAdmin = (await t.as('orgadmin@demo.example')).authorization;
  const demoB = await t.db.kysely
    .selectFrom('buildings')
    .select(['id', 'organization_id'])
    .where('name', '=', 'Demo Tower')
    .executeTakeFirstOrThrow();
  demoBuildingId = demoB.id;
  demoOrgId = demoB.organization_id;
});
afterAll(async () => {
  await t?.close();
});

describe('buildings', () => {
  it('answers a building with its robot groups and flow groups to any operator in scope', async () => {
    for (const who of ['general', 'manager', 'orgAdmin', 'sysAdmin'] as const) {
      const res = await call('GET', `/buildings/${demoBuildingId}`, auth[who]);
      expect(res.statusCode).toBe(200);
      const b = buildingSchema.parse(res.json());
      expect(b.id).toBe(demoBuildingId);
      expect(b.groups?.length).toBeGreaterThan(0);
      expect(b.flowGroups?.length).toBeGreaterThan(0);
    }
    expect((await call('GET', '/buildings/999999', auth.sysAdmin)).statusCode).toBe(404);
    expect((await call('GET', '/buildings/abc', auth.sysAdmin)).statusCode).toBe(400);
  });

  it('creates, updates and deletes a building, storing empty texts as null and auditing each change', async () => {
    const created = await createBuilding('Create Test');
    expect(created).toMatchObject({
      name: 'Create Test',
      prefecture: null,
      address: null,
      postalCode: null,
      city: 'Chiyoda',
      organizationId: demoOrgId,
      groups: [],
      flowGroups: [],
    });
    const row = await t.db.kysely
      .selectFrom('buildings')
      .selectAll()
      .where('id', '=', created.id)
      .executeTakeFirstOrThrow();
    expect(row.prefecture).toBeNull();

    const patched = await call('PATCH', `/buildings/${created.id}`, auth.orgAdmin, {
      ...newBuilding(demoOrgId, 'Renamed'),
      // Coordinates keep full double precision on SQLite and PostgreSQL alike.
      latitude: 35.681236,
      longitude: 139.767125,
      postalCode: '100-0005',
      updatedAt: created.updatedAt,
    });
    expect(patched.statusCode).toBe(200);
    const updated = buildingSchema.parse(patched.json());
    expect(updated).toMatchObject({ name: 'Renamed', postalCode: '100-0005' });
    expect(updated.latitude).toBe(35.681236);
    expect(updated.longitude).toBe(139.767125);
    expect(updated.updatedAt > created.updatedAt).toBe(true);

    expect((await call('DELETE', `/buildings/${created.id}`, auth.orgAdmin)).statusCode).toBe(204);
    expect((await call('GET', `/buildings/${created.id}`, auth.orgAdmin)).statusCode).toBe(404);
    for (const action of ['building.create', 'building.update', 'building.delete']) {
      const entries = await auditActions(action);
      expect(entries.some((e) => e.target_id === String(created.id) && e.ip && e.target_type === 'building')).toBe(
        true,
      );
    }
  });

  it('refuses a stale edit with 409 and keeps the first edit', async () => {
    const b = await createBuilding('Concurrency');
    const first = await call('PATCH', `/buildings/${b.id}`, auth.orgAdmin, {
      ...newBuilding(demoOrgId, 'First'),
      updatedAt: b.updatedAt,
    });
    expect(first.statusCode).toBe(200);
    const second = await call('PATCH', `/buildings/${b.id}`, auth.sysAdmin, {
      ...newBuilding(demoOrgId, 'Second'),
      updatedAt: b.updatedAt,
    });
    expect(second.statusCode).toBe(409);
    expect(codeOf(second)).toBe('STALE_UPDATE');
    expect(buildingSchema.parse((await call('GET', `/buildings/${b.id}`, auth.orgAdmin)).json()).name).toBe('First');
  });

  it('lets an organization admin create only in their own organization and not move a building away', async () => {
    const res = await call('POST', '/buildings', auth.orgAdmin, newBuilding(other.orgId, 'Sneaky'));
    expect(res.statusCode).toBe(403);
    const b = await createBuilding('Stay Home');
    const move = await call('PATCH', `/buildings/${b.id}`, auth.orgAdmin, {
      ...newBuilding(other.orgId, 'Stay Home'),
      updatedAt: b.updatedAt,
    });
    expect(move.statusCode).toBe(403);
    expect(buildingSchema.parse((await call('GET', `/buildings/${b.id}`, auth.orgAdmin)).json()).organizationId).toBe(
      demoOrgId,
    );
    // A system administrator may create anywhere, but not in an organization that does not exist.
    expect((await call('POST', '/buildings', auth.sysAdmin, newBuilding(other.orgId, 'For Other'))).statusCode).toBe(
      201,
    );
    expect((await call('POST', '/buildings', auth.sysAdmin, newBuilding(999999, 'Nowhere'))).statusCode).toBe(404);
  });

  it('lets a system admin move a building with everything in it to another organization', async () => {
    const b = await createBuilding('Moving');
    await call('POST', '/robot-groups', auth.orgAdmin, { buildingId: b.id, name: 'Moves along' });
    const moved = await call('PATCH', `/buildings/${b.id}`, auth.sysAdmin, {
      ...newBuilding(other.orgId, 'Moving'),
      updatedAt: b.updatedAt,
    });
    expect(moved.statusCode).toBe(200);
    const groups = await t.db.kysely
      .selectFrom('robot_groups')
      .select('organization_id')
      .where('building_id', '=', b.id)
      .execute();
    expect(groups.map((g) => g.organization_id)).toEqual([other.orgId]);
    expect((await call('GET', `/buildings/${b.id}`, auth.orgAdmin)).statusCode).toBe(404);
    expect((await call('GET', `/buildings/${b.id}`, auth.otherAdmin)).statusCode).toBe(200);
  });

  it('refuses to delete a building operators still belong to, with counts per kind', async () => {
    const res = await call('DELETE', `/buildings/${demoBuildingId}`, auth.orgAdmin);
    expect(res.statusCode).toBe(409);
    const body = errorBodySchema.parse(res.json());
    expect(body.error.code).toBe('IN_USE');
    expect(body.error.details).toEqual([expect.objectContaining({ path: 'operators', message: 'validation.inUse' })]);
    expect(Number(body.error.details?.[0]?.code)).toBeGreaterThan(0);
    expect((await call('GET', `/buildings/${demoBuildingId}`, auth.orgAdmin)).statusCode).toBe(200);
  });

  it('answers bad bodies with 400 VALIDATION_FAILED, never 500', async () => {
    for (const body of [
      {},
      { ...newBuilding(demoOrgId, '') },
      { ...newBuilding(demoOrgId, 'x'.repeat(41)) },
      { ...newBuilding(demoOrgId), latitude: 91 },
      { ...newBuilding(demoOrgId), postalCode: 'abc' },
    ]) {
      const res = await call('POST', '/buildings', auth.orgAdmin, body);
      expect(res.statusCode).toBe(400);
      expect(codeOf(res)).toBe('VALIDATION_FAILED');
    }
    const missingVersion = await call('PATCH', `/buildings/${demoBuildingId}`, auth.orgAdmin, newBuilding(demoOrgId));
    expect(missingVersion.statusCode).toBe(400);
  });
});

describe('robot groups and flow groups', () => {
  for (const kind of ['robot-groups', 'flow-groups'] as const) {
    it(`${kind}: create last, read, rename with concurrency, reorder and delete`, async () => {
      const b = await createBuilding(`Groups ${kind}`);
      const make = async (name: string) => {
        const res = await call('POST', `/${kind}`, auth.orgAdmin, { buildingId: b.id, name });
        expect(res.statusCode).toBe(201);
        return groupSchema.parse(res.json());
      };
      const a = await make('Alpha');
      const c = await make('Bravo');
      const d = await make('Charlie');
      expect([a.sortOrder, c.sortOrder, d.sortOrder]).toEqual([0, 1, 2]);
      expect((await call('GET', `/${kind}/${a.id}`, auth.orgAdmin)).json()).toMatchObject({
        name: 'Alpha',
        buildingId: b.id,
      });

      const renamed = await call('PATCH', `/${kind}/${a.id}`, auth.orgAdmin, {
        name: 'Alpha 2',
        updatedAt: a.updatedAt,
      });
      expect(renamed.statusCode).toBe(200);
      const stale = await call('PATCH', `/${kind}/${a.id}`, auth.orgAdmin, { name: 'Alpha 3', updatedAt: a.updatedAt });
      expect(stale.statusCode).toBe(409);
      expect(codeOf(stale)).toBe('STALE_UPDATE');

      const order = await call('PUT', `/buildings/${b.id}/${kind}/order`, auth.orgAdmin, { ids: [d.id, a.id, c.id] });
      expect(order.statusCode).toBe(200);
      const list = (await call('GET', `/buildings/${b.id}/${kind}`, auth.orgAdmin)).json<Group[]>();
      expect(list.map((g) => [g.id, g.sortOrder, g.name])).toEqual([
        [d.id, 0, 'Charlie'],
        [a.id, 1, 'Alpha 2'],
        [c.id, 2, 'Bravo'],
      ]);
      const building = buildingSchema.parse((await call('GET', `/buildings/${b.id}`, auth.orgAdmin)).json());
      expect((kind === 'robot-groups' ? building.groups : building.flowGroups)?.map((g) => g.id)).toEqual([
        d.id,
        a.id,
        c.id,
      ]);

      // The ids must be exactly the building's groups.
      for (const ids of [
        [d.id, a.id],
        [d.id, a.id, c.id, c.id],
        [d.id, a.id, 999999],
      ]) {
        const res = await call('PUT', `/buildings/${b.id}/${kind}/order`, auth.orgAdmin, { ids });
        expect(res.statusCode).toBe(400);
      }
      // A group of another building cannot be smuggled into the order.
      const foreign = (await call('GET', `/buildings/${demoBuildingId}/${kind}`, auth.orgAdmin)).json<Group[]>();
      const smuggled = await call('PUT', `/buildings/${b.id}/${kind}/order`, auth.orgAdmin, {
        ids: [d.id, a.id, foreign[0]!.id],
      });
      expect(smuggled.statusCode).toBe(400);

      expect((await call('DELETE', `/${kind}/${c.id}`, auth.orgAdmin)).statusCode).toBe(204);
      expect((await call('GET', `/${kind}/${c.id}`, auth.orgAdmin)).statusCode).toBe(404);
      const e = await make('Delta');
      expect(e.sortOrder).toBe(2);
      const singular = kind.slice(0, -1);
      for (const action of ['create', 'update', 'reorder', 'delete']) {
        expect((await auditActions(`${singular}.${action}`)).length).toBeGreaterThan(0);
      }
      expect(
        (await call('POST', `/${kind}`, auth.orgAdmin, { buildingId: b.id, name: 'x'.repeat(49) })).statusCode,
      ).toBe(400);
      expect((await call('POST', `/${kind}`, auth.orgAdmin, { buildingId: 999999, name: 'Nowhere' })).statusCode).toBe(
        404,
      );
    });
  }

  it('lists buildings with their groups and flow groups, each in its order, as the building itself answers them', async () => {
    const one = await createBuilding('Listed groups one');
    const two = await createBuilding('Listed groups two');
    const make = async (kind: 'robot-groups' | 'flow-groups', buildingId: number, name: string) =>
      groupSchema.parse((await call('POST', `/${kind}`, auth.orgAdmin, { buildingId, name })).json()).id;
    const rg1 = [await make('robot-groups', one.id, 'R1'), await make('robot-groups', one.id, 'R2')];
    const fg1 = [await make('flow-groups', one.id, 'F1'), await make('flow-groups', one.id, 'F2')];
    const rg2 = [await make('robot-groups', two.id, 'R3')];
    await call('PUT', `/buildings/${one.id}/robot-groups/order`, auth.orgAdmin, { ids: [rg1[1], rg1[0]] });
    await call('PUT', `/buildings/${one.id}/flow-groups/order`, auth.orgAdmin, { ids: [fg1[1], fg1[0]] });
    const list = async (include: string[]) => {
      const filter = { where: { id: { inq: [one.id, two.id] } }, order: 'id ASC', include };
      const res = await call('GET', `/buildings?filter=${encodeURIComponent(JSON.stringify(filter))}`, auth.orgAdmin);
      expect(res.statusCode).toBe(200);
      expect(res.headers['x-total-count']).toBe('2');
      return res.json<Building[]>();
    };
    const ids = (groups: Group[] | { id: number }[] | undefined) => groups?.map((g) => g.id);
    const both = await list(['groups', 'flowGroups']);
    expect(both.map((b) => [b.id, ids(b.groups), ids(b.flowGroups)])).toEqual([
      [one.id, [rg1[1], rg1[0]], [fg1[1], fg1[0]]],
      [two.id, rg2, []],
    ]);
    for (const b of both) {
      const alone = buildingSchema.parse((await call('GET', `/buildings/${b.id}`, auth.orgAdmin)).json());
      expect([b.groups, b.flowGroups]).toEqual([alone.groups, alone.flowGroups]);
    }
    const onlyFlows = await list(['flowGroups']);
    expect(onlyFlows.map((b) => [b.id, 'groups' in b, ids(b.flowGroups)])).toEqual([
      [one.id, false, [fg1[1], fg1[0]]],
      [two.id, false, []],
    ]);
    expect((await list([])).every((b) => !('groups' in b) && !('flowGroups' in b))).toBe(true);
  });
});

describe('speech texts', () => {
  it('lists, creates, edits and deletes a building’s speech texts', async () => {
    const created = await call('POST', `/buildings/${demoBuildingId}/speech-texts`, auth.orgAdmin, {
      language: 'ja',
      text: '  いらっしゃいませ  ',
    });
    expect(created.statusCode).toBe(201);
    const s = speechTextSchema.parse(created.json());
    expect(s.text).toBe('いらっしゃいませ');
    const list = (await call('GET', `/buildings/${demoBuildingId}/speech-texts`, auth.general)).json<
      Array<{ id: number }>
    >();
    expect(list.map((x) => x.id)).toContain(s.id);
    const edited = await call('PATCH', `/speech-texts/${s.id}`, auth.orgAdmin, {
      language: 'en',
      text: 'Welcome',
      updatedAt: s.updatedAt,
    });
    expect(edited.statusCode).toBe(200);
    expect(edited.json()).toMatchObject({ language: 'en', text: 'Welcome' });
    // A second edit based on the same (now old) version would silently overwrite the first: 409.
    const stale = await call('PATCH', `/speech-texts/${s.id}`, auth.orgAdmin, {
      language: 'en',
      text: 'Hello',
      updatedAt: s.updatedAt,
    });
    expect(stale.statusCode).toBe(409);
    expect(stale.json()).toMatchObject({ error: { code: 'STALE_UPDATE' } });
    const noVersion = await call('PATCH', `/speech-texts/${s.id}`, auth.orgAdmin, { language: 'en', text: 'Hi' });
    expect(noVersion.statusCode).toBe(400);
    expect((await call('GET', `/buildings/${demoBuildingId}/speech-texts`, auth.general)).json()).toContainEqual(
      expect.objectContaining({ id: s.id, text: 'Welcome' }),
    );
    expect(
      (await call('POST', `/buildings/${demoBuildingId}/speech-texts`, auth.orgAdmin, { language: 'xx', text: 'a' }))
        .statusCode,
    ).toBe(400);
    expect(
      (await call('POST', `/buildings/${demoBuildingId}/speech-texts`, auth.orgAdmin, { language: 'ja', text: ' ' }))
        .statusCode,
    ).toBe(400);
    expect((await call('DELETE', `/speech-texts/${s.id}`, auth.orgAdmin)).statusCode).toBe(204);
    expect((await call('DELETE', `/speech-texts/${s.id}`, auth.orgAdmin)).statusCode).toBe(404);
    for (const action of ['speech-text.create', 'speech-text.update', 'speech-text.delete']) {
      expect((await auditActions(action)).some((e) => e.target_id === String(s.id))).toBe(true);
    }
  });
});

describe('IP restriction', () => {
  it('adds valid rules, refuses invalid and duplicate ones, and guards the switch', async () => {
    const b = await createBuilding('IP Building');
    const url = `/buildings/${b.id}`;
    const off = ipRestrictionSchema.parse((await call('GET', `${url}/ip-restriction`, auth.orgAdmin)).json());
    expect(off).toMatchObject({ enabled: false, rules: [], clientIp: '127.0.0.1', clientIpAllowed: false });

    const empty = await call('PUT', `${url}/ip-restriction`, auth.orgAdmin, { enabled: true });
    expect(empty.statusCode).toBe(400);
    expect(codeOf(empty)).toBe('IP_LIST_EMPTY');

    for (const address of ['not-an-ip', '10.0.0.0/33', '1.2.3.4/', '999.1.1.1']) {
      const res = await call('POST', `${url}/ip-rules`, auth.orgAdmin, { address, description: '' });
      expect(res.statusCode).toBe(400);
      expect(errorBodySchema.parse(res.json()).error).toMatchObject({
        code: 'VALIDATION_FAILED',
        details: [{ path: 'address', message: 'validation.ipAddress' }],
      });
    }
    const added = await call('POST', `${url}/ip-rules`, auth.orgAdmin, {
      address: ' 192.0.2.0/24 ',
      description: 'Office',
    });
    expect(added.statusCode).toBe(201);
    const rule = ipRuleSchema.parse(added.json());
    expect(rule).toMatchObject({ address: '192.0.2.0/24', description: 'Office', buildingId: b.id });
    const dup = await call('POST', `${url}/ip-rules`, auth.orgAdmin, { address: '192.0.2.0/24', description: 'again' });
    expect(dup.statusCode).toBe(409);
    expect(codeOf(dup)).toBe('DUPLICATE');
    const v6 = await call('POST', `${url}/ip-rules`, auth.orgAdmin, { address: '2001:db8::/32', description: '' });
    expect(v6.statusCode).toBe(201);

    // On: the answer tells the admin their own address is not on the list.
    const on = await call('PUT', `${url}/ip-restriction`, auth.orgAdmin, { enabled: true });
    expect(on.statusCode).toBe(200);
    expect(ipRestrictionSchema.parse(on.json())).toMatchObject({
      enabled: true,
      clientIp: '127.0.0.1',
      clientIpAllowed: false,
    });
    expect(buildingSchema.parse((await call('GET', url, auth.orgAdmin)).json()).ipRestrictionEnabled).toBe(true);

    const inside = await t.inject({
      method: 'GET',
      url: `/api${url}/ip-restriction`,
      headers: { authorization: auth.orgAdmin },
      remoteAddress: '192.0.2.7',
    });
    expect(ipRestrictionSchema.parse(inside.json()).clientIpAllowed).toBe(true);

    // The last rule cannot go while the restriction is on.
    expect((await call('DELETE', `/ip-rules/${ipRuleSchema.parse(v6.json()).id}`, auth.orgAdmin)).statusCode).toBe(204);
    const last = await call('DELETE', `/ip-rules/${rule.id}`, auth.orgAdmin);
    expect(last.statusCode).toBe(400);
    expect(codeOf(last)).toBe('IP_LIST_EMPTY');
    expect((await call('PUT', `${url}/ip-restriction`, auth.orgAdmin, { enabled: false })).statusCode).toBe(200);
    expect((await call('DELETE', `/ip-rules/${rule.id}`, auth.orgAdmin)).statusCode).toBe(204);
    expect((await call('DELETE', `/ip-rules/${rule.id}`, auth.orgAdmin)).statusCode).toBe(404);
    for (const action of ['ip-rule.create', 'ip-rule.delete', 'ip-restriction.enable', 'ip-restriction.disable']) {
      expect((await auditActions(action)).some((e) => e.target_id === String(b.id))).toBe(true);
    }
  });

  it('a rule added through the API really blocks login and requests from another address', async () => {
    const b = await createBuilding('Locked Building');
    const hash = (
      await t.db.kysely
        .selectFrom('operators')
        .select('password_hash')
        .where('login_id', '=', 'operator@demo.example')
        .executeTakeFirstOrThrow()
    ).password_hash;
    const now = new Date().toISOString();
    await t.db.kysely
      .insertInto('operators')
      .values({
        organization_id: demoOrgId,
        building_id: b.id,
        login_id: 'ip-test@demo.example',
        email: 'ip-test@demo.example',
        password_hash: hash,
        first_name: 'IP',
        last_name: 'Test',
        type: 0,
        flow_edit_restricted: 0,
        language: null,
        auth_mode: 'none',
        phone: '',
        status: 1,
        failed_login_count: 0,
        locked_until: null,
        must_change_password: 0,
        password_changed_at: now,
        login_count: 0,
        last_login_at: null,
        deleted_at: null,
        created_at: now,
        updated_at: now,
      })
      .execute();
    const password = 'Demo-Operator-2026';
    const before = await bearer('ip-test@demo.example', password, '203.0.113.9');

    expect(
      (
        await call('POST', `/buildings/${b.id}/ip-rules`, auth.orgAdmin, {
          address: '198.51.100.0/24',
          description: 'HQ',
        })
      ).statusCode,
    ).toBe(201);
    expect((await call('PUT', `/buildings/${b.id}/ip-restriction`, auth.orgAdmin, { enabled: true })).statusCode).toBe(
      200,
    );

    const refused = await t.login('ip-test@demo.example', password, { remoteAddress: '203.0.113.9' });
    expect(refused.statusCode).toBe(403);
    expect(codeOf(refused)).toBe('IP_NOT_ALLOWED');
    expect((await t.login('ip-test@demo.example', password, { remoteAddress: '198.51.100.20' })).statusCode).toBe(200);
    // A session opened before is refused from the outside address too.
    const outside = await t.inject({
      method: 'GET',
      url: '/api/my/profile',
      headers: { authorization: before },
      remoteAddress: '203.0.113.9',
    });
    expect(outside.statusCode).toBe(403);
    // Operators of other buildings are not affected.
    expect((await t.login('operator@demo.example', password, { remoteAddress: '203.0.113.9' })).statusCode).toBe(200);

    expect((await call('PUT', `/buildings/${b.id}/ip-restriction`, auth.orgAdmin, { enabled: false })).statusCode).toBe(
      200,
    );
    expect((await t.login('ip-test@demo.example', password, { remoteAddress: '203.0.113.9' })).statusCode).toBe(200);
  });
});

describe('system links', () => {
  const SECRETS = {
    hakaruAiPassword: 'hakaru-Plain-Secret-123',
    lilzToken: 'lilz-plain-token-abcdefgh-9876',
    kanriroidToken: 'short',
  };

  it('stores secrets sealed, answers them masked, keeps them when omitted and clears them with ""', async () => {
    const url = `/buildings/${demoBuildingId}/links`;
    const empty = buildingLinksSchema.parse((await call('GET', url, auth.general)).json());
    expect(empty).toEqual({
      tSpiderUrl: '',
      hakaruAiLoginId: '',
      hakaruAiPassword: null,
      lilzToken: null,
      kanriroidToken: null,
      updatedAt: null,
    });

    const bodies: string[] = [];
    const put = async (payload: unknown) => {
      const res = await call('PUT', url, auth.orgAdmin, payload);
      bodies.push(res.body);
      return res;
    };
    const first = await put({ tSpiderUrl: 'https://tspider.example/hook', hakaruAiLoginId: 'hakaru-user', ...SECRETS });
    expect(first.statusCode).toBe(200);
    const links = buildingLinksSchema.parse(first.json());
    expect(links.hakaruAiPassword).toBe('••••••-123');
    expect(links.lilzToken).toBe('••••••9876');
    // Too short to show any of it.
    expect(links.kanriroidToken).toBe('••••••');

    const row = await t.db.kysely
      .selectFrom('building_links')
      .selectAll()
      .where('building_id', '=', demoBuildingId)
      .executeTakeFirstOrThrow();
    for (const plain of Object.values(SECRETS)) expect(JSON.stringify(row)).not.toContain(plain);

    const kept = await put({ tSpiderUrl: '', hakaruAiLoginId: 'hakaru-user' });
    expect(buildingLinksSchema.parse(kept.json())).toMatchObject({
      tSpiderUrl: '',
      hakaruAiPassword: '••••••-123',
      lilzToken: '••••••9876',
      kanriroidToken: '••••••',
    });
    const cleared = await put({ tSpiderUrl: '', hakaruAiLoginId: '', lilzToken: '' });
    expect(buildingLinksSchema.parse(cleared.json())).toMatchObject({
      lilzToken: null,
      hakaruAiPassword: '••••••-123',
    });
    expect((await put({ tSpiderUrl: 'ftp://x', hakaruAiLoginId: '' })).statusCode).toBe(400);

    bodies.push((await call('GET', url, auth.orgAdmin)).body, (await call('GET', url, auth.general)).body);
    const audit = await auditActions('building-links.update');
    expect(audit.length).toBeGreaterThan(0);
    bodies.push(...audit.map((a) => JSON.stringify(a)));
    // No plain secret in any answer or audit entry.
    for (const body of bodies) for (const plain of Object.values(SECRETS)) expect(body).not.toContain(plain);
  });
});

describe('roles and tenancy on every route', () => {
  /** Every route of this module with a URL on the demo organization's data and a valid body. */
  async function demoRoutes() {
    const b = await createBuilding('Route Sweep');
    const rg = groupSchema.parse(
      (await call('POST', '/robot-groups', auth.orgAdmin, { buildingId: b.id, name: 'RG' })).json(),
    );
    const fg = groupSchema.parse(
      (await call('POST', '/flow-groups', auth.orgAdmin, { buildingId: b.id, name: 'FG' })).json(),
    );
    const st = speechTextSchema.parse(
      (await call('POST', `/buildings/${b.id}/speech-texts`, auth.orgAdmin, { language: 'ja', text: 'hi' })).json(),
    );
    const rule = ipRuleSchema.parse(
      (
        await call('POST', `/buildings/${b.id}/ip-rules`, auth.orgAdmin, { address: '10.0.0.1', description: '' })
      ).json(),
    );
    const reads: Array<[InjectOptions['method'], string]> = [
      ['GET', `/buildings/${b.id}`],
      ['GET', `/buildings/${b.id}/robot-groups`],
      ['GET', `/robot-groups/${rg.id}`],
      ['GET', `/buildings/${b.id}/flow-groups`],
      ['GET', `/flow-groups/${fg.id}`],
      ['GET', `/buildings/${b.id}/speech-texts`],
      ['GET', `/buildings/${b.id}/ip-restriction`],
      ['GET', `/buildings/${b.id}/links`],
    ];
    const writes: Array<[InjectOptions['method'], string, unknown?]> = [
      ['PATCH', `/buildings/${b.id}`, { ...newBuilding(demoOrgId, 'Hacked'), updatedAt: b.updatedAt }],
      ['DELETE', `/buildings/${b.id}`],
      ['POST', '/robot-groups', { buildingId: b.id, name: 'Hacked' }],
      ['PATCH', `/robot-groups/${rg.id}`, { name: 'Hacked', updatedAt: rg.updatedAt }],
      ['PUT', `/buildings/${b.id}/robot-groups/order`, { ids: [rg.id] }],
      ['DELETE', `/robot-groups/${rg.id}`],
      ['POST', '/flow-groups', { buildingId: b.id, name: 'Hacked' }],
      ['PATCH', `/flow-groups/${fg.id}`, { name: 'Hacked', updatedAt: fg.updatedAt }],
      ['PUT', `/buildings/${b.id}/flow-groups/order`, { ids: [fg.id] }],
      ['DELETE', `/flow-groups/${fg.id}`],
      ['POST', `/buildings/${b.id}/speech-texts`, { language: 'en', text: 'Hacked' }],
      ['PATCH', `/speech-texts/${st.id}`, { language: 'en', text: 'Hacked', updatedAt: st.updatedAt }],
      ['DELETE', `/speech-texts/${st.id}`],
      ['POST', `/buildings/${b.id}/ip-rules`, { address: '10.9.9.9', description: 'Hacked' }],
      ['DELETE', `/ip-rules/${rule.id}`],
      ['PUT', `/buildings/${b.id}/ip-restriction`, { enabled: true }],
      ['PUT', `/buildings/${b.id}/links`, { tSpiderUrl: 'https://hacked.example', hakaruAiLoginId: '' }],
    ];
    return { b, reads, writes };
  }

  const snapshot = async (buildingId: number) => {
    const db = t.db.kysely;
    return JSON.stringify(
      await Promise.all([
        db.selectFrom('buildings').selectAll().where('id', '=', buildingId).execute(),
        db.selectFrom('robot_groups').selectAll().where('building_id', '=', buildingId).execute(),
        db.selectFrom('flow_groups').selectAll().where('building_id', '=', buildingId).execute(),
        db.selectFrom('speech_texts').selectAll().where('building_id', '=', buildingId).execute(),
        db.selectFrom('building_ip_rules').selectAll().where('building_id', '=', buildingId).execute(),
        db.selectFrom('building_links').selectAll().where('building_id', '=', buildingId).execute(),
      ]),
    );
  };

  it('answers 404 to another organization’s admin and general operator on every route, and changes nothing', async () => {
    const { b, reads, writes } = await demoRoutes();
    const before = await snapshot(b.id);
    for (const [method, url] of reads) {
      for (const who of ['otherAdmin', 'otherGeneral'] as const) {
        const res = await call(method, url, auth[who]);
        expect({ who, method, url, status: res.statusCode }).toEqual({ who, method, url, status: 404 });
      }
    }
    for (const [method, url, body] of writes) {
      const res = await call(method, url, auth.otherAdmin, body);
      expect({ method, url, status: res.statusCode }).toEqual({ method, url, status: 404 });
      expect(codeOf(res)).toBe('NOT_FOUND');
    }
    expect(await snapshot(b.id)).toBe(before);
    // Creating in another organization is refused outright.
    expect((await call('POST', '/buildings', auth.otherAdmin, newBuilding(demoOrgId, 'Hacked'))).statusCode).toBe(403);
  });

  it('answers 403 to general operators and area managers on every write route, and changes nothing', async () => {
    const { b, writes } = await demoRoutes();
    // The general operator's own building, so scope is not what refuses them.
    const own = await demoRoutes();
    await t.db.kysely
      .updateTable('operators')
      .set({ building_id: own.b.id })
      .where('login_id', '=', 'operator@demo.example')
      .execute();
    try {
      const before = await snapshot(b.id);
      for (const who of ['general', 'manager'] as const) {
        for (const [method, url, body] of [
          ...writes,
          ...own.writes,
          ['POST', '/buildings', newBuilding(demoOrgId, 'Nope')] as const,
        ]) {
          const res = await call(method, url, auth[who], body);
          expect({ who, method, url, status: res.statusCode }).toEqual({ who, method, url, status: 403 });
          expect(codeOf(res)).toBe('FORBIDDEN');
        }
      }
      expect(await snapshot(b.id)).toBe(before);
      // Reading within scope is allowed to both.
      for (const [method, url] of own.reads) expect((await call(method, url, auth.general)).statusCode).toBe(200);
    } finally {
      await t.db.kysely
        .updateTable('operators')
        .set({ building_id: demoBuildingId })
        .where('login_id', '=', 'operator@demo.example')
        .execute();
    }
  });

  it('keeps a general operator out of the other buildings of their own organization', async () => {
    const { reads } = await demoRoutes();
    for (const [method, url] of reads) {
      const res = await call(method, url, auth.general);
      expect({ url, status: res.statusCode }).toEqual({ url, status: 404 });
    }
  });

  it('lets a system administrator read and change any organization’s building', async () => {
    expect((await call('GET', `/buildings/${other.buildingId}`, auth.sysAdmin)).statusCode).toBe(200);
    const res = await call('POST', `/buildings/${other.buildingId}/speech-texts`, auth.sysAdmin, {
      language: 'en',
      text: 'From the system',
    });
    expect(res.statusCode).toBe(201);
  });
});
