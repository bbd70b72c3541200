import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { contractSchema, deviceSchema, errorBodySchema, profileSchema, termCheckSchema } from '@portal/contract';
import { codeFrom, createTestApp, demo, lastDelivery, usingPostgres, type TestApp } from './helpers.ts';

let t: TestApp;
beforeEach(async () => {
  t = await createTestApp();
});
afterEach(async () => {
  await t.close();
});

const code = (res: { json: () => unknown }) => errorBodySchema.parse(res.json()).error.code;

describe('/my/profile', () => {
  it('updates the profile based on the version read, and refuses a stale one with 409', async () => {
    const { authorization } = await t.as('operator@demo.example');
    const profile = profileSchema.parse(
      (await t.inject({ method: 'GET', url: '/api/my/profile', headers: { authorization } })).json(),
    );
    const body = {
      firstName: '花子',
      lastName: '山本',
      email: 'operator@demo.example',
      phone: '03-1234-5678',
      language: 'ja',
      authMode: 'none',
      updatedAt: profile.updatedAt,
    };
    // Make sure the new updatedAt differs from the one read.
    t.advance(1);
    const ok = await t.inject({ method: 'PATCH', url: '/api/my/profile', headers: { authorization }, payload: body });
    expect(ok.statusCode).toBe(200);
    expect(profileSchema.parse(ok.json())).toMatchObject({
      firstName: '花子',
      lastName: '山本',
      language: 'ja',
      phone: '03-1234-5678',
    });
    const stale = await t.inject({
      method: 'PATCH',
      url: '/api/my/profile',
      headers: { authorization },
      payload: { ...body, firstName: '次郎' },
    });
    expect(stale.statusCode).toBe(409);
    expect(code(stale)).toBe('STALE_UPDATE');
    const now = profileSchema.parse(
      (await t.inject({ method: 'GET', url: '/api/my/profile', headers: { authorization } })).json(),
    );
    expect(now.firstName).toBe('花子');
  });

  it('changes the email only once the code sent to the new address is entered', async () => {
    const { authorization } = await t.as('operator@demo.example');
    const get = async () =>
      profileSchema.parse(
        (await t.inject({ method: 'GET', url: '/api/my/profile', headers: { authorization } })).json(),
      );
    const profile = await get();
    const old = profile.email;
    const saved = await t.inject({
      method: 'PATCH',
      url: '/api/my/profile',
      headers: { authorization },
      payload: { ...profile, email: 'New.Address@Example.com', updatedAt: profile.updatedAt },
    });
    expect(saved.statusCode, saved.body).toBe(200);
    const afterSave = profileSchema.parse(saved.json());
    // Not changed yet: the email waits for the code mailed to the new address (and only there).
    expect(afterSave.email).toBe(old);
    expect(afterSave.pendingEmail?.email).toBe('new.address@example.com');
    const mail = await lastDelivery(t, 'new.address@example.com', 'email-change');
    expect(mail).toBeDefined();
    expect(await lastDelivery(t, old, 'email-change')).toBeUndefined();
    const right = codeFrom(mail!.body);
    const wrong = right === '000000' ? '111111' : '000000';
    const confirm = (c: string) =>
      t.inject({ method: 'POST', url: '/api/my/email/confirm', headers: { authorization }, payload: { code: c } });
    const mismatch = await confirm(wrong);
    expect(mismatch.statusCode).toBe(400);
    expect(errorBodySchema.parse(mismatch.json()).error.details).toEqual([
      { path: 'code', message: 'validation.codeMismatch' },
    ]);
    expect((await get()).email).toBe(old);
    const ok = await confirm(right);
    expect(ok.statusCode, ok.body).toBe(200);
    expect(profileSchema.parse(ok.json())).toMatchObject({ email: 'new.address@example.com', pendingEmail: null });
    // Used once.
    expect(errorBodySchema.parse((await confirm(right)).json()).error.details?.[0]?.message).toBe(
      'validation.codeExpired',
    );
    const audit = await t.db.kysely
      .selectFrom('audit_logs')
      .select('action')
      .where('action', 'like', 'profile.email%')
      .execute();
    expect(audit.map((a) => a.action)).toEqual(['profile.email-change.request', 'profile.email-change']);
  });

  it('drops an email change after three wrong codes, on expiry, and on cancel', async () => {
    const { authorization } = await t.as('operator@demo.example');
    const get = async () =>
      profileSchema.parse(
        (await t.inject({ method: 'GET', url: '/api/my/profile', headers: { authorization } })).json(),
      );
    const request = async (email: string) => {
      const p = await get();
      const res = await t.inject({
        method: 'PATCH',
        url: '/api/my/profile',
        headers: { authorization },
        payload: { ...p, email, updatedAt: p.updatedAt },
      });
      expect(res.statusCode, res.body).toBe(200);
      return codeFrom((await lastDelivery(t, email, 'email-change'))!.body);
    };
    const confirm = (c: string) =>
      t.inject({ method: 'POST', url: '/api/my/email/confirm', headers: { authorization }, payload: { code: c } });
    const messageOf = (res: { json: () => unknown }) => errorBodySchema.parse(res.json()).error.details?.[0]?.message;
    const right = await request('first@example.com');
    const wrong = right === '000000' ? '111111' : '000000';
    expect(messageOf(await confirm(wrong))).toBe('validation.codeMismatch');
    expect(messageOf(await confirm(wrong))).toBe('validation.codeMismatch');
    expect(messageOf(await confirm(wrong))).toBe('validation.codeAttemptsExceeded');
    expect(messageOf(await confirm(right))).toBe('validation.codeExpired');
    expect((await get()).pendingEmail).toBeNull();
    const late = await request('second@example.com');
    t.advance(31);
    expect(messageOf(await confirm(late))).toBe('validation.codeExpired');
    await request('third@example.com');
    const cancelled = await t.inject({ method: 'DELETE', url: '/api/my/email/pending', headers: { authorization } });
    expect(cancelled.statusCode).toBe(204);
    expect((await get()).pendingEmail).toBeNull();
    expect((await get()).email).toBe('operator@demo.example');
    expect((await confirm('123456')).statusCode).toBe(400);
  });

  it('validates names, email, phone and SMS mode, changing nothing', async () => {
    const { authorization } = await t.as('operator@demo.example');
    const profile = profileSchema.parse(
      (await t.inject({ method: 'GET', url: '/api/my/profile', headers: { authorization } })).json(),
    );
    const res = await t.inject({
      method: 'PATCH',
      url: '/api/my/profile',
      headers: { authorization },
      payload: {
        firstName: 'x'.repeat(21),
        lastName: '',
        email: 'not-mail',
        phone: 'abc',
        language: 'fr',
        authMode: 'sms',
        updatedAt: profile.updatedAt,
      },
    });
    expect(res.statusCode).toBe(400);
    const paths = errorBodySchema.parse(res.json()).error.details?.map((d) => `${d.path}:${d.message}`);
    expect(paths).toEqual(
      expect.arrayContaining([
        'firstName:validation.max20',
        'lastName:validation.required',
        'email:validation.email',
        'phone:validation.phone',
      ]),
    );
    const after = profileSchema.parse(
      (await t.inject({ method: 'GET', url: '/api/my/profile', headers: { authorization } })).json(),
    );
    expect(after).toEqual(profile);
  });

  it('stores the language choice', async () => {
    const { authorization } = await t.as('operator@demo.example');
    expect(
      (
        await t.inject({
          method: 'PUT',
          url: '/api/my/language',
          headers: { authorization },
          payload: { language: 'ja' },
        })
      ).statusCode,
    ).toBe(204);
    const login = await t.login('operator@demo.example', demo('operator@demo.example').password);
    expect(login.json<{ language: string }>().language).toBe('ja');
    expect(
      (
        await t.inject({
          method: 'PUT',
          url: '/api/my/language',
          headers: { authorization },
          payload: { language: 'de' },
        })
      ).statusCode,
    ).toBe(400);
  });
});

