import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { errorBodySchema, operatorSchema, sessionSchema, type InitData } from '@portal/contract';
import { createTestApp, demo, type TestApp } from './helpers.ts';

/** Operator management: roles, tenancy, concurrency, sessions, locks and the forced password change. */
let t: TestApp;
let sys: string;
let orgAdmin: string;
let orgAdminId: number;
let manager: string;
let general: string;
let otherAdmin: string;
let demoOrgId: number;
let demoBuildingId: number;
let other: { orgId: number; buildingId: number };

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

type Method = 'GET' | 'POST' | 'PATCH' | 'DELETE';
const call = (method: Method, url: string, authorization: string, payload?: unknown) =>
  t.inject({
    method,
    url: `/api${url}`,
    headers: { authorization },
    ...(payload === undefined ? {} : { payload: payload as object }),
  });
const codeOf = (res: { json: () => unknown }) => errorBodySchema.parse(res.json()).error.code;
const bearer = async (loginId: string, password: string) => {
  const res = await t.login(loginId, password);
  expect(res.statusCode).toBe(200);
  return `Bearer ${res.json<{ token: string }>().token}`;
};

beforeAll(async () => {
  t = await createTestApp();
  sys = (await t.as('sysadmin@demo.example')).authorization;
  const oa = await t.as('orgadmin@demo.example');
  orgAdmin = oa.authorization;
  orgAdminId = oa.id;
  manager = (await t.as('manager@demo.example')).authorization;
  general = (await t.as('operator@demo.example')).authorization;
  const imported = await call('POST', '/init-data', sys, otherData);
  expect(imported.statusCode).toBe(201);
  const orgId = imported.json<{ organizationId: number }>().organizationId;
  const ob = await t.db.kysely
    .selectFrom('buildings')
    .select('id')
    .where('organization_id', '=', orgId)
    .executeTakeFirstOrThrow();
  other = { orgId, buildingId: ob.id };
  otherAdmin = await bearer('admin@other.example', 'Other-Admin-2026');
  const b = await t.db.kysely
    .selectFrom('buildings')
    .select(['id', 'organization_id'])
    .where('name', '=', 'Demo Tower')
    .executeTakeFirstOrThrow();
  demoBuildingId = b.id;
  demoOrgId = b.organization_id;
});
afterAll(async () => {
  await t.close();
});

const PASSWORD = 'Fresh-Pass-2026';
const newOperator = (loginId: string, extra: Record<string, unknown> = {}) => ({
  loginId,
  firstName: 'New',
  lastName: 'Person',
  type: 0,
  organizationId: demoOrgId,
  buildingId: demoBuildingId,
  flowEditRestricted: false,
  password: PASSWORD,
  ...extra,
});
async function create(loginId: string, extra: Record<string, unknown> = {}, as = orgAdmin) {
  const res = await call('POST', '/operators', as, newOperator(loginId, extra));
  expect(res.statusCode).toBe(201);
  return operatorSchema.parse(res.json());
}
const editable = (o: z.infer<typeof operatorSchema>) => ({
  loginId: o.loginId,
  firstName: o.firstName,
  lastName: o.lastName,
  type: o.type,
  organizationId: o.organizationId,
  buildingId: o.buildingId!,
  flowEditRestricted: o.flowEditRestricted,
  updatedAt: o.updatedAt,
});
const fetchOperator = async (id: number) => operatorSchema.parse((await call('GET', `/operators/${id}`, sys)).json());

