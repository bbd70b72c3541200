import { termCheckSchema } from '@portal/contract';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { makeContract, makeSession, signedInRoutes, termDoc } from '@/testing/fixtures';
import { mockApi, noContent, reply, replyError } from '@/testing/mock-api';
import { renderApp } from '@/testing/render-app';

describe('route guards', () => {
  it('sends an unauthenticated user to login, keeping the target', async () => {
    mockApi({});
    const app = renderApp('/my/messages/2?x=1');
    await screen.findByTestId('login-form');
    expect(app.location()).toBe(`/auth/login?redirect=${encodeURIComponent('/my/messages/2?x=1')}`);
  });

  it('redirects / to robot control, which shows the fleet (empty here)', async () => {
    mockApi(signedInRoutes());
    const app = renderApp('/', { session: makeSession() });
    expect(await screen.findByTestId('robots-empty')).toBeInTheDocument();
    expect(app.location()).toBe('/robot/control');
    expect(screen.getByRole('heading', { name: 'Robot control' })).toBeInTheDocument();
  });

  it('redirects /my to /my/profile and /auth to /auth/login', async () => {
    mockApi(signedInRoutes());
    const app = renderApp('/my', { session: makeSession() });
    await waitFor(() => expect(app.location()).toBe('/my/profile'));
    app.unmount();
    const app2 = renderApp('/auth');
    await screen.findByTestId('login-form');
    expect(app2.location()).toBe('/auth/login');
  });

  it('redirects /schedule to the weekly calendar', async () => {
    mockApi(signedInRoutes());
    const app = renderApp('/schedule', { session: makeSession() });
    expect(await screen.findByTestId('schedule-tab-calendar', {}, { timeout: 5000 })).toHaveAttribute(
      'aria-selected',
      'true',
    );
    expect(app.location()).toBe('/schedule/cal/week');
  });

  it('sends a general operator away from /console to login', async () => {
    mockApi(signedInRoutes());
    const app = renderApp('/console/SN-1', { session: makeSession(0) });
    await screen.findByTestId('login-form');
    expect(app.location()).toBe(`/auth/login?redirect=${encodeURIComponent('/console/SN-1')}`);
    // The login page says why it shows.
    expect(screen.getByTestId('login-admin-only')).toHaveTextContent('for administrators');
  });

  it('lets an administrator open /console', async () => {
    mockApi(signedInRoutes());
    const app = renderApp('/console/SN-1', { session: makeSession(1) });
    // The console screen itself (no robot SN-1 here: its not-found state, under the console's title).
    expect(await screen.findByTestId('console-not-found')).toHaveTextContent('Robot console');
    expect(app.location()).toBe('/console/SN-1');
  });

  it('signs out to a plain login page, not back to the page the user was on', async () => {
    mockApi({ ...signedInRoutes(), 'POST /api/operators/logout': () => noContent() });
    const app = renderApp('/my/versions', { session: makeSession(2) });
    const user = userEvent.setup();
    await user.click(await screen.findByTestId('user-menu'));
    await user.click(await screen.findByTestId('logout'));
    await screen.findByTestId('login-form');
    await waitFor(() => expect(app.location()).toBe('/auth/login'));
  });

  it('shows a translated 404 for unknown paths', async () => {
    mockApi({});
    renderApp('/no/such/page');
    expect(await screen.findByTestId('not-found')).toHaveTextContent('Page not found');
  });

  it('sends the user to the agreement page while TOS is pending', async () => {
    mockApi(signedInRoutes({ terms: { TOS: termDoc('TOS', 1), PP: null, MC: null } }));
    const app = renderApp('/my/profile', { session: makeSession() });
    await screen.findByTestId('terms-agree');
    expect(app.location()).toBe(`/term/agreement?redirect=${encodeURIComponent('/my/profile')}`);
  });

  it('asks for MC only from the maintenance company owner', async () => {
    const terms = { TOS: null, PP: null, MC: termDoc('MC', 3) };
    mockApi(signedInRoutes({ terms }));
    const app = renderApp('/robot/control', { session: makeSession() });
    await screen.findByTestId('robots-empty');
    expect(app.location()).toBe('/robot/control');
    app.unmount();

    mockApi(
      signedInRoutes({ terms, contract: makeContract({ maintenanceCompany: { id: 3, name: 'M', isOwner: true } }) }),
    );
    const owner = renderApp('/robot/control', { session: makeSession(2) });
    await screen.findByTestId('terms-agree');
    expect(owner.location()).toMatch(/^\/term\/agreement/);
  });

  it('leaves the agreement page when nothing is pending', async () => {
    mockApi(signedInRoutes());
    const app = renderApp('/term/agreement', { session: makeSession() });
    await screen.findByTestId('robots-empty');
    expect(app.location()).toBe('/robot/control');
  });

  it('ends the session on a 401 and goes to login keeping the location', async () => {
    mockApi({
      ...signedInRoutes(),
      'GET /api/my/term-agreements/check': () => reply(termCheckSchema, { TOS: null, PP: null, MC: null }),
      'GET /api/my/profile': () => replyError('UNAUTHENTICATED'),
    });
    const app = renderApp('/my/profile', { session: makeSession() });
    await screen.findByTestId('login-form');
    expect(app.location()).toBe(`/auth/login?redirect=${encodeURIComponent('/my/profile')}`);
    expect(window.localStorage.getItem('portal.token')).toBeNull();
  });

  it('shows administration items only to administrators', async () => {
    mockApi(signedInRoutes());
    renderApp('/robot/control', { session: makeSession(0) });
    await screen.findByTestId('nav-group-operations');
    expect(screen.queryByTestId('nav-group-administration')).toBeNull();
    expect(screen.getByTestId('user-initials')).toHaveTextContent('YH');
  });
});
