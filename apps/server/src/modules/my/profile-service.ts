import {
  EMAIL_CHANGE_MAX_ATTEMPTS,
  EMAIL_CHANGE_TTL_MINUTES,
  type ChangePasswordBody,
  type Language,
  type Profile,
  type UpdateProfileBody,
} from '@portal/contract';
import type { AppContext, Principal } from '../../context.ts';
import { AppError, notFound } from '../../lib/errors.ts';
import { hashPassword, newAuthCode, sameHash, sha256, verifyPassword } from '../../lib/crypto.ts';
import { addMinutes } from '../../lib/time.ts';
import { expectVersioned, nextVersion } from '../../lib/versioned.ts';
import { devicesRepo } from './devices-repo.ts';
import { profileRepo } from './profile-repo.ts';
import { mailLanguage } from '../../lib/language.ts';

type Ctx = Pick<AppContext, 'db' | 'clock' | 'audit'> & Partial<Pick<AppContext, 'operatorEvents' | 'mailer'>>;

/** The mail with the code that confirms a new email address, in the operator's language (`mailLanguage`). */
function emailChangeMail(lang: string | null, code: string, minutes: number) {
  return lang === 'ja'
    ? {
        subject: '【ロボットポータル】メールアドレス変更の確認コード',
        body: `メールアドレスをこのアドレスに変更するための確認コード: ${code}\n\nプロフィール画面でこのコードを入力すると変更が完了します。有効期限は${minutes}分です。心当たりがない場合はこのメールを破棄してください（メールアドレスは変更されません）。`,
      }
    : {
        subject: '[Robot Portal] Confirm your new email address',
        body: `Code to change your email address to this one: ${code}\n\nEnter it on your profile page to complete the change. It expires in ${minutes} minutes. If you did not ask for this, ignore this mail (your email address stays as it is).`,
      };
}

const codeProblem = (message: string, text: string) =>
  new AppError('VALIDATION_FAILED', text, [{ path: 'code', message }]);

export function profileService({ db, clock, audit, operatorEvents, mailer }: Ctx) {
  const repo = profileRepo(db);
  const devices = devicesRepo(db);

  async function get(p: Principal): Promise<Profile> {
    const row = await repo.find(p.operatorId);
    if (!row) throw notFound('Operator');
    const now = clock().toISOString();
    const activeSessions = await repo.activeSessions(p.operatorId, now);
    const pending = await repo.pendingEmail(p.operatorId);
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
      pendingEmail:
        pending && pending.expires_at > now ? { email: pending.new_email, expiresAt: pending.expires_at } : null,
      updatedAt: row.updated_at,
    };
  }

  async function requestEmailChange(p: Principal, email: string, language: string | null, ip: string) {
    const code = newAuthCode();
    const now = clock();
    await repo.putPendingEmail({
      operatorId: p.operatorId,
      email,
      codeHash: sha256(code),
      expiresAt: addMinutes(now, EMAIL_CHANGE_TTL_MINUTES).toISOString(),
      at: now.toISOString(),
    });
    await audit.record({
      operatorId: p.operatorId,
      organizationId: p.organizationId,
      action: 'profile.email-change.request',
      targetType: 'operator',
      targetId: p.operatorId,
      ip,
    });
    await mailer?.deliver({
      channel: 'email',
      to: email,
      purpose: 'email-change',
      organizationId: p.organizationId,
      ...emailChangeMail(mailLanguage(language, p.lastLanguage), code, EMAIL_CHANGE_TTL_MINUTES),
    });
  }

  return {
    get,

    /**
     * The profile, based on the version read. A new email address is not written: a code goes to that
     * address, and the email changes only when the code is entered (`confirmEmail`), so nobody can move
     * an account's mail (sign-in notices, codes) to an address they do not hold.
     */
    async update(p: Principal, body: UpdateProfileBody, ip: string): Promise<Profile> {
      const current = await repo.find(p.operatorId);
      if (!current) throw notFound('Operator');
      const email = body.email.toLowerCase();
      const changesEmail = email !== current.email.toLowerCase();
      // Optimistic concurrency: the update applies only to the version the form was based on.
      const written = await repo.updateVersioned(p.operatorId, body.updatedAt, {
        firstName: body.firstName,
        lastName: body.lastName,
        email: current.email,
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
        detail: { fields: ['firstName', 'lastName', 'phone', 'language', 'authMode'] },
      });
      if (changesEmail) await requestEmailChange(p, email, body.language, ip);
      return get(p);
    },

    /** The code sent to the new address: right, the email changes; the third wrong one drops the change. */
    async confirmEmail(p: Principal, code: string, ip: string): Promise<Profile> {
      const pending = await repo.pendingEmail(p.operatorId);
      const now = clock();
      if (!pending || pending.expires_at <= now.toISOString()) {
        if (pending) await repo.dropPendingEmail(p.operatorId);
        throw codeProblem('validation.codeExpired', 'No email change is waiting, or its code has expired');
      }
      const hash = sha256(code);
      if (!sameHash(pending.code_hash, hash)) {
        const attempts = await repo.countWrongCode(p.operatorId);
        if (attempts >= EMAIL_CHANGE_MAX_ATTEMPTS) {
          await repo.dropPendingEmail(p.operatorId);
          throw codeProblem('validation.codeAttemptsExceeded', 'Too many wrong codes: the email change was dropped');
        }
        throw codeProblem('validation.codeMismatch', 'The code does not match');
      }
      const current = await repo.find(p.operatorId);
      if (!current) throw notFound('Operator');
      await db.transaction().execute(async (trx) => {
        // Used once: only the request that removes it changes the email.
        if (!(await profileRepo(trx).dropPendingEmail(p.operatorId, pending.code_hash))) {
          throw codeProblem('validation.codeExpired', 'No email change is waiting, or its code has expired');
        }
        await profileRepo(trx).setEmail(p.operatorId, pending.new_email, nextVersion(now, current.updated_at));
        await audit.record(
          {
            operatorId: p.operatorId,
            organizationId: p.organizationId,
            action: 'profile.email-change',
            targetType: 'operator',
            targetId: p.operatorId,
            ip,
          },
          trx,
        );
      });
      return get(p);
    },

    async cancelEmailChange(p: Principal): Promise<void> {
      await repo.dropPendingEmail(p.operatorId);
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
