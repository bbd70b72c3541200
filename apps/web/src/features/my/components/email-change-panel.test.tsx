import { myOps, profileSchema, type Profile } from '@portal/contract';
import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { makeSession, signedInRoutes } from '@/testing/fixtures';
import { mockApi, on, reply, replyError } from '@/testing/mock-api';
import { renderApp } from '@/testing/render-app';

const at = '2026-11-24T10:00:00.000Z';
const profile = (over: Partial<Profile> = {}): Profile => ({
  id: 2,
  loginId: 'operator@demo.example',
  firstName: 'Hanako',
  lastName: 'Yamamoto',
  email: 'operator@demo.example',
  phone: '',
  language: 'en',
  authMode: 'none',
  type: 0,
  organizationId: 1,
  organizationName: 'Demo',
  buildingId: 10,
  buildingName: 'Marunouchi Tower',
  usage: { logins: 3, activeSessions: 1 },
  pendingEmail: { email: 'new@example.com', expiresAt: at },
  updatedAt: at,
  ...over,
});

describe('email change on the profile page', { timeout: 30_000 }, () => {
  it('asks for the code sent to the new address, says why a code is refused, then shows the new email', async () => {
    let codes = 0;
    let current = profile();
    const { calls } = mockApi({
      ...signedInRoutes(),
      [on(myOps.getProfile)]: () => reply(profileSchema, current),
      [on(myOps.confirmEmailChange)]: () => {
        if (++codes === 1)
          return replyError('VALIDATION_FAILED', [{ path: 'code', message: 'validation.codeMismatch' }]);
        current = profile({ email: 'new@example.com', pendingEmail: null });
        return reply(profileSchema, current);
      },
    });
    const { user } = renderApp('/my/profile', { session: makeSession() });
    const panel = await screen.findByTestId('email-change', undefined, { timeout: 20_000 });
    expect(panel).toHaveTextContent('A code was sent to new@example.com');
    const input = within(panel).getByLabelText('Code');
    await user.type(input, '12');
    await user.click(within(panel).getByRole('button', { name: 'Confirm' }));
    expect(await within(panel).findByText('Enter the 6-digit code')).toBeInTheDocument();
    await user.clear(input);
    await user.type(input, '123456');
    await user.click(within(panel).getByRole('button', { name: 'Confirm' }));
    expect(await within(panel).findByText('The code does not match')).toBeInTheDocument();
    await user.clear(input);
    await user.type(input, '654321{Enter}');
    await waitFor(() => expect(screen.queryByTestId('email-change')).toBeNull(), { timeout: 10_000 });
    expect(screen.getByLabelText('Email address')).toHaveValue('new@example.com');
    const sent = calls.filter((c) => c.method === 'POST' && c.path === '/api/my/email/confirm').map((c) => c.body);
    expect(sent).toEqual([{ code: '123456' }, { code: '654321' }]);
  });
});
