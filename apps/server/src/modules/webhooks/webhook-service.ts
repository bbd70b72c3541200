import { randomBytes } from 'node:crypto';
import {
  isSystemAdmin,
  NOTIFICATION_EVENT_KINDS,
  type NotificationEventKind,
  type UpdateWebhookBody,
  type Webhook,
  type WebhookDeliveryResult,
  type WebhookInput,
  type WebhookWithSecret,
  type AuditAction,
} from '@portal/contract';
import type { AppContext, Principal } from '../../context.ts';
import { mask, secretBox } from '../../lib/crypto.ts';
import { AppError, forbidden, notFound } from '../../lib/errors.ts';
import type { Outbound } from '../../lib/outbound.ts';
import { expectVersioned, nextVersion } from '../../lib/versioned.ts';
import { webhookRepo, type WebhookRow } from './webhook-repo.ts';
import { createWebhookSender, maskedUrl, webhookOutbound } from './webhook-sender.ts';

type Ctx = Pick<AppContext, 'db' | 'clock' | 'audit' | 'config'>;

/** `whsec_` and 32 random bytes: the key of the HMAC-SHA256 signature of every delivery. */
export const newSigningSecret = (): string => `whsec_${randomBytes(32).toString('base64url')}`;

const invalid = (path: string, message: string) =>
  new AppError('VALIDATION_FAILED', 'The webhook is not valid', [{ path, message }]);

/** The stored kinds (comma-separated, in the contract's order) as answered; null: every kind. */
export function eventKindsOf(stored: string | null): NotificationEventKind[] | null {
  if (stored === null) return null;
  const kinds = new Set(stored.split(','));
  return NOTIFICATION_EVENT_KINDS.filter((k) => kinds.has(k));
}

/** Every kind chosen is the same as no choice (null): a kind added later then reaches it too. */
const storedKinds = (kinds: readonly NotificationEventKind[] | null | undefined): string | null =>
  !kinds || NOTIFICATION_EVENT_KINDS.every((k) => kinds.includes(k))
    ? null
    : NOTIFICATION_EVENT_KINDS.filter((k) => kinds.includes(k)).join(',');

