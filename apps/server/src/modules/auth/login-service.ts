import {
  ACCOUNT_LOCK_MINUTES,
  AUTH_CODE_MAX_ATTEMPTS,
  AUTH_CODE_TTL_MINUTES,
  MAX_FAILED_LOGINS,
  type LoginChallenge,
  type Session,
} from '@portal/contract';
import type { AppContext } from '../../context.ts';
import { AppError } from '../../lib/errors.ts';
import { dummyVerify, newAuthCode, newToken, sameHash, sha256, verifyPassword } from '../../lib/crypto.ts';
import { addDays, addMinutes } from '../../lib/time.ts';
import { sessionRepo } from './session-repo.ts';
import { checkContract, checkIpAllowList } from './access-rules.ts';
import { authCodeMail, loginNotificationMail } from './mails.ts';

export const SESSION_DAYS = 30;

export interface ClientInfo {
  ip: string;
  device: string;
}

const invalidCredentials = () => new AppError('INVALID_CREDENTIALS', 'Login failed. Check your email and password');
const locked = () =>
  new AppError(
    'ACCOUNT_LOCKED',
    'Login failed: maximum permitted login attempts exceeded, account locked for 10 minutes',
  );

export type LoginResult = { status: 200; body: Session } | { status: 202; body: LoginChallenge };

