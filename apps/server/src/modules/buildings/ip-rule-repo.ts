import type { Insertable, Kysely, Selectable } from 'kysely';
import type { BuildingIpRuleTable, Database } from '../../db/schema.ts';
import { deleteById, findById, insertReturningId } from '../../db/rows.ts';

export type IpRuleRow = Selectable<BuildingIpRuleTable>;

/** The SQL of a building's IP allow-list; `db` may be a transaction. */
export function ipRuleRepo(db: Kysely<Database>) {
  return {
    find: (id: number): Promise<IpRuleRow | undefined> => findById(db, 'building_ip_rules', id),

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

    insert: (values: Insertable<BuildingIpRuleTable>): Promise<number> =>
      insertReturningId(db, 'building_ip_rules', values),

    remove: (id: number): Promise<boolean> => deleteById(db, 'building_ip_rules', id),
  };
}
