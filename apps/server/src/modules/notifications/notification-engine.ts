import { randomUUID } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import type { Kysely } from 'kysely';
import nodemailer, { type Transporter } from 'nodemailer';
import type { Config } from '../../config.ts';
import type { Database } from '../../db/schema.ts';
import { secretBox } from '../../lib/crypto.ts';
import { outboundFromConfig, type Outbound } from '../../lib/outbound.ts';
import type { Clock } from '../../lib/time.ts';
import { createNotifier } from '../../services/notifier.ts';
import { outboxRepo } from '../../services/outbox-repo.ts';
import { createWebhookSender, webhookRepo, type WebhookEvent } from '../webhooks/index.ts';
import { recordFirings } from '../triggers/trigger-firing.ts'; // triggers fired by the event
import { notificationRepo, type DeliveryTo, type RoutedTarget } from './notification-repo.ts';
import {
  DEFAULT_LEVEL,
  notificationText,
  type EventParams,
  type NotificationKind,
  type NotificationLevel,
  type TextEvent,
} from './notification-texts.ts';

/** Notification target types that are sent (0 email, 1 Slack, 6 chat bot); SMS (2) and phone (3) are disabled. */
export const SENDING_TARGET_TYPES: ReadonlySet<number> = new Set([0, 1, 6]);

/** What notifyEvent takes (docs/notifications.md "Events"). */
export interface NotificationEventInput {
  kind: NotificationKind;
  /** Needed when there is no robot (else the robot's). */
  organizationId?: number;
  /** The building the event belongs to (else the robot's); null: only organization-wide targets. */
  buildingId?: number | null;
  robotId?: number | null;
  /** The floor the robot was on (else its registered floor). */
  floorId?: number | null;
  /** Default: DEFAULT_LEVEL of the kind. */
  level?: NotificationLevel;
  /** The caller's own text (task event, threshold rule). */
  message?: string | null;
  details?: Record<string, string | number | boolean | null>;
  /** Only these targets (still of the building or organization-wide, and reached by the level). */
  targetIds?: number[];
  /** The cause events are grouped by (default: kind and level); e.g. a threshold rule's id. */
  groupKey?: string;
  /** An event with a key already recorded is not recorded (nor sent) again. */
  dedupeKey?: string;
  /** Default: now. */
  at?: Date;
}

export interface NotifyDeps {
  db: Kysely<Database>;
  clock: Clock;
  config: Pick<Config, 'notifyGroupWindowMs'>;
}

/** The answer of notifyEvent: the event's id and the deliveries it made or joined (null: not recorded). */
export interface NotifyResult {
  eventId: number;
  targets: number[];
  /** The webhooks it was routed to (docs/notifications.md "Webhooks"). */
  webhooks: number[];
  /** The trigger firings it made (docs/api-triggers.md "Firing"). */
  firings: number[];
}

/**
 * Records an event and routes it (docs/notifications.md): to the notification targets of its
 * building and the organization-wide ones of its organization, each whose level the event's level
 * reaches (0 information, 5 warning, 9 emergency), SMS and phone skipped. Each target's delivery
 * is written here, before any attempt; the worker of any server sends it. An event of the same
 * cause for a target whose previous delivery was due less than the grouping window ago joins that
 * target's next delivery (due one window after the previous one) instead of making a message of its
 * own. Other modules call this (the threshold evaluation, triggers); it needs only the database.
 */
