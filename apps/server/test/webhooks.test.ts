import { createHmac, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  deliverySchema,
  WEBHOOK_FAILURE_LIMIT,
  webhookDeliveryResultSchema,
  webhookSchema,
  webhookWithSecretSchema,
  type WebhookInput,
} from '@portal/contract';
import { z } from 'zod';
import { createWebhookSender } from '../src/modules/webhooks/index.ts';
import { createTestApp, errorOf, type TestApp } from './helpers.ts';

/**
 * Webhooks: system administrators only, validation, versioned edits, sealed and masked secrets, and
 * real deliveries to a local HTTP receiver (admitted by OUTBOUND_ALLOW_HOSTS, as an on-premise
 * receiver would be) that checks the signature and the auth headers itself.
 */
let t: TestApp;
let sys: string;
let orgAdmin: string;
let manager: string;
let general: string;

interface Hit {
  path: string;
  headers: IncomingHttpHeaders;
  raw: string;
  /** The receiver's own check of the signature with the secret it was given. */
  signatureValid: boolean;
}
const hits: Hit[] = [];
/** Signing secrets the receiver knows, by path (as a receiver configured per webhook would). */
const secrets = new Map<string, string>();
let receiver: Server;
let base: string;

/** How a receiver verifies `X-Portal-Signature: t=<unix>,v1=<hex>` (docs/api-webhooks.md). */
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
      const secret = secrets.get(path.split('?')[0]!);
      const signatureValid = secret !== undefined && verify(secret, req.headers['x-portal-signature'] as string, raw);
      hits.push({ path, headers: req.headers, raw, signatureValid });
      // /fail always answers 500; everything else 200 when signed right, 401 when not.
      const status = path.startsWith('/fail') ? 500 : signatureValid ? 200 : 401;
      res.writeHead(status, { 'content-type': 'text/plain' }).end(status === 200 ? 'ok' : 'no');
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`;
  t = await createTestApp({ OUTBOUND_ALLOW_HOSTS: '127.0.0.1' });
  sys = (await t.as('sysadmin@demo.example')).authorization;
  orgAdmin = (await t.as('orgadmin@demo.example')).authorization;
  manager = (await t.as('manager@demo.example')).authorization;
  general = (await t.as('operator@demo.example')).authorization;
});
afterAll(async () => {
  await t?.close();
  await new Promise<void>((resolve) => receiver.close(() => resolve()));
});

const input = (over: Partial<WebhookInput> = {}): WebhookInput => ({
  name: 'Alerts',
  type: 0,
  url: `${base}/hook/general`,
  authType: 'none',
  authUsername: '',
  customHeaderName: '',
  status: 1,
  ...over,
});

/** Creates a webhook; the receiver learns its signing secret for the URL's path. */
async function create(over: Partial<WebhookInput> = {}) {
  const res = await t.call('POST', '/webhooks', sys, input(over));
  expect(res.statusCode, res.body).toBe(201);
  const created = webhookWithSecretSchema.parse(res.json());
  secrets.set(new URL(over.url ?? input().url).pathname, created.signingSecret);
  return created;
}
const testSend = async (id: number) => {
  const res = await t.call('POST', `/webhooks/${id}/test`, sys);
  expect(res.statusCode, res.body).toBe(200);
  return webhookDeliveryResultSchema.parse(res.json());
};
const get = async (id: number) => webhookSchema.parse((await t.call('GET', `/webhooks/${id}`, sys)).json());
const count = async () => (await t.db.kysely.selectFrom('webhooks').select('id').execute()).length;

describe('webhooks: roles', () => {
  it('answers 403 to everyone but system administrators, and changes nothing', async () => {
    const { webhook } = await create({ name: 'Roles', url: `${base}/hook/roles` });
    const before = await count();
    for (const who of [orgAdmin, manager, general]) {
      expect((await t.call('GET', '/webhooks', who)).statusCode).toBe(403);
      expect((await t.call('GET', `/webhooks/${webhook.id}`, who)).statusCode).toBe(403);
      expect((await t.call('POST', '/webhooks', who, input())).statusCode).toBe(403);
      const patch = { ...input(), updatedAt: webhook.updatedAt };
      expect((await t.call('PATCH', `/webhooks/${webhook.id}`, who, patch)).statusCode).toBe(403);
      expect((await t.call('POST', `/webhooks/${webhook.id}/test`, who)).statusCode).toBe(403);
      expect((await t.call('POST', `/webhooks/${webhook.id}/signing-secret`, who)).statusCode).toBe(403);
      expect((await t.call('DELETE', `/webhooks/${webhook.id}`, who)).statusCode).toBe(403);
    }
    expect((await t.inject({ method: 'GET', url: '/api/webhooks' })).statusCode).toBe(401);
    expect(await count()).toBe(before);
    expect(await get(webhook.id)).toEqual(webhook);
  });
});

describe('webhooks: validation', () => {
  const bad: Array<[string, Partial<WebhookInput> | Record<string, unknown>, string, string]> = [
    ['an empty name', { name: ' ' }, 'name', 'validation.required'],
    ['a name over 64', { name: 'x'.repeat(65) }, 'name', 'validation.max64'],
    ['no URL', { url: '' }, 'url', 'validation.required'],
    ['an ftp URL', { url: 'ftp://example.com/x' }, 'url', 'validation.webhookUrl'],
    ['not a URL', { url: 'hooks example' }, 'url', 'validation.webhookUrl'],
    ['credentials in the URL', { url: 'https://user:pw@example.com/x' }, 'url', 'validation.webhookUrl'],
    ['a URL over 2000', { url: `https://example.com/${'a'.repeat(2000)}` }, 'url', 'validation.tooLong'],
    ['an internal address', { url: 'http://10.1.2.3/hook' }, 'url', 'validation.urlForbidden'],
    ['an unknown type', { type: 3 }, 'type', 'validation.invalid'],
    ['an unknown auth type', { authType: 'oauth' }, 'authType', 'validation.invalid'],
    ['password without user', { authType: 'password', authSecret: 'pw' }, 'authUsername', 'validation.required'],
    ['password without secret', { authType: 'password', authUsername: 'u' }, 'authSecret', 'validation.required'],
    [
      'a user with a colon',
      { authType: 'password', authUsername: 'a:b', authSecret: 'pw' },
      'authUsername',
      'validation.invalid',
    ],
    ['token without secret', { authType: 'token' }, 'authSecret', 'validation.required'],
    ['an empty token', { authType: 'token', authSecret: '' }, 'authSecret', 'validation.required'],
    [
      'a token with a line break',
      { authType: 'token', authSecret: 'a\r\nX-Evil: 1' },
      'authSecret',
      'validation.webhookHeaderValue',
    ],
    ['a secret over 1024', { authType: 'token', authSecret: 'a'.repeat(1025) }, 'authSecret', 'validation.tooLong'],
    ['custom without header', { authType: 'custom', authSecret: 'v' }, 'customHeaderName', 'validation.required'],
    [
      'a bad header name',
      { authType: 'custom', customHeaderName: 'X Key', authSecret: 'v' },
      'customHeaderName',
      'validation.webhookHeaderName',
    ],
    [
      'a reserved header',
      { authType: 'custom', customHeaderName: 'Content-Type', authSecret: 'v' },
      'customHeaderName',
      'validation.webhookHeaderReserved',
    ],
    [
      'the signature header',
      { authType: 'custom', customHeaderName: 'X-Portal-Signature', authSecret: 'v' },
      'customHeaderName',
      'validation.webhookHeaderReserved',
    ],
    ['status error', { status: 9 }, 'status', 'validation.invalid'],
    ['an unknown status', { status: 2 }, 'status', 'validation.invalid'],
  ];
  it.each(bad)('refuses %s with 400 and the field, creating nothing', async (_, over, path, message) => {
    const before = await count();
    const res = await t.call('POST', '/webhooks', sys, { ...input(), ...over });
    expect(res.statusCode, res.body).toBe(400);
    expect(errorOf(res).details).toContainEqual(expect.objectContaining({ path, message }));
    expect(await count()).toBe(before);
  });

  it('refuses a body that is not an object, and unknown ids', async () => {
    expect((await t.call('POST', '/webhooks', sys, [1, 2])).statusCode).toBe(400);
    expect((await t.call('GET', '/webhooks/abc', sys)).statusCode).toBe(400);
    expect((await t.call('GET', '/webhooks/999999', sys)).statusCode).toBe(404);
    expect((await t.call('POST', '/webhooks/999999/test', sys)).statusCode).toBe(404);
  });
});

