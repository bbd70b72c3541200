import type { Insertable, Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { compiledRows } from '../../lib/compiled-list.ts';

/** The session of a token hash with everything the per-request checks read (one row at most). */
const sessionFacts = (db: Kysely<Database>, tokenHash: string) =>
  db
    .selectFrom('sessions as s')
    .innerJoin('operators as o', 'o.id', 's.operator_id')
    .innerJoin('organizations as org', 'org.id', 'o.organization_id')
    .leftJoin('buildings as b', 'b.id', 'o.building_id')
    .leftJoin('contracts as c', 'c.organization_id', 'o.organization_id')
    .select([
      's.id as sessionId',
      's.state',
      's.expires_at as expiresAt',
      's.revoked_at as revokedAt',
      's.last_used_at as lastUsedAt',
      's.auth_code_hash as authCodeHash',
      's.auth_code_expires_at as authCodeExpiresAt',
      's.auth_code_attempts as authCodeAttempts',
      'o.id as operatorId',
      'o.organization_id as organizationId',
      'o.building_id as buildingId',
      'o.type',
      'o.language',
      'o.last_language as lastLanguage',
      'o.email',
      'o.first_name as firstName',
      'o.last_name as lastName',
      'o.status as operatorStatus',
      'o.deleted_at as deletedAt',
      'o.must_change_password as mustChangePassword',
      'org.lab_option as labOption',
      'org.status as organizationStatus',
      'b.ip_restriction_enabled as ipRestricted',
      'c.contract_end_at as contractEndAt',
      'c.payment_completed as paymentCompleted',
    ])
    .where('s.token_hash', '=', tokenHash);

/** SQL for sessions and the operator/organization/contract facts checked on every request. */
export function sessionRepo(db: Kysely<Database>) {
  return {
    /**
     * The session of a token hash, with everything the per-request checks need, in one query
     * (compiled once: asked on every request, see lib/compiled-list.ts `compiledRows`).
     */
    async findByTokenHash(tokenHash: string) {
      const rows = await compiledRows(db as never, 'session-by-token', [tokenHash], ([hash]) =>
        sessionFacts(db, hash as string),
      );
      return rows[0];
    },
    async ipRules(buildingId: number): Promise<string[]> {
      const rows = await db
        .selectFrom('building_ip_rules')
        .select('address')
        .where('building_id', '=', buildingId)
        .execute();
      return rows.map((r) => r.address);
    },
    /** The UI language of the operator's latest signed-in request (mails of accounts without a chosen one). */
    async setLastLanguage(operatorId: number, language: string): Promise<void> {
      await db.updateTable('operators').set({ last_language: language }).where('id', '=', operatorId).execute();
    },
    touch(sessionId: number, at: string) {
      return db.updateTable('sessions').set({ last_used_at: at }).where('id', '=', sessionId).execute();
    },
    async create(values: Insertable<Database['sessions']>): Promise<void> {
      await db.insertInto('sessions').values(values).execute();
    },
    /** A pending session with its code, and the login ID of its operator. */
    findPending(sessionId: number) {
      return db
        .selectFrom('sessions as s')
        .innerJoin('operators as o', 'o.id', 's.operator_id')
        .select([
          's.id',
          's.state',
          's.auth_code_hash as codeHash',
          's.auth_code_expires_at as codeExpires',
          's.auth_code_attempts as attempts',
          'o.login_id as loginId',
        ])
        .where('s.id', '=', sessionId)
        .executeTakeFirst();
    },
    /** A wrong code: counted; the last one allowed also ends the session and clears the code. */
    async recordWrongCode(sessionId: number, attempts: number, revokedAt: string | null): Promise<void> {
      await db
        .updateTable('sessions')
        .set(
          revokedAt
            ? { auth_code_attempts: attempts, revoked_at: revokedAt, auth_code_hash: null }
            : { auth_code_attempts: attempts },
        )
        .where('id', '=', sessionId)
        .execute();
    },
    /** The pending session becomes active under a new token hash; false when it is no longer pending. */
    async activate(
      sessionId: number,
      v: { tokenHash: string; expiresAt: string; at: string; device: string; ip: string },
    ): Promise<boolean> {
      const updated = await db
        .updateTable('sessions')
        .set({
          state: 'active',
          token_hash: v.tokenHash,
          auth_code_hash: null,
          auth_code_expires_at: null,
          expires_at: v.expiresAt,
          last_used_at: v.at,
          device: v.device,
          ip: v.ip,
        })
        .where('id', '=', sessionId)
        .where('state', '=', 'pending')
        .executeTakeFirst();
      return Number(updated.numUpdatedRows) === 1;
    },
    revoke(sessionId: number, at: string) {
      return db
        .updateTable('sessions')
        .set({ revoked_at: at })
        .where('id', '=', sessionId)
        .where('revoked_at', 'is', null)
        .execute();
    },
  };
}
export type SessionRepo = ReturnType<typeof sessionRepo>;
export type SessionFacts = NonNullable<Awaited<ReturnType<SessionRepo['findByTokenHash']>>>;
