import dns from 'node:dns';
import http, { createServer, type IncomingMessage, type Server } from 'node:http';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import {
  errorBodySchema,
  notifTargetSchema,
  organizationSchema,
  testNotificationResultSchema,
  type InitData,
} from '@portal/contract';
import { isUniqueViolation } from '../src/modules/organizations/admin-rules.ts';
import { createOutbound } from '../src/lib/outbound.ts';
import { createNotifier, DELIVERY_FAILED } from '../src/services/notifier.ts';
import { createTestApp, errorOf, type TestApp } from './helpers.ts';

/** Organizations and notification targets: roles, tenancy, concurrency, secrets and the test notification. */
let t: TestApp;
let sys: string;
let orgAdmin: string;
let manager: string;
let general: string;
let otherAdmin: string;
let demoOrgId: number;
let demoBuildingId: number;
let other: { orgId: number; buildingId: number };

const SLACK_URL = 'https://hooks.slack.com/services/T000/B000/SecretSlackToken42';
const BOT_URL = 'https://chatbot.example/api/v1/secret-bot-path-77';
const BOT_PASSWORD = 'Bot-Pass-Secret-9931';

/**
 * The webhook and bot names resolve to a public address here (no network needed, same answer
 * everywhere); any other name goes to the system resolver (`localhost`).
 */
const PUBLIC_IP = '93.184.216.34';
const resolved: Record<string, string> = { 'hooks.slack.com': PUBLIC_IP, 'chatbot.example': PUBLIC_IP };
const systemLookup = dns.promises.lookup.bind(dns.promises);
beforeAll(() => {
  vi.spyOn(dns.promises, 'lookup').mockImplementation((async (host: string, options: dns.LookupAllOptions) => {
    const address = resolved[host];
    return address === undefined ? systemLookup(host, options) : [{ address, family: address.includes(':') ? 6 : 4 }];
  }) as never);
});

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

type Method = 'GET' | 'POST' | 'PATCH' | 'DELETE';
const call = (method: Method, url: string, authorization: string, payload?: unknown) =>
  t.inject({
    method,
    url: `/api${url}`,
    headers: { authorization },
    ...(payload === undefined ? {} : { payload: payload as object }),
  });
const codeOf = (res: { json: () => unknown }) => errorBodySchema.parse(res.json()).error.code;

