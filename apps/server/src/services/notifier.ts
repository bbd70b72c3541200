import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';
import { mask } from '../lib/crypto.ts';
import { outboundFromConfig, type Outbound } from '../lib/outbound.ts';
import type { Clock } from '../lib/time.ts';
import type { Mailer } from './mailer.ts';
import { outboxRepo } from './outbox-repo.ts';

/** A notification target with its secrets opened, as the sender needs it. */
export interface NotifierTarget {
  type: number;
  /** Email address (0), Slack incoming-webhook URL (1), chat-bot endpoint URL (6). */
  address: string;
  botLoginId: string;
  botPassword: string | null;
  spaceId: string;
  organizationId: number;
}

export interface DeliveryResult {
  deliveryId: number;
  status: 'stored' | 'sent' | 'failed';
  error: string | null;
}

export type Notifier = ReturnType<typeof createNotifier>;

const jst = (d: Date) =>
  new Intl.DateTimeFormat('ja-JP', { dateStyle: 'medium', timeStyle: 'medium', timeZone: 'Asia/Tokyo' }).format(d);

/** The test message in the target's language (both, Japanese first, when none is given). */
export function testNotificationText(source: string, at: Date, lang?: 'ja' | 'en') {
  const ja = {
    subject: '【ロボットポータル】テスト通知',
    body: `これは「${source}」からのテスト通知です（${jst(at)} JST）。この通知が届いていれば、設定は正しく動作しています。`,
  };
  const en = {
    subject: '[Robot Portal] Test notification',
    body:
      `This is a test notification from "${source}" sent at ${at.toISOString()} (UTC). ` +
      `If you received it, this notification target works.`,
  };
  if (lang === 'ja') return ja;
  if (lang === 'en') return en;
  return { subject: `${ja.subject} / ${en.subject}`, body: `${ja.body}\n\n${en.body}` };
}

/** What a failed HTTP delivery records and answers: never what the far end said or which host answered. */
export const DELIVERY_FAILED = 'The target did not answer successfully';

/**
 * Sends notifications to a target: email through the mailer (outbox first), Slack and chat bots by an
 * HTTP POST through the outbound helper (lib/outbound.ts: address checks, redirects, limits) whose
 * attempt is recorded in the same delivery log (`outbox`), with the URL masked.
 * `outbound` is injectable so tests can resolve names to a local mock; by default the configured one.
 */
export function createNotifier(deps: {
  db: Kysely<Database>;
  clock: Clock;
  mailer: Pick<Mailer, 'deliver'>;
  config: { outboundAllowHosts: readonly string[] };
  outbound?: Outbound;
}) {
  const outbox = outboxRepo(deps.db);
  const outbound = deps.outbound ?? outboundFromConfig(deps.config);

  async function post(
    channel: 'slack' | 'chatbot',
    target: NotifierTarget,
    message: { subject: string; body: string; purpose: string },
    request: { body: unknown; headers?: Record<string, string> },
  ): Promise<DeliveryResult> {
    // Recorded before the attempt, so even an interrupted one leaves a trace.
    const id = await outbox.insert({
      organizationId: target.organizationId,
      channel,
      recipient: mask(target.address),
      subject: message.subject,
      body: message.body,
      purpose: message.purpose,
      createdAt: deps.clock().toISOString(),
    });
    let error: string | null = null;
    try {
      const res = await outbound.send(target.address, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...request.headers },
        body: JSON.stringify(request.body),
      });
      // Neither the remote answer nor its status is echoed: a refused address, a closed port and an
      // error answer look the same, so the test send cannot be used to scan the network.
      if (!res.ok) error = DELIVERY_FAILED;
    } catch {
      error = DELIVERY_FAILED;
    }
    const status = error ? 'failed' : 'sent';
    if (error) await outbox.markFailed(id, error);
    else await outbox.markSent(id, deps.clock().toISOString());
    return { deliveryId: id, status, error };
  }

  return {
    /** Sends one message to one target; the answer says what happened (email: stored for the mailer). */
    async send(
      target: NotifierTarget,
      message: { subject: string; body: string; purpose: string },
    ): Promise<DeliveryResult> {
      switch (target.type) {
        case 0: {
          const id = await deps.mailer.deliver({
            channel: 'email',
            to: target.address,
            subject: message.subject,
            body: message.body,
            purpose: message.purpose,
            organizationId: target.organizationId,
          });
          return { deliveryId: id, status: 'stored', error: null };
        }
        case 1:
          return post('slack', target, message, { body: { text: `${message.subject}\n${message.body}` } });
        case 6: {
          const auth = Buffer.from(`${target.botLoginId}:${target.botPassword ?? ''}`).toString('base64');
          return post('chatbot', target, message, {
            body: {
              spaceId: target.spaceId,
              botLoginId: target.botLoginId,
              text: `${message.subject}\n${message.body}`,
            },
            headers: { authorization: `Basic ${auth}` },
          });
        }
        default:
          throw new Error(`Notification target type ${target.type} has no sender`);
      }
    },
  };
}
