import { authOps, myOps } from '@portal/contract';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeContract, makeSession, signedInRoutes, termDoc } from '@/testing/fixtures';
import { mockApi, noContent, on } from '@/testing/mock-api';
import { renderApp } from '@/testing/render-app';

// jsdom does no layout: give the scroll area a viewport of 100px over 1000px of content.
const proto = window.HTMLElement.prototype;
const saved = {
  scrollHeight: Object.getOwnPropertyDescriptor(proto, 'scrollHeight'),
  clientHeight: Object.getOwnPropertyDescriptor(proto, 'clientHeight'),
};
beforeEach(() => {
  Object.defineProperty(proto, 'scrollHeight', { configurable: true, get: () => 1000 });
  Object.defineProperty(proto, 'clientHeight', { configurable: true, get: () => 100 });
});
afterEach(() => {
  if (saved.scrollHeight) Object.defineProperty(proto, 'scrollHeight', saved.scrollHeight);
  if (saved.clientHeight) Object.defineProperty(proto, 'clientHeight', saved.clientHeight);
});

describe('term agreement', () => {
  it('enables Agree only at the end of the documents and agrees to what it showed', async () => {
    const terms = { TOS: termDoc('TOS', 1), PP: termDoc('PP', 2), MC: termDoc('MC', 3) };
    let agreed = false;
    const api = mockApi({
      ...signedInRoutes({ terms, contract: makeContract() }),
      [on(myOps.checkTermAgreements)]: () =>
        new Response(JSON.stringify(agreed ? { TOS: null, PP: null, MC: terms.MC } : terms), { status: 200 }),
      [on(myOps.agreeTerms)]: () => {
        agreed = true;
        return noContent();
      },
    });
    const app = renderApp('/my/profile', { session: makeSession() });

    // The redirect loads the terms page lazily: on a busy machine that takes longer than the default.
    const agree = await screen.findByTestId('terms-agree', {}, { timeout: 10_000 });
    expect(screen.getByText('TOS document')).toBeInTheDocument();
    expect(screen.getByText('PP document')).toBeInTheDocument();
    // Not the owner of the maintenance company: MC is neither shown nor agreed.
    expect(screen.queryByText('MC document')).toBeNull();
    expect(agree).toBeDisabled();

    const area = screen.getByTestId('terms-scroll');
    area.scrollTop = 500;
    fireEvent.scroll(area);
    expect(agree).toBeDisabled();

    area.scrollTop = 900;
    fireEvent.scroll(area);
    await waitFor(() => expect(agree).toBeEnabled());

    await app.user.click(agree);
    await waitFor(() => expect(app.location()).toBe('/my/profile'));
    expect(api.calls.find((c) => c.method === 'POST')?.body).toEqual({ documentIds: [1, 2] });
  });

  it('shows the documents in the page language, switches language and signs out (no dead end)', async () => {
    const docIn = (lang: string | null) => ({
      TOS: { ...termDoc('TOS', 1), title: lang === 'ja' ? 'ご利用条件' : 'Conditions of use' },
      PP: null,
      MC: null,
    });
    const api = mockApi({
      ...signedInRoutes(),
      [on(myOps.checkTermAgreements)]: (call) =>
        new Response(JSON.stringify(docIn(call.search.get('lang'))), { status: 200 }),
      [on(myOps.setLanguage)]: () => noContent(),
      [on(authOps.logout)]: () => noContent(),
    });
    const app = renderApp('/term/agreement', { session: makeSession() });

    expect(await screen.findByText('Conditions of use', {}, { timeout: 10_000 })).toBeInTheDocument();
    await app.user.selectOptions(screen.getByTestId('language-switch'), 'ja');
    expect(await screen.findByText('ご利用条件')).toBeInTheDocument();
    expect(api.calls.find((c) => c.method === 'PUT')?.body).toEqual({ language: 'ja' });

    await app.user.click(screen.getByTestId('terms-logout'));
    await waitFor(() => expect(app.location()).toBe('/auth/login'));
    expect(api.calls.some((c) => c.method === 'POST' && c.path.endsWith('/logout'))).toBe(true);
  });
});
