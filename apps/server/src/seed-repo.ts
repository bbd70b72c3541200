import type { Insertable, Kysely } from 'kysely';
import type { Database } from './db/schema.ts';

type New<T extends keyof Database> = Insertable<Database[T]>;

/**
 * SQL of the first-start data (seed.ts): the system organization and administrator, the demo data.
 * `db` may be a transaction.
 */
export function seedRepo(db: Kysely<Database>) {
  return {
    /** Whether the database has any organization (a fresh database has none). */
    async anyOrganization(): Promise<boolean> {
      return !!(await db.selectFrom('organizations').select('id').limit(1).executeTakeFirst());
    },
    async organizationIdNamed(name: string): Promise<number | undefined> {
      return (await db.selectFrom('organizations').select('id').where('name', '=', name).executeTakeFirst())?.id;
    },
    /** Whether a live system administrator exists. */
    async anySystemAdmin(): Promise<boolean> {
      return !!(await db
        .selectFrom('operators')
        .select('id')
        .where('type', '=', 9)
        .where('deleted_at', 'is', null)
        .executeTakeFirst());
    },
    async insertOrganization(v: New<'organizations'>): Promise<number> {
      return (await db.insertInto('organizations').values(v).returning('id').executeTakeFirstOrThrow()).id;
    },
    async insertOperator(v: New<'operators'>): Promise<number> {
      return (await db.insertInto('operators').values(v).returning('id').executeTakeFirstOrThrow()).id;
    },
    async insertBuilding(v: New<'buildings'>): Promise<number> {
      return (await db.insertInto('buildings').values(v).returning('id').executeTakeFirstOrThrow()).id;
    },
    async insertTermDocument(v: New<'term_documents'>): Promise<number> {
      return (await db.insertInto('term_documents').values(v).returning('id').executeTakeFirstOrThrow()).id;
    },
    async insertContract(v: New<'contracts'>): Promise<void> {
      await db.insertInto('contracts').values(v).execute();
    },
    async insertBuildingOptions(v: New<'building_options'>): Promise<void> {
      await db.insertInto('building_options').values(v).execute();
    },
    async insertFloors(v: New<'floors'>[]): Promise<void> {
      await db.insertInto('floors').values(v).execute();
    },
    /** The floors (map frame and image included) of the first building of this name. */
    async floorsOfBuildingNamed(name: string) {
      return db
        .selectFrom('floors as f')
        .innerJoin('buildings as b', 'b.id', 'f.building_id')
        .where('b.id', '=', (eb) =>
          eb
            .selectFrom('buildings')
            .select((e) => e.fn.min('id').as('id'))
            .where('name', '=', name),
        )
        .select(['f.id', 'f.organization_id', 'f.building_id', 'f.img', 'f.updated_at'])
        .orderBy('f.index', 'desc')
        .execute();
    },
    async insertGroups(table: 'robot_groups' | 'flow_groups', v: New<'robot_groups'>[]): Promise<void> {
      await db.insertInto(table).values(v).execute();
    },
    async insertTermAgreements(v: New<'term_agreements'>[]): Promise<void> {
      await db.insertInto('term_agreements').values(v).execute();
    },
    async insertMessage(v: New<'messages'>): Promise<void> {
      await db.insertInto('messages').values(v).execute();
    },
    async insertAnnouncement(v: New<'announcements'>): Promise<void> {
      await db.insertInto('announcements').values(v).execute();
    },
  };
}
