import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';

/** SQL of the contract, the term documents and agreements, and the operator's current building. */
export function contractRepo(db: Kysely<Database>) {
  return {
    contract(organizationId: number) {
      return db
        .selectFrom('contracts as c')
        .leftJoin('organizations as m', 'm.id', 'c.maintenance_company_id')
        .select(['c.contract_end_at', 'c.payment_completed', 'c.maintenance_company_id', 'm.name as mc_name'])
        .where('c.organization_id', '=', organizationId)
        .executeTakeFirst();
    },

    /** The organization's buildings with their options, by name; only `onlyBuilding` when given. */
    buildingsWithOptions(organizationId: number, onlyBuilding?: number) {
      return db
        .selectFrom('buildings as b')
        .leftJoin('building_options as o', 'o.building_id', 'b.id')
        .select([
          'b.id',
          'b.name',
          'o.is_archive',
          'o.is_mini_asilla',
          'o.is_lilz',
          'o.is_hakaru_ai',
          'o.is_kanriroid',
          'o.is_auto_guide',
        ])
        .where('b.organization_id', '=', organizationId)
        .$if(onlyBuilding !== undefined, (q) => q.where('b.id', '=', onlyBuilding!))
        .orderBy('b.name')
        .orderBy('b.id')
        .execute();
    },

    /** Term documents published by `now`, newest first. */
    publishedDocuments(now: string) {
      return db
        .selectFrom('term_documents')
        .selectAll()
        .where('published_at', '<=', now)
        .orderBy('published_at', 'desc')
        .orderBy('id', 'desc')
        .execute();
    },

    /** Which of the documents the operator agreed to. */
    async agreedDocuments(operatorId: number, documentIds: number[]): Promise<number[]> {
      if (documentIds.length === 0) return [];
      const rows = await db
        .selectFrom('term_agreements')
        .select('document_id')
        .where('operator_id', '=', operatorId)
        .where('document_id', 'in', documentIds)
        .execute();
      return rows.map((r) => r.document_id);
    },

    /** Records an agreement unless there is one; true when it was new. */
    async agree(
      trx: Kysely<Database>,
      v: { operatorId: number; documentId: number; at: string; ip: string },
    ): Promise<boolean> {
      const exists = await trx
        .selectFrom('term_agreements')
        .select('id')
        .where('operator_id', '=', v.operatorId)
        .where('document_id', '=', v.documentId)
        .executeTakeFirst();
      if (exists) return false;
      await trx
        .insertInto('term_agreements')
        .values({ operator_id: v.operatorId, document_id: v.documentId, agreed_at: v.at, ip: v.ip })
        .execute();
      return true;
    },

    building(id: number) {
      return db.selectFrom('buildings').select(['id', 'organization_id']).where('id', '=', id).executeTakeFirst();
    },

    async setCurrentBuilding(operatorId: number, buildingId: number, at: string): Promise<void> {
      await db
        .updateTable('operators')
        .set({ building_id: buildingId, updated_at: at })
        .where('id', '=', operatorId)
        .execute();
    },
  };
}