describe('operator list and detail', () => {
  it('lists the operators of the organization with names of organization and building, filtered and counted', async () => {
    const res = await call('GET', '/operators', orgAdmin);
    expect(res.statusCode).toBe(200);
    const list = z.array(operatorSchema).parse(res.json());
    expect(list.length).toBeGreaterThan(3);
    expect(list.every((o) => o.organizationId === demoOrgId)).toBe(true);
    expect(list.some((o) => o.loginId === 'sysadmin@demo.example')).toBe(false);
    expect(Number(res.headers['x-total-count'])).toBe(list.length);
    expect(list.find((o) => o.loginId === 'operator@demo.example')).toMatchObject({
      buildingName: 'Demo Tower',
      organizationName: expect.any(String),
    });
    expect(res.body).not.toMatch(/passwordHash|password_hash|\$argon2/i);

    const filter = encodeURIComponent(JSON.stringify({ where: { type: { inq: [1, 2] } }, order: 'id DESC', limit: 1 }));
    const filtered = await call('GET', `/operators?filter=${filter}`, orgAdmin);
    expect(z.array(operatorSchema).parse(filtered.json())).toHaveLength(1);
    expect(filtered.headers['x-total-count']).toBe('2');
    for (const bad of [
      { where: { passwordHash: 'x' } },
      { where: { lockedUntil: { gt: 'yesterday' } } },
      { fields: ['id'] },
      { order: 'loginId SIDEWAYS' },
    ]) {
      const r = await call('GET', `/operators?filter=${encodeURIComponent(JSON.stringify(bad))}`, orgAdmin);
      expect(r.statusCode).toBe(400);
      expect(codeOf(r)).toBe('BAD_FILTER');
    }
  });

  it('keeps each tenant to its own operators, and system administrators see all', async () => {
    const foreign = encodeURIComponent(JSON.stringify({ where: { organizationId: demoOrgId } }));
    expect((await call('GET', `/operators?filter=${foreign}`, otherAdmin)).json()).toEqual([]);
    const all = z
      .array(operatorSchema)
      .parse((await call('GET', '/operators?filter=' + encodeURIComponent('{"limit":500}'), sys)).json());
    expect(new Set(all.map((o) => o.organizationId))).toEqual(
      new Set([demoOrgId, other.orgId, all.find((o) => o.type === 9)!.organizationId]),
    );
    const demoOp = all.find((o) => o.loginId === 'operator@demo.example')!;
    expect((await call('GET', `/operators/${demoOp.id}`, orgAdmin)).statusCode).toBe(200);
    expect((await call('GET', `/operators/${demoOp.id}`, otherAdmin)).statusCode).toBe(404);
    expect((await call('GET', '/operators/999999', sys)).statusCode).toBe(404);
    expect((await call('GET', '/operators/abc', sys)).statusCode).toBe(400);
    // Path ids are read strictly: no hexadecimal, exponent or padded forms of another operator's id.
    for (const bad of [`0x${demoOp.id.toString(16)}`, '1e3', `0${demoOp.id}`]) {
      expect((await call('GET', `/operators/${bad}`, sys)).statusCode).toBe(400);
      expect((await call('POST', `/operators/${bad}/lock`, sys)).statusCode).toBe(400);
    }
  });
});

