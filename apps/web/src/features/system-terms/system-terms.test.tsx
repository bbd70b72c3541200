import { termOps, termTextSchema, termTextsSchema, type TermText } from '@portal/contract';
import { screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { i18n } from '@/lib/i18n';
import { makeSession, signedInRoutes } from '@/testing/fixtures';
import { mockApi, on, reply, replyError } from '@/testing/mock-api';
import { renderApp } from '@/testing/render-app';
import { nextVersionLabel } from './components/term-text-form';

const slow = { timeout: 15_000 };

const text = (kind: 'TOS' | 'PP', over: Partial<TermText> = {}): TermText =>
  termTextSchema.parse({
    id: kind === 'TOS' ? 1 : 2,
    kind,
    version: '1.0',
    titleJa: kind === 'TOS' ? '利用規約' : 'プライバシーポリシー',
    titleEn: kind === 'TOS' ? 'Terms of Service' : 'Privacy Policy',
    bodyJa: '【ご注意：ひな形です】本文',
    bodyEn: '[Note: this is a template] Text',
    publishedAt: '2026-01-01T00:00:00.000Z',
    updatedAt: '2026-01-01T00:00:00.000Z',
    agreedCount: 5,
    ...over,
  });

/** Issue 12 item 5: system administrators edit the terms of service and privacy policy in both languages. */
describe('system terms screen', { timeout: 45_000 }, () => {
  afterEach(async () => {
    await i18n.changeLanguage('en');
  });

  it('suggests the next version number', () => {
    expect(nextVersionLabel('1.0')).toBe('1.1');
    expect(nextVersionLabel('2')).toBe('3');
    expect(nextVersionLabel('v1.9')).toBe('v1.10');
    expect(nextVersionLabel('draft')).toBe('draft');
  });

  it('publishes a new version by default, from the version shown', async () => {
    const { calls } = mockApi({
      ...signedInRoutes(),
      [on(termOps.getTermTexts)]: () => reply(termTextsSchema, { TOS: text('TOS'), PP: text('PP') }),
      [on(termOps.updateTermText, { kind: 'TOS' })]: (call) =>
        reply(termTextSchema, text('TOS', { ...(call.body as object), id: 3, agreedCount: 0 }), 201),
    });
    const { user } = renderApp('/system/terms', { session: makeSession(9) });
    const form = await screen.findByTestId('term-form-TOS', {}, slow);
    expect(screen.getByTestId('term-current-TOS')).toHaveTextContent('Version 1.0');
    expect(screen.getByTestId('term-current-TOS')).toHaveTextContent('5 operators have agreed');
    const [bodyJa] = within(form).getAllByLabelText('Text');
    await user.clear(bodyJa!);
    await user.type(bodyJa!, '第1条 本サービス');
    await user.click(screen.getByTestId('term-save-TOS'));
    await waitFor(() => expect(calls.some((c) => c.method === 'PUT')).toBe(true));
    const put = calls.find((c) => c.method === 'PUT')!;
    expect(put.path).toBe('/api/admin/terms/TOS');
    expect(put.body).toMatchObject({
      mode: 'publish',
      version: '1.1',
      bodyJa: '第1条 本サービス',
      bodyEn: '[Note: this is a template] Text',
      baseUpdatedAt: '2026-01-01T00:00:00.000Z',
    });
    expect(await screen.findByText(/every operator will be asked to agree/, {}, slow)).toBeInTheDocument();
  });

  it('corrects the current version in Japanese, and shows a refused version under its field', async () => {
    await i18n.changeLanguage('ja');
    let puts = 0;
    const { calls } = mockApi({
      ...signedInRoutes(),
      [on(termOps.getTermTexts)]: () => reply(termTextsSchema, { TOS: text('TOS'), PP: text('PP') }),
      [on(termOps.updateTermText, { kind: 'PP' })]: (call) => {
        puts += 1;
        if (puts === 1)
          return replyError('VALIDATION_FAILED', [{ path: 'version', message: 'validation.termsVersionUnchanged' }]);
        return reply(termTextSchema, text('PP', { ...(call.body as object), version: '1.0' }));
      },
    });
    const { user } = renderApp('/system/terms', { session: makeSession(9) });
    await user.click(await screen.findByTestId('term-tab-PP', {}, slow));
    const form = await screen.findByTestId('term-form-PP', {}, slow);
    const version = within(form).getByLabelText('新しい版番号');
    await user.clear(version);
    await user.type(version, '1.0');
    await user.click(screen.getByTestId('term-save-PP'));
    expect(await within(form).findByText('新しい版には新しい版番号を付けてください', {}, slow)).toBeInTheDocument();

    await user.click(within(form).getByLabelText('現在の版を訂正する'));
    expect(screen.getByTestId('term-save-PP')).toHaveTextContent('訂正を保存');
    await user.click(screen.getByTestId('term-save-PP'));
    await waitFor(() => expect(puts).toBe(2));
    expect(calls.filter((c) => c.method === 'PUT').at(-1)?.body).toMatchObject({ mode: 'correct' });
    expect(await screen.findByText('訂正を保存しました', {}, slow)).toBeInTheDocument();
  });
});
