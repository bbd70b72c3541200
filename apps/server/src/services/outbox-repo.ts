import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';
import { snakeRow } from '../lib/naming.ts';

/** A new row of the delivery log. */
export interface NewOutboxRow {
  organizationId: number | null;
  channel: string;
  recipient: string;
  subject: string;
  body: string;
  purpose: string;
  createdAt: string;
}

/** SQL of the delivery log (`outbox`): the mailer, the notifier and the system administrators' log. */
export function outboxRepo(db: Kysely<Database>) {
  return {
    /** Records a message as 'stored'; answers its id. */
    async insert(m: NewOutboxRow): Promise<number> {
      const row = await db
        .insertInto('outbox')
        .values({ ...snakeRow(m), status: 'stored', error: null, sent_at: null })
        .returning('id')
        .executeTakeFirstOrThrow();
      return row.id;
    },

    async markSent(id: number, at: string): Promise<void> {
      await db.updateTable('outbox').set({ status: 'sent', sent_at: at }).where('id', '=', id).execute();
    },

    async markFailed(id: number, error: string): Promise<void> {
      await db.updateTable('outbox').set({ status: 'failed', error }).where('id', '=', id).execute();
    },

    /** One page of the log, newest first, and the total count. */
    async page(limit: number, offset: number) {
      const [rows, total] = await Promise.all([
        db.selectFrom('outbox').selectAll().orderBy('id', 'desc').limit(limit).offset(offset).execute(),
        db
          .selectFrom('outbox')
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .executeTakeFirstOrThrow(),
      ]);
      return { rows, total: Number(total.n) };
    },
  };
}

export type OutboxRepo = ReturnType<typeof outboxRepo>;
