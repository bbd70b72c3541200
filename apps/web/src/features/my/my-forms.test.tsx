import { myOps, profileSchema, type Profile } from '@portal/contract';
import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { makeSession, signedInRoutes } from '@/testing/fixtures';
import { mockApi, on, noContent, reply, replyError } from '@/testing/mock-api';
import { renderApp } from '@/testing/render-app';

const slow = { timeout: 15_000 };

const profile = (over: Partial<Profile> = {}): Profile =>
  profileSchema.parse({
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
    pendingEmail: null,
    updatedAt: '2026-01-01T00:00:00.000Z',
    ...over,
  });

describe('my forms', { timeout: 45_000 }, () => {
  it('a stale profile save opens the conflict dialog; kept values go again with the newer version', async () => {
    let stored = profile();
    let saves = 0;
    const { calls } = mockApi({
      ...signedInRoutes(),
      [on(myOps.getProfile)]: () => reply(profileSchema, stored),
      [on(myOps.updateProfile)]: (call) => {
        saves += 1;
        if (saves === 1) return replyError('STALE_UPDATE');
        stored = profile({ ...(call.body as object), updatedAt: '2026-01-03T00:00:00.000Z' });
        return reply(profileSchema, stored);
      },
    });
    const { user } = renderApp('/my/profile', { session: makeSession() });
    const phone = await screen.findByLabelText('Phone number', {}, slow);
    await user.type(phone, '03-1234');
    stored = profile({ lastName: 'Sato', updatedAt: '2026-01-02T00:00:00.000Z' });
    await user.click(screen.getByTestId('profile-save'));
    await user.click(await screen.findByTestId('conflict-keep', {}, slow));
    await waitFor(() => expect(screen.queryByTestId('conflict-keep')).toBeNull());
    expect(screen.getByLabelText('Phone number')).toHaveValue('03-1234');
    expect(screen.getByLabelText('Last name')).toHaveValue('Yamamoto');
    await user.click(screen.getByTestId('profile-save'));
    await waitFor(() => expect(saves).toBe(2));
    const sent = calls.filter((c) => c.method === 'PATCH').map((c) => (c.body as { updatedAt: string }).updatedAt);
    expect(sent).toEqual(['2026-01-01T00:00:00.000Z', '2026-01-02T00:00:00.000Z']);
  });

  it('choosing Japanese: the screen and the saved toast speak Japanese', async () => {
    let stored = profile();
    const { calls } = mockApi({
      ...signedInRoutes(),
      [on(myOps.getProfile)]: () => reply(profileSchema, stored),
      [on(myOps.updateProfile)]: (call) => {
        stored = profile({ ...(call.body as object), updatedAt: '2026-01-02T00:00:00.000Z' });
        return reply(profileSchema, stored);
      },
    });
    const { user } = renderApp('/my/profile', { session: makeSession() });
    const form = (await screen.findByLabelText('Phone number', {}, slow)).closest('form')!;
    await user.selectOptions(within(form).getByLabelText('Language'), 'ja');
    await user.click(screen.getByTestId('profile-save'));
    await waitFor(() => expect(calls.some((c) => c.method === 'PATCH')).toBe(true));
    expect(await screen.findByText('保存しました', {}, slow)).toBeInTheDocument();
  });

  it('changing the password: a refused old password under its field, then done with the fields empty', async () => {
    let tries = 0;
    mockApi({
      ...signedInRoutes(),
      [on(myOps.changePassword)]: () =>
        ++tries === 1
          ? replyError('VALIDATION_FAILED', [{ path: 'oldPassword', message: 'validation.required' }])
          : noContent(),
    });
    const { user } = renderApp('/my/chpwd', { session: makeSession() });
    await user.type(await screen.findByLabelText('Current password', {}, slow), 'Old-Pass-2026');
    await user.type(screen.getByLabelText('New password'), 'New-Pass-2026!x');
    await user.type(screen.getByLabelText('New password (again)'), 'New-Pass-2026!x');
    await user.click(screen.getByTestId('chpwd-submit'));
    expect(await screen.findByText('Required')).toBeInTheDocument();
    expect(screen.queryByTestId('form-error')).toBeNull();
    await user.click(screen.getByTestId('chpwd-submit'));
    expect(await screen.findByTestId('chpwd-done', {}, slow)).toBeInTheDocument();
    expect(screen.getByLabelText('Current password')).toHaveValue('');
  });
});