describe('/my/password', () => {
  const { password } = demo('operator@demo.example');

  it('checks the old password and the policy, then signs out every other session', async () => {
    const first = await t.as('operator@demo.example');
    const second = await t.as('operator@demo.example');
    const change = (payload: object) =>
      t.inject({ method: 'POST', url: '/api/my/password', headers: { authorization: second.authorization }, payload });
    expect(
      code(
        await change({
          oldPassword: 'Wrong-Password-9',
          newPassword: 'New-Password-2026',
          confirmPassword: 'New-Password-2026',
        }),
      ),
    ).toBe('WRONG_PASSWORD');
    const weak = await change({ oldPassword: password, newPassword: 'alllowercase', confirmPassword: 'alllowercase' });
    expect(weak.statusCode).toBe(400);
    expect(errorBodySchema.parse(weak.json()).error.details).toEqual(
      expect.arrayContaining([expect.objectContaining({ path: 'newPassword', message: 'validation.passwordPolicy' })]),
    );
    const mismatch = await change({
      oldPassword: password,
      newPassword: 'New-Password-2026',
      confirmPassword: 'New-Password-2027',
    });
    expect(errorBodySchema.parse(mismatch.json()).error.details?.[0]?.path).toBe('confirmPassword');
    expect(code(await change({ oldPassword: password, newPassword: password, confirmPassword: password }))).toBe(
      'PASSWORD_REUSED',
    );
    // Still the old password everywhere.
    expect((await t.login('operator@demo.example', password)).statusCode).toBe(200);

    expect(
      (await change({ oldPassword: password, newPassword: 'New-Password-2026', confirmPassword: 'New-Password-2026' }))
        .statusCode,
    ).toBe(204);
    expect(
      (await t.inject({ method: 'GET', url: '/api/my/profile', headers: { authorization: first.authorization } }))
        .statusCode,
    ).toBe(401);
    expect(
      (await t.inject({ method: 'GET', url: '/api/my/profile', headers: { authorization: second.authorization } }))
        .statusCode,
    ).toBe(200);
    expect((await t.login('operator@demo.example', password)).statusCode).toBe(401);
    expect((await t.login('operator@demo.example', 'New-Password-2026')).statusCode).toBe(200);
  });
});