export async function notifyEvent(deps: NotifyDeps, input: NotificationEventInput): Promise<NotifyResult | null> {
  const repo = notificationRepo(deps.db);
  const now = deps.clock();
  const robot = input.robotId ? await repo.robotFacts(input.robotId) : undefined;
  const organizationId = input.organizationId ?? robot?.organization_id;
  if (organizationId === undefined) return null;
  const buildingId = input.buildingId !== undefined ? input.buildingId : (robot?.building_id ?? null);
  const building =
    buildingId === null
      ? undefined
      : robot && robot.building_id === buildingId
        ? { name: robot.building_name, time_zone: robot.time_zone }
        : await repo.buildingFacts(buildingId);
  const floorId = input.floorId ?? robot?.floor_id ?? null;
  const level = input.level ?? DEFAULT_LEVEL[input.kind];
  const params: EventParams = {
    robotName: robot?.name ?? null,
    serialNo: robot?.serial_no ?? null,
    buildingName: building?.name ?? null,
    floorName: floorId === null ? null : await repo.floorName(floorId),
    timeZone: building?.time_zone ?? 'Asia/Tokyo',
    message: input.message ?? null,
    details: input.details ?? {},
  };
  const groupKey = (input.groupKey ?? `${input.kind}:${level}`).slice(0, 160);
  // The event and its deliveries are written together: a crash leaves both or neither.
  return deps.db.transaction().execute(async (trx) => {
    const tx = notificationRepo(trx);
    const eventId = await tx.insertEvent({
      organization_id: organizationId,
      building_id: buildingId,
      robot_id: input.robotId ?? null,
      kind: input.kind,
      level,
      group_key: groupKey,
      dedupe_key: input.dedupeKey?.slice(0, 200) ?? null,
      params: JSON.stringify(params),
      occurred_at: (input.at ?? now).toISOString(),
      created_at: now.toISOString(),
    });
    if (eventId === null) return null;
    // The building's triggers the event fires: pending firings, written with the event (docs/api-triggers.md).
    const firings = await recordFirings(trx, { ...input, eventId, organizationId, buildingId, level }, now);
    const only = input.targetIds ? new Set(input.targetIds) : null;
    const targets = route(await tx.targetsFor(organizationId, buildingId), level).filter(
      (t) => !only || only.has(t.id),
    );
    // Webhooks are system-wide (set up by system administrators): every organization's events reach
    // every enabled one whose level the event's level reaches and that receives its kind, whatever
    // `targetIds` names.
    const webhooks = await tx.webhooksFor(level, input.kind);
    const windowMs = deps.config.notifyGroupWindowMs;
    const recipients: DeliveryTo[] = [
      ...targets.map((t) => ({ channel: 'target' as const, id: t.id, organizationId })),
      ...webhooks.map((w) => ({ channel: 'webhook' as const, id: w.id, organizationId })),
    ];
    for (const to of recipients) {
      if (await tx.joinOpen(to, groupKey, eventId)) continue;
      const lastDue = await tx.lastDueAt(to, groupKey);
      const next = lastDue === null ? 0 : Date.parse(lastDue) + windowMs;
      const due = new Date(Math.max(now.getTime(), next)).toISOString();
      await tx.insertDelivery({ to, groupKey, eventId, dueAt: due, now: now.toISOString() });
    }
    return { eventId, targets: targets.map((t) => t.id), webhooks: webhooks.map((w) => w.id), firings };
  });
}

/** The targets an event of `level` reaches: sending channels whose level it reaches. */
export function route(targets: RoutedTarget[], level: number): RoutedTarget[] {
  return targets.filter((t) => SENDING_TARGET_TYPES.has(t.type) && level >= t.level);
}

export interface EngineDeps {
  db: Kysely<Database>;
  clock: Clock;
  log: Pick<FastifyBaseLogger, 'error' | 'warn' | 'info'>;
  config: Pick<
    Config,
    | 'notifyGroupWindowMs'
    | 'notifyTickMs'
    | 'notifyMaxAttempts'
    | 'notifyRetryBaseMs'
    | 'smtpUrl'
    | 'mailFrom'
    | 'secretKey'
    | 'publicUrl'
    | 'outboundAllowHosts'
  >;
  /** HTTP of Slack and chat-bot targets; default: from the config's allow-list. */
  outbound?: Outbound;
  /** HTTP of webhooks; default: the webhooks' own (http and https, the config's allow-list). */
  webhookOutbound?: Outbound;
  /** How long a claimed delivery is held before another server may take it over (default 60 s). */
  leaseMs?: number;
  /** Deliveries claimed per round (default 100) and sent at once (default 8). */
  batch?: number;
  concurrency?: number;
}

/** Why an attempt failed, as the delivery log shows it (never what the far end answered). */
const TARGET_GONE = 'The notification target no longer exists';
const SECRETS_UNREADABLE = 'The stored secrets of the target cannot be read';
const CHANNEL_DISABLED = 'This notification channel is disabled';
const WEBHOOK_GONE = 'The webhook no longer exists';
const WEBHOOK_NOT_ENABLED = 'The webhook is disabled or in error';
const RETRY_CAP_MS = 60 * 60_000;
/** Settled deliveries and their events are kept this long (days), then deleted by the worker. */
export const NOTIFICATION_RETENTION_DAYS = 30;
const PRUNE_EVERY_MS = 60 * 60_000;

