import type { Kysely } from 'kysely';
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

    /** A wrong password: counted, or (the last one allowed) the account locked until `lockedUntil`. */
    async recordFailure(operatorId: number, failures: number, lockedUntil: string | null): Promise<void> {
      await db
        .updateTable('operators')
        .set(lockedUntil ? { failed_login_count: 0, locked_until: lockedUntil } : { failed_login_count: failures })
        .where('id', '=', operatorId)
        .execute();
    },

    async resetFailures(operatorId: number): Promise<void> {
      await db.updateTable('operators').set({ failed_login_count: 0 }).where('id', '=', operatorId).execute();
    },

    /** A completed login: counted, failures and lock cleared. */
    async recordLogin(operatorId: number, at: string): Promise<void> {
      await db
        .updateTable('operators')
        .set((eb) => ({
          login_count: eb('login_count', '+', 1),
          failed_login_count: 0,
          locked_until: null,
          last_login_at: at,
        }))
        .where('id', '=', operatorId)
        .execute();
    },
  };
}
export type LoginRepo = ReturnType<typeof loginRepo>;
export type LoginOperator = NonNullable<Awaited<ReturnType<LoginRepo['findOperator']>>>;
