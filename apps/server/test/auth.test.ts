import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { sessionSchema, loginChallengeSchema, errorBodySchema } from '@portal/contract';
import { codeFrom, createTestApp, demo, lastDelivery, type TestApp } from './helpers.ts';

let t: TestApp;
beforeEach(async () => {
  t = await createTestApp();
});
afterEach(async () => {
  await t.close();
});

const errorCode = (res: { json: () => unknown }) => errorBodySchema.parse(res.json()).error.code;

describe('POST /api/operators/login', () => {
  it('answers the session of spec section 7 and mails a login notification', async () => {
    const res = await t.login('Operator@Demo.Example ', demo('operator@demo.example').password, {
      headers: { 'user-agent': 'TestBrowser/1.0' },
    });
    expect(res.statusCode).toBe(200);
    const s = sessionSchema.parse(res.json());
    expect(s).toMatchObject({ type: 0, lastName: '山田', firstName: '太郎', labsEnabled: true });
    expect(s.token.length).toBeGreaterThan(30);
    const mail = await lastDelivery(t, 'operator@demo.example', 'login-notification');
    expect(mail?.body).toContain('127.0.0.1');
    expect(mail?.body).toContain('TestBrowser/1.0');
    expect(mail?.status).toBe('stored');
    const audit = await t.db.kysely.selectFrom('audit_logs').selectAll().where('action', '=', 'login').execute();
    expect(audit.map((a) => a.operator_id)).toContain(s.id);
  });

  it('stores only a hash of the token', async () => {
    const { token } = await t.as('operator@demo.example');
    const rows = await t.db.kysely.selectFrom('sessions').select('token_hash').execute();
    expect(rows.some((r) => r.token_hash === token)).toBe(false);
    expect(rows.every((r) => /^[0-9a-f]{64}$/.test(r.token_hash))).toBe(true);
  });

  it('rejects a wrong password and an unknown login ID with the same answer, and audits both', async () => {
    const wrong = await t.login('operator@demo.example', 'Wrong-Password-1');
    const unknown = await t.login('nobody@demo.example', 'Wrong-Password-1');
    expect(wrong.statusCode).toBe(401);
    expect(unknown.statusCode).toBe(401);
    expect(errorCode(wrong)).toBe('INVALID_CREDENTIALS');
    expect(errorCode(unknown)).toBe('INVALID_CREDENTIALS');
    const failed = await t.db.kysely
      .selectFrom('audit_logs')
      .selectAll()
      .where('action', '=', 'login.failed')
      .execute();
    expect(failed).toHaveLength(2);
  });

  it('validates the body with localized keys and never creates a session', async () => {
    const res = await t.inject({
      method: 'POST',
      url: '/api/operators/login',
      payload: { loginId: 'x', loginPw: '123' },
    });
    expect(res.statusCode).toBe(400);
    const body = errorBodySchema.parse(res.json());
    expect(body.error.code).toBe('VALIDATION_FAILED');
    expect(body.error.details).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ path: 'loginId', message: 'validation.email' }),
        expect.objectContaining({ path: 'loginPw', message: 'validation.passwordMin6' }),
      ]),
    );
    const sessions = await t.db.kysely.selectFrom('sessions').selectAll().execute();
    expect(sessions).toHaveLength(0);
  });

  it('locks the account for 10 minutes after 5 failed logins, even for the right password', async () => {
    const { password } = demo('operator@demo.example');
    for (let i = 1; i <= 4; i++) {
      expect((await t.login('operator@demo.example', 'Wrong-Password-1')).statusCode).toBe(401);
    }
    const fifth = await t.login('operator@demo.example', 'Wrong-Password-1');
    expect(fifth.statusCode).toBe(403);
    expect(errorCode(fifth)).toBe('ACCOUNT_LOCKED');
    const right = await t.login('operator@demo.example', password);
    expect(right.statusCode).toBe(403);
    expect(errorCode(right)).toBe('ACCOUNT_LOCKED');
    t.advance(9);
    expect((await t.login('operator@demo.example', password)).statusCode).toBe(403);
    t.advance(2);
    expect((await t.login('operator@demo.example', password)).statusCode).toBe(200);
  });

  it('resets the failure count after a successful login', async () => {
    const { password } = demo('operator@demo.example');
    for (let i = 0; i < 4; i++) await t.login('operator@demo.example', 'Wrong-Password-1');
    expect((await t.login('operator@demo.example', password)).statusCode).toBe(200);
    expect((await t.login('operator@demo.example', 'Wrong-Password-1')).statusCode).toBe(401);
  });
});