beforeAll(async () => {
  t = await createTestApp();
  sys = (await t.as('sysadmin@demo.example')).authorization;
  orgAdmin = (await t.as('orgadmin@demo.example')).authorization;
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
  const login = await t.login('admin@other.example', 'Other-Admin-2026');
  otherAdmin = `Bearer ${login.json<{ token: string }>().token}`;
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

const orgBody = (name: string) => ({
  name,
  type: 0,
  level: 1,
  prefecture: '',
  city: 'Chiyoda',
  address: '',
  postalCode: '100-0001',
  status: 1,
  labOption: false,
});
const current = async (id: number) => organizationSchema.parse((await call('GET', `/organizations/${id}`, sys)).json());
const editable = (o: z.infer<typeof organizationSchema>) => ({
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
});

describe('organizations', () => {
  it('shows an organization to its own administrator and to system administrators only', async () => {
    const own = await call('GET', `/organizations/${demoOrgId}`, orgAdmin);
    expect(own.statusCode).toBe(200);
    expect(organizationSchema.parse(own.json()).id).toBe(demoOrgId);
    expect((await call('GET', `/organizations/${other.orgId}`, sys)).statusCode).toBe(200);
    // Another tenant's organization does not exist for them.
    const foreign = await call('GET', `/organizations/${other.orgId}`, orgAdmin);
    expect(foreign.statusCode).toBe(404);
    expect(codeOf(foreign)).toBe('NOT_FOUND');
    expect((await call('GET', `/organizations/${demoOrgId}`, otherAdmin)).statusCode).toBe(404);
    expect((await call('GET', '/organizations/999999', sys)).statusCode).toBe(404);
    for (const who of [general, manager]) {
      const res = await call('GET', `/organizations/${demoOrgId}`, who);
      expect(res.statusCode).toBe(403);
      expect(codeOf(res)).toBe('FORBIDDEN');
    }
    for (const bad of ['abc', '0', '-1', '2147483648', '1.5']) {
      expect((await call('GET', `/organizations/${bad}`, sys)).statusCode).toBe(400);
    }
  });

  it('lists the caller’s own organizations to any operator, with the total and only the fields asked for', async () => {
    const demo = organizationSchema.parse((await call('GET', `/organizations/${demoOrgId}`, sys)).json());
    const filter = encodeURIComponent(JSON.stringify({ fields: ['id', 'name', 'labOption'], order: 'id ASC' }));
    for (const who of [general, manager, orgAdmin]) {
      const res = await call('GET', `/organizations?filter=${filter}`, who);
      expect(res.statusCode).toBe(200);
      expect(res.headers['x-total-count']).toBe('1');
      expect(res.json()).toEqual([{ id: demo.id, name: demo.name, labOption: demo.labOption }]);
    }
    const all = await call('GET', `/organizations?filter=${encodeURIComponent(JSON.stringify({ limit: 1000 }))}`, sys);
    const ids = z
      .array(organizationSchema)
      .parse(all.json())
      .map((o) => o.id);
    expect(ids).toEqual(expect.arrayContaining([demoOrgId, other.orgId]));
    expect(Number(all.headers['x-total-count'])).toBe(ids.length);
    // Path ids are read strictly: no hexadecimal, exponent or padded forms of another id.
    for (const bad of ['0x10', '1e3', '01', '%201']) {
      expect((await call('GET', `/organizations/${bad}`, sys)).statusCode).toBe(400);
      expect((await call('GET', `/organizations/${demoOrgId}/notif-targets/${bad}`, sys)).statusCode).toBe(400);
    }
  });

  it('lets only system administrators create one; empty texts are stored as null; names are unique regardless of case', async () => {
    const created = await call('POST', '/organizations', sys, orgBody('New Customer'));
    expect(created.statusCode).toBe(201);
    const org = organizationSchema.parse(created.json());
    expect(org).toMatchObject({
      name: 'New Customer',
      prefecture: null,
      address: null,
      city: 'Chiyoda',
      labOption: false,
    });
    const contract = await t.db.kysely
      .selectFrom('contracts')
      .selectAll()
      .where('organization_id', '=', org.id)
      .executeTakeFirst();
    expect(contract).toBeDefined();
    const dup = await call('POST', '/organizations', sys, orgBody('  new CUSTOMER '));
    expect(dup.statusCode).toBe(409);
    expect(errorBodySchema.parse(dup.json()).error).toMatchObject({
      code: 'DUPLICATE',
      details: [{ path: 'name', message: 'validation.duplicate' }],
    });
    for (const who of [orgAdmin, otherAdmin, manager, general]) {
      const res = await call('POST', '/organizations', who, orgBody('Refused Org'));
      expect(res.statusCode).toBe(403);
    }
    expect((await call('POST', '/organizations', sys, { ...orgBody(''), level: 'x' })).statusCode).toBe(400);
    expect((await call('POST', '/organizations', sys, orgBody('x'.repeat(49)))).statusCode).toBe(400);
    const audit = await t.db.kysely
      .selectFrom('audit_logs')
      .selectAll()
      .where('action', '=', 'organization.create')
      .where('target_id', '=', String(org.id))
      .executeTakeFirst();
    expect(audit?.ip).toBeTruthy();
  });

  it('lets an organization administrator edit names and address of their own organization, but not type, level, status or Lab option', async () => {
    const before = await current(demoOrgId);
    const ok = await call('PATCH', `/organizations/${demoOrgId}`, orgAdmin, {
      ...editable(before),
      name: 'Demo Company Renamed',
      address: '1-1 Marunouchi',
      city: '',
    });
    expect(ok.statusCode).toBe(200);
    const after = organizationSchema.parse(ok.json());
    expect(after).toMatchObject({ name: 'Demo Company Renamed', address: '1-1 Marunouchi', city: null });
    expect(after.updatedAt).not.toBe(before.updatedAt);
    for (const change of [{ type: 1 }, { level: 7 }, { status: 0 }, { labOption: !after.labOption }]) {
      const res = await call('PATCH', `/organizations/${demoOrgId}`, orgAdmin, { ...editable(after), ...change });
      expect({ change, status: res.statusCode, code: codeOf(res) }).toEqual({ change, status: 403, code: 'FORBIDDEN' });
    }
    expect(await current(demoOrgId)).toEqual(after);
    // System administrators may change them.
    const bySys = await call('PATCH', `/organizations/${demoOrgId}`, sys, { ...editable(after), level: 3 });
    expect(bySys.statusCode).toBe(200);
    await call('PATCH', `/organizations/${demoOrgId}`, sys, {
      ...editable(organizationSchema.parse(bySys.json())),
      level: before.level,
      name: before.name,
    });
  });

  it('refuses edits from other tenants, general operators and area managers', async () => {
    const o = await current(demoOrgId);
    expect((await call('PATCH', `/organizations/${demoOrgId}`, otherAdmin, editable(o))).statusCode).toBe(404);
    expect(
      (await call('PATCH', `/organizations/${other.orgId}`, orgAdmin, editable(await current(other.orgId)))).statusCode,
    ).toBe(404);
    for (const who of [general, manager])
      expect((await call('PATCH', `/organizations/${demoOrgId}`, who, editable(o))).statusCode).toBe(403);
    expect((await call('PATCH', '/organizations/999999', sys, editable(o))).statusCode).toBe(404);
    expect(await current(demoOrgId)).toEqual(o);
  });

  it('answers a second edit from the same version with 409 STALE_UPDATE and keeps the first', async () => {
    const base = await current(other.orgId);
    const first = await call('PATCH', `/organizations/${other.orgId}`, otherAdmin, {
      ...editable(base),
      city: 'First',
    });
    expect(first.statusCode).toBe(200);
    const second = await call('PATCH', `/organizations/${other.orgId}`, sys, { ...editable(base), city: 'Second' });
    expect(second.statusCode).toBe(409);
    expect(codeOf(second)).toBe('STALE_UPDATE');
    expect((await current(other.orgId)).city).toBe('First');
  });

  it('refuses a rename to an existing name (any case)', async () => {
    const o = await current(other.orgId);
    const res = await call('PATCH', `/organizations/${other.orgId}`, otherAdmin, {
      ...editable(o),
      name: 'NEW customer',
    });
    expect(res.statusCode).toBe(409);
    expect(errorBodySchema.parse(res.json()).error.details).toEqual([
      { path: 'name', message: 'validation.duplicate' },
    ]);
    // Keeping one's own name is not a duplicate.
    expect((await call('PATCH', `/organizations/${other.orgId}`, otherAdmin, editable(o))).statusCode).toBe(200);
  });

  it('answers concurrent creates of one name with one 201 and 409 DUPLICATE for the rest, never 500', async () => {
    const answers = await Promise.all([1, 2, 3].map(() => call('POST', '/organizations', sys, orgBody('Racing Org'))));
    expect(answers.map((r) => r.statusCode).sort()).toEqual([201, 409, 409]);
    for (const r of answers.filter((a) => a.statusCode === 409)) expect(codeOf(r)).toBe('DUPLICATE');
  });

  it('recognises the database’s own unique violation (the race the check cannot see) on this engine', async () => {
    const now = new Date().toISOString();
    const row = {
      name: 'RACING ORG',
      type: 0,
      level: 0,
      prefecture: null,
      city: null,
      address: null,
      postal_code: null,
      status: 1,
      lab_option: 0,
      created_at: now,
      updated_at: now,
    };
    const err = await t.db.kysely
      .insertInto('organizations')
      .values(row)
      .execute()
      .then(
        () => null,
        (e: unknown) => e,
      );
    expect(isUniqueViolation(err)).toBe(true);
    expect(isUniqueViolation(new Error('other'))).toBe(false);
  });

  it('deletes only empty organizations, and only for system administrators', async () => {
    const inUse = await call('DELETE', `/organizations/${other.orgId}`, sys);
    expect(inUse.statusCode).toBe(409);
    const err = errorBodySchema.parse(inUse.json()).error;
    expect(err.code).toBe('IN_USE');
    expect(err.details?.map((d) => d.path).sort()).toEqual(['buildings', 'operators']);
    const empty = organizationSchema.parse((await call('POST', '/organizations', sys, orgBody('Short Lived'))).json());
    for (const who of [orgAdmin, manager, general, otherAdmin])
      expect((await call('DELETE', `/organizations/${empty.id}`, who)).statusCode).toBe(403);
    expect((await call('DELETE', `/organizations/${empty.id}`, sys)).statusCode).toBe(204);
    expect((await call('GET', `/organizations/${empty.id}`, sys)).statusCode).toBe(404);
    expect((await call('DELETE', `/organizations/${empty.id}`, sys)).statusCode).toBe(404);
    const logged = await t.db.kysely
      .selectFrom('audit_logs')
      .select('action')
      .where('action', '=', 'organization.delete')
      .where('target_id', '=', String(empty.id))
      .executeTakeFirst();
    expect(logged).toBeDefined();
  });
});

// ------------------------------------------------------------------------------------------------
// notification targets

const emailTarget = {
  type: 0,
  level: 5,
  buildingId: null,
  room: '',
  address: 'alerts@demo.example',
  botLoginId: '',
  spaceId: '',
};
const slackTarget = {
  type: 1,
  level: 9,
  buildingId: null,
  room: 'ops',
  address: SLACK_URL,
  botLoginId: '',
  spaceId: '',
};
const botTarget = {
  type: 6,
  level: 0,
  buildingId: null,
  room: '',
  address: BOT_URL,
  botLoginId: 'portal-bot',
  botPassword: BOT_PASSWORD,
  spaceId: 'space-1',
};

const expectNoSecrets = (body: string) => {
  for (const secret of [SLACK_URL, 'SecretSlackToken42', BOT_URL, 'secret-bot-path', BOT_PASSWORD])
    expect(body).not.toContain(secret);
};

describe('notification targets', () => {
  const base = () => `/organizations/${demoOrgId}/notif-targets`;

  it('stores webhook URLs and bot passwords sealed and never answers them in full', async () => {
    const bodies: string[] = [];
    const slack = await call('POST', base(), orgAdmin, { ...slackTarget, buildingId: demoBuildingId });
    expect(slack.statusCode).toBe(201);
    bodies.push(slack.body);
    const s = notifTargetSchema.parse(slack.json());
    expect(s.address).toBe('••••••en42');
    const bot = await call('POST', base(), orgAdmin, botTarget);
    expect(bot.statusCode).toBe(201);
    bodies.push(bot.body);
    const b = notifTargetSchema.parse(bot.json());
    expect(b.botPassword).toBe('••••••9931');
    const email = notifTargetSchema.parse((await call('POST', base(), orgAdmin, emailTarget)).json());
    expect(email.address).toBe('alerts@demo.example');
    expect(email.botPassword).toBeNull();
    bodies.push(
      (await call('GET', base(), orgAdmin)).body,
      (await call('GET', `${base()}/${b.id}`, orgAdmin)).body,
      (await call('GET', `${base()}/${s.id}`, sys)).body,
    );
    bodies.forEach(expectNoSecrets);
    const rows = await t.db.kysely
      .selectFrom('notification_targets')
      .selectAll()
      .where('id', 'in', [s.id, b.id])
      .execute();
    for (const r of rows) {
      expect(r.address_sealed).toBe(1);
      expectNoSecrets(JSON.stringify(r));
    }
  });

  it('keeps the bot password when the update omits it, clears it with an empty string, and refuses stale versions', async () => {
    const created = notifTargetSchema.parse((await call('POST', base(), orgAdmin, botTarget)).json());
    const { botPassword: _omit, ...withoutPassword } = botTarget;
    const kept = await call('PATCH', `${base()}/${created.id}`, orgAdmin, {
      ...withoutPassword,
      room: 'Lobby',
      updatedAt: created.updatedAt,
    });
    expect(kept.statusCode).toBe(200);
    const k = notifTargetSchema.parse(kept.json());
    expect(k).toMatchObject({ room: 'Lobby', botPassword: '••••••9931' });
    expectNoSecrets(kept.body);
    // A second edit based on the same (old) version loses.
    const stale = await call('PATCH', `${base()}/${created.id}`, sys, {
      ...withoutPassword,
      room: 'Stale',
      updatedAt: created.updatedAt,
    });
    expect(stale.statusCode).toBe(409);
    expect(codeOf(stale)).toBe('STALE_UPDATE');
    expect(notifTargetSchema.parse((await call('GET', `${base()}/${created.id}`, orgAdmin)).json()).room).toBe('Lobby');
    const cleared = await call('PATCH', `${base()}/${created.id}`, orgAdmin, {
      ...withoutPassword,
      botPassword: '',
      updatedAt: k.updatedAt,
    });
    expect(notifTargetSchema.parse(cleared.json()).botPassword).toBeNull();
    expect(
      (await call('PATCH', `${base()}/999999`, orgAdmin, { ...withoutPassword, updatedAt: k.updatedAt })).statusCode,
    ).toBe(404);
  });

  it("gives a new target its operator's language (else Japanese), takes an explicit one, keeps it on an update that omits it", async () => {
    await t.db.kysely
      .updateTable('operators')
      .set({ language: 'en' })
      .where('login_id', '=', 'operator@demo.example')
      .execute();
    try {
      const create = async (body: Record<string, unknown>) => {
        const res = await call('POST', base(), orgAdmin, { ...emailTarget, ...body });
        expect(res.statusCode).toBe(201);
        return notifTargetSchema.parse(res.json());
      };
      // The login of an operator of the organization (any case): that operator's language.
      expect((await create({ address: 'Operator@demo.example' })).language).toBe('en');
      // Anyone else, or another type: Japanese.
      expect((await create({ address: 'alerts@demo.example' })).language).toBe('ja');
      expect((await create({ ...slackTarget })).language).toBe('ja');
      // An operator of another organization does not count.
      expect((await create({ address: 'admin@other.example' })).language).toBe('ja');
      // Given: taken as it is.
      const ja = await create({ address: 'operator@demo.example', language: 'ja' });
      expect(ja.language).toBe('ja');
      const en = await create({ address: 'alerts@demo.example', language: 'en' });
      expect(en.language).toBe('en');
      const { id, createdAt: _c, organizationId: _o, botPassword: _p, updatedAt, ...rest } = en;
      const kept = await call('PATCH', `${base()}/${id}`, orgAdmin, { ...rest, language: undefined, updatedAt });
      expect(kept.statusCode).toBe(200);
      expect(notifTargetSchema.parse(kept.json()).language).toBe('en');
      const changed = await call('PATCH', `${base()}/${id}`, orgAdmin, {
        ...rest,
        language: 'ja',
        updatedAt: notifTargetSchema.parse(kept.json()).updatedAt,
      });
      expect(notifTargetSchema.parse(changed.json()).language).toBe('ja');
      // Anything else: 400 with the field, nothing stored.
      const bad = await call('POST', base(), orgAdmin, { ...emailTarget, address: 'bad@demo.example', language: 'fr' });
      expect(bad.statusCode).toBe(400);
      expect(JSON.stringify(bad.json())).toContain('language');
      const stored = await t.db.kysely
        .selectFrom('notification_targets')
        .select('id')
        .where('address', '=', 'bad@demo.example')
        .execute();
      expect(stored).toHaveLength(0);
    } finally {
      await t.db.kysely
        .updateTable('operators')
        .set({ language: null })
        .where('login_id', '=', 'operator@demo.example')
        .execute();
    }
  });

  it('keeps a stored webhook URL when the update omits the address, but not across a change of type', async () => {
    const created = notifTargetSchema.parse((await call('POST', base(), orgAdmin, slackTarget)).json());
    const { address: _omit, ...withoutAddress } = slackTarget;
    const kept = await call('PATCH', `${base()}/${created.id}`, orgAdmin, {
      ...withoutAddress,
      level: 9,
      updatedAt: created.updatedAt,
    });
    expect(kept.statusCode).toBe(200);
    const k = notifTargetSchema.parse(kept.json());
    expect(k).toMatchObject({ level: 9, address: created.address });
    const row = await t.db.kysely
      .selectFrom('notification_targets')
      .selectAll()
      .where('id', '=', created.id)
      .executeTakeFirstOrThrow();
    expect(row.address_sealed).toBe(1);
    const retyped = await call('PATCH', `${base()}/${created.id}`, orgAdmin, {
      ...withoutAddress,
      type: 0,
      updatedAt: k.updatedAt,
    });
    expect(retyped.statusCode).toBe(400);
    expect(errorBodySchema.parse(retyped.json()).error.details).toEqual([
      expect.objectContaining({ path: 'address', message: 'validation.required' }),
    ]);
  });

  it('refuses the disabled types, invalid addresses and a building of another organization', async () => {
    for (const type of [2, 3]) {
      const res = await call('POST', base(), orgAdmin, { ...emailTarget, type });
      expect(res.statusCode).toBe(400);
      expect(errorBodySchema.parse(res.json()).error.details?.some((d) => d.path === 'type')).toBe(true);
    }
    expect(
      (await call('POST', base(), orgAdmin, { ...slackTarget, address: 'https://evil.example/hook' })).statusCode,
    ).toBe(400);
    expect((await call('POST', base(), orgAdmin, { ...emailTarget, address: '' })).statusCode).toBe(400);
    const foreign = await call('POST', base(), orgAdmin, { ...emailTarget, buildingId: other.buildingId });
    expect(foreign.statusCode).toBe(400);
    expect(errorBodySchema.parse(foreign.json()).error).toMatchObject({
      code: 'VALIDATION_FAILED',
      details: [{ path: 'buildingId' }],
    });
    expect((await call('POST', base(), orgAdmin, { ...emailTarget, buildingId: 999999 })).statusCode).toBe(400);
  });

  it('refuses a chat-bot URL that points into the server network, in any form, at create and at update', async () => {
    const forbidden = { code: 'VALIDATION_FAILED', details: [{ path: 'address', message: 'validation.urlForbidden' }] };
    for (const address of [
      'https://127.0.0.1/hook',
      'https://0x7f000001/hook',
      'https://2130706433/hook',
      'https://169.254.169.254/latest/meta-data/',
      'https://[::1]/hook',
      'https://10.0.0.5/hook',
      'https://localhost/hook',
    ]) {
      const res = await call('POST', base(), orgAdmin, { ...botTarget, address });
      expect({ address, status: res.statusCode, error: errorOf(res) }).toEqual({
        address,
        status: 400,
        error: expect.objectContaining(forbidden),
      });
    }
    const created = notifTargetSchema.parse((await call('POST', base(), orgAdmin, botTarget)).json());
    const res = await call('PATCH', `${base()}/${created.id}`, orgAdmin, {
      ...botTarget,
      address: 'https://0177.0.0.1:8080/hook',
      updatedAt: created.updatedAt,
    });
    expect(res.statusCode).toBe(400);
    expect(errorOf(res)).toMatchObject(forbidden);
  });

  it('answers 404 on every route to another tenant and 403 to general operators and area managers', async () => {
    const target = notifTargetSchema.parse((await call('POST', base(), orgAdmin, emailTarget)).json());
    const update = { ...emailTarget, updatedAt: target.updatedAt };
    const routes: Array<[Method, string, unknown?]> = [
      ['GET', base()],
      ['GET', `${base()}/${target.id}`],
      ['POST', base(), emailTarget],
      ['PATCH', `${base()}/${target.id}`, update],
      ['DELETE', `${base()}/${target.id}`],
      ['POST', `${base()}/${target.id}/test`],
    ];
    for (const [method, url, payload] of routes) {
      const res = await call(method, url, otherAdmin, payload);
      expect({ method, url, status: res.statusCode }).toEqual({ method, url, status: 404 });
      for (const who of [general, manager]) {
        const r = await call(method, url, who, payload);
        expect({ method, url, status: r.statusCode, code: codeOf(r) }).toEqual({
          method,
          url,
          status: 403,
          code: 'FORBIDDEN',
        });
      }
    }
    // Reaching the demo target through the other organization's own path is not possible either.
    const sideways = `/organizations/${other.orgId}/notif-targets/${target.id}`;
    expect((await call('GET', sideways, otherAdmin)).statusCode).toBe(404);
    expect((await call('DELETE', sideways, otherAdmin)).statusCode).toBe(404);
    expect((await call('PATCH', sideways, otherAdmin, update)).statusCode).toBe(404);
    expect((await call('GET', `${base()}/${target.id}`, orgAdmin)).statusCode).toBe(200);
    expect((await call('DELETE', `${base()}/${target.id}`, orgAdmin)).statusCode).toBe(204);
    expect((await call('GET', `${base()}/${target.id}`, orgAdmin)).statusCode).toBe(404);
  });
});

// ------------------------------------------------------------------------------------------------
// the test notification, against a local mock of Slack and of a chat bot

interface Received {
  path: string;
  authorization: string | undefined;
  body: unknown;
}
const slackBody = z.object({ text: z.string().min(1) }).strict();
const botBody = z.object({ spaceId: z.string(), botLoginId: z.string(), text: z.string().min(1) }).strict();

describe('test notification', () => {
  let mock: Server;
  let mockBase: string;
  const received: Received[] = [];
  let failNext = false;

  const readBody = (req: IncomingMessage) =>
    new Promise<string>((resolve) => {
      let data = '';
      req.on('data', (c: Buffer) => (data += c.toString('utf8')));
      req.on('end', () => resolve(data));
    });

  beforeAll(async () => {
    mock = createServer((req, res) => {
      void readBody(req).then((raw) => {
        let body: unknown = null;
        try {
          body = JSON.parse(raw);
        } catch {
          body = raw;
        }
        received.push({ path: req.url ?? '', authorization: req.headers.authorization, body });
        // The mock edge validates what it receives, as Slack and the bot would.
        const schema = req.url?.startsWith('/services/') ? slackBody : botBody;
        const ok =
          req.method === 'POST' && req.headers['content-type'] === 'application/json' && schema.safeParse(body).success;
        const status = failNext ? 500 : ok ? 200 : 400;
        failNext = false;
        res.writeHead(status, { 'content-type': 'text/plain' }).end(status === 200 ? 'ok' : 'invalid_payload');
      });
    });
    await new Promise<void>((resolve) => mock.listen(0, '127.0.0.1', resolve));
    mockBase = `http://127.0.0.1:${(mock.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    await new Promise<void>((resolve) => mock.close(() => resolve()));
  });
  /** Where the app's outgoing HTTPS connections were opened (the checked address) and for which Host. */
  const connected: Array<{ host: string; hostHeader: string }> = [];
  let routed: { mockRestore(): void } | null = null;
  afterEach(() => {
    routed?.mockRestore();
    routed = null;
  });

  /**
   * Sends the app's outgoing HTTPS connections to the local mock (plain HTTP on `port`) instead: the
   * address checks, the pinned address, redirects and limits of lib/outbound.ts all run as in production.
   */
  const routeToMock = (port = Number(new URL(mockBase).port)) => {
    routed = vi.spyOn(https, 'request').mockImplementation(((options: https.RequestOptions, cb: () => void) => {
      connected.push({
        host: String(options.host),
        hostHeader: String((options.headers as Record<string, string> | undefined)?.host),
      });
      return http.request({ ...options, host: '127.0.0.1', port }, cb);
    }) as never);
  };

  it('posts { text } to the Slack webhook, records the attempt in the delivery log and answers its status', async () => {
    routeToMock();
    const target = notifTargetSchema.parse(
      (
        await call('POST', `/organizations/${demoOrgId}/notif-targets`, orgAdmin, {
          ...slackTarget,
          buildingId: demoBuildingId,
        })
      ).json(),
    );
    const res = await call('POST', `/organizations/${demoOrgId}/notif-targets/${target.id}/test`, orgAdmin);
    expect(res.statusCode).toBe(200);
    expectNoSecrets(res.body);
    const result = testNotificationResultSchema.parse(res.json());
    expect(result).toMatchObject({ status: 'sent', error: null });
    const hit = received.at(-1)!;
    expect(hit.path).toBe('/services/T000/B000/SecretSlackToken42');
    // The connection went to the address the check resolved, named hooks.slack.com.
    expect(connected.at(-1)).toEqual({ host: PUBLIC_IP, hostHeader: 'hooks.slack.com' });
    const text = slackBody.parse(hit.body).text;
    expect(text).toContain('Demo Tower');
    // A target without a language of its own is Japanese.
    expect(text).toContain('テスト通知');
    expect(text).not.toContain('Test notification');
    const row = await t.db.kysely
      .selectFrom('outbox')
      .selectAll()
      .where('id', '=', result.deliveryId)
      .executeTakeFirstOrThrow();
    expect(row).toMatchObject({
      channel: 'slack',
      recipient: '••••••en42',
      status: 'sent',
      purpose: 'test-notification',
      organization_id: demoOrgId,
    });
    expect(row.sent_at).not.toBeNull();
    const audit = await t.db.kysely
      .selectFrom('audit_logs')
      .selectAll()
      .where('action', '=', 'notif-target.test')
      .where('target_id', '=', String(target.id))
      .executeTakeFirstOrThrow();
    expect(audit.target_type).toBe('notif-target');
    // The delivery log shows it to system administrators without the secret.
    const log = await call('GET', '/deliveries', sys);
    expect(log.statusCode).toBe(200);
    expectNoSecrets(log.body);

    failNext = true;
    t.advance(1); // past the throttle of test sends to one target
    const failed = testNotificationResultSchema.parse(
      (await call('POST', `/organizations/${demoOrgId}/notif-targets/${target.id}/test`, orgAdmin)).json(),
    );
    // Neither the status nor the answer of the far end is echoed.
    expect(failed).toMatchObject({ status: 'failed', error: DELIVERY_FAILED });
    const failedRow = await t.db.kysely
      .selectFrom('outbox')
      .selectAll()
      .where('id', '=', failed.deliveryId)
      .executeTakeFirstOrThrow();
    expect(failedRow).toMatchObject({ status: 'failed', error: DELIVERY_FAILED, sent_at: null });
  });

  it('posts { spaceId, botLoginId, text } with basic auth to a chat bot', async () => {
    routeToMock();
    const target = notifTargetSchema.parse(
      (await call('POST', `/organizations/${demoOrgId}/notif-targets`, sys, botTarget)).json(),
    );
    const res = await call('POST', `/organizations/${demoOrgId}/notif-targets/${target.id}/test`, sys);
    expect(res.statusCode).toBe(200);
    expectNoSecrets(res.body);
    expect(testNotificationResultSchema.parse(res.json()).status).toBe('sent');
    const hit = received.at(-1)!;
    expect(hit.path).toBe('/api/v1/secret-bot-path-77');
    expect(botBody.parse(hit.body)).toMatchObject({ spaceId: 'space-1', botLoginId: 'portal-bot' });
    expect(hit.authorization).toBe(`Basic ${Buffer.from(`portal-bot:${BOT_PASSWORD}`).toString('base64')}`);
  });

  it('reports an unreachable webhook as failed, not as an error of the portal', async () => {
    routeToMock(1);
    const target = notifTargetSchema.parse(
      (await call('POST', `/organizations/${demoOrgId}/notif-targets`, orgAdmin, slackTarget)).json(),
    );
    const res = await call('POST', `/organizations/${demoOrgId}/notif-targets/${target.id}/test`, orgAdmin);
    expect(res.statusCode).toBe(200);
    expect(testNotificationResultSchema.parse(res.json())).toMatchObject({
      status: 'failed',
      error: DELIVERY_FAILED,
    });
  });

  it('checks the address again at send: a name now resolving inside is not called, and the answer tells nothing', async () => {
    routeToMock();
    resolved['rebind.example'] = PUBLIC_IP;
    const target = notifTargetSchema.parse(
      (
        await call('POST', `/organizations/${demoOrgId}/notif-targets`, orgAdmin, {
          ...botTarget,
          address: 'https://rebind.example/hook',
        })
      ).json(),
    );
    resolved['rebind.example'] = '127.0.0.1';
    const before = { received: received.length, connected: connected.length };
    const res = await call('POST', `/organizations/${demoOrgId}/notif-targets/${target.id}/test`, orgAdmin);
    delete resolved['rebind.example'];
    expect(res.statusCode).toBe(200);
    expect(testNotificationResultSchema.parse(res.json())).toMatchObject({ status: 'failed', error: DELIVERY_FAILED });
    expect({ received: received.length, connected: connected.length }).toEqual(before);
  });

  it("mails an email target through the outbox in the target's language", async () => {
    const sent = async (language: 'ja' | 'en') => {
      const target = notifTargetSchema.parse(
        (
          await call('POST', `/organizations/${demoOrgId}/notif-targets`, orgAdmin, {
            ...emailTarget,
            address: `alerts-${language}@demo.example`,
            language,
          })
        ).json(),
      );
      const res = await call('POST', `/organizations/${demoOrgId}/notif-targets/${target.id}/test`, orgAdmin);
      const result = testNotificationResultSchema.parse(res.json());
      expect(result.status).toBe('stored');
      const row = await t.db.kysely
        .selectFrom('outbox')
        .selectAll()
        .where('id', '=', result.deliveryId)
        .executeTakeFirstOrThrow();
      expect(row).toMatchObject({
        channel: 'email',
        recipient: `alerts-${language}@demo.example`,
        purpose: 'test-notification',
      });
      return row;
    };
    const ja = await sent('ja');
    expect(ja.subject).toBe('【ロボットポータル】テスト通知');
    expect(ja.body).toContain('テスト通知');
    expect(ja.body).not.toContain('This is a test notification');
    const en = await sent('en');
    expect(en.subject).toBe('[Robot Portal] Test notification');
    expect(en.body).toContain('This is a test notification');
    expect(en.body).not.toContain('テスト通知');
  });

  it('works with an injected outbound helper (the notifier on its own)', async () => {
    routeToMock();
    const notifier = createNotifier({
      db: t.db.kysely,
      clock: () => new Date(),
      mailer: { deliver: () => Promise.reject(new Error('not used')) },
      config: t.config,
      outbound: createOutbound({ resolve: () => Promise.resolve([{ address: '203.0.114.9', family: 4 }]) }),
    });
    const result = await notifier.send(
      { type: 1, address: SLACK_URL, botLoginId: '', botPassword: null, spaceId: '', organizationId: demoOrgId },
      { subject: 'S', body: 'B', purpose: 'test-notification' },
    );
    expect(result.status).toBe('sent');
    expect(slackBody.parse(received.at(-1)!.body).text).toBe('S\nB');
    expect(connected.at(-1)?.host).toBe('203.0.114.9');
  });

  it('throttles test sends per target (one per 10 s, 10 per hour) with the error body', async () => {
    const target = notifTargetSchema.parse(
      (await call('POST', `/organizations/${demoOrgId}/notif-targets`, orgAdmin, emailTarget)).json(),
    );
    const send = () => call('POST', `/organizations/${demoOrgId}/notif-targets/${target.id}/test`, orgAdmin);
    expect((await send()).statusCode).toBe(200);
    const again = await send();
    expect(again.statusCode).toBe(429);
    expect(errorOf(again).code).toBe('RATE_LIMITED');
    for (let i = 1; i < 10; i++) {
      t.advance(1);
      expect((await send()).statusCode).toBe(200);
    }
    t.advance(1);
    expect((await send()).statusCode).toBe(429);
    t.advance(60);
    expect((await send()).statusCode).toBe(200);
  });

  it('throttles test sends per operator (30 per hour over any targets)', async () => {
    t.advance(61);
    const targets = [];
    for (let i = 0; i < 31; i++) {
      targets.push(
        notifTargetSchema.parse(
          (
            await call('POST', `/organizations/${demoOrgId}/notif-targets`, sys, { ...emailTarget, room: `r${i}` })
          ).json(),
        ),
      );
    }
    const statuses = [];
    for (const target of targets) {
      statuses.push(
        (await call('POST', `/organizations/${demoOrgId}/notif-targets/${target.id}/test`, sys)).statusCode,
      );
    }
    expect(statuses).toEqual([...Array<number>(30).fill(200), 429]);
    // Another operator is not held back by it.
    expect(
      (await call('POST', `/organizations/${demoOrgId}/notif-targets/${targets[30]!.id}/test`, orgAdmin)).statusCode,
    ).toBe(200);
  });
});
