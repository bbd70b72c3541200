import type { ChangePasswordBody, Language, Profile, UpdateProfileBody } from '@portal/contract';
import type { AppContext, Principal } from '../../context.ts';
import { AppError, notFound } from '../../lib/errors.ts';
import { hashPassword, verifyPassword } from '../../lib/crypto.ts';

type Ctx = Pick<AppContext, 'db' | 'clock' | 'audit'>;

export function profileService({ db, clock, audit }: Ctx) {
  async function get(p: Principal): Promise<Profile> {
    const row = await db
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
      .where('o.id', '=', p.operatorId)
      .executeTakeFirst();
    if (!row) throw notFound('Operator');
    const active = await db
      .selectFrom('sessions')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('operator_id', '=', p.operatorId)
      .where('state', '=', 'active')
      .where('revoked_at', 'is', null)
      .where('expires_at', '>', clock().toISOString())
      .executeTakeFirstOrThrow();
    return {
      id: row.id,
      loginId: row.login_id,
      firstName: row.first_name,
      lastName: row.last_name,
      email: row.email,
      phone: row.phone,
      language: row.language === 'ja' || row.language === 'en' ? row.language : null,
      authMode: row.auth_mode === 'email' || row.auth_mode === 'sms' ? row.auth_mode : 'none',
      type: row.type as Profile['type'],
      organizationId: row.organization_id,
      organizationName: row.organization_name,
      buildingId: row.building_id,
      buildingName: row.building_name,
      usage: { logins: row.login_count, activeSessions: Number(active.n) },
      updatedAt: row.updated_at,
    };
  }

  return {
    get,

    async update(p: Principal, body: UpdateProfileBody, ip: string): Promise<Profile> {
      const now = clock().toISOString();
      // Optimistic concurrency: the update applies only to the version the form was based on.
      const result = await db
        .updateTable('operators')
        .set({
          first_name: body.firstName,
          last_name: body.lastName,
          email: body.email.toLowerCase(),
          phone: body.phone,
          language: body.language,
          auth_mode: body.authMode,
          updated_at: now,
        })
        .where('id', '=', p.operatorId)
        .where('updated_at', '=', body.updatedAt)
        .executeTakeFirst();
      if (Number(result.numUpdatedRows) !== 1) {
        throw new AppError('STALE_UPDATE', 'The profile was changed elsewhere; reload and try again');
      }
      await audit.record({
        operatorId: p.operatorId,
        organizationId: p.organizationId,
        action: 'profile.update',
        targetType: 'operator',
        targetId: p.operatorId,
        ip,
        detail: { fields: ['firstName', 'lastName', 'email', 'phone', 'language', 'authMode'] },
      });
      return get(p);
    },

    async setLanguage(p: Principal, language: Language, ip: string): Promise<void> {
      await db
        .updateTable('operators')
        .set({ language, updated_at: clock().toISOString() })
        .where('id', '=', p.operatorId)
        .execute();
      await audit.record({
        operatorId: p.operatorId,
        organizationId: p.organizationId,
        action: 'profile.language',
        targetType: 'operator',
        targetId: p.operatorId,
        ip,
        detail: { language },
      });
    },

    /** Old password, new twice; every other session of the operator ends. */
    async changePassword(p: Principal, body: ChangePasswordBody, ip: string): Promise<void> {
      const op = await db
        .selectFrom('operators')
        .select('password_hash')
        .where('id', '=', p.operatorId)
        .executeTakeFirst();
      if (!op) throw notFound('Operator');
      if (!(await verifyPassword(op.password_hash, body.oldPassword))) {
        throw new AppError('WRONG_PASSWORD', 'The current password is not correct', [
          { path: 'oldPassword', message: 'validation.wrongPassword' },
        ]);
      }
      if (body.oldPassword === body.newPassword) {
        throw new AppError('PASSWORD_REUSED', 'The new password must differ from the current one', [
          { path: 'newPassword', message: 'validation.passwordReused' },
        ]);
      }
      const now = clock().toISOString();
      const hash = await hashPassword(body.newPassword);
      await db.transaction().execute(async (trx) => {
        await trx
          .updateTable('operators')
          .set({ password_hash: hash, password_changed_at: now, must_change_password: 0, updated_at: now })
          .where('id', '=', p.operatorId)
          .execute();
        await trx
          .updateTable('sessions')
          .set({ revoked_at: now })
          .where('operator_id', '=', p.operatorId)
          .where('id', '!=', p.sessionId)
          .where('revoked_at', 'is', null)
          .execute();
        await audit.record(
          {
            operatorId: p.operatorId,
            organizationId: p.organizationId,
            action: 'password.change',
            targetType: 'operator',
            targetId: p.operatorId,
            ip,
          },
          trx,
        );
      });
    },
  };
}
