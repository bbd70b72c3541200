import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { auditLogEntrySchema, errorBodySchema, type InitData } from '@portal/contract';
import { createTestApp, type TestApp } from './helpers.ts';

/** The audit log view: scope, filter, order, operator names and the stored detail. */
let t: TestApp;
let sys: string;
let orgAdmin: string;
let orgAdminId: number;
let otherAdmin: string;
let demoOrgId: number;
let otherOrgId: number;

const entries = z.array(auditLogEntrySchema);
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
  ],
};
const list = (authorization: string, filter?: unknown) =>
  t.inject({
    method: 'GET',
    url: '/api/audit-logs',
    headers: { authorization },
    ...(filter === undefined
      ? {}
      : { query: { filter: typeof filter === 'string' ? filter : JSON.stringify(filter) } }),
  });

beforeAll(async () => {
  t = await createTestApp();
  sys = (await t.as('sysadmin@demo.example')).authorization;
  const oa = await t.as('orgadmin@demo.example');
  orgAdmin = oa.authorization;
  orgAdminId = oa.id;
  const imported = await t.inject({
    method: 'POST',
    url: '/api/init-data',
    headers: { authorization: sys },
    payload: otherData,
  });
  otherOrgId = imported.json<{ organizationId: number }>().organizationId;
  const login = await t.login('admin@other.example', 'Other-Admin-2026');
  otherAdmin = `Bearer ${login.json<{ token: string }>().token}`;
  demoOrgId = (
    await t.db.kysely
      .selectFrom('operators')
      .select('organization_id')
      .where('id', '=', orgAdminId)
      .executeTakeFirstOrThrow()
  ).organization_id;
  await t.login('nobody@nowhere.example', 'Wrong-Pass-2026');
  // An entry whose detail is not readable JSON (written by an older version, say).
  await t.db.kysely
    .insertInto('audit_logs')
    .values({
      at: '2020-01-01T00:00:00.000Z',
      operator_id: orgAdminId,
      organization_id: demoOrgId,
      action: 'legacy.entry',
      target_type: null,
      target_id: null,
      ip: null,
      detail: '{not json',
    })
    .execute();
});
afterAll(async () => {
  await t.close();
});

describe('GET /audit-logs', () => {
  it('shows organization administrators their organization’s entries, newest first, with operator names', async () => {
    const res = await list(orgAdmin);
    expect(res.statusCode).toBe(200);
    const rows = entries.parse(res.json());
    expect(rows.length).toBeGreaterThan(0);
    expect(rows.every((r) => r.organizationId === demoOrgId)).toBe(true);
    expect(Number(res.headers['x-total-count'])).toBeGreaterThanOrEqual(rows.length);
    const ats = rows.map((r) => r.at);
    expect([...ats].sort().reverse()).toEqual(ats);
    const login = rows.find((r) => r.action === 'login' && r.operatorId === orgAdminId)!;
    expect(login).toMatchObject({ operatorName: '鈴木 一郎', targetType: 'operator', targetId: String(orgAdminId) });
    expect(login.detail).toEqual({ device: expect.any(String) });
    expect(login.ip).toBeTruthy();
  });

  it('shows system administrators every organization’s entries, including failed logins of unknown IDs', async () => {
    const rows = entries.parse((await list(sys, { limit: 500 })).json());
    const orgs = new Set(rows.map((r) => r.organizationId));
    expect(orgs.has(demoOrgId)).toBe(true);
    expect(orgs.has(otherOrgId)).toBe(true);
    const unknown = rows.find((r) => r.action === 'login.failed' && r.targetId === 'nobody@nowhere.example');
    expect(unknown).toMatchObject({ operatorId: null, operatorName: null, organizationId: null });
  });

  it('never shows another tenant’s entries, whatever the filter', async () => {
    for (const filter of [
      { where: { organizationId: demoOrgId } },
      { where: { operatorId: orgAdminId } },
      { where: { or: [{ organizationId: demoOrgId }, { action: 'login' }] } },
    ]) {
      const rows = entries.parse((await list(otherAdmin, filter)).json());
      expect(rows.every((r) => r.organizationId === otherOrgId)).toBe(true);
      expect(rows.some((r) => r.operatorId === orgAdminId)).toBe(false);
    }
    expect(entries.parse((await list(orgAdmin, { where: { organizationId: otherOrgId } })).json())).toEqual([]);
  });

  it('filters on operator, action, target and time', async () => {
    const byAction = await list(orgAdmin, { where: { action: 'login', operatorId: orgAdminId } });
    const rows = entries.parse(byAction.json());
    expect(rows.length).toBeGreaterThan(0);
    expect(rows.every((r) => r.action === 'login' && r.operatorId === orgAdminId)).toBe(true);
    expect(byAction.headers['x-total-count']).toBe(String(rows.length));
    const old = entries.parse(
      (await list(orgAdmin, { where: { at: { between: ['2019-12-31', '2020-01-02'] } } })).json(),
    );
    expect(old.map((r) => r.action)).toEqual(['legacy.entry']);
    // Unreadable detail is answered as null, not as an error.
    expect(old[0]!.detail).toBeNull();
    const recent = entries.parse(
      (
        await list(orgAdmin, {
          where: { at: { gte: '2021-01-01T00:00:00+09:00' }, targetType: 'operator', targetId: String(orgAdminId) },
        })
      ).json(),
    );
    expect(recent.length).toBeGreaterThan(0);
    expect(recent.some((r) => r.action === 'legacy.entry')).toBe(false);
    const ascending = entries.parse((await list(orgAdmin, { order: 'at ASC', limit: 1 })).json());
    expect(ascending[0]!.action).toBe('legacy.entry');
  });

  it('answers 400 BAD_FILTER to unknown fields, operators and shapes', async () => {
    for (const filter of [
      '{',
      { where: { detail: 'x' } },
      { where: { at: { regexp: 'x' } } },
      { where: { at: 'yesterday' } },
      { fields: ['id'] },
      { include: 'operator' },
      { limit: 100000 },
    ]) {
      const res = await list(orgAdmin, filter);
      expect(res.statusCode).toBe(400);
      expect(errorBodySchema.parse(res.json()).error.code).toBe('BAD_FILTER');
    }
  });

  it('refuses general operators and area managers', async () => {
    for (const who of ['operator@demo.example', 'manager@demo.example'] as const) {
      const res = await list((await t.as(who)).authorization);
      expect(res.statusCode).toBe(403);
      expect(errorBodySchema.parse(res.json()).error.code).toBe('FORBIDDEN');
    }
    expect((await t.inject({ method: 'GET', url: '/api/audit-logs' })).statusCode).toBe(401);
  });
});
