import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { requestLanguage } from '../src/lib/language.ts';
import { codeFrom, createTestApp, demo, until, type TestApp } from './helpers.ts';
import { startSmtpSink } from './smtp-sink.ts';

/**
 * Issue 12 item 5: the verification-code and sign-in mails of an account that never chose a
 * language go out in the language it last used the portal in, else the request's, else Japanese.
 * Delivered over SMTP to a real (local) server.
 */
describe('mails in the account language', () => {
  let t: TestApp;
  let smtp: Awaited<ReturnType<typeof startSmtpSink>>;
  beforeAll(async () => {
    smtp = await startSmtpSink();
    t = await createTestApp({ SMTP_URL: smtp.url });
  });
  afterAll(async () => {
    await t.close();
    await smtp.close();
  });

  const email = async (loginId: string) =>
    await t.db.kysely
      .selectFrom('operators')
      .select(['email', 'language', 'last_language'])
      .where('login_id', '=', loginId)
      .executeTakeFirstOrThrow();
  const received = (to: string, n: number) =>
    until(() => {
      const mine = smtp.mails.filter((m) => m.to.includes(to));
      return mine.length >= n ? mine : null;
    });

  it('reads the portal language of an Accept-Language header', () => {
    expect(requestLanguage('ja')).toBe('ja');
    expect(requestLanguage('en-US,en;q=0.9,ja;q=0.8')).toBe('en');
    expect(requestLanguage('fr-FR, ja;q=0.5, en;q=0.4')).toBe('ja');
    expect(requestLanguage('de, fr')).toBeNull();
    expect(requestLanguage('en;q=0, ja;q=0.1')).toBe('ja');
    expect(requestLanguage(undefined)).toBeNull();
  });

  it('sends the code in Japanese to an account without a language, with no Accept-Language', async () => {
    const login = 'twostep@demo.example';
    const op = await email(login);
    expect(op.language).toBeNull();
    expect(op.last_language).toBeNull();
    const res = await t.login(login, demo(login).password);
    expect(res.statusCode).toBe(202);
    const [mail] = await received(op.email, 1);
    expect(mail!.subject).toBe('【ロボットポータル】認証コード');
    expect(mail!.text).toContain('認証コード');
    expect(codeFrom(mail!.text)).toMatch(/^\d{6}$/);
  });

  it("uses the request's language when the account has used none, then the one it last used", async () => {
    const login = 'twostep@demo.example';
    const op = await email(login);
    const before = smtp.mails.filter((m) => m.to.includes(op.email)).length;

    // The login page in English: the code comes in English.
    const res = await t.login(login, demo(login).password, { headers: { 'accept-language': 'en' } });
    expect(res.statusCode).toBe(202);
    const codeMail = (await received(op.email, before + 1))[before]!;
    expect(codeMail.subject).toBe('[Robot Portal] Your verification code');

    // Signed in with that code, the portal is used in English: recorded on the account.
    const token = res.json<{ token: string }>().token;
    const ok = await t.inject({
      method: 'POST',
      url: '/api/operators/assertAuthCode',
      headers: { authorization: `Bearer ${token}`, 'accept-language': 'en' },
      payload: { authDigits: codeFrom(codeMail.text) },
    });
    expect(ok.statusCode).toBe(200);
    const notice = (await received(op.email, before + 2))[before + 1]!;
    expect(notice.subject).toBe('[Robot Portal] New sign-in to your account');
    const profile = await t.inject({
      method: 'GET',
      url: '/api/my/profile',
      headers: { authorization: `Bearer ${ok.json<{ token: string }>().token}`, 'accept-language': 'en-GB,en;q=0.9' },
    });
    expect(profile.statusCode).toBe(200);
    expect((await email(login)).last_language).toBe('en');

    // A later sign-in from a browser that says nothing (or Japanese) still gets English: the
    // language the account last used the portal in comes before the request's.
    const again = await t.login(login, demo(login).password, { headers: { 'accept-language': 'ja' } });
    expect(again.statusCode).toBe(202);
    const third = (await received(op.email, before + 3))[before + 2]!;
    expect(third.subject).toBe('[Robot Portal] Your verification code');
  });

  it('follows the portal language the account switches to', async () => {
    const login = 'operator@demo.example';
    const op = await email(login);
    const first = smtp.mails.filter((m) => m.to.includes(op.email)).length;
    const { authorization } = await t.as(login);
    await received(op.email, first + 1);
    const ja = await t.inject({
      method: 'GET',
      url: '/api/my/profile',
      headers: { authorization, 'accept-language': 'ja' },
    });
    expect(ja.statusCode).toBe(200);
    expect((await email(login)).last_language).toBe('ja');
    const before = smtp.mails.filter((m) => m.to.includes(op.email)).length;
    expect((await t.login(login, demo(login).password, { headers: { 'accept-language': 'en' } })).statusCode).toBe(200);
    const notice = (await received(op.email, before + 1))[before]!;
    expect(notice.subject).toBe('【ロボットポータル】ログインのお知らせ');
    expect(notice.text).toContain('お使いのアカウントにログインがありました');
  });

  it('keeps a chosen language above everything', async () => {
    const login = 'manager@demo.example';
    const op = await email(login);
    const first = smtp.mails.filter((m) => m.to.includes(op.email)).length;
    const { authorization } = await t.as(login);
    await received(op.email, first + 1);
    const set = await t.inject({
      method: 'PUT',
      url: '/api/my/language',
      headers: { authorization, 'accept-language': 'ja' },
      payload: { language: 'en' },
    });
    expect(set.statusCode).toBe(204);
    const before = smtp.mails.filter((m) => m.to.includes(op.email)).length;
    expect((await t.login(login, demo(login).password, { headers: { 'accept-language': 'ja' } })).statusCode).toBe(200);
    const notice = (await received(op.email, before + 1))[before]!;
    expect(notice.subject).toBe('[Robot Portal] New sign-in to your account');
  });
});