describe('webhooks: secrets, edits and versions', () => {
  it('seals the secrets: answers show them masked, the signing secret in full only at creation', async () => {
    const created = await create({
      name: 'Sealed',
      url: `${base}/hook/sealed?key=UrlSecret9876`,
      authType: 'token',
      authSecret: 'Token-Secret-4321',
    });
    expect(created.signingSecret).toMatch(/^whsec_[A-Za-z0-9_-]{43}$/);
    const w = created.webhook;
    expect(w).toMatchObject({
      authType: 'token',
      authSecret: '••••••4321',
      urlHost: new URL(base).host,
      url: `${base}/••••••9876`,
      status: 1,
      consecutiveFailures: 0,
      lastError: null,
    });
    expect(w.signingSecret).toBe(`••••••${created.signingSecret.slice(-4)}`);
    const stored = await t.db.kysely
      .selectFrom('webhooks')
      .selectAll()
      .where('id', '=', w.id)
      .executeTakeFirstOrThrow();
    for (const secret of ['UrlSecret9876', 'Token-Secret-4321', created.signingSecret]) {
      expect(JSON.stringify(stored)).not.toContain(secret);
      expect((await t.call('GET', '/webhooks', sys)).body).not.toContain(secret);
      expect((await t.call('GET', `/webhooks/${w.id}`, sys)).body).not.toContain(secret);
    }
    const audit = await t.db.kysely
      .selectFrom('audit_logs')
      .selectAll()
      .where('action', '=', 'webhook.create')
      .where('target_id', '=', String(w.id))
      .executeTakeFirstOrThrow();
    expect(audit).toMatchObject({ target_type: 'webhook', target_name: 'Sealed' });
    expect(JSON.stringify(audit)).not.toContain('Token-Secret-4321');
  });

  it('keeps the URL and the secret when an edit omits them, refuses a stale version with 409', async () => {
    const { webhook } = await create({
      name: 'Edit',
      url: `${base}/hook/edit`,
      authType: 'token',
      authSecret: 'Tok-1111',
    });
    const { url: _url, authSecret: _s, ...rest } = input({ name: 'Edited', authType: 'token' });
    const res = await t.call('PATCH', `/webhooks/${webhook.id}`, sys, { ...rest, updatedAt: webhook.updatedAt });
    expect(res.statusCode, res.body).toBe(200);
    const edited = webhookSchema.parse(res.json());
    expect(edited).toMatchObject({ name: 'Edited', url: webhook.url, authSecret: '••••••1111' });
    expect(edited.updatedAt).not.toBe(webhook.updatedAt);
    expect((await testSend(webhook.id)).status).toBe('sent');
    expect(hits.at(-1)!.headers.authorization).toBe('Bearer Tok-1111');

    // The first version again: stale.
    const stale = await t.call('PATCH', `/webhooks/${webhook.id}`, sys, {
      ...rest,
      name: 'Lost',
      updatedAt: webhook.updatedAt,
    });
    expect(stale.statusCode).toBe(409);
    expect(errorOf(stale).code).toBe('STALE_UPDATE');
    expect((await get(webhook.id)).name).toBe('Edited');

    // Another auth type needs its secret.
    const noSecret = await t.call('PATCH', `/webhooks/${webhook.id}`, sys, {
      ...rest,
      authType: 'custom',
      customHeaderName: 'X-Api-Key',
      updatedAt: edited.updatedAt,
    });
    expect(noSecret.statusCode).toBe(400);
    expect(errorOf(noSecret).details).toContainEqual(expect.objectContaining({ path: 'authSecret' }));
    // Status 9 is the server's to set.
    const toError = await t.call('PATCH', `/webhooks/${webhook.id}`, sys, {
      ...rest,
      status: 9,
      updatedAt: edited.updatedAt,
    });
    expect(toError.statusCode).toBe(400);
    expect(await get(webhook.id)).toMatchObject({ name: 'Edited', status: 1, updatedAt: edited.updatedAt });

    const gone = await t.call('DELETE', `/webhooks/${webhook.id}`, sys);
    expect(gone.statusCode).toBe(204);
    const late = await t.call('PATCH', `/webhooks/${webhook.id}`, sys, { ...rest, updatedAt: edited.updatedAt });
    expect(late.statusCode).toBe(404);
  });
});

