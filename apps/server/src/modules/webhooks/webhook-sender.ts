import { createHmac, randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import {
  WEBHOOK_FAILURE_LIMIT,
  WEBHOOK_SIGNATURE_HEADER,
  type WebhookDeliveryResult,
  type WebhookStatus,
} from '@portal/contract';
import type { Database } from '../../db/schema.ts';
import { mask, secretBox } from '../../lib/crypto.ts';
import { createOutbound, OutboundError, type Outbound } from '../../lib/outbound.ts';
import type { Clock } from '../../lib/time.ts';
import { outboxRepo } from '../../services/outbox-repo.ts';
import { webhookRepo, type WebhookRow } from './webhook-repo.ts';

/**
 * One event for webhooks. The notification engine builds these; `webhook.test` is the test send's.
 * docs/api-webhooks.md shows the JSON each webhook type receives.
 */
export interface WebhookEvent {
  /** Stable id of the event (receivers deduplicate by it); a new UUID when omitted. */
  id?: string;
  /** A dotted name: `threshold.breach`, `robot.lowBattery`, `webhook.test`, ... */
  type: string;
  /** ISO 8601 UTC. */
  occurredAt: string;
  /** 0 information, 5 warning, 9 emergency. */
  level: 0 | 5 | 9;
  /** One message a person reads (Slack's text, T-Spider's message). */
  text: string;
  /** Event details (names, ids, values); sent as is in the general and T-Spider payloads. */
  data: Record<string, unknown>;
}

export interface WebhookSenderDeps {
  db: Kysely<Database>;
  clock: Clock;
  config: { secretKey: string; outboundAllowHosts: readonly string[] };
  /** Default: webhookOutbound(config). Tests may inject their own. */
  outbound?: Outbound;
}

const SEVERITY = { 0: 'info', 5: 'warning', 9: 'emergency' } as const;

/**
 * The outbound helper as webhooks use it: the SSRF rules of lib/outbound.ts with the configured
 * allow-list, http and https (on-premise receivers such as T-Spider often speak plain http).
 */
export const webhookOutbound = (config: { outboundAllowHosts: readonly string[] }): Outbound =>
  createOutbound({ allow: config.outboundAllowHosts, protocols: ['https:', 'http:'] });

/** The JSON body each webhook type receives. */
export function webhookPayload(type: number, event: WebhookEvent & { id: string }): unknown {
  switch (type) {
    case 1:
      // Slack incoming webhook.
      return { text: event.text };
    case 2:
      // T-Spider: the portal's own shape (docs/api-webhooks.md), versioned.
      return {
        version: '1.0',
        source: 'robot-portal',
        eventId: event.id,
        eventType: event.type,
        severity: SEVERITY[event.level],
        occurredAt: event.occurredAt,
        message: event.text,
        details: event.data,
      };
    default:
      return {
        id: event.id,
        event: event.type,
        occurredAt: event.occurredAt,
        level: event.level,
        text: event.text,
        data: event.data,
      };
  }
}

/** `t=<unix seconds>,v1=<hex HMAC-SHA256(secret, "<t>.<body>")>`. */
export function webhookSignature(secret: string, unixSeconds: number, body: string): string {
  const v1 = createHmac('sha256', secret).update(`${unixSeconds}.${body}`).digest('hex');
  return `t=${unixSeconds},v1=${v1}`;
}

/** The URL shown in answers and the delivery log: its origin, the rest masked. */
export function maskedUrl(url: string): string {
  try {
    const u = new URL(url);
    const rest = `${u.pathname}${u.search}`.replace(/^\//, '');
    return rest === '' ? u.origin : `${u.origin}/${mask(rest)}`;
  } catch {
    return mask(url);
  }
}

/** The authentication header of the webhook's auth type, if any. */
function authHeaders(row: WebhookRow, secret: string | null): Record<string, string> {
  if (secret === null) return {};
  switch (row.auth_type) {
    case 'password':
      return { authorization: `Basic ${Buffer.from(`${row.auth_username}:${secret}`).toString('base64')}` };
    case 'token':
      return { authorization: `Bearer ${secret}` };
    case 'custom':
      return { [row.custom_header_name]: secret };
    default:
      return {};
  }
}

/** A coarse code for the webhook's last error: never what the far end answered in its body. */
const failureCode = (err: unknown): string => (err instanceof OutboundError ? err.reason : 'network');

/**
 * Sends webhook events: one attempt per call (retries are the caller's: the notification outbox),
 * through lib/outbound.ts, signed, recorded in the delivery log (`outbox`, channel `webhook`) before
 * the attempt and marked sent or failed after it. A failure counts towards the webhook's consecutive
 * failures; at WEBHOOK_FAILURE_LIMIT an enabled webhook turns to 9 (error); a success resets the count.
 */
export function createWebhookSender(deps: WebhookSenderDeps) {
  const outbound = deps.outbound ?? webhookOutbound(deps.config);
  const box = secretBox(deps.config.secretKey);
  const rows = webhookRepo(deps.db);
  const outbox = outboxRepo(deps.db);

  async function deliverWebhook(
    webhook: WebhookRow | number,
    event: WebhookEvent,
    options: { purpose?: string; force?: boolean } = {},
  ): Promise<WebhookDeliveryResult> {
    const row = typeof webhook === 'number' ? await rows.find(webhook) : webhook;
    if (!row) throw new Error(`Webhook ${String(webhook)} not found`);
    const status = row.status as WebhookStatus;
    // Only enabled webhooks receive events; the test send goes out whatever the status.
    if (status !== 1 && !options.force)
      return { deliveryId: null, status: 'skipped', error: null, webhookStatus: status };

    const full = { ...event, id: event.id ?? randomUUID() };
    const body = JSON.stringify(webhookPayload(row.type, full));
    let url: string | null = null;
    let authSecret: string | null = null;
    let signingSecret: string | null = null;
    try {
      url = box.open(row.url);
      authSecret = row.auth_secret === null ? null : box.open(row.auth_secret);
      signingSecret = box.open(row.signing_secret);
    } catch {
      // SECRET_KEY changed since the secrets were sealed: nothing can be sent until they are entered again.
    }
    const deliveryId = await outbox.insert({
      organizationId: null,
      channel: 'webhook',
      recipient: url === null ? row.url_host : maskedUrl(url),
      subject: `${row.name}: ${full.type}`,
      body,
      purpose: options.purpose ?? 'webhook',
      createdAt: deps.clock().toISOString(),
    });

    let error: string | null = null;
    if (url === null || signingSecret === null) {
      error = 'secret-unreadable';
    } else {
      const now = deps.clock();
      try {
        const res = await outbound.send(url, {
          method: 'POST',
          headers: {
            ...authHeaders(row, authSecret),
            'content-type': 'application/json',
            'user-agent': 'RobotPortal-Webhook/1.0',
            'x-portal-event': full.type,
            'x-portal-event-id': full.id,
            [WEBHOOK_SIGNATURE_HEADER.toLowerCase()]: webhookSignature(
              signingSecret,
              Math.floor(now.getTime() / 1000),
              body,
            ),
          },
          body,
        });
        if (!res.ok) error = `http-${res.status}`;
      } catch (err) {
        error = failureCode(err);
      }
    }

    const at = deps.clock().toISOString();
    let webhookStatus = status;
    if (error === null) {
      await outbox.markSent(deliveryId, at);
      await rows.recordSuccess(row.id, at);
    } else {
      await outbox.markFailed(deliveryId, error);
      webhookStatus = ((await rows.recordFailure(row.id, at, error, WEBHOOK_FAILURE_LIMIT)) ?? status) as WebhookStatus;
    }
    return { deliveryId, status: error === null ? 'sent' : 'failed', error, webhookStatus };
  }

  return {
    deliverWebhook,
    /** Sends one event to every enabled webhook (one attempt each); answers each outcome by webhook id. */
    async deliverToEnabled(event: WebhookEvent) {
      const withId = { ...event, id: event.id ?? randomUUID() };
      const out: Array<{ webhookId: number } & WebhookDeliveryResult> = [];
      for (const row of await rows.enabled()) out.push({ webhookId: row.id, ...(await deliverWebhook(row, withId)) });
      return out;
    },
  };
}

export type WebhookSender = ReturnType<typeof createWebhookSender>;

/** One event to one webhook (a row, or its id), with the sender's dependencies given each time. */
export const deliverWebhook = (
  deps: WebhookSenderDeps,
  webhook: WebhookRow | number,
  event: WebhookEvent,
  options?: { purpose?: string; force?: boolean },
): Promise<WebhookDeliveryResult> => createWebhookSender(deps).deliverWebhook(webhook, event, options);
