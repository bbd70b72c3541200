import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { errorBodySchema, MAX_FAILED_LOGINS } from '@portal/contract';
import { loginService } from '../src/modules/auth/login-service.ts';
import { AppError } from '../src/lib/errors.ts';
import { createAudit } from '../src/services/audit.ts';
import { createMailer } from '../src/services/mailer.ts';
import { createTestApp, demo, type TestApp } from './helpers.ts';

let t: TestApp;
beforeEach(async () => {
  t = await createTestApp();
});
afterEach(async () => {
  await t.close();
});

const ACCOUNT = 'operator@demo.example';
const WRONG = 'Wrong-Password-1';
const errorCode = (res: { json: () => unknown }) => errorBodySchema.parse(res.json()).error.code;
const answer = (res: { statusCode: number; json: () => unknown }) =>
  res.statusCode === 200 ? '200' : `${res.statusCode} ${errorCode(res)}`;

async function account() {
  return t.db.kysely
    .selectFrom('operators')
    .select(['id', 'failed_login_count as failures', 'locked_until as lockedUntil'])
    .where('login_id', '=', ACCOUNT)
    .executeTakeFirstOrThrow();
}
async function sessionsOf(operatorId: number) {
  return t.db.kysely.selectFrom('sessions').select('id').where('operator_id', '=', operatorId).execute();
}
async function unlock(operatorId: number) {
  await t.db.kysely
    .updateTable('operators')
    .set({ failed_login_count: 0, locked_until: null })
    .where('id', '=', operatorId)
    .execute();
  await t.db.kysely.deleteFrom('sessions').where('operator_id', '=', operatorId).execute();
}

async function lastAuditId() {
  const row = await t.db.kysely
    .selectFrom('audit_logs')
    .select((eb) => eb.fn.max('id').as('id'))
    .executeTakeFirst();
  return Number(row?.id ?? 0);
}
/** Wrong passwords of an account counted since an audit row (each records the count it made). */
async function countedFailures(operatorId: number, since: number) {
  const rows = await t.db.kysely
    .selectFrom('audit_logs')
    .select('detail')
    .where('id', '>', since)
    .where('target_type', '=', 'operator')
    .where('target_id', '=', String(operatorId))
    .execute();
  return rows.filter((r) => r.detail && 'failures' in (JSON.parse(r.detail) as object)).length;
}

describe('lockout under parallel logins', () => {
  it('counts every one of 25 parallel wrong passwords and locks the account', async () => {
    const answers = await Promise.all(Array.from({ length: 25 }, () => t.login(ACCOUNT, WRONG)));
    // The attempts after the fifth counted failure are told the account is locked.
    expect(answers.filter((r) => r.statusCode === 401)).toHaveLength(MAX_FAILED_LOGINS - 1);
    expect(answers.filter((r) => r.statusCode === 403).map(errorCode)).toEqual(
      Array(25 - (MAX_FAILED_LOGINS - 1)).fill('ACCOUNT_LOCKED'),
    );
    const op = await account();
    expect(op.failures).toBeGreaterThanOrEqual(MAX_FAILED_LOGINS);
    expect(op.lockedUntil! > new Date().toISOString()).toBe(true);
    expect(answer(await t.login(ACCOUNT, WRONG))).toBe('403 ACCOUNT_LOCKED');
    expect(answer(await t.login(ACCOUNT, demo(ACCOUNT).password))).toBe('403 ACCOUNT_LOCKED');
    expect(await sessionsOf(op.id)).toHaveLength(0);
  });

  it('refuses the right password after 5 parallel wrong ones', async () => {
    await Promise.all(Array.from({ length: MAX_FAILED_LOGINS }, () => t.login(ACCOUNT, WRONG)));
    expect(answer(await t.login(ACCOUNT, demo(ACCOUNT).password))).toBe('403 ACCOUNT_LOCKED');
    expect(await sessionsOf((await account()).id)).toHaveLength(0);
  });

  it('never lets the right password among 19 wrong ones in parallel win once the lock is there', async () => {
    const { id } = await account();
    const wrong = 19;
    for (let round = 0; round < 6; round++) {
      await unlock(id);
      const since = await lastAuditId();
      const attempts = Array.from({ length: wrong + 1 }, (_, i) =>
        i === round * 3 ? t.login(ACCOUNT, demo(ACCOUNT).password) : t.login(ACCOUNT, WRONG),
      );
      const answers = await Promise.all(attempts);
      const right = answers[round * 3]!;
      const op = await account();
      const sessions = await sessionsOf(id);
      // Wrong passwords that read the account after the lock are refused uncounted; the counted ones
      // leave an audit row with the count they made. A success resets the count, so the final count is
      // the number counted after it, and `counted - final` the number counted before it.
      const counted = await countedFailures(id, since);
      expect(op.lockedUntil! > new Date().toISOString()).toBe(true);
      if (right.statusCode === 200) {
        // The invariant: the session was issued while fewer than 5 failures had been counted.
        expect(sessions).toHaveLength(1);
        expect(counted - op.failures).toBeLessThan(MAX_FAILED_LOGINS);
        expect(op.failures).toBeGreaterThanOrEqual(MAX_FAILED_LOGINS);
      } else {
        expect(answer(right)).toBe('403 ACCOUNT_LOCKED');
        expect(sessions).toHaveLength(0);
        expect(op.failures).toBe(counted);
      }
      expect(counted).toBeGreaterThanOrEqual(MAX_FAILED_LOGINS);
      expect(answer(await t.login(ACCOUNT, demo(ACCOUNT).password))).toBe('403 ACCOUNT_LOCKED');
    }
  });
});

