import type { Delivery } from '@portal/contract';
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';
import { camelRow } from '../lib/naming.ts';
import { toOffset } from '../lib/pagination.ts';
import { outboxRepo } from './outbox-repo.ts';

/** The delivery log: every mail and SMS the mailer recorded in the outbox, newest first. */
export function deliveryLog({ db }: { db: Kysely<Database> }) {
  const outbox = outboxRepo(db);
  return {
    async page(page: number, perPage: number) {
      const { limit, offset } = toOffset(page, perPage);
      const { rows, total } = await outbox.page(limit, offset);
      const items: Delivery[] = rows.map((r) => ({
        ...camelRow(r, ['id', 'recipient', 'subject', 'body', 'error', 'purpose', 'created_at']),
        channel: r.channel as Delivery['channel'],
        status: r.status as Delivery['status'],
      }));
      return { items, total, page, perPage };
    },
  };
}
