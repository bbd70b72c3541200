import type { Kysely } from 'kysely';

/**
 * Issue 17, notifications (docs/notifications.md "Messages" and "Webhooks"):
 *
 * - `notification_targets.language`: `ja` or `en`, the language the target's messages are written
 *   in; existing targets get `ja` (until now every message was Japanese first, then English).
 * - `webhooks.event_kinds`: the notification kinds a webhook receives, comma-separated
 *   (e.g. `emergencyStop,lowBattery`); null: every kind (existing webhooks).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('notification_targets')
    .addColumn('language', 'varchar(2)', (c) => c.notNull().defaultTo('ja'))
    .execute();
  await db.schema.alterTable('webhooks').addColumn('event_kinds', 'varchar(400)').execute();
}