describe('webhooks: deliveries to a real receiver', () => {
  const generalBody = z
    .object({
      id: z.uuid(),
      event: z.literal('webhook.test'),
      occurredAt: z.iso.datetime(),
      level: z.literal(0),
      text: z.string().min(1),
      data: z.object({ webhookId: z.number(), webhookName: z.string(), sentBy: z.number() }),
    })
    .strict();

  it('posts the general JSON, signed, with Bearer auth; records the attempt in the delivery log', async () => {
    const { webhook } = await create({
      name: 'General',
      url: `${base}/hook/general-token`,
      authType: 'token',
      authSecret: 'Bearer-Token-55',
    });
    const result = await testSend(webhook.id);
    expect(result).toMatchObject({ status: 'sent', error: null, webhookStatus: 1 });
    const hit = hits.at(-1)!;
    expect(hit.path).toBe('/hook/general-token');
    expect(hit.signatureValid).toBe(true);
    expect(hit.headers).toMatchObject({
      'content-type': 'application/json',
      authorization: 'Bearer Bearer-Token-55',
      'x-portal-event': 'webhook.test',
    });
    const body = generalBody.parse(JSON.parse(hit.raw));
    expect(hit.headers['x-portal-event-id']).toBe(body.id);
    expect(body.text).toContain('General');
    // The signature covers the body: the same signature over another body does not verify.
    expect(
      verify(secrets.get('/hook/general-token')!, hit.headers['x-portal-signature'] as string, `${hit.raw} `),
    ).toBe(false);

    const row = await t.db.kysely
      .selectFrom('outbox')
      .selectAll()
      .where('id', '=', result.deliveryId!)
      .executeTakeFirstOrThrow();
    expect(row).toMatchObject({ channel: 'webhook', status: 'sent', purpose: 'webhook-test', organization_id: null });
    expect(row.recipient).toBe(`${base}/••••••oken`);
    expect(row.body).toBe(hit.raw);
    const log = await t.call('GET', '/deliveries', sys);
    expect(log.statusCode).toBe(200);
    expect(log.body).not.toContain('Bearer-Token-55');
    const listed = z.object({ items: z.array(deliverySchema) }).parse(log.json());
    expect(listed.items.some((d) => d.id === result.deliveryId && d.channel === 'webhook')).toBe(true);
    const stored = await get(webhook.id);
    expect(stored.lastSuccessAt).not.toBeNull();
    expect(
      await t.db.kysely
        .selectFrom('audit_logs')
        .select('action')
        .where('action', '=', 'webhook.test')
        .where('target_id', '=', String(webhook.id))
        .executeTakeFirst(),
    ).toBeDefined();
  });

  it('sends Basic auth for password, the custom header for custom', async () => {
    const pw = await create({
      name: 'Password',
      url: `${base}/hook/password`,
      authType: 'password',
      authUsername: 'portal',
      authSecret: 'Pass word!',
    });
    expect((await testSend(pw.webhook.id)).status).toBe('sent');
    expect(hits.at(-1)!.headers.authorization).toBe(`Basic ${Buffer.from('portal:Pass word!').toString('base64')}`);
    expect(hits.at(-1)!.signatureValid).toBe(true);

    const custom = await create({
      name: 'Custom',
      url: `${base}/hook/custom`,
      authType: 'custom',
      customHeaderName: 'X-Api-Key',
      authSecret: 'key-123',
    });
    expect((await testSend(custom.webhook.id)).status).toBe('sent');
    expect(hits.at(-1)!.headers['x-api-key']).toBe('key-123');
    expect(hits.at(-1)!.headers.authorization).toBeUndefined();
  });

  it('posts { text } to a Slack webhook and the T-Spider shape to a T-Spider one', async () => {
    const slack = await create({ name: 'Slack', type: 1, url: `${base}/hook/slack` });
    expect((await testSend(slack.webhook.id)).status).toBe('sent');
    const text = z
      .object({ text: z.string().min(1) })
      .strict()
      .parse(JSON.parse(hits.at(-1)!.raw)).text;
    expect(text).toContain('テスト送信');
    expect(text).toContain('Test delivery');

    const spider = await create({ name: 'Spider', type: 2, url: `${base}/hook/spider` });
    expect((await testSend(spider.webhook.id)).status).toBe('sent');
    z.object({
      version: z.literal('1.0'),
      source: z.literal('robot-portal'),
      eventId: z.uuid(),
      eventType: z.literal('webhook.test'),
      severity: z.literal('info'),
      occurredAt: z.iso.datetime(),
      message: z.string().min(1),
      details: z.object({ webhookId: z.literal(spider.webhook.id) }).loose(),
    })
      .strict()
      .parse(JSON.parse(hits.at(-1)!.raw));
    expect(hits.at(-1)!.signatureValid).toBe(true);
  });

  it('signs with the new secret after a rotation; the old one no longer verifies', async () => {
    const created = await create({ name: 'Rotate', url: `${base}/hook/rotate` });
    const res = await t.call('POST', `/webhooks/${created.webhook.id}/signing-secret`, sys);
    expect(res.statusCode).toBe(200);
    const rotated = webhookWithSecretSchema.parse(res.json());
    expect(rotated.signingSecret).not.toBe(created.signingSecret);
    // The receiver still has the old secret: it refuses the delivery.
    const refused = await testSend(created.webhook.id);
    expect(refused).toMatchObject({ status: 'failed', error: 'http-401' });
    secrets.set('/hook/rotate', rotated.signingSecret);
    expect((await testSend(created.webhook.id)).status).toBe('sent');
    expect(hits.at(-1)!.signatureValid).toBe(true);
  });

  it(`turns to error after ${WEBHOOK_FAILURE_LIMIT} failures in a row; a success resets the count`, async () => {
    const { webhook } = await create({ name: 'Failing', url: `${base}/fail/1` });
    const sender = createWebhookSender({ db: t.db.kysely, clock: () => new Date(), config: t.config });
    const event = {
      type: 'robot.lowBattery',
      occurredAt: new Date().toISOString(),
      level: 9 as const,
      text: 'Low',
      data: {},
    };
    for (let i = 1; i < WEBHOOK_FAILURE_LIMIT; i++) {
      const r = await sender.deliverWebhook(webhook.id, event);
      expect(r).toMatchObject({ status: 'failed', error: 'http-500', webhookStatus: 1 });
    }
    expect(await get(webhook.id)).toMatchObject({ status: 1, consecutiveFailures: WEBHOOK_FAILURE_LIMIT - 1 });
    const last = await sender.deliverWebhook(webhook.id, event);
    expect(last).toMatchObject({ status: 'failed', webhookStatus: 9 });
    const errored = await get(webhook.id);
    expect(errored).toMatchObject({ status: 9, consecutiveFailures: WEBHOOK_FAILURE_LIMIT, lastError: 'http-500' });
    expect(errored.lastFailureAt).not.toBeNull();
    expect(errored.updatedAt).not.toBe(webhook.updatedAt);
    // An errored webhook receives no events (the test send still goes out).
    const before = hits.length;
    expect(await sender.deliverWebhook(webhook.id, event)).toMatchObject({ status: 'skipped', deliveryId: null });
    expect(hits.length).toBe(before);
    expect((await sender.deliverToEnabled(event)).some((r) => r.webhookId === webhook.id)).toBe(false);

    // Fixed and enabled again by an administrator: the count starts from zero.
    const { authSecret: _s, ...rest } = input({ name: 'Failing', url: `${base}/hook/failing-fixed` });
    secrets.set('/hook/failing-fixed', secrets.get('/fail/1')!);
    const res = await t.call('PATCH', `/webhooks/${webhook.id}`, sys, {
      ...rest,
      status: 1,
      updatedAt: errored.updatedAt,
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(webhookSchema.parse(res.json())).toMatchObject({ status: 1, consecutiveFailures: 0 });
    expect((await sender.deliverWebhook(webhook.id, event)).status).toBe('sent');
    expect(await get(webhook.id)).toMatchObject({ status: 1, consecutiveFailures: 0, lastError: null });
  });

  it('does not count an unreachable receiver as a portal error, and a success resets a partial count', async () => {
    // A port nothing listens on: a network failure, answered as such.
    const { webhook } = await create({ name: 'Closed', url: 'http://127.0.0.1:1/hook/closed' });
    const result = await testSend(webhook.id);
    expect(result).toMatchObject({ status: 'failed', error: 'network', webhookStatus: 1 });
    expect(await get(webhook.id)).toMatchObject({ consecutiveFailures: 1, lastError: 'network' });
    const { authSecret: _s, ...rest } = input({ name: 'Closed', url: `${base}/hook/closed` });
    const current = await get(webhook.id);
    const edited = await t.call('PATCH', `/webhooks/${webhook.id}`, sys, { ...rest, updatedAt: current.updatedAt });
    expect(edited.statusCode).toBe(200);
    // The receiver learns this webhook's signing secret for its new path.
    const sig = webhookWithSecretSchema.parse(
      (await t.call('POST', `/webhooks/${webhook.id}/signing-secret`, sys)).json(),
    );
    secrets.set('/hook/closed', sig.signingSecret);
    expect((await testSend(webhook.id)).status).toBe('sent');
    expect(await get(webhook.id)).toMatchObject({ consecutiveFailures: 0, lastError: null });
  });
});
