import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';

/** SQL of the operator's own account: profile, language, password. */
export function profileRepo(db: Kysely<Database>) {
  return {
    find(operatorId: number) {
      return db
        .selectFrom('operators as o')
        .innerJoin('organizations as org', 'org.id', 'o.organization_id')
        .leftJoin('buildings as b', 'b.id', 'o.building_id')
        .select([
          'o.id',
          'o.login_id',
          'o.first_name',
          'o.last_name',
          'o.email',
          'o.phone',
          'o.language',
          'o.auth_mode',
          'o.type',
          'o.organization_id',
          'org.name as organization_name',
          'o.building_id',
          'b.name as building_name',
          'o.login_count',
          'o.updated_at',
        ])
        .where('o.id', '=', operatorId)
        .executeTakeFirst();
    },

    async exists(operatorId: number): Promise<boolean> {
      const row = await db.selectFrom('operators').select('id').where('id', '=', operatorId).executeTakeFirst();
      return row !== undefined;
    },

    /** The operator's live signed-in sessions at `now`. */
    async activeSessions(operatorId: number, now: string): Promise<number> {
      const row = await db
        .selectFrom('sessions')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('operator_id', '=', operatorId)
        .where('state', '=', 'active')
        .where('revoked_at', 'is', null)
        .where('expires_at', '>', now)
        .executeTakeFirstOrThrow();
      return Number(row.n);
    },

    /** Writes the profile only where it is still at version `basedOn`; answers the rows written (0 or 1). */
    async updateVersioned(
      operatorId: number,
      basedOn: string,
      v: {
        firstName: string;
        lastName: string;
        email: string;
        phone: string;
        language: string | null;
        authMode: string;
        updatedAt: string;
      },
    ): Promise<bigint> {
      const result = await db
        .updateTable('operators')
        .set({
          first_name: v.firstName,
          last_name: v.lastName,
          email: v.email,
          phone: v.phone,
          language: v.language,
          auth_mode: v.authMode,
          updated_at: v.updatedAt,
        })
        .where('id', '=', operatorId)
        .where('updated_at', '=', basedOn)
        .executeTakeFirst();
      return result.numUpdatedRows;
    },

    /** The operator's pending email change, if any. */
    pendingEmail(operatorId: number) {
      return db.selectFrom('email_changes').selectAll().where('operator_id', '=', operatorId).executeTakeFirst();
    },

    /** Replaces the operator's pending email change (one at a time). */
    async putPendingEmail(v: { operatorId: number; email: string; codeHash: string; expiresAt: string; at: string }) {
      await db.deleteFrom('email_changes').where('operator_id', '=', v.operatorId).execute();
      await db
        .insertInto('email_changes')
        .values({
          operator_id: v.operatorId,
          new_email: v.email,
          code_hash: v.codeHash,
          expires_at: v.expiresAt,
          attempts: 0,
          created_at: v.at,
        })
        .execute();
    },

    /** A wrong code, counted in one statement; answers the attempts so far. */
    async countWrongCode(operatorId: number): Promise<number> {
      const row = await db
        .updateTable('email_changes')
        .set((eb) => ({ attempts: eb('attempts', '+', 1) }))
        .where('operator_id', '=', operatorId)
        .returning('attempts')
        .executeTakeFirst();
      return row?.attempts ?? Number.MAX_SAFE_INTEGER;
    },

    /** Removes the pending change; true when there was one (it is used once). */
    async dropPendingEmail(operatorId: number, codeHash?: string): Promise<boolean> {
      let q = db.deleteFrom('email_changes').where('operator_id', '=', operatorId);
      if (codeHash !== undefined) q = q.where('code_hash', '=', codeHash);
      const result = await q.executeTakeFirst();
      return Number(result.numDeletedRows) > 0;
    },

    async setEmail(operatorId: number, email: string, updatedAt: string): Promise<void> {
      await db.updateTable('operators').set({ email, updated_at: updatedAt }).where('id', '=', operatorId).execute();
    },

    async setLanguage(operatorId: number, language: string, at: string): Promise<void> {
      await db.updateTable('operators').set({ language, updated_at: at }).where('id', '=', operatorId).execute();
    },

    async passwordHash(operatorId: number): Promise<string | undefined> {
      const row = await db
        .selectFrom('operators')
        .select('password_hash')
        .where('id', '=', operatorId)
        .executeTakeFirst();
      return row?.password_hash;
    },

    /** The new password; the operator is no longer told to change it. */
    async setPassword(trx: Kysely<Database>, operatorId: number, hash: string, at: string): Promise<void> {
      await trx
        .updateTable('operators')
        .set({ password_hash: hash, password_changed_at: at, must_change_password: 0, updated_at: at })
        .where('id', '=', operatorId)
        .execute();
    },
  };
}