/** Sign-in (spec sections 4, 7, 8): password, lockout, IP allow-list, contract, then session or code. */
export function loginService(ctx: Pick<AppContext, 'db' | 'clock' | 'audit' | 'mailer' | 'config'>) {
  const { db, clock, audit, mailer } = ctx;
  const sessions = sessionRepo(db);

  const findOperator = (loginId: string) =>
    db
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
  type Operator = NonNullable<Awaited<ReturnType<typeof findOperator>>>;

  const sessionBody = (op: Operator, token: string): Session => ({
    token,
    id: op.id,
    type: op.type as Session['type'],
    firstName: op.firstName,
    lastName: op.lastName,
    organizationId: op.organizationId,
    buildingId: op.buildingId,
    labsEnabled: op.labOption === 1,
    skywayKey: ctx.config.skywayKey,
    language: op.language === 'ja' || op.language === 'en' ? op.language : null,
    mustChangePassword: op.mustChangePassword === 1,
  });

  async function recordFailure(op: Operator, client: ClientInfo, reason: string): Promise<boolean> {
    const now = clock();
    const failures = op.failedLoginCount + 1;
    const lock = failures >= MAX_FAILED_LOGINS;
    await db
      .updateTable('operators')
      .set(
        lock
          ? { failed_login_count: 0, locked_until: addMinutes(now, ACCOUNT_LOCK_MINUTES).toISOString() }
          : { failed_login_count: failures },
      )
      .where('id', '=', op.id)
      .execute();
    await audit.record({
      operatorId: op.id,
      organizationId: op.organizationId,
      action: lock ? 'login.locked' : 'login.failed',
      targetType: 'operator',
      targetId: op.id,
      ip: client.ip,
      detail: { reason, failures },
    });
    return lock;
  }

  async function openSession(op: Operator, client: ClientInfo, now: Date) {
    const token = newToken();
    const twoStep = op.authMode === 'email' || op.authMode === 'sms';
    const code = twoStep ? newAuthCode() : null;
    const codeExpires = addMinutes(now, AUTH_CODE_TTL_MINUTES).toISOString();
    await db
      .insertInto('sessions')
      .values({
        operator_id: op.id,
        token_hash: sha256(token),
        state: twoStep ? 'pending' : 'active',
        device: client.device.slice(0, 255),
        ip: client.ip,
        auth_code_hash: code ? sha256(code) : null,
        auth_code_expires_at: code ? codeExpires : null,
        auth_code_attempts: 0,
        created_at: now.toISOString(),
        last_used_at: now.toISOString(),
        // A pending session outlives its code by an hour so a late code is told "expired", not "unknown".
        expires_at: twoStep
          ? addMinutes(now, AUTH_CODE_TTL_MINUTES + 60).toISOString()
          : addDays(now, SESSION_DAYS).toISOString(),
        revoked_at: null,
      })
      .execute();
    return { token, code, codeExpires };
  }

  async function completeLogin(op: Operator, client: ClientInfo, now: Date): Promise<void> {
    await db
      .updateTable('operators')
      .set((eb) => ({
        login_count: eb('login_count', '+', 1),
        failed_login_count: 0,
        locked_until: null,
        last_login_at: now.toISOString(),
      }))
      .where('id', '=', op.id)
      .execute();
    await audit.record({
      operatorId: op.id,
      organizationId: op.organizationId,
      action: 'login',
      targetType: 'operator',
      targetId: op.id,
      ip: client.ip,
      detail: { device: client.device.slice(0, 200) },
    });
    await mailer.deliver({
      channel: 'email',
      to: op.email,
      purpose: 'login-notification',
      organizationId: op.organizationId,
      ...loginNotificationMail(op.language, { at: now, ip: client.ip, device: client.device }),
    });
  }

  return {
    async login(loginId: string, password: string, client: ClientInfo): Promise<LoginResult> {
      const op = await findOperator(loginId);
      if (!op) {
        await dummyVerify(password);
        await audit.record({
          operatorId: null,
          organizationId: null,
          action: 'login.failed',
          targetType: 'login-id',
          targetId: loginId.trim().toLowerCase().slice(0, 64),
          ip: client.ip,
          detail: { reason: 'unknown-login-id' },
        });
        throw invalidCredentials();
      }
      const now = clock();
      // A locked account stays locked until the time passes, even with the right password.
      if (op.lockedUntil && op.lockedUntil > now.toISOString()) {
        await audit.record({
          operatorId: op.id,
          organizationId: op.organizationId,
          action: 'login.refused',
          targetType: 'operator',
          targetId: op.id,
          ip: client.ip,
          detail: { reason: 'locked' },
        });
        throw locked();
      }
      if (!(await verifyPassword(op.passwordHash, password))) {
        const nowLocked = await recordFailure(op, client, 'wrong-password');
        throw nowLocked ? locked() : invalidCredentials();
      }
      try {
        if (op.status !== 1) throw new AppError('ACCOUNT_DISABLED', 'This account is disabled');
        await checkIpAllowList(op, client.ip, sessions.ipRules);
        checkContract(op, now);
      } catch (err) {
        await audit.record({
          operatorId: op.id,
          organizationId: op.organizationId,
          action: 'login.refused',
          targetType: 'operator',
          targetId: op.id,
          ip: client.ip,
          detail: { reason: err instanceof AppError ? err.code : 'error' },
        });
        throw err;
      }
      const { token, code, codeExpires } = await openSession(op, client, now);
      if (code) {
        const authMode = op.authMode === 'sms' ? 'sms' : 'email';
        await mailer.deliver({
          channel: authMode,
          to: authMode === 'sms' ? op.phone : op.email,
          purpose: 'auth-code',
          organizationId: op.organizationId,
          ...authCodeMail(op.language, code, AUTH_CODE_TTL_MINUTES),
        });
        await db.updateTable('operators').set({ failed_login_count: 0 }).where('id', '=', op.id).execute();
        return { status: 202, body: { token, authMode, authCodeExpiredAt: codeExpires } };
      }
      await completeLogin(op, client, now);
      return { status: 200, body: sessionBody(op, token) };
    },

    /** Second step: the code sent by mail or SMS, checked against the pending session. */
    async assertAuthCode(sessionId: number, digits: string, client: ClientInfo): Promise<Session> {
      const s = await db
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
      const now = clock();
      if (!s || s.state !== 'pending' || !s.codeHash || !s.codeExpires) {
        throw new AppError('AUTH_CODE_EXPIRED', 'Verification code has expired');
      }
      if (s.codeExpires < now.toISOString()) {
        await sessions.revoke(s.id, now.toISOString());
        throw new AppError('AUTH_CODE_EXPIRED', 'Verification code has expired');
      }
      if (!sameHash(s.codeHash, sha256(digits))) {
        const attempts = s.attempts + 1;
        if (attempts >= AUTH_CODE_MAX_ATTEMPTS) {
          await db
            .updateTable('sessions')
            .set({ auth_code_attempts: attempts, revoked_at: now.toISOString(), auth_code_hash: null })
            .where('id', '=', s.id)
            .execute();
          throw new AppError('AUTH_CODE_ATTEMPTS_EXCEEDED', 'Too many wrong verification codes; please log in again');
        }
        await db.updateTable('sessions').set({ auth_code_attempts: attempts }).where('id', '=', s.id).execute();
        throw new AppError('AUTH_CODE_MISMATCH', 'Verification codes did not match');
      }
      const op = await findOperator(s.loginId);
      if (!op) throw new AppError('AUTH_CODE_EXPIRED', 'Verification code has expired');
      // Single use: the code is cleared as the session becomes active, and the token is replaced.
      const token = newToken();
      const updated = await db
        .updateTable('sessions')
        .set({
          state: 'active',
          token_hash: sha256(token),
          auth_code_hash: null,
          auth_code_expires_at: null,
          expires_at: addDays(now, SESSION_DAYS).toISOString(),
          last_used_at: now.toISOString(),
          device: client.device.slice(0, 255),
          ip: client.ip,
        })
        .where('id', '=', s.id)
        .where('state', '=', 'pending')
        .executeTakeFirst();
      if (Number(updated.numUpdatedRows) !== 1)
        throw new AppError('AUTH_CODE_EXPIRED', 'Verification code has expired');
      await completeLogin(op, client, now);
      return sessionBody(op, token);
    },

    async logout(principal: { sessionId: number; operatorId: number; organizationId: number }, ip: string) {
      await sessions.revoke(principal.sessionId, clock().toISOString());
      await audit.record({
        operatorId: principal.operatorId,
        organizationId: principal.organizationId,
        action: 'logout',
        targetType: 'session',
        targetId: principal.sessionId,
        ip,
      });
    },
  };
}