describe('creating operators', () => {
  it('creates an operator with a lower-cased login ID who can then log in', async () => {
    const o = await create('Mixed.Case@Demo.Example');
    expect(o).toMatchObject({
      loginId: 'mixed.case@demo.example',
      type: 0,
      status: 1,
      mustChangePassword: false,
      lockedUntil: null,
      buildingName: 'Demo Tower',
    });
    expect((await t.login('mixed.case@demo.example', PASSWORD)).statusCode).toBe(200);
    const dup = await call('POST', '/operators', sys, newOperator('MIXED.case@demo.example'));
    expect(dup.statusCode).toBe(409);
    expect(errorBodySchema.parse(dup.json()).error).toMatchObject({
      code: 'DUPLICATE',
      details: [{ path: 'loginId', message: 'validation.duplicate' }],
    });
    const audit = await t.db.kysely
      .selectFrom('audit_logs')
      .selectAll()
      .where('action', '=', 'operator.create')
      .where('target_id', '=', String(o.id))
      .executeTakeFirst();
    expect(audit).toMatchObject({ operator_id: orgAdminId, organization_id: demoOrgId, target_type: 'operator' });
  });

  it('does not confirm to an organization administrator that a login ID exists in another organization', async () => {
    // admin@other.example and ops@other.example belong to the other organization.
    for (const taken of ['ops@other.example', 'OPS@other.example']) {
      const res = await call('POST', '/operators', orgAdmin, newOperator(taken));
      expect(res.statusCode).toBe(400);
      expect(errorBodySchema.parse(res.json()).error).toMatchObject({
        code: 'VALIDATION_FAILED',
        details: [{ path: 'loginId', message: 'validation.loginIdUnavailable' }],
      });
      expect(res.body).not.toMatch(/exist|duplicate/i);
    }
    // The same on a change of login ID.
    const mine = await create('renamer@demo.example');
    const renamed = await call('PATCH', `/operators/${mine.id}`, orgAdmin, {
      ...editable(mine),
      loginId: 'ops@other.example',
    });
    expect(renamed.statusCode).toBe(400);
    expect(codeOf(renamed)).toBe('VALIDATION_FAILED');
    // A system administrator sees every organization: a duplicate is called one.
    const sysDup = await call('POST', '/operators', sys, newOperator('ops@other.example'));
    expect(sysDup.statusCode).toBe(409);
    expect(codeOf(sysDup)).toBe('DUPLICATE');
  });

  it('answers concurrent creates of one login ID with one 201 and 409 DUPLICATE for the rest, never 500', async () => {
    const answers = await Promise.all(
      [1, 2, 3].map(() => call('POST', '/operators', orgAdmin, newOperator('racer@demo.example'))),
    );
    expect(answers.map((r) => r.statusCode).sort()).toEqual([201, 409, 409]);
    for (const r of answers.filter((a) => a.statusCode === 409)) expect(codeOf(r)).toBe('DUPLICATE');
  });

  it('lets an organization administrator create types 0, 1 and 2 in their own organization only', async () => {
    await create('area@demo.example', { type: 1 });
    await create('admin2@demo.example', { type: 2 });
    const nine = await call('POST', '/operators', orgAdmin, newOperator('nine@demo.example', { type: 9 }));
    expect(nine.statusCode).toBe(403);
    const elsewhere = await call(
      'POST',
      '/operators',
      orgAdmin,
      newOperator('elsewhere@demo.example', { organizationId: other.orgId, buildingId: other.buildingId }),
    );
    expect(elsewhere.statusCode).toBe(403);
    // ...from the other side: the same refusal, whether the organization exists or not.
    expect((await call('POST', '/operators', otherAdmin, newOperator('into-demo@other.example'))).statusCode).toBe(403);
    expect(
      (await call('POST', '/operators', otherAdmin, newOperator('nowhere@other.example', { organizationId: 999999 })))
        .statusCode,
    ).toBe(403);
    expect(
      await t.db.kysely
        .selectFrom('operators')
        .select('id')
        .where('login_id', 'in', ['nine@demo.example', 'elsewhere@demo.example', 'into-demo@other.example'])
        .execute(),
    ).toEqual([]);
    for (const who of [general, manager]) {
      const res = await call('POST', '/operators', who, newOperator('refused@demo.example'));
      expect(res.statusCode).toBe(403);
      expect(codeOf(res)).toBe('FORBIDDEN');
    }
  });

  it('checks the organization, the building and the flow-edit restriction', async () => {
    const foreignBuilding = await call(
      'POST',
      '/operators',
      orgAdmin,
      newOperator('fb@demo.example', { buildingId: other.buildingId }),
    );
    expect(foreignBuilding.statusCode).toBe(400);
    expect(errorBodySchema.parse(foreignBuilding.json()).error.details).toEqual([
      { path: 'buildingId', message: 'validation.notFound' },
    ]);
    expect(
      (await call('POST', '/operators', sys, newOperator('nb@demo.example', { buildingId: 999999 }))).statusCode,
    ).toBe(400);
    const noOrg = await call('POST', '/operators', sys, newOperator('no@demo.example', { organizationId: 999999 }));
    expect(errorBodySchema.parse(noOrg.json()).error.details?.[0]?.path).toBe('organizationId');
    const restricted = await call(
      'POST',
      '/operators',
      orgAdmin,
      newOperator('fe@demo.example', { type: 1, flowEditRestricted: true }),
    );
    expect(restricted.statusCode).toBe(400);
    expect(JSON.stringify(restricted.json())).toContain('flowEditRestricted');
    expect(
      (await call('POST', '/operators', orgAdmin, newOperator('weak@demo.example', { password: 'short' }))).statusCode,
    ).toBe(400);
    expect((await call('POST', '/operators', orgAdmin, newOperator('not-an-email'))).statusCode).toBe(400);
    expect((await create('fe-ok@demo.example', { flowEditRestricted: true })).flowEditRestricted).toBe(true);
    // A system administrator may place an operator in any organization.
    expect(
      (await create('placed@other.example', { organizationId: other.orgId, buildingId: other.buildingId }, sys))
        .organizationId,
    ).toBe(other.orgId);
  });
});

