import type { Kysely } from 'kysely';
import nodemailer, { type Transporter } from 'nodemailer';
import type { FastifyBaseLogger } from 'fastify';
import type { Database } from '../db/schema.ts';
import type { Clock } from '../lib/time.ts';
import { outboxRepo } from './outbox-repo.ts';

export interface OutgoingMessage {
  channel: 'email' | 'sms';
  to: string;
  subject: string;
  body: string;
  /** Why it was sent: 'auth-code', 'login-notification', 'registration-request', ... */
  purpose: string;
  organizationId: number | null;
}

export type Mailer = ReturnType<typeof createMailer>;

/**
 * Every outgoing mail or SMS is first written to the outbox (the delivery log). With SMTP_URL the
 * mail is then sent and its row marked sent or failed; without it the mail stays 'stored', readable by
 * system administrators in the portal. SMS has no provider yet: it is always stored.
 */
export function createMailer(deps: {
  db: Kysely<Database>;
  clock: Clock;
  log: FastifyBaseLogger;
  smtpUrl: string | null;
  from: string;
}) {
  const transport: Transporter | null = deps.smtpUrl ? nodemailer.createTransport(deps.smtpUrl) : null;
  const inFlight = new Set<Promise<void>>();
  const outbox = outboxRepo(deps.db);

  async function send(id: number, m: OutgoingMessage): Promise<void> {
    if (!transport) return;
    try {
      await transport.sendMail({ from: deps.from, to: m.to, subject: m.subject, text: m.body });
      await outbox.markSent(id, deps.clock().toISOString());
    } catch (err) {
      deps.log.warn({ err, outboxId: id }, 'mail delivery failed');
      await outbox.markFailed(id, (err as Error).message.slice(0, 500)).catch(() => undefined);
    }
  }

  return {
    /** Records the message and starts delivery without making the caller wait for SMTP. */
    async deliver(m: OutgoingMessage): Promise<number> {
      const id = await outbox.insert({
        organizationId: m.organizationId,
        channel: m.channel,
        recipient: m.to,
        subject: m.subject,
        body: m.body,
        purpose: m.purpose,
        createdAt: deps.clock().toISOString(),
      });
      deps.log.info({ outboxId: id, channel: m.channel, to: m.to, purpose: m.purpose }, 'message queued');
      if (m.channel === 'email' && transport) {
        const p = send(id, m).finally(() => inFlight.delete(p));
        inFlight.add(p);
      }
      return id;
    },
    /** Waits for deliveries in flight (graceful shutdown, tests). */
    async drain(): Promise<void> {
      await Promise.allSettled([...inFlight]);
    },
    close(): void {
      transport?.close();
    },
  };
}