/**
 * The notification worker (docs/notifications.md "Outbox"): every tick it claims due deliveries by
 * a conditional update of their lease (one server wins; a lease whose server died runs out and is
 * taken over), each right before its attempt so that a lease covers one attempt, composes each
 * message from its events, sends it (email over SMTP, Slack and chat bots by HTTP through
 * lib/outbound.ts), records the attempt in the delivery log (`outbox`, linked
 * to the delivery) and settles the delivery: sent, or pending again after an exponential backoff
 * (NOTIFY_RETRY_BASE_MS × 2^(attempt−1)), failed after NOTIFY_MAX_ATTEMPTS attempts. Email without
 * SMTP_URL is only stored in the delivery log (as all mail then) and the delivery is `stored`.
 */
export function createNotificationEngine(deps: EngineDeps) {
  const { db, clock, log, config } = deps;
  const repo = notificationRepo(db);
  const outbox = outboxRepo(db);
  const instanceId = randomUUID();
  const leaseMs = deps.leaseMs ?? 60_000;
  const batch = deps.batch ?? 100;
  const concurrency = Math.max(1, deps.concurrency ?? 8);
  const box = secretBox(config.secretKey);
  const outbound = deps.outbound ?? outboundFromConfig(config);
  const notifier = createNotifier({
    db,
    clock,
    config,
    outbound,
    mailer: {
      deliver: () => Promise.reject(new Error('email is sent by the notification engine itself')),
    },
  });
  const transport: Transporter | null = config.smtpUrl
    ? nodemailer.createTransport(config.smtpUrl, { connectionTimeout: 15_000, socketTimeout: 30_000 })
    : null;
  const webhooks = createWebhookSender({ db, clock, config, outbound: deps.webhookOutbound });
  const webhookRows = webhookRepo(db);
  const beforeTick: Array<() => Promise<void>> = [];
  const onFiringsListeners: Array<() => void> = []; // the trigger worker's kick
  let closed = false;
  let ticking: Promise<void> | null = null;
  let again = false;
  const iso = (d: Date) => d.toISOString();

  /** Sends one attempt of a claimed delivery; answers the error (null: sent) and the outbox row. */
  async function attempt(
    deliveryId: number,
    target: NonNullable<Awaited<ReturnType<typeof repo.target>>>,
    message: { subject: string; body: string },
  ): Promise<{ error: string | null; stored?: boolean }> {
    let address: string;
    let botPassword: string | null;
    try {
      address = target.address_sealed === 1 ? box.open(target.address) : target.address;
      botPassword = target.bot_password === null ? null : box.open(target.bot_password);
    } catch {
      return { error: SECRETS_UNREADABLE };
    }
    if (target.type === 0) {
      const id = await outbox.insert({
        organizationId: target.organization_id,
        channel: 'email',
        recipient: address,
        subject: message.subject,
        body: message.body,
        purpose: 'notification',
        createdAt: iso(clock()),
      });
      await repo.linkAttempt(id, deliveryId);
      if (!transport) return { error: null, stored: true };
      try {
        await transport.sendMail({ from: config.mailFrom, to: address, subject: message.subject, text: message.body });
        await outbox.markSent(id, iso(clock()));
        return { error: null };
      } catch (err) {
        const error = (err as Error).message.slice(0, 500);
        await outbox.markFailed(id, error).catch(() => undefined);
        return { error };
      }
    }
    if (target.type !== 1 && target.type !== 6) return { error: CHANNEL_DISABLED };
    const r = await notifier.send(
      {
        type: target.type,
        address,
        botLoginId: target.bot_login_id,
        botPassword,
        spaceId: target.space_id,
        organizationId: target.organization_id,
      },
      { ...message, purpose: 'notification' },
    );
    await repo.linkAttempt(r.deliveryId, deliveryId);
    return { error: r.error };
  }

  /** The events of a delivery, as the message texts read them. */
  async function textEvents(deliveryId: number): Promise<Array<TextEvent & { id: number }>> {
    return (await repo.eventsOf(deliveryId)).map((e) => ({
      id: e.id,
      kind: e.kind,
      level: e.level,
      robotId: e.robot_id,
      buildingId: e.building_id,
      occurredAt: e.occurred_at,
      params: JSON.parse(e.params) as EventParams,
    }));
  }

  /**
   * One attempt of a webhook delivery through the webhooks' own sender (signature, auth, delivery
   * log, failure count and error status). A webhook deleted, disabled or in error since the event
   * receives nothing: the delivery fails at once.
   */
  async function attemptWebhook(
    deliveryId: number,
    webhookId: number,
    organizationId: number,
  ): Promise<{ error: string | null; final?: boolean }> {
    const row = await webhookRows.find(webhookId);
    if (!row) return { error: WEBHOOK_GONE, final: true };
    if (row.status !== 1) return { error: WEBHOOK_NOT_ENABLED, final: true };
    const events = await textEvents(deliveryId);
    if (events.length === 0) return { error: null };
    const text = notificationText(events, config.publicUrl);
    const first = events[0]!;
    const event: WebhookEvent = {
      // The same id on every attempt (and for every webhook of a group of one delivery): receivers deduplicate.
      id: `notification-${deliveryId}`,
      type: `notification.${first.kind}`,
      occurredAt: first.occurredAt,
      level: Math.max(...events.map((e) => e.level)) as WebhookEvent['level'],
      text: `${text.subject}\n${text.body}`,
      data: {
        organizationId,
        events: events.map((e) => ({
          id: e.id,
          kind: e.kind,
          level: e.level,
          occurredAt: e.occurredAt,
          robotId: e.robotId,
          buildingId: e.buildingId,
          ...e.params,
        })),
      },
    };
    const r = await webhooks.deliverWebhook(row, event, { purpose: 'notification' });
    if (r.deliveryId !== null) await repo.linkAttempt(r.deliveryId, deliveryId);
    if (r.status === 'skipped') return { error: WEBHOOK_NOT_ENABLED, final: true };
    return { error: r.error };
  }

  /** Carries out one claimed delivery and settles it (only while this server still holds it). */
  async function deliver(id: number): Promise<void> {
    const d = await repo.delivery(id);
    if (!d || d.lease_owner !== instanceId) return;
    const attempts = d.attempts + 1;
    const target = d.channel === 'webhook' ? undefined : await repo.target(d.target_id);
    let result: { error: string | null; stored?: boolean };
    let final = false;
    if (d.channel === 'webhook') {
      try {
        const r = await attemptWebhook(id, d.target_id, d.organization_id);
        result = { error: r.error };
        final = r.final ?? false;
      } catch (err) {
        log.warn({ err, deliveryId: id }, 'notification attempt failed');
        result = { error: 'The attempt could not be made' };
      }
    } else if (!target) {
      result = { error: TARGET_GONE };
      final = true;
    } else if (!SENDING_TARGET_TYPES.has(target.type)) {
      // Changed to a disabled channel (SMS, phone) since the event: nothing to try again.
      result = { error: CHANNEL_DISABLED };
      final = true;
    } else {
      const events: TextEvent[] = await textEvents(id);
      if (events.length === 0) {
        result = { error: null };
      } else {
        try {
          const lang = target.language === 'en' ? 'en' : 'ja';
          result = await attempt(id, target, notificationText(events, config.publicUrl, lang));
        } catch (err) {
          log.warn({ err, deliveryId: id }, 'notification attempt failed');
          result = { error: 'The attempt could not be made' };
        }
      }
    }
    const now = clock();
    if (result.error === null) {
      await repo.settle(id, instanceId, {
        status: result.stored ? 'stored' : 'sent',
        attempts,
        last_error: null,
        sent_at: iso(now),
      });
      return;
    }
    if (final || attempts >= config.notifyMaxAttempts) {
      await repo.settle(id, instanceId, { status: 'failed', attempts, last_error: result.error.slice(0, 500) });
      return;
    }
    const delay = Math.min(RETRY_CAP_MS, config.notifyRetryBaseMs * 2 ** (attempts - 1));
    await repo.settle(id, instanceId, {
      status: 'pending',
      attempts,
      next_attempt_at: iso(new Date(now.getTime() + delay)),
      last_error: result.error.slice(0, 500),
    });
  }

  let lastPrune = 0;
  const prune = () => repo.prune(new Date(clock().getTime() - NOTIFICATION_RETENTION_DAYS * 86_400_000).toISOString());

  async function round(): Promise<void> {
    if (clock().getTime() - lastPrune >= PRUNE_EVERY_MS) {
      lastPrune = clock().getTime();
      await prune().catch((err: unknown) => log.error({ err }, 'notification retention failed'));
    }
    for (const job of beforeTick) {
      try {
        await job();
      } catch (err) {
        log.error({ err }, 'notification check failed');
      }
    }
    for (let i = 0; i < 20 && !closed; i += 1) {
      const now = clock();
      const due = await repo.claimable(iso(now), batch);
      if (due.length === 0) return;
      // Each delivery is claimed right before it is sent, so a lease covers one attempt only.
      let next = 0;
      let claimed = 0;
      await Promise.all(
        Array.from({ length: Math.min(concurrency, due.length) }, async () => {
          while (next < due.length && !closed) {
            const id = due[next++]!.id;
            const at = clock();
            if (!(await repo.claim(id, instanceId, iso(at), iso(new Date(at.getTime() + leaseMs))))) continue;
            claimed += 1;
            await deliver(id).catch((err: unknown) => log.error({ err, deliveryId: id }, 'notification not delivered'));
          }
        }),
      );
      if (claimed === 0 || due.length < batch) return;
    }
  }

  /** One round now (or right after the running one); resolves when it is done. */
  function tick(): Promise<void> {
    if (closed) return Promise.resolve();
    if (ticking) {
      again = true;
      return ticking;
    }
    ticking = (async () => {
      try {
        do {
          again = false;
          await round();
        } while (again && !closed);
      } catch (err) {
        log.error({ err }, 'notification round failed');
      } finally {
        ticking = null;
      }
    })();
    return ticking;
  }

  const timer = config.notifyTickMs > 0 ? setInterval(() => void tick(), config.notifyTickMs) : null;
  timer?.unref();

  /**
   * A round when the grouping window of an event just recorded ends: the deliveries it joined or
   * opened are due by then at the latest, so they go out on time instead of at the next tick. One
   * wake-up at a time (the earliest asked for); the tick still covers everything else.
   */
  let wake: { at: number; timer: NodeJS.Timeout } | null = null;
  function wakeAt(at: number): void {
    if (!timer || closed || (wake && wake.at <= at)) return;
    if (wake) clearTimeout(wake.timer);
    const w = {
      at,
      timer: setTimeout(
        () => {
          if (wake === w) wake = null;
          void tick();
        },
        Math.max(0, at - Date.now()),
      ),
    };
    w.timer.unref();
    wake = w;
  }

  const notifyDeps: NotifyDeps = { db, clock, config };

  return {
    instanceId,
    /** Records and routes an event (see notifyEvent), then looks for due deliveries at once. */
    async notifyEvent(input: NotificationEventInput): Promise<NotifyResult | null> {
      const r = await notifyEvent(notifyDeps, input);
      if (r && r.targets.length + r.webhooks.length > 0 && timer) {
        void tick();
        if (config.notifyGroupWindowMs > 0) wakeAt(Date.now() + config.notifyGroupWindowMs + 5);
      }
      if (r && r.firings.length > 0) for (const kick of onFiringsListeners) kick(); // triggers fired
      return r;
    },
    tick,
    /** Retention now (the worker runs it hourly): answers the rows deleted. */
    prune,
    /** Called after an event fired triggers (the trigger worker looks for its firings at once). */
    onTriggerFirings: (kick: () => void): number => onFiringsListeners.push(kick),
    /** A check run at the start of every round (the robot watcher's offline check). */
    beforeEachTick(job: () => Promise<void>): void {
      beforeTick.push(job);
    },
    async close(): Promise<void> {
      closed = true;
      if (timer) clearInterval(timer);
      if (wake) clearTimeout(wake.timer);
      await ticking;
      transport?.close();
    },
  };
}

export type NotificationEngine = ReturnType<typeof createNotificationEngine>;
