import type { Insertable, Kysely, Selectable } from 'kysely';
import type { BuildingIpRuleTable, Database } from '../../db/schema.ts';

export type IpRuleRow = Selectable<BuildingIpRuleTable>;

/** The SQL of a building's IP allow-list; `db` may be a transaction. */
export function ipRuleRepo(db: Kysely<Database>) {
  return {
    find: (id: number): Promise<IpRuleRow | undefined> =>
      db.selectFrom('building_ip_rules').selectAll().where('id', '=', id).executeTakeFirst(),

    listOf: (buildingId: number): Promise<IpRuleRow[]> =>
      db.selectFrom('building_ip_rules').selectAll().where('building_id', '=', buildingId).orderBy('id').execute(),

    async countOf(buildingId: number): Promise<number> {
      const row = await db
        .selectFrom('building_ip_rules')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('building_id', '=', buildingId)
        .executeTakeFirstOrThrow();
      return Number(row.n);
    },

    async insert(values: Insertable<BuildingIpRuleTable>): Promise<number> {
      const row = await db.insertInto('building_ip_rules').values(values).returning('id').executeTakeFirstOrThrow();
      return row.id;
    },

    async remove(id: number): Promise<void> {
      await db.deleteFrom('building_ip_rules').where('id', '=', id).execute();
    },
  };
}
