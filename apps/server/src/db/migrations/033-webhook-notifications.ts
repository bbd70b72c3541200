import type { Kysely } from 'kysely';

/**
 * Webhooks as a channel of the notification engine (issue 17; docs/notifications.md "Webhooks").
 *
 * `webhooks.level`: the minimum level a webhook receives (0 information, 5 warning, 9 emergency), as
 * notification targets have; existing webhooks receive everything (0).
 *
 * `notification_deliveries.channel`: `target` (a notification target, as before) or `webhook`; for
 * `webhook`, `target_id` is the webhook's id. Existing deliveries are `target`.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('webhooks')
    .addColumn('level', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema
    .alterTable('notification_deliveries')
    .addColumn('channel', 'varchar(16)', (c) => c.notNull().defaultTo('target'))
    .execute();
}