describe('IP allow-list', () => {
  async function restrict(rules: string[]) {
    await t.db.kysely.updateTable('buildings').set({ ip_restriction_enabled: 1 }).execute();
    const b = await t.db.kysely.selectFrom('buildings').select(['id', 'organization_id']).executeTakeFirstOrThrow();
    for (const address of rules) {
      await t.db.kysely
        .insertInto('building_ip_rules')
        .values({
          building_id: b.id,
          organization_id: b.organization_id,
          address,
          description: '',
          created_at: new Date().toISOString(),
        })
        .execute();
    }
  }

  it('refuses a login from outside the list with IP_NOT_ALLOWED', async () => {
    await restrict(['10.0.0.0/8', '2001:db8::/32']);
    const res = await t.login('operator@demo.example', demo('operator@demo.example').password);
    expect(res.statusCode).toBe(403);
    expect(errorCode(res)).toBe('IP_NOT_ALLOWED');
    const ok = await t.login('operator@demo.example', demo('operator@demo.example').password, {
      remoteAddress: '10.1.2.3',
    });
    expect(ok.statusCode).toBe(200);
    const v6 = await t.login('operator@demo.example', demo('operator@demo.example').password, {
      remoteAddress: '2001:db8::5',
    });
    expect(v6.statusCode).toBe(200);
  });

  it('refuses requests of an existing session once the list excludes it', async () => {
    const { authorization } = await t.as('operator@demo.example');
    await restrict(['10.0.0.0/8']);
    const res = await t.inject({ method: 'GET', url: '/api/my/profile', headers: { authorization } });
    expect(res.statusCode).toBe(403);
    expect(errorCode(res)).toBe('IP_NOT_ALLOWED');
  });

  it('ignores X-Forwarded-For unless TRUST_PROXY is set', async () => {
    await restrict(['10.0.0.0/8']);
    const headers = { 'x-forwarded-for': '10.9.9.9' };
    const { password } = demo('operator@demo.example');
    expect((await t.login('operator@demo.example', password, { headers })).statusCode).toBe(403);
    const proxied = await createTestAppWith({ TRUST_PROXY: '1' });
    try {
      await proxied.db.kysely.updateTable('buildings').set({ ip_restriction_enabled: 1 }).execute();
      const b = await proxied.db.kysely
        .selectFrom('buildings')
        .select(['id', 'organization_id'])
        .executeTakeFirstOrThrow();
      await proxied.db.kysely
        .insertInto('building_ip_rules')
        .values({
          building_id: b.id,
          organization_id: b.organization_id,
          address: '10.0.0.0/8',
          description: '',
          created_at: new Date().toISOString(),
        })
        .execute();
      expect((await proxied.login('operator@demo.example', password, { headers })).statusCode).toBe(200);
      expect((await proxied.login('operator@demo.example', password)).statusCode).toBe(403);
    } finally {
      await proxied.close();
    }
  });

  it('does not apply to an organization whose building has no restriction', async () => {
    await restrict([]);
    await t.db.kysely.updateTable('buildings').set({ ip_restriction_enabled: 0 }).execute();
    expect((await t.login('operator@demo.example', demo('operator@demo.example').password)).statusCode).toBe(200);
  });
});

async function createTestAppWith(env: Record<string, string>) {
  const { createTestApp: create } = await import('./helpers.ts');
  return create(env);
}

describe('contract states', () => {
  it('answers 499 when the contract has ended and 498 when payment is not completed', async () => {
    const { password } = demo('operator@demo.example');
    const { authorization } = await t.as('operator@demo.example');
    await t.db.kysely.updateTable('contracts').set({ contract_end_at: '2020-01-31' }).execute();
    const ended = await t.login('operator@demo.example', password);
    expect(ended.statusCode).toBe(499);
    expect(errorCode(ended)).toBe('CONTRACT_ENDED');
    // A session opened before the end is refused too.
    expect((await t.inject({ method: 'GET', url: '/api/my/profile', headers: { authorization } })).statusCode).toBe(
      499,
    );
    await t.db.kysely.updateTable('contracts').set({ contract_end_at: '2999-12-31', payment_completed: 0 }).execute();
    const unpaid = await t.login('operator@demo.example', password);
    expect(unpaid.statusCode).toBe(498);
    expect(errorCode(unpaid)).toBe('PAYMENT_INCOMPLETE');
  });

  it('still lets the contract run through its last day', async () => {
    const today = new Date().toISOString().slice(0, 10);
    await t.db.kysely.updateTable('contracts').set({ contract_end_at: today }).execute();
    expect((await t.login('operator@demo.example', demo('operator@demo.example').password)).statusCode).toBe(200);
  });
});

