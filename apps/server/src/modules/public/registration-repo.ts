import type { Insertable, Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';

/** SQL of registration requests and who is told of them. */
export function registrationRepo(db: Kysely<Database>) {
  return {
    async insert(values: Insertable<Database['registration_requests']>): Promise<void> {
      await db.insertInto('registration_requests').values(values).execute();
    },
    /** The e-mail addresses of the active system administrators. */
    async systemAdminEmails(): Promise<string[]> {
      const rows = await db
        .selectFrom('operators')
        .select(['email'])
        .where('type', '=', 9)
        .where('deleted_at', 'is', null)
        .where('status', '=', 1)
        .execute();
      return rows.map((r) => r.email);
    },
  };
}
