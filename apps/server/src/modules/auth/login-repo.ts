import { sql, type Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';

/** SQL of signing in: the operator of a login ID with what the login rules need, and its counters. */
export function loginRepo(db: Kysely<Database>) {
  return {
    /** The live operator of a login ID (trimmed, case-insensitive), with its organization, building and contract facts. */
    findOperator(loginId: string) {
      return db
        .selectFrom('operators as o')
        .innerJoin('organizations as org', 'org.id', 'o.organization_id')
        .leftJoin('buildings as b', 'b.id', 'o.building_id')
        .leftJoin('contracts as c', 'c.organization_id', 'o.organization_id')
        .select([
          'o.id',
          'o.organization_id as organizationId',
          'o.building_id as buildingId',
          'o.type',
          'o.password_hash as passwordHash',
          'o.first_name as firstName',
          'o.last_name as lastName',
          'o.email',
          'o.phone',
          'o.language',
          'o.last_language as lastLanguage',
          'o.auth_mode as authMode',
          'o.status',
          'o.failed_login_count as failedLoginCount',
          'o.locked_until as lockedUntil',
          'o.must_change_password as mustChangePassword',
          'org.lab_option as labOption',
          'b.ip_restriction_enabled as ipRestricted',
          'c.contract_end_at as contractEndAt',
          'c.payment_completed as paymentCompleted',
        ])
        .where('o.login_id', '=', loginId.trim().toLowerCase())
        .where('o.deleted_at', 'is', null)
        .executeTakeFirst();
    },

    /**
     * A wrong password, counted in one statement (no read-then-write, so parallel attempts all count).
     * A lock that has run out starts a new count; the count reaching `max` locks the account until
     * `lockUntil`; an active lock stays as it is. Answers the count and lock after the update.
     */
    async recordFailure(
      operatorId: number,
      v: { now: string; max: number; lockUntil: string },
    ): Promise<{ failures: number; lockedUntil: string | null } | undefined> {
      const lapsed = sql<boolean>`(locked_until is not null and locked_until <= ${v.now})`;
      const failures = sql<number>`(case when ${lapsed} then 1 else failed_login_count + 1 end)`;
      return db
        .updateTable('operators')
        .set({
          failed_login_count: failures,
          locked_until: sql<string | null>`(case
            when locked_until is not null and locked_until > ${v.now} then locked_until
            when ${failures} >= ${v.max} then ${v.lockUntil}
            else null end)`,
        })
        .where('id', '=', operatorId)
        .returning(['failed_login_count as failures', 'locked_until as lockedUntil'])
        .executeTakeFirst();
    },

    /**
     * The right password: the failure count is reset only if the account is not locked at this moment,
     * in one statement. False when a lock came first (the login must then be refused). Use it on the
     * transaction that creates the session (`loginRepo(trx)`), so no failure can lock the account in between.
     */
    async claimLogin(operatorId: number, now: string): Promise<boolean> {
      const row = await db
        .updateTable('operators')
        .set({ failed_login_count: 0, locked_until: null })
        .where('id', '=', operatorId)
        .where((eb) => eb.or([eb('locked_until', 'is', null), eb('locked_until', '<=', now)]))
        .returning('id')
        .executeTakeFirst();
      return row !== undefined;
    },

    /** Whether a login ID that matches no account (by its key) is locked at `now`. */
    async unknownIdLocked(key: string, now: string): Promise<boolean> {
      const row = await db
        .selectFrom('login_lockouts')
        .select('key')
        .where('key', '=', key)
        .where('locked_until', '>', now)
        .executeTakeFirst();
      return row !== undefined;
    },

    /**
     * A failure of a login ID that matches no account, counted in one statement (insert or update,
     * so parallel attempts on any server all count) by the same rule as `recordFailure`. Rows not
     * touched for a day (`staleBefore`) are removed on the way.
     */
    async recordUnknownIdFailure(
      key: string,
      v: { now: string; max: number; lockUntil: string; staleBefore: string },
    ): Promise<{ failures: number; lockedUntil: string | null }> {
      await db
        .deleteFrom('login_lockouts')
        .where('updated_at', '<', v.staleBefore)
        .where((eb) => eb.or([eb('locked_until', 'is', null), eb('locked_until', '<=', v.now)]))
        .execute();
      const lapsed = sql<boolean>`(login_lockouts.locked_until is not null and login_lockouts.locked_until <= ${v.now})`;
      const failures = sql<number>`(case when ${lapsed} then 1 else login_lockouts.failures + 1 end)`;
      return db
        .insertInto('login_lockouts')
        .values({
          key,
          failures: 1,
          locked_until: v.max <= 1 ? v.lockUntil : null,
          updated_at: v.now,
        })
        .onConflict((oc) =>
          oc.column('key').doUpdateSet({
            failures,
            locked_until: sql<string | null>`(case
              when login_lockouts.locked_until is not null and login_lockouts.locked_until > ${v.now}
                then login_lockouts.locked_until
              when ${failures} >= ${v.max} then ${v.lockUntil}
              else null end)`,
            updated_at: v.now,
          }),
        )
        .returning(['failures', 'locked_until as lockedUntil'])
        .executeTakeFirstOrThrow();
    },

    /** A completed login: counted (failures and lock were settled by `claimLogin`). */
    async recordLogin(operatorId: number, at: string): Promise<void> {
      await db
        .updateTable('operators')
        .set((eb) => ({ login_count: eb('login_count', '+', 1), last_login_at: at }))
        .where('id', '=', operatorId)
        .execute();
    },
  };
}
export type LoginRepo = ReturnType<typeof loginRepo>;
export type LoginOperator = NonNullable<Awaited<ReturnType<LoginRepo['findOperator']>>>;