/** Webhooks (system administrators only): sealed secrets, masked answers, the test send. */
export function webhookService(ctx: Ctx, deps: { outbound?: Outbound } = {}) {
  const { db, clock, audit } = ctx;
  const outbound = deps.outbound ?? webhookOutbound(ctx.config);
  const sender = createWebhookSender({ db, clock, config: ctx.config, outbound });
  const box = secretBox(ctx.config.secretKey);
  const rows = webhookRepo(db);

  /** A sealed secret shown masked; one that no longer opens (key changed) shows only the mask. */
  const opened = (sealed: string): string | null => {
    try {
      return box.open(sealed);
    } catch {
      return null;
    }
  };
  const masked = (sealed: string) => mask(opened(sealed) ?? '');

  const toApi = (r: WebhookRow): Webhook => {
    const url = opened(r.url);
    return {
      id: r.id,
      name: r.name,
      type: r.type as Webhook['type'],
      url: url === null ? mask('') : maskedUrl(url),
      urlHost: r.url_host,
      authType: r.auth_type as Webhook['authType'],
      authUsername: r.auth_username,
      authSecret: r.auth_secret === null ? null : masked(r.auth_secret),
      customHeaderName: r.custom_header_name,
      signingSecret: masked(r.signing_secret),
      status: r.status as Webhook['status'],
      level: r.level as Webhook['level'],
      eventKinds: eventKindsOf(r.event_kinds),
      consecutiveFailures: r.consecutive_failures,
      lastError: r.last_error,
      lastSuccessAt: r.last_success_at,
      lastFailureAt: r.last_failure_at,
      createdAt: r.created_at,
      updatedAt: r.updated_at,
    };
  };

  /** The route is for system administrators already; the service says so again (the wall). */
  const assertSystemAdmin = (p: Principal) => {
    if (!isSystemAdmin(p.type)) throw forbidden('Webhooks are managed by system administrators');
  };

  const found = async (id: number) => {
    const row = await rows.find(id);
    if (!row) throw notFound('Webhook');
    return row;
  };

  /**
   * The URL must not point into the server's own network. A name that does not resolve now is
   * accepted (DNS may be down; every send checks again), one that resolves inside is refused.
   */
  async function assertReachable(url: string): Promise<void> {
    const checked = await outbound.check(url);
    if (checked.ok || checked.reason === 'unresolvable') return;
    throw invalid('url', checked.reason === 'refused-address' ? 'validation.urlForbidden' : 'validation.webhookUrl');
  }

  /** The columns of the auth type: a user name only for password, a header name only for custom. */
  const authColumns = (body: Pick<WebhookInput, 'authType' | 'authUsername' | 'customHeaderName'>) => ({
    auth_type: body.authType,
    auth_username: body.authType === 'password' ? body.authUsername : '',
    custom_header_name: body.authType === 'custom' ? body.customHeaderName : '',
  });

  const record = (p: Principal, action: AuditAction, id: number, name: string, ip: string, detail?: object) =>
    audit.record({
      operatorId: p.operatorId,
      organizationId: null,
      action,
      targetType: 'webhook',
      targetId: id,
      targetName: name,
      ip,
      detail: { ...detail },
    });

  return {
    sender,

    async list(p: Principal): Promise<Webhook[]> {
      assertSystemAdmin(p);
      return (await rows.list()).map(toApi);
    },

    async get(p: Principal, id: number): Promise<Webhook> {
      assertSystemAdmin(p);
      return toApi(await found(id));
    },

    async create(p: Principal, body: WebhookInput, ip: string): Promise<WebhookWithSecret> {
      assertSystemAdmin(p);
      // A new webhook is enabled or disabled; error is the server's to set.
      if (body.status === 9) throw invalid('status', 'validation.invalid');
      await assertReachable(body.url);
      const now = clock().toISOString();
      const signingSecret = newSigningSecret();
      const id = await rows.insert({
        name: body.name,
        type: body.type,
        url: box.seal(body.url),
        url_host: new URL(body.url).host,
        ...authColumns(body),
        auth_secret: body.authType === 'none' || body.authSecret === undefined ? null : box.seal(body.authSecret),
        signing_secret: box.seal(signingSecret),
        status: body.status,
        level: body.level ?? 0,
        event_kinds: storedKinds(body.eventKinds),
        last_error: null,
        last_success_at: null,
        last_failure_at: null,
        created_at: now,
        updated_at: now,
      });
      await record(p, 'webhook.create', id, body.name, ip, {
        type: body.type,
        authType: body.authType,
        level: body.level ?? 0,
        eventKinds: body.eventKinds ?? null,
      });
      return { webhook: toApi(await found(id)), signingSecret };
    },

    async update(p: Principal, id: number, body: UpdateWebhookBody, ip: string): Promise<Webhook> {
      assertSystemAdmin(p);
      const current = await found(id);
      // Error (9) may stay as it is; only the server sets it.
      if (body.status === 9 && current.status !== 9) throw invalid('status', 'validation.invalid');
      if (body.url !== undefined) await assertReachable(body.url);
      // authSecret omitted keeps the stored one, which only makes sense for the same auth type.
      let authSecret: { auth_secret?: string | null } = {};
      if (body.authType === 'none') authSecret = { auth_secret: null };
      else if (body.authSecret !== undefined) authSecret = { auth_secret: box.seal(body.authSecret) };
      else if (current.auth_type !== body.authType || current.auth_secret === null)
        throw invalid('authSecret', 'validation.required');
      const reenabled = body.status === 1 && current.status === 9;
      const written = await rows.updateVersioned(id, body.updatedAt, {
        name: body.name,
        type: body.type,
        ...(body.url === undefined ? {} : { url: box.seal(body.url), url_host: new URL(body.url).host }),
        ...authColumns(body),
        ...authSecret,
        status: body.status,
        ...(body.level === undefined ? {} : { level: body.level }),
        ...(body.eventKinds === undefined ? {} : { event_kinds: storedKinds(body.eventKinds) }),
        // Enabled again after an error: the count starts from zero.
        ...(reenabled ? { consecutive_failures: 0 } : {}),
        updated_at: nextVersion(clock(), current.updated_at),
      });
      await expectVersioned(
        written,
        'webhook',
        () => rows.exists(id),
        () => notFound('Webhook'),
      );
      await record(p, 'webhook.update', id, body.name, ip, {
        type: body.type,
        authType: body.authType,
        status: body.status,
        level: body.level ?? current.level,
        eventKinds: body.eventKinds === undefined ? eventKindsOf(current.event_kinds) : body.eventKinds,
        url: body.url === undefined ? 'kept' : 'replaced',
        authSecret: body.authType === 'none' ? 'none' : body.authSecret === undefined ? 'kept' : 'replaced',
      });
      return toApi(await found(id));
    },

    async remove(p: Principal, id: number, ip: string): Promise<void> {
      assertSystemAdmin(p);
      const gone = await found(id);
      if (!(await rows.remove(id))) throw notFound('Webhook');
      await record(p, 'webhook.delete', id, gone.name, ip, { name: gone.name });
    },

    /** A new signing secret, answered in full this once; the old one stops at once. */
    async rotateSecret(p: Principal, id: number, ip: string): Promise<WebhookWithSecret> {
      assertSystemAdmin(p);
      const row = await found(id);
      const signingSecret = newSigningSecret();
      if (!(await rows.setSigningSecret(id, box.seal(signingSecret)))) throw notFound('Webhook');
      await record(p, 'webhook.rotateSecret', id, row.name, ip);
      return { webhook: toApi(await found(id)), signingSecret };
    },

    /** Sends a `webhook.test` event now, whatever the status, and answers the outcome. */
    async test(p: Principal, id: number, ip: string): Promise<WebhookDeliveryResult> {
      assertSystemAdmin(p);
      const row = await found(id);
      const at = clock();
      const result = await sender.deliverWebhook(
        row,
        {
          type: 'webhook.test',
          occurredAt: at.toISOString(),
          level: 0,
          text:
            `【ロボットポータル】Webhook「${row.name}」のテスト送信です。` +
            ` / [Robot Portal] Test delivery of the webhook "${row.name}".`,
          data: { webhookId: row.id, webhookName: row.name, sentBy: p.operatorId },
        },
        { purpose: 'webhook-test', force: true },
      );
      await record(p, 'webhook.test', id, row.name, ip, {
        status: result.status,
        error: result.error,
        deliveryId: result.deliveryId,
      });
      return result;
    },
  };
}
