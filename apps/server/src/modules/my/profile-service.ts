import type { ChangePasswordBody, Language, Profile, UpdateProfileBody } from '@portal/contract';
import type { AppContext, Principal } from '../../context.ts';
import { AppError, notFound } from '../../lib/errors.ts';
import { hashPassword, verifyPassword } from '../../lib/crypto.ts';
import { expectVersioned, nextVersion } from '../../lib/versioned.ts';
import { devicesRepo } from './devices-repo.ts';
import { profileRepo } from './profile-repo.ts';

type Ctx = Pick<AppContext, 'db' | 'clock' | 'audit'> & Partial<Pick<AppContext, 'operatorEvents'>>;

export function profileService({ db, clock, audit, operatorEvents }: Ctx) {
  const repo = profileRepo(db);
  const devices = devicesRepo(db);

  async function get(p: Principal): Promise<Profile> {
    const row = await repo.find(p.operatorId);
    if (!row) throw notFound('Operator');
    const activeSessions = await repo.activeSessions(p.operatorId, clock().toISOString());
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
      usage: { logins: row.login_count, activeSessions },
      updatedAt: row.updated_at,
    };
  }

  return {
    get,

    async update(p: Principal, body: UpdateProfileBody, ip: string): Promise<Profile> {
      // Optimistic concurrency: the update applies only to the version the form was based on.
      const written = await repo.updateVersioned(p.operatorId, body.updatedAt, {
        firstName: body.firstName,
        lastName: body.lastName,
        email: body.email.toLowerCase(),
        phone: body.phone,
        language: body.language,
        authMode: body.authMode,
        updatedAt: nextVersion(clock(), body.updatedAt),
      });
      await expectVersioned(
        written,
        'profile',
        () => repo.exists(p.operatorId),
        () => notFound('Operator'),
      );
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
      await repo.setLanguage(p.operatorId, language, clock().toISOString());
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
      const passwordHash = await repo.passwordHash(p.operatorId);
      if (passwordHash === undefined) throw notFound('Operator');
      if (!(await verifyPassword(passwordHash, body.oldPassword))) {
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
        await repo.setPassword(trx, p.operatorId, hash, now);
        await devices.revokeOthers(p.operatorId, p.sessionId, now, trx);
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
      operatorEvents?.changed(p.operatorId);
    },
  };
}