describe('updating operators', () => {
  it('answers the second of two edits from the same version with 409 and keeps the first', async () => {
    const o = await create('concurrent@demo.example');
    const first = await call('PATCH', `/operators/${o.id}`, orgAdmin, { ...editable(o), firstName: 'First' });
    expect(first.statusCode).toBe(200);
    const second = await call('PATCH', `/operators/${o.id}`, sys, { ...editable(o), firstName: 'Second' });
    expect(second.statusCode).toBe(409);
    expect(codeOf(second)).toBe('STALE_UPDATE');
    expect((await fetchOperator(o.id)).firstName).toBe('First');
  });

  it('hashes a new password and ends every session of the operator at once', async () => {
    const o = await create('newpass@demo.example');
    const token = await bearer('newpass@demo.example', PASSWORD);
    expect((await call('GET', '/my/profile', token)).statusCode).toBe(200);
    const res = await call('PATCH', `/operators/${o.id}`, orgAdmin, { ...editable(o), password: 'Another-Pass-2026' });
    expect(res.statusCode).toBe(200);
    expect(res.body).not.toContain('Another-Pass-2026');
    expect((await call('GET', '/my/profile', token)).statusCode).toBe(401);
    expect((await t.login('newpass@demo.example', PASSWORD)).statusCode).toBe(401);
    expect((await t.login('newpass@demo.example', 'Another-Pass-2026')).statusCode).toBe(200);
  });

  it('refuses moves to another organization, self-demotion, duplicates and other tenants', async () => {
    const o = await create('mover@demo.example');
    const move = await call('PATCH', `/operators/${o.id}`, orgAdmin, {
      ...editable(o),
      organizationId: other.orgId,
      buildingId: other.buildingId,
    });
    expect(move.statusCode).toBe(403);
    expect((await call('PATCH', `/operators/${o.id}`, orgAdmin, { ...editable(o), type: 9 })).statusCode).toBe(403);
    const me = await fetchOperator(orgAdminId);
    const demote = await call('PATCH', `/operators/${orgAdminId}`, orgAdmin, { ...editable(me), type: 0 });
    expect(demote.statusCode).toBe(409);
    expect(codeOf(demote)).toBe('CONFLICT');
    expect((await fetchOperator(orgAdminId)).type).toBe(2);
    const dup = await call('PATCH', `/operators/${o.id}`, orgAdmin, {
      ...editable(o),
      loginId: 'OPERATOR@demo.example',
    });
    expect(dup.statusCode).toBe(409);
    expect(codeOf(dup)).toBe('DUPLICATE');
    expect((await call('PATCH', `/operators/${o.id}`, otherAdmin, editable(o))).statusCode).toBe(404);
    for (const who of [general, manager])
      expect((await call('PATCH', `/operators/${o.id}`, who, editable(o))).statusCode).toBe(403);
    expect(await fetchOperator(o.id)).toEqual(o);
    // A system administrator may move them (building of the new organization).
    const moved = await call('PATCH', `/operators/${o.id}`, sys, {
      ...editable(o),
      organizationId: other.orgId,
      buildingId: other.buildingId,
    });
    expect(moved.statusCode).toBe(200);
    expect((await call('GET', `/operators/${o.id}`, orgAdmin)).statusCode).toBe(404);
  });
});

