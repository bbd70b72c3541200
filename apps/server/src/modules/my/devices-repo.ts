import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';

/** SQL of the operator's sessions as the devices page shows them. */
export function devicesRepo(db: Kysely<Database>) {
  return {
    /** The live signed-in sessions at `now`, last used first. */
    live(operatorId: number, now: string) {
      return db
        .selectFrom('sessions')
        .select(['id', 'device', 'ip', 'created_at', 'last_used_at'])
        .where('operator_id', '=', operatorId)
        .where('state', '=', 'active')
        .where('revoked_at', 'is', null)
        .where('expires_at', '>', now)
        .orderBy('last_used_at', 'desc')
        .orderBy('id', 'desc')
        .execute();
    },

    /** Ends one session of the operator; false when it is not theirs or already ended. */
    async revoke(operatorId: number, sessionId: number, at: string): Promise<boolean> {
      const result = await db
        .updateTable('sessions')
        .set({ revoked_at: at })
        .where('id', '=', sessionId)
        .where('operator_id', '=', operatorId)
        .where('revoked_at', 'is', null)
        .executeTakeFirst();
      return Number(result.numUpdatedRows) === 1;
    },

    /** Ends every session of the operator but `keep`; answers how many ended. */
    async revokeOthers(operatorId: number, keep: number, at: string, trx: Kysely<Database> = db): Promise<number> {
      const result = await trx
        .updateTable('sessions')
        .set({ revoked_at: at })
        .where('operator_id', '=', operatorId)
        .where('id', '!=', keep)
        .where('revoked_at', 'is', null)
        .executeTakeFirst();
      return Number(result.numUpdatedRows);
    },
  };
}
