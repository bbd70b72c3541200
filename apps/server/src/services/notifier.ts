import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';
import { mask } from '../lib/crypto.ts';
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

const HTTP_TIMEOUT_MS = 5_000;

const jst = (d: Date) =>
  new Intl.DateTimeFormat('ja-JP', { dateStyle: 'medium', timeStyle: 'medium', timeZone: 'Asia/Tokyo' }).format(d);

/** The test message, in Japanese and English (a target has no language of its own). */
export function testNotificationText(source: string, at: Date) {
  return {
    subject: '【ロボットポータル】テスト通知 / [Robot Portal] Test notification',
    body:
      `これは「${source}」からのテスト通知です（${jst(at)} JST）。この通知が届いていれば、設定は正しく動作しています。\n\n` +
      `This is a test notification from "${source}" sent at ${at.toISOString()} (UTC). ` +
      `If you received it, this notification target works.`,
  };
}

/**
 * Sends notifications to a target: email through the mailer (outbox first), Slack and chat bots by an
 * HTTP POST whose attempt is recorded in the same delivery log (`outbox`), with the URL masked.
 * `fetch` is injectable so tests can point it at a local mock; by default the global one is used.
 */
export function createNotifier(deps: {
  db: Kysely<Database>;
  clock: Clock;
  mailer: Pick<Mailer, 'deliver'>;
  fetch?: typeof globalThis.fetch;
}) {
  const outbox = outboxRepo(deps.db);
  const doFetch: typeof globalThis.fetch = (input, init) => (deps.fetch ?? globalThis.fetch)(input, init);

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
      const res = await doFetch(target.address, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...request.headers },
        body: JSON.stringify(request.body),
        signal: AbortSignal.timeout(HTTP_TIMEOUT_MS),
        // A webhook that redirects elsewhere is not followed.
        redirect: 'manual',
      });
      // The remote answer is not echoed: only its status, which carries no secret.
      if (!res.ok) error = `HTTP ${res.status}`;
      await res.body?.cancel().catch(() => undefined);
    } catch (err) {
      const e = err as Error;
      error =
        e.name === 'TimeoutError' ? `No answer within ${HTTP_TIMEOUT_MS / 1000} s` : 'The request could not be sent';
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