describe('login enumeration', () => {
  it('answers an unknown login ID exactly like an existing one, before, during and after a lock', async () => {
    const unknown = 'nobody@demo.example';
    const seq = async (loginId: string) => {
      const out: string[] = [];
      for (let i = 0; i < MAX_FAILED_LOGINS + 2; i++) out.push(answer(await t.login(loginId, WRONG)));
      return out;
    };
    const existing = await seq(ACCOUNT);
    expect(existing).toEqual([
      ...Array(MAX_FAILED_LOGINS - 1).fill('401 INVALID_CREDENTIALS'),
      '403 ACCOUNT_LOCKED',
      '403 ACCOUNT_LOCKED',
      '403 ACCOUNT_LOCKED',
    ]);
    expect(await seq(unknown)).toEqual(existing);
    t.advance(11);
    expect(answer(await t.login(unknown, WRONG))).toBe(answer(await t.login(ACCOUNT, WRONG)));
    expect(answer(await t.login(unknown, WRONG))).toBe('401 INVALID_CREDENTIALS');
  });

  it('keeps an unknown login ID locked across a restart and on another server of the same database', async () => {
    const unknown = 'ghost@demo.example';
    for (let i = 0; i < MAX_FAILED_LOGINS; i++) await t.login(unknown, WRONG);
    expect(answer(await t.login(unknown, WRONG))).toBe('403 ACCOUNT_LOCKED');
    // A second server (or this one restarted): a new sign-in service on the same database.
    const clock = () => new Date();
    const silent = { info: () => undefined, warn: () => undefined, error: () => undefined } as never;
    const other = loginService({
      db: t.db.kysely,
      clock,
      audit: createAudit(t.db.kysely, clock),
      mailer: createMailer({ db: t.db.kysely, clock, log: silent, smtpUrl: null, from: 'test@localhost' }),
      config: t.config,
    });
    const tried = await other.login(unknown, WRONG, { ip: '127.0.0.1', device: 'test' }).catch((e: unknown) => e);
    expect(tried).toBeInstanceOf(AppError);
    expect((tried as AppError).code).toBe('ACCOUNT_LOCKED');
    // And its failures count toward the same lock: a fresh ID failed here and there locks at the fifth.
    const shared = 'shared-ghost@demo.example';
    const answers: string[] = [];
    for (let i = 0; i < MAX_FAILED_LOGINS; i++) {
      if (i % 2 === 0) answers.push(answer(await t.login(shared, WRONG)));
      else {
        const e = await other.login(shared, WRONG, { ip: '127.0.0.1', device: 'test' }).catch((x: unknown) => x);
        answers.push(`${(e as AppError).code}`);
      }
    }
    expect(answers.at(-1)).toBe('403 ACCOUNT_LOCKED');
  });

  it('locks an unknown login ID hammered in parallel like an existing one', async () => {
    const [known, unknown] = await Promise.all([
      Promise.all(Array.from({ length: 12 }, () => t.login(ACCOUNT, WRONG))),
      Promise.all(Array.from({ length: 12 }, () => t.login('nobody@demo.example', WRONG))),
    ]);
    const tally = (rs: typeof known) => rs.map(answer).sort();
    expect(tally(unknown)).toEqual(tally(known));
    expect(answer(await t.login('Nobody@Demo.Example ', WRONG))).toBe('403 ACCOUNT_LOCKED');
  });
});