describe('/my/devices', () => {
  it('lists sessions, marks the current one, revokes one or all others', async () => {
    const a = await t.as('operator@demo.example');
    const b = await t.as('operator@demo.example');
    const c = await t.as('operator@demo.example');
    const list = deviceSchema
      .array()
      .parse(
        (await t.inject({ method: 'GET', url: '/api/my/devices', headers: { authorization: c.authorization } })).json(),
      );
    expect(list).toHaveLength(3);
    expect(list.filter((d) => d.current)).toHaveLength(1);
    const notCurrent = list.find((d) => !d.current)!;
    expect(
      (
        await t.inject({
          method: 'DELETE',
          url: `/api/my/devices/${notCurrent.id}`,
          headers: { authorization: c.authorization },
        })
      ).statusCode,
    ).toBe(204);
    const left = deviceSchema
      .array()
      .parse(
        (await t.inject({ method: 'GET', url: '/api/my/devices', headers: { authorization: c.authorization } })).json(),
      );
    expect(left).toHaveLength(2);
    expect(
      (await t.inject({ method: 'DELETE', url: '/api/my/devices', headers: { authorization: c.authorization } }))
        .statusCode,
    ).toBe(204);
    for (const s of [a, b]) {
      expect(
        (await t.inject({ method: 'GET', url: '/api/my/profile', headers: { authorization: s.authorization } }))
          .statusCode,
      ).toBe(401);
    }
    expect(
      (await t.inject({ method: 'GET', url: '/api/my/profile', headers: { authorization: c.authorization } }))
        .statusCode,
    ).toBe(200);
  });
});

