import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { termCheckSchema, termTextSchema, termTextsSchema, type TermTexts } from '@portal/contract';
import { ensureDefaultTerms } from '../src/modules/terms/terms-service.ts';
import { TERM_TEMPLATES } from '../src/modules/terms/templates.ts';
import { createTestApp, errorOf, type TestApp } from './helpers.ts';

/** Issue 12 item 5: the terms of service and privacy policy, real template texts edited by system admins. */
describe('terms of service and privacy policy', () => {
  let t: TestApp;
  let sys: string;
  beforeAll(async () => {
    t = await createTestApp();
    sys = (await t.as('sysadmin@demo.example')).authorization;
  });
  afterAll(() => t.close());

  const texts = async (): Promise<TermTexts> => {
    const res = await t.call('GET', '/admin/terms', sys);
    expect(res.statusCode).toBe(200);
    return termTextsSchema.parse(res.json());
  };
  const check = async (authorization: string, lang: 'ja' | 'en') => {
    const res = await t.call('GET', `/my/term-agreements/check?lang=${lang}`, authorization);
    expect(res.statusCode).toBe(200);
    return termCheckSchema.parse(res.json());
  };

  it('starts with the template texts in Japanese and English, marked as templates', async () => {
    const { TOS, PP } = await texts();
    expect(TOS!.version).toBe('1.0');
    expect(TOS!.titleJa).toBe('利用規約');
    expect(TOS!.bodyJa.startsWith('【ご注意：ひな形です】')).toBe(true);
    expect(TOS!.bodyEn.startsWith('[Note: this is a template]')).toBe(true);
    expect(PP!.titleEn).toBe('Privacy Policy');
    expect(PP!.bodyJa).toContain('カメラ映像');
    expect(PP!.bodyEn).toContain('Camera images and recordings');
    // No placeholder paragraph repeated: every line of the text is said once.
    for (const body of [TOS!.bodyJa, TOS!.bodyEn, PP!.bodyJa, PP!.bodyEn]) {
      const lines = body.split('\n').filter((l) => l.length > 30);
      expect(new Set(lines).size).toBe(lines.length);
    }
    // Japanese readers get the Japanese text (the "terms" demo account has agreed to nothing).
    const terms = (await t.as('terms@demo.example')).authorization;
    const ja = await check(terms, 'ja');
    expect(ja.TOS!.body).toBe(TOS!.bodyJa);
    expect(ja.PP!.title).toBe('プライバシーポリシー');
    expect(/[ぁ-んァ-ン]/.test(ja.TOS!.body)).toBe(true);
  });

  it('is for system administrators only (others 403)', async () => {
    for (const account of ['orgadmin@demo.example', 'operator@demo.example', 'manager@demo.example'] as const) {
      const auth = (await t.as(account)).authorization;
      const get = await t.call('GET', '/admin/terms', auth);
      expect(get.statusCode).toBe(403);
      const put = await t.call('PUT', '/admin/terms/TOS', auth, {
        mode: 'correct',
        version: '1.0',
        titleJa: 'x',
        titleEn: 'x',
        bodyJa: 'x',
        bodyEn: 'x',
        baseUpdatedAt: null,
      });
      expect(put.statusCode).toBe(403);
    }
    expect((await t.inject({ method: 'GET', url: '/api/admin/terms' })).statusCode).toBe(401);
  });

  it('corrects the current version in place: agreements stay', async () => {
    const operator = (await t.as('operator@demo.example')).authorization;
    expect((await check(operator, 'en')).TOS).toBeNull();
    const { TOS } = await texts();
    const res = await t.call('PUT', '/admin/terms/TOS', sys, {
      mode: 'correct',
      version: 'ignored',
      titleJa: TOS!.titleJa,
      titleEn: TOS!.titleEn,
      bodyJa: `${TOS!.bodyJa}\n追記`,
      bodyEn: `${TOS!.bodyEn}\nAddendum`,
      baseUpdatedAt: TOS!.updatedAt,
    });
    expect(res.statusCode).toBe(200);
    const corrected = termTextSchema.parse(res.json());
    expect(corrected.id).toBe(TOS!.id);
    expect(corrected.version).toBe('1.0');
    expect(corrected.bodyEn.endsWith('Addendum')).toBe(true);
    expect(corrected.updatedAt).not.toBe(TOS!.updatedAt);
    expect((await check(operator, 'en')).TOS).toBeNull();

    // The same base again is stale: 409, nothing overwritten.
    const stale = await t.call('PUT', '/admin/terms/TOS', sys, {
      mode: 'correct',
      version: '1.0',
      titleJa: 'x',
      titleEn: 'x',
      bodyJa: 'x',
      bodyEn: 'x',
      baseUpdatedAt: TOS!.updatedAt,
    });
    expect(stale.statusCode).toBe(409);
    expect(errorOf(stale).code).toBe('STALE_UPDATE');
    expect((await texts()).TOS!.bodyEn.endsWith('Addendum')).toBe(true);
  });

  it('publishes a new version that everyone must agree to again', async () => {
    const operator = (await t.as('operator@demo.example')).authorization;
    const { PP } = await texts();
    const same = await t.call('PUT', '/admin/terms/PP', sys, {
      mode: 'publish',
      version: PP!.version,
      titleJa: PP!.titleJa,
      titleEn: PP!.titleEn,
      bodyJa: PP!.bodyJa,
      bodyEn: PP!.bodyEn,
      baseUpdatedAt: PP!.updatedAt,
    });
    expect(same.statusCode).toBe(400);
    expect(errorOf(same).details?.[0]).toMatchObject({ path: 'version', message: 'validation.termsVersionUnchanged' });

    const res = await t.call('PUT', '/admin/terms/PP', sys, {
      mode: 'publish',
      version: '2.0',
      titleJa: 'プライバシーポリシー',
      titleEn: 'Privacy Policy',
      bodyJa: '改定したプライバシーポリシー',
      bodyEn: 'The revised privacy policy',
      baseUpdatedAt: PP!.updatedAt,
    });
    expect(res.statusCode).toBe(201);
    const published = termTextSchema.parse(res.json());
    expect(published.id).not.toBe(PP!.id);
    expect(published.version).toBe('2.0');
    expect(published.agreedCount).toBe(0);

    const pending = await check(operator, 'ja');
    expect(pending.PP).toMatchObject({ id: published.id, version: '2.0', body: '改定したプライバシーポリシー' });
    expect(pending.TOS).toBeNull();
    expect((await t.call('POST', '/my/term-agreements', operator, { documentIds: [published.id] })).statusCode).toBe(
      204,
    );
    expect((await check(operator, 'ja')).PP).toBeNull();
    expect((await texts()).PP!.agreedCount).toBe(1);

    // A second administrator publishing from the old version is refused.
    const late = await t.call('PUT', '/admin/terms/PP', sys, {
      mode: 'publish',
      version: '3.0',
      titleJa: 'x',
      titleEn: 'x',
      bodyJa: 'x',
      bodyEn: 'x',
      baseUpdatedAt: PP!.updatedAt,
    });
    expect(late.statusCode).toBe(409);

    const audit = await t.db.kysely
      .selectFrom('audit_logs')
      .select(['action', 'target_name'])
      .where('action', 'in', ['terms.update', 'terms.publish'])
      .orderBy('id')
      .execute();
    expect(audit).toEqual([
      { action: 'terms.update', target_name: 'TOS 1.0' },
      { action: 'terms.publish', target_name: 'PP 2.0' },
    ]);
  });

  it('answers bad input with a localized 400', async () => {
    const res = await t.call('PUT', '/admin/terms/MC', sys, { mode: 'publish' });
    expect(res.statusCode).toBe(400);
    const empty = await t.call('PUT', '/admin/terms/TOS', sys, {
      mode: 'publish',
      version: '',
      titleJa: '',
      titleEn: 'x',
      bodyJa: 'x'.repeat(100_001),
      bodyEn: 'x',
      baseUpdatedAt: null,
    });
    expect(empty.statusCode).toBe(400);
    const paths = errorOf(empty).details?.map((d) => `${d.path}:${d.message}`);
    expect(paths).toEqual(
      expect.arrayContaining([
        'version:validation.required',
        'titleJa:validation.required',
        'bodyJa:validation.tooLong',
      ]),
    );
  });

  it('replaces the placeholder text of earlier demo seeds by the template, in place', async () => {
    const intro = 'These terms set out the conditions for using the Robot Portal (the "Service").';
    const placeholder = [
      intro,
      ...Array.from(
        { length: 12 },
        (_, i) =>
          `Article ${i + 1}\n${intro} The user complies with the applicable laws and these terms and operates the robots safely.`,
      ),
    ].join('\n\n');
    const { PP } = await texts();
    await t.db.kysely.updateTable('term_documents').set({ body_en: placeholder }).where('id', '=', PP!.id).execute();
    expect(await ensureDefaultTerms(t.db.kysely, new Date())).toEqual(['PP']);
    const after = (await texts()).PP!;
    expect(after.id).toBe(PP!.id);
    expect(after.version).toBe(PP!.version);
    expect(after.bodyEn).toBe(TERM_TEMPLATES.PP.bodyEn);
    expect(after.agreedCount).toBe(PP!.agreedCount);
    expect(await ensureDefaultTerms(t.db.kysely, new Date())).toEqual([]);
  });

  it('inserts the templates where a database has no terms, once', async () => {
    await t.db.kysely.deleteFrom('term_agreements').execute();
    await t.db.kysely.deleteFrom('term_documents').where('kind', '=', 'TOS').execute();
    expect(await ensureDefaultTerms(t.db.kysely, new Date())).toEqual(['TOS']);
    expect(await ensureDefaultTerms(t.db.kysely, new Date())).toEqual([]);
    expect((await texts()).TOS!.bodyEn).toBe(TERM_TEMPLATES.TOS.bodyEn);
  });
});
