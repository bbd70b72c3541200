import { z } from 'zod';

/**
 * Webhooks (spec section 2 `system/webhooks`, section 4 status, section 9 types and auth): outbound
 * HTTP endpoints the portal posts events to, managed by system administrators. Messages are i18n keys
 * under `validation.*`. docs/api-webhooks.md describes the payloads, the signature and the rules.
 */
const id = z.number().int();

/** 0 general, 1 Slack, 2 T-Spider (spec section 9). */
export const webhookTypeSchema = z.union([z.literal(0), z.literal(1), z.literal(2)], { error: 'validation.invalid' });
export type WebhookType = z.infer<typeof webhookTypeSchema>;
export const WEBHOOK_TYPES: readonly WebhookType[] = [0, 1, 2];

/** 0 disabled, 1 enabled, 9 error (set by the server after repeated failures; spec section 4). */
export const webhookStatusSchema = z.union([z.literal(0), z.literal(1), z.literal(9)], { error: 'validation.invalid' });
export type WebhookStatus = z.infer<typeof webhookStatusSchema>;
export const WEBHOOK_STATUSES: readonly WebhookStatus[] = [0, 1, 9];

/**
 * The minimum notification level a webhook receives (0 information: everything, 5 warning and
 * emergency, 9 emergency only), as notification targets have (docs/notifications.md "Webhooks").
 */
export const WEBHOOK_LEVELS = [0, 5, 9] as const;
export type WebhookLevel = (typeof WEBHOOK_LEVELS)[number];
export const webhookLevelSchema = z.union([z.literal(0), z.literal(5), z.literal(9)], { error: 'validation.invalid' });

/**
 * The kinds of notification the engine sends (docs/notifications.md "Events"); a webhook may choose
 * which of them it receives.
 */
export const NOTIFICATION_EVENT_KINDS = [
  'thresholdBreach',
  'taskEvent',
  'lowBattery',
  'emergencyStop',
  'hardwareError',
  'flowRunFailed',
  'scheduleFailed',
  'robotOffline',
] as const;
export type NotificationEventKind = (typeof NOTIFICATION_EVENT_KINDS)[number];
export const notificationEventKindSchema = z.enum(NOTIFICATION_EVENT_KINDS, { error: 'validation.invalid' });
/** The kinds a webhook receives: null is every kind; else at least one, each once. */
export const webhookEventKindsSchema = z
  .array(notificationEventKindSchema, { error: 'validation.invalid' })
  .min(1, 'validation.required')
  .max(NOTIFICATION_EVENT_KINDS.length, 'validation.invalid')
  .refine((v) => new Set(v).size === v.length, 'validation.invalid')
  .nullable();

/** none, password (HTTP Basic), token (Bearer), custom (a header of the administrator's choice). */
export const webhookAuthTypeSchema = z.enum(['none', 'password', 'token', 'custom'], { error: 'validation.invalid' });
export type WebhookAuthType = z.infer<typeof webhookAuthTypeSchema>;
export const WEBHOOK_AUTH_TYPES = webhookAuthTypeSchema.options;

/** Consecutive failed deliveries after which an enabled webhook turns to status 9 (error). */
export const WEBHOOK_FAILURE_LIMIT = 5;

export const WEBHOOK_NAME_MAX = 64;
export const WEBHOOK_URL_MAX = 2000;
export const WEBHOOK_SECRET_MAX = 1024;
export const WEBHOOK_USERNAME_MAX = 128;
export const WEBHOOK_HEADER_NAME_MAX = 64;

/** The header that carries the signature: `t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<body>">`. */
export const WEBHOOK_SIGNATURE_HEADER = 'X-Portal-Signature';

/** Headers the portal sets itself; a custom auth header may not be one of them. */
export const RESERVED_WEBHOOK_HEADERS: readonly string[] = [
  'host',
  'content-type',
  'content-length',
  'transfer-encoding',
  'connection',
  'user-agent',
  'cookie',
  'expect',
  'te',
  'upgrade',
];

