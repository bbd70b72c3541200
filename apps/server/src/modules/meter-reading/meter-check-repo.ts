import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';

/** The SQL of a meter check: the check item (without a caller's scope: the runner's) and target names. */
export function meterCheckRepo(db: Kysely<Database>) {
  return {
    item: (id: number) => db.selectFrom('check_items').selectAll().where('id', '=', id).executeTakeFirst(),
    targets: (ids: number[]) =>
      ids.length === 0
        ? Promise.resolve([])
        : db
            .selectFrom('notification_targets')
            .select(['id', 'type', 'room', 'address', 'address_sealed'])
            .where('id', 'in', ids)
            .execute(),
  };
}
