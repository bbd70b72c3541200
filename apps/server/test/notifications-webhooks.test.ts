import { createHmac, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { webhookSchema, webhookWithSecretSchema, type WebhookInput } from '@portal/contract';
import {
  createNotificationEngine,
  notifyEvent,
  type NotificationEngine,
} from '../src/modules/notifications/notification-engine.ts';
import { createTestApp, errorOf, type TestApp } from './helpers.ts';

/**
 * Webhooks as a channel of the notification engine (docs/notifications.md "Webhooks"): a real
 * database (SQLite, and PostgreSQL in the PostgreSQL run) and a real local HTTP receiver (admitted by
 * OUTBOUND_ALLOW_HOSTS, as an on-premise receiver would be) that verifies each request's signature
 * with the secret the webhook was created with. The engines' clock is moved instead of sleeping.
 */
interface Hit {
  path: string;
  headers: IncomingHttpHeaders;
  body: {
    id: string;
    event: string;
    level: number;
    text: string;
    data: { organizationId: number; events: Array<{ kind: string; level: number }> };
  };
  signatureValid: boolean;
  status: number;
}

let t: TestApp;
let sys: string;
let receiver: Server;
let base: string;
let orgId: number;
let buildingId: number;
let otherOrgId: number;
const hits: Hit[] = [];
const secrets = new Map<string, string>();
/** How many more requests each path answers 500 to. */
const failing = new Map<string, number>();
let offsetMs = 0;
const clock = () => new Date(Date.now() + offsetMs);
const silent = new Proxy({} as Parameters<typeof createNotificationEngine>[0]['log'], {
  get: () => () => undefined,
});
const engines: NotificationEngine[] = [];
const newEngine = () => {
  const e = createNotificationEngine({ db: t.db.kysely, clock, log: silent, config: t.config });
  engines.push(e);
  return e;
};
let engine: NotificationEngine;

function verify(secret: string, header: string | undefined, body: string): boolean {
  const m = /^t=(\d+),v1=([0-9a-f]{64})$/.exec(header ?? '');
  if (!m) return false;
  const expected = createHmac('sha256', secret).update(`${m[1]}.${body}`).digest();
  const given = Buffer.from(m[2]!, 'hex');
  return given.length === expected.length && timingSafeEqual(given, expected);
}

beforeAll(async () => {
  receiver = createServer((req, res) => {
    let raw = '';
    req.on('data', (c: Buffer) => (raw += c.toString('utf8')));
    req.on('end', () => {
      const path = req.url ?? '';
      const secret = secrets.get(path);
      const signatureValid = secret !== undefined && verify(secret, req.headers['x-portal-signature'] as string, raw);
      const fails = failing.get(path) ?? 0;
      if (fails > 0) failing.set(path, fails - 1);
      const status = fails > 0 ? 500 : signatureValid ? 200 : 401;
      hits.push({ path, headers: req.headers, body: JSON.parse(raw) as Hit['body'], signatureValid, status });
      res.writeHead(status, { 'content-type': 'text/plain' }).end(status === 200 ? 'ok' : 'no');
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`;
  t = await createTestApp({
    OUTBOUND_ALLOW_HOSTS: '127.0.0.1',
    NOTIFY_TICK_MS: '0',
    NOTIFY_GROUP_WINDOW_MS: '10000',
    NOTIFY_RETRY_BASE_MS: '10000',
    NOTIFY_MAX_ATTEMPTS: '6',
    SCHEDULE_TICK_MS: '0',
    EXPORT_TICK_MS: '0',
  });
  sys = (await t.as('sysadmin@demo.example')).authorization;
  const b = await t.db.kysely
    .selectFrom('buildings')
    .select(['id', 'organization_id'])
    .where('name', '=', 'Demo Tower')
    .executeTakeFirstOrThrow();
  buildingId = b.id;
  orgId = b.organization_id;
  const now = new Date().toISOString();
  otherOrgId = (
    await t.db.kysely
      .insertInto('organizations')
      .values({
        name: 'Webhook Other Org',
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
      })
      .returning('id')
      .executeTakeFirstOrThrow()
  ).id;
  engine = newEngine();
});

afterAll(async () => {
  for (const e of engines) await e.close();
  await t?.close();
  await new Promise<void>((resolve) => receiver.close(() => resolve()));
});

beforeEach(async () => {
  // Each test sees only its own webhooks: the earlier ones are disabled and their leftovers settled.
  await t.db.kysely.updateTable('webhooks').set({ status: 0 }).execute();
  await engine.tick();
});

/** Creates a webhook through the API as a system administrator; the receiver learns its secret. */
async function createWebhook(path: string, over: Partial<WebhookInput> = {}) {
  const input: WebhookInput = {
    name: path.slice(1, 60),
    type: 0,
    url: `${base}${path}`,
    authType: 'token',
    authUsername: '',
    authSecret: 'tok-123',
    customHeaderName: '',
    status: 1,
    ...over,
  };
  const res = await t.call('POST', '/webhooks', sys, input);
  expect(res.statusCode, res.body).toBe(201);
  const created = webhookWithSecretSchema.parse(res.json());
  secrets.set(path, created.signingSecret);
  return created.webhook.id;
}

const notify = (input: Parameters<typeof notifyEvent>[1]) =>
  notifyEvent({ db: t.db.kysely, clock, config: t.config }, input);
const at = (path: string) => hits.filter((h) => h.path === path);
const webhookDeliveries = (webhookId: number) =>
  t.db.kysely
    .selectFrom('notification_deliveries')
    .selectAll()
    .where('channel', '=', 'webhook')
    .where('target_id', '=', webhookId)
    .orderBy('id')
    .execute();

describe('webhook level', () => {
  it('is 0 by default, set on create and update, kept when omitted, and validated', async () => {
    const id = await createWebhook('/level-field');
    const get = async () => webhookSchema.parse((await t.call('GET', `/webhooks/${id}`, sys)).json());
    expect((await get()).level).toBe(0);
    const { url: _masked, ...rest } = await get();
    const body = {
      name: rest.name,
      type: rest.type,
      authType: rest.authType,
      authUsername: rest.authUsername,
      customHeaderName: rest.customHeaderName,
      status: rest.status,
    };
    let res = await t.call('PATCH', `/webhooks/${id}`, sys, { ...body, level: 5, updatedAt: rest.updatedAt });
    expect(res.statusCode, res.body).toBe(200);
    expect((await get()).level).toBe(5);
    res = await t.call('PATCH', `/webhooks/${id}`, sys, { ...body, updatedAt: (await get()).updatedAt });
    expect(res.statusCode, res.body).toBe(200);
    expect((await get()).level).toBe(5);
    for (const level of [3, -1, '9', null]) {
      const before = await get();
      res = await t.call('PATCH', `/webhooks/${id}`, sys, { ...body, level, updatedAt: before.updatedAt });
      expect(res.statusCode).toBe(400);
      expect(errorOf(res).details).toContainEqual(
        expect.objectContaining({ path: 'level', message: 'validation.invalid' }),
      );
      expect(await get()).toEqual(before);
      const count = (await t.db.kysely.selectFrom('webhooks').select('id').execute()).length;
      res = await t.call('POST', '/webhooks', sys, {
        ...body,
        name: 'Bad level',
        url: `${base}/bad-level`,
        authSecret: 'x',
        level,
      });
      expect(res.statusCode).toBe(400);
      expect((await t.db.kysely.selectFrom('webhooks').select('id').execute()).length).toBe(count);
    }
  });
});

describe('webhook event kinds', () => {
  it('are every kind (null) by default, chosen on create and update, kept when omitted, and validated', async () => {
    const id = await createWebhook('/kinds-field');
    const get = async () => webhookSchema.parse((await t.call('GET', `/webhooks/${id}`, sys)).json());
    expect((await get()).eventKinds).toBeNull();
    const { url: _masked, ...rest } = await get();
    const body = {
      name: rest.name,
      type: rest.type,
      authType: rest.authType,
      authUsername: rest.authUsername,
      customHeaderName: rest.customHeaderName,
      status: rest.status,
    };
    let res = await t.call('PATCH', `/webhooks/${id}`, sys, {
      ...body,
      eventKinds: ['lowBattery', 'emergencyStop'],
      updatedAt: rest.updatedAt,
    });
    expect(res.statusCode, res.body).toBe(200);
    // Answered in the engine's order of kinds.
    expect((await get()).eventKinds).toEqual(['lowBattery', 'emergencyStop']);
    res = await t.call('PATCH', `/webhooks/${id}`, sys, { ...body, updatedAt: (await get()).updatedAt });
    expect((await get()).eventKinds).toEqual(['lowBattery', 'emergencyStop']);
    for (const eventKinds of [[], ['fire'], ['lowBattery', 'lowBattery'], 'lowBattery', [5]]) {
      const before = await get();
      res = await t.call('PATCH', `/webhooks/${id}`, sys, { ...body, eventKinds, updatedAt: before.updatedAt });
      expect(res.statusCode).toBe(400);
      expect((errorOf(res).details ?? []).some((d) => d.path.startsWith('eventKinds'))).toBe(true);
      expect(await get()).toEqual(before);
    }
    res = await t.call('PATCH', `/webhooks/${id}`, sys, {
      ...body,
      eventKinds: null,
      updatedAt: (await get()).updatedAt,
    });
    expect(res.statusCode, res.body).toBe(200);
    expect((await get()).eventKinds).toBeNull();
    const created = await createWebhook('/kinds-create', { eventKinds: ['thresholdBreach'] });
    expect(webhookSchema.parse((await t.call('GET', `/webhooks/${created}`, sys)).json()).eventKinds).toEqual([
      'thresholdBreach',
    ]);
  });

  it('routes to a webhook only the kinds it chose; every kind reaches one without a choice', async () => {
    const batteryOnly = await createWebhook('/kinds-battery', { eventKinds: ['lowBattery'] });
    const all = await createWebhook('/kinds-all');
    const stop = await notify({ kind: 'emergencyStop', organizationId: orgId, buildingId, groupKey: 'k-stop' });
    const battery = await notify({
      kind: 'lowBattery',
      organizationId: orgId,
      buildingId,
      details: { percent: 12 },
      groupKey: 'k-battery',
    });
    expect(stop?.webhooks).toEqual([all]);
    expect(battery?.webhooks).toEqual([batteryOnly, all]);
    await engine.tick();
    expect(at('/kinds-battery').map((h) => h.body.event)).toEqual(['notification.lowBattery']);
    expect(
      at('/kinds-all')
        .map((h) => h.body.event)
        .sort(),
    ).toEqual(['notification.emergencyStop', 'notification.lowBattery']);
  });
});

describe('notifications to webhooks', () => {
  it('delivers an event to an enabled webhook once, signed, through the outbox and the delivery log', async () => {
    const id = await createWebhook('/once');
    const r = await notify({
      kind: 'taskEvent',
      organizationId: orgId,
      buildingId,
      level: 5,
      message: 'Door left open',
      groupKey: 'once',
    });
    expect(r?.webhooks).toEqual([id]);
    // Recorded before any attempt.
    const [pending] = await webhookDeliveries(id);
    expect(pending).toMatchObject({ status: 'pending', attempts: 0, organization_id: orgId });
    expect(at('/once')).toHaveLength(0);

    await engine.tick();
    await engine.tick();
    const got = at('/once');
    expect(got).toHaveLength(1);
    expect(got[0]!.signatureValid).toBe(true);
    expect(got[0]!.status).toBe(200);
    expect(got[0]!.headers.authorization).toBe('Bearer tok-123');
    expect(got[0]!.headers['x-portal-event']).toBe('notification.taskEvent');
    expect(got[0]!.headers['x-portal-event-id']).toBe(`notification-${pending!.id}`);
    expect(got[0]!.body).toMatchObject({
      id: `notification-${pending!.id}`,
      event: 'notification.taskEvent',
      level: 5,
    });
    expect(got[0]!.body.text).toContain('Door left open');
    expect(got[0]!.body.data.organizationId).toBe(orgId);
    expect(got[0]!.body.data.events).toHaveLength(1);

    const [sent] = await webhookDeliveries(id);
    expect(sent).toMatchObject({ status: 'sent', attempts: 1, lease_owner: null });
    const log = await t.db.kysely
      .selectFrom('outbox')
      .selectAll()
      .where('notification_delivery_id', '=', sent!.id)
      .execute();
    expect(log).toHaveLength(1);
    expect(log[0]).toMatchObject({ channel: 'webhook', status: 'sent', purpose: 'notification' });
  });

  it('sends every organization’s events to the system-wide webhooks', async () => {
    await createWebhook('/all-orgs');
    await notify({ kind: 'robotOffline', organizationId: otherOrgId, buildingId: null, groupKey: 'other-org' });
    await engine.tick();
    expect(at('/all-orgs')).toHaveLength(1);
    expect(at('/all-orgs')[0]!.body.data.organizationId).toBe(otherOrgId);
  });

  it('sends only events whose level reaches the webhook’s level', async () => {
    const emergencyOnly = await createWebhook('/level-9', { level: 9 });
    const warnings = await createWebhook('/level-5', { level: 5 });
    const info = await notify({ kind: 'taskEvent', organizationId: orgId, level: 0, message: 'info', groupKey: 'l0' });
    const warn = await notify({ kind: 'taskEvent', organizationId: orgId, level: 5, message: 'warn', groupKey: 'l5' });
    const emergency = await notify({
      kind: 'taskEvent',
      organizationId: orgId,
      level: 9,
      message: 'sos',
      groupKey: 'l9',
    });
    expect(info?.webhooks).toEqual([]);
    expect(warn?.webhooks).toEqual([warnings]);
    expect(emergency?.webhooks).toEqual([emergencyOnly, warnings]);
    await engine.tick();
    expect(at('/level-9').map((h) => h.body.level)).toEqual([9]);
    expect(
      at('/level-5')
        .map((h) => h.body.level)
        .sort(),
    ).toEqual([5, 9]);
  });

  it('sends nothing to disabled or errored webhooks, nor to one disabled after the event', async () => {
    const disabled = await createWebhook('/disabled', { status: 0 });
    const errored = await createWebhook('/errored');
    await t.db.kysely.updateTable('webhooks').set({ status: 9 }).where('id', '=', errored).execute();
    const later = await createWebhook('/disabled-later');
    const r = await notify({ kind: 'robotOffline', organizationId: orgId, groupKey: 'disabled' });
    expect(r?.webhooks).toEqual([later]);
    expect(await webhookDeliveries(disabled)).toHaveLength(0);
    expect(await webhookDeliveries(errored)).toHaveLength(0);
    await t.db.kysely.updateTable('webhooks').set({ status: 0 }).where('id', '=', later).execute();
    await engine.tick();
    expect(at('/disabled')).toHaveLength(0);
    expect(at('/errored')).toHaveLength(0);
    expect(at('/disabled-later')).toHaveLength(0);
    expect(await webhookDeliveries(later)).toMatchObject([{ status: 'failed', attempts: 1 }]);
  });

  it('retries a failing receiver with backoff until it succeeds, with the same event id', async () => {
    const id = await createWebhook('/flaky');
    failing.set('/flaky', 2);
    await notify({ kind: 'flowRunFailed', organizationId: orgId, buildingId, groupKey: 'flaky' });
    await engine.tick();
    expect(await webhookDeliveries(id)).toMatchObject([{ status: 'pending', attempts: 1, last_error: 'http-500' }]);
    // Not due again before the backoff (10 s).
    offsetMs += 5_000;
    await engine.tick();
    expect(at('/flaky')).toHaveLength(1);
    offsetMs += 5_000;
    await engine.tick();
    expect(at('/flaky')).toHaveLength(2);
    expect(await webhookDeliveries(id)).toMatchObject([{ status: 'pending', attempts: 2 }]);
    offsetMs += 20_000;
    await engine.tick();
    const got = at('/flaky');
    expect(got.map((h) => h.status)).toEqual([500, 500, 200]);
    expect(new Set(got.map((h) => h.headers['x-portal-event-id'])).size).toBe(1);
    expect(await webhookDeliveries(id)).toMatchObject([{ status: 'sent', attempts: 3 }]);
    const row = await t.db.kysely.selectFrom('webhooks').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
    expect(row).toMatchObject({ status: 1, consecutive_failures: 0 });
  });

  it('stops at the webhook’s error status after repeated failures: nothing more is sent', async () => {
    const id = await createWebhook('/broken');
    failing.set('/broken', 1000);
    await notify({ kind: 'flowRunFailed', organizationId: orgId, groupKey: 'broken' });
    for (let i = 0; i < 8; i += 1) {
      await engine.tick();
      offsetMs += 60 * 60_000;
    }
    // Five failures in a row turn the webhook to error; the sixth attempt sends nothing.
    expect(at('/broken')).toHaveLength(5);
    const row = await t.db.kysely.selectFrom('webhooks').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
    expect(row.status).toBe(9);
    expect(await webhookDeliveries(id)).toMatchObject([{ status: 'failed', attempts: 6 }]);
    const r = await notify({ kind: 'flowRunFailed', organizationId: orgId, groupKey: 'broken-2' });
    expect(r?.webhooks).toEqual([]);
    failing.delete('/broken');
  });

  it('groups a burst of one cause into one request', async () => {
    const id = await createWebhook('/burst');
    for (let i = 0; i < 5; i += 1)
      await notify({ kind: 'emergencyStop', organizationId: orgId, buildingId, level: 9, groupKey: 'burst' });
    expect(await webhookDeliveries(id)).toHaveLength(1);
    await engine.tick();
    expect(at('/burst')).toHaveLength(1);
    expect(at('/burst')[0]!.body.data.events).toHaveLength(5);
  });

  it('sends each delivery once when two engines claim from one database', async () => {
    const id = await createWebhook('/two-claimers');
    for (let i = 0; i < 6; i += 1)
      await notify({ kind: 'taskEvent', organizationId: orgId, level: 5, message: `m${i}`, groupKey: `claim-${i}` });
    const other = newEngine();
    await Promise.all([engine.tick(), other.tick(), engine.tick(), other.tick()]);
    const got = at('/two-claimers');
    expect(got).toHaveLength(6);
    expect(new Set(got.map((h) => h.body.id)).size).toBe(6);
    const ds = await webhookDeliveries(id);
    expect(ds.map((d) => d.status)).toEqual(Array(6).fill('sent'));
  });

  it('sends a delivery recorded before a restart from a new engine', async () => {
    const id = await createWebhook('/restart');
    await notify({ kind: 'robotOffline', organizationId: orgId, groupKey: 'restart' });
    const restarted = newEngine();
    await restarted.tick();
    expect(at('/restart')).toHaveLength(1);
    expect(await webhookDeliveries(id)).toMatchObject([{ status: 'sent' }]);
  });
});