describe('deleting, locking and forcing a password change', () => {
  it('soft-deletes: the token stops working at once and the login ID is free again', async () => {
    const o = await create('leaver@demo.example');
    const token = await bearer('leaver@demo.example', PASSWORD);
    expect((await call('DELETE', `/operators/${o.id}`, otherAdmin)).statusCode).toBe(404);
    for (const who of [general, manager])
      expect((await call('DELETE', `/operators/${o.id}`, who)).statusCode).toBe(403);
    expect((await call('GET', '/my/profile', token)).statusCode).toBe(200);
    expect((await call('DELETE', `/operators/${o.id}`, orgAdmin)).statusCode).toBe(204);
    expect((await call('GET', '/my/profile', token)).statusCode).toBe(401);
    expect((await call('GET', `/operators/${o.id}`, orgAdmin)).statusCode).toBe(404);
    expect((await call('DELETE', `/operators/${o.id}`, orgAdmin)).statusCode).toBe(404);
    const row = await t.db.kysely.selectFrom('operators').selectAll().where('id', '=', o.id).executeTakeFirstOrThrow();
    expect(row.deleted_at).not.toBeNull();
    expect(row.login_id).toBe(`deleted+${o.id}+leaver@demo.example`);
    const sessions = await t.db.kysely
      .selectFrom('sessions')
      .select('revoked_at')
      .where('operator_id', '=', o.id)
      .execute();
    expect(sessions.every((s) => s.revoked_at !== null)).toBe(true);
    expect((await t.login('leaver@demo.example', PASSWORD)).statusCode).toBe(401);
    await create('leaver@demo.example');
  });

  it('keeps a renamed login ID within 254 characters', async () => {
    const long = `${'l'.repeat(64)}@${'d'.repeat(63)}.${'e'.repeat(63)}.${'x'.repeat(50)}.example`;
    expect(long.length).toBeGreaterThan(240);
    const o = await create(long);
    expect((await call('DELETE', `/operators/${o.id}`, orgAdmin)).statusCode).toBe(204);
    const row = await t.db.kysely
      .selectFrom('operators')
      .select('login_id')
      .where('id', '=', o.id)
      .executeTakeFirstOrThrow();
    expect(row.login_id.length).toBeLessThanOrEqual(254);
    expect(row.login_id.startsWith(`deleted+${o.id}+`)).toBe(true);
  });

  it('refuses to let anyone delete, lock or demote themselves', async () => {
    for (const [method, url] of [
      ['DELETE', `/operators/${orgAdminId}`],
      ['POST', `/operators/${orgAdminId}/lock`],
    ] as const) {
      const res = await call(method, url, orgAdmin);
      expect(res.statusCode).toBe(409);
      expect(codeOf(res)).toBe('CONFLICT');
    }
    const sysId = (await t.as('sysadmin@demo.example')).id;
    expect((await call('DELETE', `/operators/${sysId}`, sys)).statusCode).toBe(409);
    expect((await call('GET', '/my/profile', orgAdmin)).statusCode).toBe(200);
  });

  it('locks an operator out (sessions end, login refused) until unlocked', async () => {
    const o = await create('locked@demo.example');
    const token = await bearer('locked@demo.example', PASSWORD);
    expect((await call('POST', `/operators/${o.id}/lock`, otherAdmin)).statusCode).toBe(404);
    for (const who of [general, manager])
      expect((await call('POST', `/operators/${o.id}/lock`, who)).statusCode).toBe(403);
    const locked = operatorSchema.parse((await call('POST', `/operators/${o.id}/lock`, orgAdmin)).json());
    expect(locked.lockedUntil).toBe('9999-12-31T00:00:00.000Z');
    expect((await call('GET', '/my/profile', token)).statusCode).toBe(401);
    const refused = await t.login('locked@demo.example', PASSWORD);
    expect(refused.statusCode).toBe(403);
    expect(codeOf(refused)).toBe('ACCOUNT_LOCKED');
    expect((await call('POST', `/operators/${o.id}/unlock`, otherAdmin)).statusCode).toBe(404);
    for (const who of [general, manager])
      expect((await call('POST', `/operators/${o.id}/unlock`, who)).statusCode).toBe(403);
    const unlocked = operatorSchema.parse((await call('POST', `/operators/${o.id}/unlock`, orgAdmin)).json());
    expect(unlocked.lockedUntil).toBeNull();
    expect((await t.login('locked@demo.example', PASSWORD)).statusCode).toBe(200);
    const actions = await t.db.kysely
      .selectFrom('audit_logs')
      .select('action')
      .where('target_id', '=', String(o.id))
      .where('target_type', '=', 'operator')
      .execute();
    expect(actions.map((a) => a.action)).toEqual(expect.arrayContaining(['operator.lock', 'operator.unlock']));
  });

  it('forces a password change: login works, other routes answer 403 until POST /my/password', async () => {
    const o = await create('forced@demo.example', { type: 1 });
    expect((await call('POST', `/operators/${o.id}/force-password-change`, otherAdmin)).statusCode).toBe(404);
    for (const who of [general, manager])
      expect((await call('POST', `/operators/${o.id}/force-password-change`, who)).statusCode).toBe(403);
    const forced = operatorSchema.parse(
      (await call('POST', `/operators/${o.id}/force-password-change`, orgAdmin)).json(),
    );
    expect(forced.mustChangePassword).toBe(true);
    const login = await t.login('forced@demo.example', PASSWORD);
    expect(login.statusCode).toBe(200);
    const session = sessionSchema.parse(login.json());
    expect(session.mustChangePassword).toBe(true);
    const token = `Bearer ${session.token}`;
    for (const url of ['/buildings', '/organizations', '/my/devices', '/my/messages']) {
      const res = await call('GET', url, token);
      expect({ url, status: res.statusCode, code: codeOf(res) }).toEqual({
        url,
        status: 403,
        code: 'PASSWORD_CHANGE_REQUIRED',
      });
    }
    for (const url of ['/my/profile', '/my/contract', '/my/term-agreements/check'])
      expect((await call('GET', url, token)).statusCode).toBe(200);
    expect(
      (
        await t.inject({
          method: 'PUT',
          url: '/api/my/language',
          headers: { authorization: token },
          payload: { language: 'ja' },
        })
      ).statusCode,
    ).toBe(204);
    const changed = await call('POST', '/my/password', token, {
      oldPassword: PASSWORD,
      newPassword: 'Changed-Pass-2026',
      confirmPassword: 'Changed-Pass-2026',
    });
    expect(changed.statusCode).toBe(204);
    expect((await call('GET', '/buildings', token)).statusCode).toBe(200);
    expect(
      sessionSchema.parse((await t.login('forced@demo.example', 'Changed-Pass-2026')).json()).mustChangePassword,
    ).toBe(false);
    // Logging out stays possible while the change is pending.
    await call('POST', `/operators/${o.id}/force-password-change`, orgAdmin);
    const again = `Bearer ${sessionSchema.parse((await t.login('forced@demo.example', 'Changed-Pass-2026')).json()).token}`;
    expect((await call('POST', '/operators/logout', again)).statusCode).toBe(204);
  });

  it('never lets an organization administrator manage a system administrator placed in their organization', async () => {
    const nine = await create('nine-in-demo@demo.example', { type: 9 }, sys);
    for (const [method, url] of [
      ['DELETE', `/operators/${nine.id}`],
      ['POST', `/operators/${nine.id}/lock`],
      ['POST', `/operators/${nine.id}/force-password-change`],
    ] as const) {
      expect((await call(method, url, orgAdmin)).statusCode).toBe(403);
    }
    expect((await fetchOperator(nine.id)).lockedUntil).toBeNull();
  });

  it('demo accounts are still usable', async () => {
    expect((await t.login('operator@demo.example', demo('operator@demo.example').password)).statusCode).toBe(200);
  });
});
