import { sql, type Insertable, type Kysely, type Selectable, type Updateable } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { findById, insertReturningId, rowExists, updateVersioned } from '../../db/rows.ts';
import type { WebhookTable } from './webhook-tables.ts';

export type WebhookRow = Selectable<WebhookTable>;

/** SQL of webhooks (system-wide, no tenancy: only system administrators reach them). */
export function webhookRepo(db: Kysely<Database>) {
  return {
    find: (id: number) => findById(db, 'webhooks', id),
    exists: (id: number) => rowExists(db, 'webhooks', id),

    /** Every webhook, by name. */
    list: () => db.selectFrom('webhooks').selectAll().orderBy('name').orderBy('id').execute(),

    /** The enabled webhooks (what the notification engine sends to). */
    enabled: () => db.selectFrom('webhooks').selectAll().where('status', '=', 1).orderBy('id').execute(),

    insert: (values: Insertable<WebhookTable>) => insertReturningId(db, 'webhooks', values),

    /** Writes only while the stored version is still `basedOn`; answers the rows written (0 or 1). */
    updateVersioned: (id: number, basedOn: string, values: Updateable<WebhookTable>) =>
      updateVersioned(db, 'webhooks', id, basedOn, values),

    /** Answers whether the webhook was there. */
    async remove(id: number): Promise<boolean> {
      const gone = await db.deleteFrom('webhooks').where('id', '=', id).executeTakeFirst();
      return Number(gone.numDeletedRows) === 1;
    },

    /** A new signing secret (not a versioned edit: it changes nothing the form edits). */
    async setSigningSecret(id: number, sealed: string): Promise<boolean> {
      const r = await db
        .updateTable('webhooks')
        .set({ signing_secret: sealed })
        .where('id', '=', id)
        .executeTakeFirst();
      return Number(r.numUpdatedRows) === 1;
    },

    /** A delivery succeeded: the failure count starts again. */
    async recordSuccess(id: number, at: string): Promise<void> {
      await db
        .updateTable('webhooks')
        .set({ consecutive_failures: 0, last_success_at: at, last_error: null })
        .where('id', '=', id)
        .execute();
    },

    /**
     * A delivery failed: counted in one statement (parallel deliveries each count). An enabled webhook
     * whose count reaches `limit` turns to 9 (error), and its version moves, so an edit based on the
     * enabled one is told it changed. Answers the status after the update (undefined: gone).
     */
    async recordFailure(id: number, at: string, error: string, limit: number): Promise<number | undefined> {
      const tripped = sql<boolean>`${sql.ref('status')} = 1 and ${sql.ref('consecutive_failures')} + 1 >= ${limit}`;
      const row = await db
        .updateTable('webhooks')
        .set({
          consecutive_failures: sql`${sql.ref('consecutive_failures')} + 1`,
          last_failure_at: at,
          last_error: error,
          status: sql`case when ${tripped} then 9 else ${sql.ref('status')} end`,
          updated_at: sql`case when ${tripped} then ${at} else ${sql.ref('updated_at')} end`,
        })
        .where('id', '=', id)
        .returning('status')
        .executeTakeFirst();
      return row?.status;
    },
  };
}

export type WebhookRepo = ReturnType<typeof webhookRepo>;