/** RFC 9110 token characters. */
const HEADER_NAME_PATTERN = /^[A-Za-z0-9!#$%&'*+.^_`|~-]+$/;
/** A header value: visible ASCII and spaces (no line breaks that could start another header). */
const HEADER_VALUE_PATTERN = /^[\x20-\x7e]*$/;

/** An http(s) URL without credentials in it. */
export function isWebhookUrl(v: string): boolean {
  if (!/^https?:\/\/\S+$/i.test(v)) return false;
  try {
    const u = new URL(v);
    return (u.protocol === 'https:' || u.protocol === 'http:') && !u.username && !u.password && u.hostname !== '';
  } catch {
    return false;
  }
}

const webhookFields = z.object({
  name: z
    .string({ error: 'validation.required' })
    .trim()
    .min(1, { error: 'validation.required', abort: true })
    .max(WEBHOOK_NAME_MAX, 'validation.max64'),
  type: webhookTypeSchema,
  /** http or https; checked again against the outbound rules at save and at every send. */
  url: z.string({ error: 'validation.required' }).trim().max(WEBHOOK_URL_MAX, 'validation.tooLong'),
  authType: webhookAuthTypeSchema,
  /** The user name of `password` auth ('' otherwise). */
  authUsername: z.string().trim().max(WEBHOOK_USERNAME_MAX, 'validation.tooLong'),
  /**
   * Write-only: the password, the token or the custom header's value. Omitted on update: the stored
   * one is kept (only while the auth type stays the same).
   */
  authSecret: z.string().max(WEBHOOK_SECRET_MAX, 'validation.tooLong').optional(),
  /** The header name of `custom` auth ('' otherwise). */
  customHeaderName: z.string().trim().max(WEBHOOK_HEADER_NAME_MAX, 'validation.tooLong'),
  status: webhookStatusSchema,
  /** Minimum notification level; omitted: 0 on create, the stored one on update. */
  level: webhookLevelSchema.optional(),
  /** The notification kinds it receives (null: every kind); omitted: null on create, the stored ones on update. */
  eventKinds: webhookEventKindsSchema.optional(),
});

type WebhookFields = z.infer<typeof webhookFields>;

function checkWebhook(v: Omit<WebhookFields, 'url'> & { url?: string | undefined }, ctx: z.RefinementCtx) {
  const issue = (path: string, message: string) => ctx.addIssue({ code: 'custom', path: [path], message });
  if (v.url !== undefined) {
    if (v.url === '') issue('url', 'validation.required');
    else if (!isWebhookUrl(v.url)) issue('url', 'validation.webhookUrl');
  }
  if (v.authType === 'password') {
    if (v.authUsername === '') issue('authUsername', 'validation.required');
    else if (v.authUsername.includes(':') || !HEADER_VALUE_PATTERN.test(v.authUsername))
      issue('authUsername', 'validation.invalid');
  }
  if (v.authType === 'custom') {
    if (v.customHeaderName === '') issue('customHeaderName', 'validation.required');
    else if (!HEADER_NAME_PATTERN.test(v.customHeaderName)) issue('customHeaderName', 'validation.webhookHeaderName');
    else if (
      RESERVED_WEBHOOK_HEADERS.includes(v.customHeaderName.toLowerCase()) ||
      v.customHeaderName.toLowerCase().startsWith('x-portal-')
    )
      issue('customHeaderName', 'validation.webhookHeaderReserved');
  }
  if (v.authSecret !== undefined && v.authType !== 'none') {
    if (v.authSecret === '') issue('authSecret', 'validation.required');
    else if (!HEADER_VALUE_PATTERN.test(v.authSecret)) issue('authSecret', 'validation.webhookHeaderValue');
  }
}

/** Create: every field; a secret is required for password, token and custom auth. */
export const webhookInputSchema = webhookFields.superRefine((v, ctx) => {
  checkWebhook(v, ctx);
  if (v.authType !== 'none' && v.authSecret === undefined) {
    ctx.addIssue({ code: 'custom', path: ['authSecret'], message: 'validation.required' });
  }
});
export type WebhookInput = z.infer<typeof webhookInputSchema>;

/**
 * Update: as create plus the version; `url` and `authSecret` may be omitted to keep the stored ones
 * (they are secrets, answered only masked). The server requires a secret when the auth type changes.
 */
export const updateWebhookBodySchema = webhookFields
  .extend({
    url: webhookFields.shape.url.optional(),
    updatedAt: z.string({ error: 'validation.required' }).min(1, 'validation.required').max(40),
  })
  .superRefine(checkWebhook);
export type UpdateWebhookBody = z.infer<typeof updateWebhookBodySchema>;

export const webhookSchema = z.object({
  id,
  name: z.string(),
  type: webhookTypeSchema,
  /** The URL's origin with the rest masked (`https://hooks.example.com/••••••ab12`). */
  url: z.string(),
  /** The host alone, for lists. */
  urlHost: z.string(),
  authType: webhookAuthTypeSchema,
  authUsername: z.string(),
  /** Masked (`••••••abcd`), or null when none is stored. */
  authSecret: z.string().nullable(),
  customHeaderName: z.string(),
  /** Masked; the full secret is answered once, when created or rotated. */
  signingSecret: z.string(),
  status: webhookStatusSchema,
  level: webhookLevelSchema,
  /** The notification kinds it receives; null: every kind. */
  eventKinds: z.array(notificationEventKindSchema).nullable(),
  consecutiveFailures: z.number().int(),
  /** A code: `http-<status>`, `timeout`, `network`, `refused-address`, `unresolvable`, ... or null. */
  lastError: z.string().nullable(),
  lastSuccessAt: z.string().nullable(),
  lastFailureAt: z.string().nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type Webhook = z.infer<typeof webhookSchema>;

/** The answer of a create or a rotation: the webhook and its signing secret in full (shown once). */
export const webhookWithSecretSchema = z.object({ webhook: webhookSchema, signingSecret: z.string() });
export type WebhookWithSecret = z.infer<typeof webhookWithSecretSchema>;

/** One delivery attempt's outcome. `error` is a code as `lastError`; `skipped`: not enabled, nothing sent. */
export const webhookDeliveryResultSchema = z.object({
  deliveryId: id.nullable(),
  status: z.enum(['sent', 'failed', 'skipped']),
  error: z.string().nullable(),
  webhookStatus: webhookStatusSchema,
});
export type WebhookDeliveryResult = z.infer<typeof webhookDeliveryResultSchema>;