describe('terms and contract', () => {
  it('reports TOS and PP pending until agreed; MC only for the owner', async () => {
    const terms = await t.as('terms@demo.example');
    const check = () =>
      t.inject({
        method: 'GET',
        url: '/api/my/term-agreements/check?lang=ja',
        headers: { authorization: terms.authorization },
      });
    const pending = termCheckSchema.parse((await check()).json());
    expect(pending.TOS?.title).toBe('利用規約');
    expect(pending.PP).not.toBeNull();
    expect(pending.MC).not.toBeNull();
    const mc = await t.inject({
      method: 'POST',
      url: '/api/my/term-agreements',
      headers: { authorization: terms.authorization },
      payload: { documentIds: [pending.MC!.id] },
    });
    expect(mc.statusCode).toBe(403);
    expect(code(mc)).toBe('TERMS_NOT_APPLICABLE');
    const agree = await t.inject({
      method: 'POST',
      url: '/api/my/term-agreements',
      headers: { authorization: terms.authorization },
      payload: { documentIds: [pending.TOS!.id, pending.PP!.id] },
    });
    expect(agree.statusCode).toBe(204);
    const after = termCheckSchema.parse((await check()).json());
    expect(after.TOS).toBeNull();
    expect(after.PP).toBeNull();
    const contract = contractSchema.parse(
      (
        await t.inject({ method: 'GET', url: '/api/my/contract', headers: { authorization: terms.authorization } })
      ).json(),
    );
    expect(contract.maintenanceCompany?.isOwner).toBe(false);
    const owner = await t.as('orgadmin@demo.example');
    const ownerContract = contractSchema.parse(
      (
        await t.inject({ method: 'GET', url: '/api/my/contract', headers: { authorization: owner.authorization } })
      ).json(),
    );
    expect(ownerContract.maintenanceCompany?.isOwner).toBe(true);
    expect(ownerContract.contractEndAt).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    expect(ownerContract.buildings.map((b) => b.name)).toEqual(['Demo Tower']);
    expect(ownerContract.isArchive).toBe(true);
  });

  it('refuses unknown document ids without recording anything', async () => {
    const terms = await t.as('terms@demo.example');
    const res = await t.inject({
      method: 'POST',
      url: '/api/my/term-agreements',
      headers: { authorization: terms.authorization },
      payload: { documentIds: [999999] },
    });
    expect(res.statusCode).toBe(400);
    const rows = await t.db.kysely
      .selectFrom('term_agreements')
      .selectAll()
      .where('operator_id', '=', terms.id)
      .execute();
    expect(rows).toHaveLength(0);
  });
});

describe('feeds', () => {
  it('pages messages and audit logs, and shows announcements in the asked language', async () => {
    const { authorization, id } = await t.as('operator@demo.example');
    const messages = (
      await t.inject({ method: 'GET', url: '/api/my/messages?page=1&perPage=5', headers: { authorization } })
    ).json<{ items: Array<{ id: number; readAt: string | null }>; total: number }>();
    expect(messages.total).toBe(1);
    const msgId = messages.items[0]!.id;
    expect(
      (await t.inject({ method: 'POST', url: `/api/my/messages/${msgId}/read`, headers: { authorization } }))
        .statusCode,
    ).toBe(204);
    const again = (await t.inject({ method: 'GET', url: '/api/my/messages', headers: { authorization } })).json<{
      items: Array<{ readAt: string | null }>;
    }>();
    expect(again.items[0]!.readAt).not.toBeNull();
    for (let i = 0; i < 3; i++) await t.as('operator@demo.example');
    const logs = (
      await t.inject({ method: 'GET', url: '/api/my/audit-logs?page=2&perPage=2', headers: { authorization } })
    ).json<{ items: Array<{ operatorId: number }>; total: number; page: number }>();
    expect(logs.page).toBe(2);
    expect(logs.total).toBeGreaterThanOrEqual(4);
    expect(logs.items).toHaveLength(2);
    expect(logs.items.every((l) => l.operatorId === id)).toBe(true);
    expect(
      (await t.inject({ method: 'GET', url: '/api/my/messages?page=0', headers: { authorization } })).statusCode,
    ).toBe(400);
    const ja = (
      await t.inject({ method: 'GET', url: '/api/my/announcements?lang=ja', headers: { authorization } })
    ).json<Array<{ title: string }>>();
    const en = (
      await t.inject({ method: 'GET', url: '/api/my/announcements?lang=en', headers: { authorization } })
    ).json<Array<{ title: string }>>();
    expect(ja[0]!.title).toContain('公開');
    expect(en[0]!.title).toContain('is out');
    const versions = (await t.inject({ method: 'GET', url: '/api/my/versions', headers: { authorization } })).json<{
      app: string;
      database: string;
    }>();
    expect(versions.app).toBe('1.14.1');
    // Proves which engine this run used: PostgreSQL when TEST_DATABASE_URL is set.
    expect(versions.database).toMatch(usingPostgres() ? /^PostgreSQL/ : /^SQLite/);
  });
});
