import { authOps, loginChallengeSchema, sessionSchema } from '@portal/contract';
import { act, screen, waitFor } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { initI18n } from '@/lib/i18n';
import { makeSession, signedInRoutes } from '@/testing/fixtures';
import { mockApi, on, reply, replyError } from '@/testing/mock-api';
import { renderApp } from '@/testing/render-app';

const challenge = (minutes = 10) =>
  loginChallengeSchema.parse({
    token: 'pending-token',
    authMode: 'sms',
    authCodeExpiredAt: new Date(Date.now() + minutes * 60_000).toISOString(),
  });

describe('login form', () => {
  it('shows validation messages under the fields in English', async () => {
    const api = mockApi({});
    const { user } = renderApp('/auth/login');
    await user.click(await screen.findByRole('button', { name: 'Sign in' }));
    expect(screen.getByLabelText('Email address')).toHaveAccessibleDescription('Required');
    expect(screen.getByLabelText('Password')).toHaveAccessibleDescription('Required');

    await user.type(screen.getByLabelText('Email address'), 'not-an-email');
    await user.type(screen.getByLabelText('Password'), '12345');
    await user.click(screen.getByRole('button', { name: 'Sign in' }));
    expect(await screen.findByText('Enter a valid email address')).toBeInTheDocument();
    expect(screen.getByText('Enter at least 6 characters')).toBeInTheDocument();
    expect(api.calls).toHaveLength(0);
  });

  it('shows validation messages in Japanese and follows the language switch', async () => {
    mockApi({});
    initI18n('ja');
    const { user } = renderApp('/auth/login');
    await user.click(await screen.findByRole('button', { name: 'ログイン' }));
    expect(screen.getAllByText('必須項目です')).toHaveLength(2);
    expect(document.documentElement.lang).toBe('ja');

    await user.selectOptions(screen.getByTestId('language-switch'), 'en');
    expect(await screen.findAllByText('Required')).toHaveLength(2);
    expect(document.documentElement.lang).toBe('en');
    expect(window.localStorage.getItem('portal.language')).toBe('en');
  });

  it('shows the lock-out message of a 403', async () => {
    mockApi({ [on(authOps.login)]: () => replyError('ACCOUNT_LOCKED') });
    const { user } = renderApp('/auth/login');
    await user.type(await screen.findByLabelText('Email address'), 'a@example.com');
    await user.type(screen.getByLabelText('Password'), 'secret123');
    await user.click(screen.getByRole('button', { name: 'Sign in' }));
    expect(await screen.findByTestId('login-error')).toHaveTextContent(
      'Login failed: maximum permitted login attempts exceeded, account locked for 10 minutes',
    );
  });

  it('shows the contract-ended message of a 499 with a help link', async () => {
    mockApi({ [on(authOps.login)]: () => replyError('CONTRACT_ENDED') });
    const { user } = renderApp('/auth/login');
    await user.type(await screen.findByLabelText('Email address'), 'a@example.com');
    await user.type(screen.getByLabelText('Password'), 'secret123');
    await user.click(screen.getByRole('button', { name: 'Sign in' }));
    expect(await screen.findByTestId('login-error')).toHaveTextContent('The contract has ended, so you cannot log in');
    expect(screen.getByTestId('login-help-link')).toHaveAttribute('href', '/auth/error?code=CONTRACT_ENDED');
  });

  it('signs in, says "Logged in" and goes to the redirect target after 500 ms', async () => {
    const api = mockApi({
      ...signedInRoutes(),
      [on(authOps.login)]: () => reply(sessionSchema, makeSession(0, { language: 'en' })),
    });
    const app = renderApp(`/auth/login?redirect=${encodeURIComponent('/my/versions')}`);
    await app.user.type(await screen.findByLabelText('Email address'), 'a@example.com');
    await app.user.type(screen.getByLabelText('Password'), 'secret123');
    await app.user.click(screen.getByRole('button', { name: 'Sign in' }));
    expect(await screen.findByText('Logged in')).toBeInTheDocument();
    expect(api.calls.find((c) => c.path === '/api/operators/login')?.body).toEqual({
      loginId: 'a@example.com',
      loginPw: 'secret123',
    });
    expect(app.location()).toMatch(/^\/auth\/login/);
    await waitFor(() => expect(app.location()).toBe('/my/versions'));
    expect(window.localStorage.getItem('portal.token')).toBe('token-abc');
  });

  it('asks for the code after a 202 and signs in with the pending token', async () => {
    const api = mockApi({
      ...signedInRoutes(),
      [on(authOps.login)]: () => reply(loginChallengeSchema, challenge(), 202),
      [on(authOps.assertAuthCode)]: () => reply(sessionSchema, makeSession()),
    });
    const app = renderApp('/auth/login');
    await app.user.type(await screen.findByLabelText('Email address'), 'a@example.com');
    await app.user.type(screen.getByLabelText('Password'), 'secret123');
    await app.user.click(screen.getByRole('button', { name: 'Sign in' }));

    const code = await screen.findByLabelText('Verification code');
    expect(screen.getByTestId('auth-code-mode')).toHaveTextContent('SMS');
    expect(screen.getByTestId('auth-code-countdown')).toHaveTextContent(/The code expires in (10:00|9:5\d)/);

    await app.user.type(code, '12a');
    await app.user.click(screen.getByRole('button', { name: 'Verify' }));
    expect(await screen.findByText('Enter the 6-digit code')).toBeInTheDocument();

    await app.user.clear(code);
    await app.user.type(code, '123456');
    await app.user.click(screen.getByRole('button', { name: 'Verify' }));
    expect(await screen.findByText('Logged in')).toBeInTheDocument();
    const assert = api.calls.find((c) => c.path === '/api/operators/assertAuthCode');
    expect(assert?.headers.get('Authorization')).toBe('Bearer pending-token');
    expect(assert?.body).toEqual({ authDigits: '123456' });
    await waitFor(() => expect(app.location()).toBe('/robot/control'));
  });

  it('stays on the code step on a mismatch, and returns to the login form when the code expired', async () => {
    let answer: 'mismatch' | 'expired' = 'mismatch';
    mockApi({
      [on(authOps.login)]: () => reply(loginChallengeSchema, challenge(), 202),
      [on(authOps.assertAuthCode)]: () =>
        replyError(answer === 'mismatch' ? 'AUTH_CODE_MISMATCH' : 'AUTH_CODE_EXPIRED'),
    });
    const app = renderApp('/auth/login');
    await app.user.type(await screen.findByLabelText('Email address'), 'a@example.com');
    await app.user.type(screen.getByLabelText('Password'), 'secret123');
    await app.user.click(screen.getByRole('button', { name: 'Sign in' }));
    await app.user.type(await screen.findByLabelText('Verification code'), '000000');
    await app.user.click(screen.getByRole('button', { name: 'Verify' }));
    expect(await screen.findByTestId('auth-code-error')).toHaveTextContent('Verification codes did not match');

    answer = 'expired';
    await app.user.type(screen.getByLabelText('Verification code'), '111111');
    await app.user.click(screen.getByRole('button', { name: 'Verify' }));
    expect(await screen.findByTestId('login-error')).toHaveTextContent('Verification code has expired');
    expect(screen.getByTestId('login-form')).toBeInTheDocument();
    expect(app.location()).toBe('/auth/login');
  });

  it('counts down to the expiry', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    mockApi({ [on(authOps.login)]: () => reply(loginChallengeSchema, challenge(1), 202) });
    const app = renderApp('/auth/login', { user: { advanceTimers: vi.advanceTimersByTime } });
    await app.user.type(await screen.findByLabelText('Email address'), 'a@example.com');
    await app.user.type(screen.getByLabelText('Password'), 'secret123');
    await app.user.click(screen.getByRole('button', { name: 'Sign in' }));
    await screen.findByTestId('auth-code-countdown');
    act(() => void vi.advanceTimersByTime(61_000));
    expect(await screen.findByText('The code has expired. Sign in again to get a new one.')).toBeInTheDocument();
  });
});
