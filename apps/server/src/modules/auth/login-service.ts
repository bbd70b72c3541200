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
import { loginRepo, type LoginOperator } from './login-repo.ts';
import { sessionRepo } from './session-repo.ts';
import { checkContract, checkIpAllowList } from './access-rules.ts';
import { authCodeMail, loginNotificationMail } from './mails.ts';
import { mailLanguage } from '../../lib/language.ts';
import type { AuditAction } from '@portal/contract';

export const SESSION_DAYS = 30;

export interface ClientInfo {
  ip: string;
  device: string;
  /** The request's language (`Accept-Language`), for mails of accounts that never chose or used one. */
  language?: 'ja' | 'en' | null;
}

const invalidCredentials = () => new AppError('INVALID_CREDENTIALS', 'Login failed. Check your email and password');
const locked = () =>
  new AppError(
    'ACCOUNT_LOCKED',
    'Login failed: maximum permitted login attempts exceeded, account locked for 10 minutes',
  );

export type LoginResult = { status: 200; body: Session } | { status: 202; body: LoginChallenge };

/** Sign-in (spec sections 4, 7, 8): password, lockout, IP allow-list, contract, then session or code. */
export function loginService(
  ctx: Pick<AppContext, 'db' | 'clock' | 'audit' | 'mailer' | 'config'> & Partial<Pick<AppContext, 'operatorEvents'>>,
) {
  const { db, clock, audit, mailer } = ctx;
  const sessions = sessionRepo(db);

  const operators = loginRepo(db);
  type Operator = LoginOperator;

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

  /** An audit entry of a sign-in of this operator. */
  const recordFor = (op: Operator, client: ClientInfo, action: AuditAction, detail: Record<string, unknown>) =>
    audit.record({
      operatorId: op.id,
      organizationId: op.organizationId,
      action,
      targetType: 'operator',
      targetId: op.id,
      ip: client.ip,
      detail,
    });

  /** An audit entry of a sign-in with a login ID that matches no account. */
  const recordUnknownId = (targetId: string, client: ClientInfo, action: AuditAction, reason: string) =>
    audit.record({
      operatorId: null,
      organizationId: null,
      action,
      targetType: 'login-id',
      targetId,
      ip: client.ip,
      detail: { reason },
    });

  /** A wrong password, counted atomically; true when the account is (now) locked. */
  async function recordFailure(op: Operator, client: ClientInfo, reason: string): Promise<boolean> {
    const now = clock();
    const counted = await operators.recordFailure(op.id, {
      now: now.toISOString(),
      max: MAX_FAILED_LOGINS,
      lockUntil: addMinutes(now, ACCOUNT_LOCK_MINUTES).toISOString(),
    });
    const failures = counted?.failures ?? 0;
    const lock = !!counted?.lockedUntil && counted.lockedUntil > now.toISOString();
    await recordFor(
      op,
      client,
      !lock ? 'login.failed' : failures === MAX_FAILED_LOGINS ? 'login.locked' : 'login.refused',
      lock && failures !== MAX_FAILED_LOGINS ? { reason: 'locked', failures } : { reason, failures },
    );
    return lock;
  }

  /**
   * The session of a right password, created in one transaction with the claim of the account
   * (failures reset only if not locked at that moment): a lock made by parallel wrong passwords
   * before it refuses the login; failures after it come after the session.
   */
  async function openSession(op: Operator, client: ClientInfo, now: Date) {
    const token = newToken();
    const twoStep = op.authMode === 'email' || op.authMode === 'sms';
    const code = twoStep ? newAuthCode() : null;
    const codeExpires = addMinutes(now, AUTH_CODE_TTL_MINUTES).toISOString();
    const opened = await db.transaction().execute(async (trx) => {
      if (!(await loginRepo(trx).claimLogin(op.id, now.toISOString()))) return false;
      await sessionRepo(trx).create({
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
      });
      return true;
    });
    return opened ? { token, code, codeExpires } : null;
  }

  async function completeLogin(op: Operator, client: ClientInfo, now: Date): Promise<void> {
    await operators.recordLogin(op.id, now.toISOString());
    await recordFor(op, client, 'login', { device: client.device.slice(0, 200) });
    await mailer.deliver({
      channel: 'email',
      to: op.email,
      purpose: 'login-notification',
      organizationId: op.organizationId,
      ...loginNotificationMail(mailLanguage(op.language, op.lastLanguage, client.language), {
        at: now,
        ip: client.ip,
        device: client.device,
      }),
    });
  }

  return {
    async login(loginId: string, password: string, client: ClientInfo): Promise<LoginResult> {
      const op = await operators.findOperator(loginId);
      if (!op) {
        // An unknown ID answers like an account: 401, and after 5 failures "locked" for 10 minutes.
        const key = sha256(loginId.trim().toLowerCase());
        const targetId = loginId.trim().toLowerCase().slice(0, 64);
        if (await operators.unknownIdLocked(key, clock().toISOString())) {
          await recordUnknownId(targetId, client, 'login.refused', 'locked');
          throw locked();
        }
        await dummyVerify(password);
        const at = clock();
        const counted = await operators.recordUnknownIdFailure(key, {
          now: at.toISOString(),
          max: MAX_FAILED_LOGINS,
          lockUntil: addMinutes(at, ACCOUNT_LOCK_MINUTES).toISOString(),
          staleBefore: addDays(at, -1).toISOString(),
        });
        const nowLocked = counted.lockedUntil !== null && counted.lockedUntil > at.toISOString();
        await recordUnknownId(targetId, client, 'login.failed', 'unknown-login-id');
        throw nowLocked ? locked() : invalidCredentials();
      }
      const now = clock();
      // A locked account stays locked until the time passes, even with the right password.
      if (op.lockedUntil && op.lockedUntil > now.toISOString()) {
        await recordFor(op, client, 'login.refused', { reason: 'locked' });
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
        await recordFor(op, client, 'login.refused', { reason: err instanceof AppError ? err.code : 'error' });
        throw err;
      }
      const opened = await openSession(op, client, now);
      if (!opened) {
        // Wrong passwords sent alongside locked the account after this request read it.
        await recordFor(op, client, 'login.refused', { reason: 'locked' });
        throw locked();
      }
      const { token, code, codeExpires } = opened;
      if (code) {
        const authMode = op.authMode === 'sms' ? 'sms' : 'email';
        await mailer.deliver({
          channel: authMode,
          to: authMode === 'sms' ? op.phone : op.email,
          purpose: 'auth-code',
          organizationId: op.organizationId,
          ...authCodeMail(mailLanguage(op.language, op.lastLanguage, client.language), code, AUTH_CODE_TTL_MINUTES),
        });
        return { status: 202, body: { token, authMode, authCodeExpiredAt: codeExpires } };
      }
      await completeLogin(op, client, now);
      return { status: 200, body: sessionBody(op, token) };
    },

    /** Second step: the code sent by mail or SMS, checked against the pending session. */
    async assertAuthCode(sessionId: number, digits: string, client: ClientInfo): Promise<Session> {
      const s = await sessions.findPending(sessionId);
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
          await sessions.recordWrongCode(s.id, attempts, now.toISOString());
          throw new AppError('AUTH_CODE_ATTEMPTS_EXCEEDED', 'Too many wrong verification codes; please log in again');
        }
        await sessions.recordWrongCode(s.id, attempts, null);
        throw new AppError('AUTH_CODE_MISMATCH', 'Verification codes did not match');
      }
      const op = await operators.findOperator(s.loginId);
      if (!op) throw new AppError('AUTH_CODE_EXPIRED', 'Verification code has expired');
      // Single use: the code is cleared as the session becomes active, and the token is replaced.
      const token = newToken();
      // The activation and the claim of the account (not locked meanwhile) are one transaction.
      const activated = await db.transaction().execute(async (trx) => {
        const done = await sessionRepo(trx).activate(s.id, {
          tokenHash: sha256(token),
          expiresAt: addDays(now, SESSION_DAYS).toISOString(),
          at: now.toISOString(),
          device: client.device.slice(0, 255),
          ip: client.ip,
        });
        if (done && !(await loginRepo(trx).claimLogin(op.id, now.toISOString()))) throw locked();
        return done;
      });
      if (!activated) throw new AppError('AUTH_CODE_EXPIRED', 'Verification code has expired');
      await completeLogin(op, client, now);
      return sessionBody(op, token);
    },

    async logout(principal: { sessionId: number; operatorId: number; organizationId: number }, ip: string) {
      await sessions.revoke(principal.sessionId, clock().toISOString());
      ctx.operatorEvents?.changed(principal.operatorId);
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