describe('two-step login', () => {
  const account = demo('twostep@demo.example');

  async function start() {
    const res = await t.login(account.loginId, account.password);
    expect(res.statusCode).toBe(202);
    const challenge = loginChallengeSchema.parse(res.json());
    const mail = await lastDelivery(t, account.loginId, 'auth-code');
    return { challenge, code: codeFrom(mail!.body), authorization: `Bearer ${challenge.token}` };
  }
  const assert = (authorization: string, authDigits: string) =>
    t.inject({
      method: 'POST',
      url: '/api/operators/assertAuthCode',
      headers: { authorization },
      payload: { authDigits },
    });

  it('answers 202 with the mode and expiry, then the code completes the login', async () => {
    const { challenge, code, authorization } = await start();
    expect(challenge.authMode).toBe('email');
    expect(Date.parse(challenge.authCodeExpiredAt)).toBeGreaterThan(Date.now());
    expect(code).toMatch(/^\d{6}$/);
    // The pending token opens nothing else.
    expect((await t.inject({ method: 'GET', url: '/api/my/profile', headers: { authorization } })).statusCode).toBe(
      401,
    );
    const ok = await assert(authorization, code);
    expect(ok.statusCode).toBe(200);
    const session = sessionSchema.parse(ok.json());
    const profile = await t.inject({
      method: 'GET',
      url: '/api/my/profile',
      headers: { authorization: `Bearer ${session.token}` },
    });
    expect(profile.statusCode).toBe(200);
    // Single use: the code and the pending token are spent.
    expect((await assert(authorization, code)).statusCode).toBe(401);
  });

  it('says the codes did not match, and ends the attempt after 3 wrong codes', async () => {
    const { code, authorization } = await start();
    const wrong = code === '000000' ? '111111' : '000000';
    const first = await assert(authorization, wrong);
    expect(first.statusCode).toBe(400);
    expect(errorCode(first)).toBe('AUTH_CODE_MISMATCH');
    expect(errorCode(await assert(authorization, wrong))).toBe('AUTH_CODE_MISMATCH');
    const third = await assert(authorization, wrong);
    expect(errorCode(third)).toBe('AUTH_CODE_ATTEMPTS_EXCEEDED');
    expect((await assert(authorization, code)).statusCode).toBe(401);
  });

  it('refuses an expired code with AUTH_CODE_EXPIRED', async () => {
    const { code, authorization } = await start();
    t.advance(11);
    const res = await assert(authorization, code);
    expect(res.statusCode).toBe(401);
    expect(errorCode(res)).toBe('AUTH_CODE_EXPIRED');
    // Back to login: the attempt is over.
    expect((await assert(authorization, code)).statusCode).toBe(401);
  });

  it('validates the digits', async () => {
    const { authorization } = await start();
    const res = await assert(authorization, '12ab');
    expect(res.statusCode).toBe(400);
    expect(errorCode(res)).toBe('VALIDATION_FAILED');
  });

  it('does not complete the login, nor lift the lock, once wrong passwords locked the account', async () => {
    const { code, authorization } = await start();
    for (let i = 0; i < 5; i++) await t.login(account.loginId, 'Wrong-Password-1');
    const res = await assert(authorization, code);
    expect(res.statusCode).toBe(403);
    expect(errorCode(res)).toBe('ACCOUNT_LOCKED');
    expect(errorCode(await t.login(account.loginId, account.password))).toBe('ACCOUNT_LOCKED');
  });
});

describe('logout and sessions', () => {
  it('revokes the token', async () => {
    const { authorization } = await t.as('operator@demo.example');
    const out = await t.inject({ method: 'POST', url: '/api/operators/logout', headers: { authorization } });
    expect(out.statusCode).toBe(204);
    expect((await t.inject({ method: 'GET', url: '/api/my/profile', headers: { authorization } })).statusCode).toBe(
      401,
    );
    const audit = await t.db.kysely.selectFrom('audit_logs').select('action').where('action', '=', 'logout').execute();
    expect(audit).toHaveLength(1);
  });

  it('answers 401 with the one error body for a missing or malformed token', async () => {
    for (const authorization of [undefined, 'Bearer', 'Basic abc', 'Bearer ' + 'x'.repeat(43)]) {
      const res = await t.inject({
        method: 'GET',
        url: '/api/my/profile',
        headers: authorization ? { authorization } : {},
      });
      expect(res.statusCode).toBe(401);
      expect(errorCode(res)).toBe('UNAUTHENTICATED');
    }
  });

  it('ends a deleted operator session at once', async () => {
    const { authorization, id } = await t.as('operator@demo.example');
    await t.db.kysely
      .updateTable('operators')
      .set({ deleted_at: new Date().toISOString() })
      .where('id', '=', id)
      .execute();
    expect((await t.inject({ method: 'GET', url: '/api/my/profile', headers: { authorization } })).statusCode).toBe(
      401,
    );
  });
});
