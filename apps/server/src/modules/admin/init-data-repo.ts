import type { Insertable, Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';

/** SQL of the initial data import: clash checks and the inserts, each in the caller's transaction. */
export function initDataRepo(db: Kysely<Database>) {
  return {
    /** Whether an organization has this name, case-insensitively. */
    async organizationNameTaken(name: string): Promise<boolean> {
      const row = await db
        .selectFrom('organizations')
        .select('id')
        .where((eb) => eb(eb.fn('lower', ['name']), '=', name.toLowerCase()))
        .executeTakeFirst();
      return row !== undefined;
    },

    /** Which of these (lower-case) login IDs exist. */
    async takenLoginIds(loginIds: string[]): Promise<string[]> {
      if (loginIds.length === 0) return [];
      const rows = await db.selectFrom('operators').select('login_id').where('login_id', 'in', loginIds).execute();
      return rows.map((r) => r.login_id);
    },

    async insertOrganization(trx: Kysely<Database>, values: Insertable<Database['organizations']>): Promise<number> {
      const row = await trx.insertInto('organizations').values(values).returning('id').executeTakeFirstOrThrow();
      return row.id;
    },

    async insertContract(trx: Kysely<Database>, values: Insertable<Database['contracts']>): Promise<void> {
      await trx.insertInto('contracts').values(values).execute();
    },

    async insertBuilding(trx: Kysely<Database>, values: Insertable<Database['buildings']>): Promise<number> {
      const row = await trx.insertInto('buildings').values(values).returning('id').executeTakeFirstOrThrow();
      return row.id;
    },

    async insertFloors(trx: Kysely<Database>, values: Insertable<Database['floors']>[]): Promise<void> {
      if (values.length > 0) await trx.insertInto('floors').values(values).execute();
    },

    async insertOperator(trx: Kysely<Database>, values: Insertable<Database['operators']>): Promise<void> {
      await trx.insertInto('operators').values(values).execute();
    },
  };
}
