import {
  buildingOps,
  buildingSchema,
  notifTargetSchema,
  organizationOps,
  testNotificationResultSchema,
  type NotifTarget,
} from '@portal/contract';
import { screen, waitFor, within } from '@testing-library/react';
import i18n from 'i18next';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { makeSession, signedInRoutes } from '@/testing/fixtures';
import { mockApi, on, reply } from '@/testing/mock-api';
import { renderApp } from '@/testing/render-app';

const slow = { timeout: 5000 };
const buildings = () =>
  reply(z.array(buildingSchema.pick({ id: true, name: true })), [{ id: 10, name: 'Marunouchi Tower' }]);

/** A stored target as the server answers it (secrets masked), and the routes of its edit page. */
const storedTarget = (fields: Partial<NotifTarget>): NotifTarget =>
  notifTargetSchema.parse({
    id: 5,
    organizationId: 1,
    type: 1,
    level: 5,
    buildingId: null,
    room: '',
    address: '••••/xyz',
    botLoginId: '',
    botPassword: null,
    spaceId: '',
    language: 'ja',
    createdAt: '2025-01-01T00:00:00.000Z',
    updatedAt: '2025-01-02T00:00:00.000Z',
    ...fields,
  });
const editRoutes = (stored: NotifTarget) => ({
  ...signedInRoutes(),
  [on(buildingOps.listBuildings)]: buildings,
  [on(organizationOps.getNotifTarget)]: () => reply(notifTargetSchema, stored),
  [on(organizationOps.updateNotifTarget)]: () => reply(notifTargetSchema, stored),
  [on(organizationOps.listNotifTargets)]: () => reply(z.array(notifTargetSchema), [stored]),
});

describe('notification target form', () => {
  afterEach(async () => {
    await i18n.changeLanguage('en');
  });
  it('changes the address rule, label and fields with the type', async () => {
    const { calls } = mockApi({
      ...signedInRoutes(),
      [on(buildingOps.listBuildings)]: buildings,
      [on(organizationOps.createNotifTarget)]: () =>
        reply(
          notifTargetSchema,
          storedTarget({ level: 9, buildingId: 10, updatedAt: '2025-01-01T00:00:00.000Z' }),
          201,
        ),
    });
    const app = renderApp('/organization/1/notif-target/create', { session: makeSession(2) });
    const type = await screen.findByTestId('notif-type', {}, slow);
    // SMS and phone are listed but not available.
    expect(screen.getByRole('option', { name: 'SMS (not available)' })).toBeDisabled();
    expect(screen.getByRole('option', { name: 'Phone (not available)' })).toBeDisabled();
    expect(screen.getByLabelText(/Email address/)).toBeInTheDocument();

    await app.user.type(screen.getByTestId('notif-address'), 'https://hooks.slack.com/services/T0/B0/xyz');
    await app.user.click(screen.getByTestId('notif-save'));
    expect(await screen.findByText('Enter a valid email address')).toBeInTheDocument();

    // The same address is a valid Slack webhook: the error goes once the type is Slack.
    await app.user.selectOptions(type, '1');
    expect(screen.getByLabelText(/Slack webhook URL/)).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByText('Enter a valid email address')).not.toBeInTheDocument());

    // A chat bot needs a bot URL, login ID and space ID.
    await app.user.selectOptions(type, '6');
    expect(screen.getByLabelText(/Bot URL/)).toBeInTheDocument();
    await app.user.click(screen.getByTestId('notif-save'));
    expect(await screen.findAllByText('Required')).toHaveLength(2);

    await app.user.selectOptions(type, '1');
    await app.user.selectOptions(screen.getByTestId('notif-level'), '9');
    await app.user.selectOptions(screen.getByTestId('notif-building'), '10');
    await app.user.click(screen.getByTestId('notif-save'));
    await waitFor(() => expect(calls.some((c) => c.method === 'POST')).toBe(true));
    expect(calls.find((c) => c.method === 'POST')?.body).toEqual({
      type: 1,
      level: 9,
      buildingId: 10,
      room: '',
      address: 'https://hooks.slack.com/services/T0/B0/xyz',
      botLoginId: '',
      spaceId: '',
    });
  }, 20_000);

  it('chooses the message language: automatic by default on a new target, ja or en; an edit shows the stored one', async () => {
    const { calls } = mockApi({
      ...signedInRoutes(),
      [on(buildingOps.listBuildings)]: buildings,
      [on(organizationOps.createNotifTarget)]: () =>
        reply(notifTargetSchema, storedTarget({ type: 0, address: 'ops@example.com', language: 'en' }), 201),
    });
    const app = renderApp('/organization/1/notif-target/create', { session: makeSession(2) });
    const language = await screen.findByTestId('notif-language', {}, slow);
    expect(screen.getByLabelText('Message language')).toBe(language);
    expect(language).toHaveValue('');
    expect(within(language).getByRole('option', { name: /^Automatic/ })).toBeInTheDocument();
    expect(within(language).getByRole('option', { name: 'English' })).toBeInTheDocument();
    await app.user.selectOptions(language, 'en');
    await app.user.type(screen.getByTestId('notif-address'), 'ops@example.com');
    await app.user.click(screen.getByTestId('notif-save'));
    await waitFor(() => expect(calls.some((c) => c.method === 'POST')).toBe(true));
    expect(calls.find((c) => c.method === 'POST')?.body).toMatchObject({
      type: 0,
      address: 'ops@example.com',
      language: 'en',
    });
  }, 20_000);

  it('shows the language choice in Japanese and keeps the stored language on an edit', async () => {
    await i18n.changeLanguage('ja');
    const stored = storedTarget({ type: 0, address: 'ops@example.com', language: 'en' });
    const { calls } = mockApi(editRoutes(stored));
    const app = renderApp('/organization/1/notif-target/5', { session: makeSession(9) });
    const language = await screen.findByTestId('notif-language', {}, slow);
    expect(screen.getByLabelText('通知の言語')).toBe(language);
    expect(language).toHaveValue('en');
    // A stored target has a language: no automatic choice.
    expect(within(language).queryByRole('option', { name: /^自動/ })).not.toBeInTheDocument();
    expect(within(language).getByRole('option', { name: '日本語' })).toBeInTheDocument();
    await app.user.selectOptions(language, 'ja');
    await app.user.click(screen.getByTestId('notif-save'));
    await waitFor(() => expect(calls.some((c) => c.method === 'PATCH')).toBe(true));
    expect(calls.find((c) => c.method === 'PATCH')?.body).toMatchObject({ language: 'ja', address: 'ops@example.com' });
  }, 20_000);

  it('keeps, or clears on request, the stored bot password and shows a test result', async () => {
    const stored = storedTarget({
      type: 6,
      room: 'B1',
      address: '••••oint',
      botLoginId: 'bot@example.com',
      botPassword: '••••••word',
      spaceId: 'space-1',
    });
    const { calls } = mockApi({
      ...editRoutes(stored),
      [on(organizationOps.testNotifTarget)]: () =>
        reply(testNotificationResultSchema, { deliveryId: 3, status: 'failed', error: 'HTTP 500 from bot' }),
    });
    const app = renderApp('/organization/1/notif-target/5', { session: makeSession(9) });
    const password = await screen.findByTestId('notif-bot-password', {}, slow);
    expect(password).toHaveAttribute('placeholder', 'Unchanged');
    // The stored bot URL is shown masked; an empty address keeps it.
    const address = screen.getByTestId('notif-address');
    expect(address).toHaveValue('');
    expect(address).toHaveAttribute('placeholder', '••••oint');
    expect(address).not.toBeRequired();
    expect(screen.getByText(/Leave this empty to keep it/)).toBeInTheDocument();

    await app.user.click(screen.getByTestId('notif-test-5'));
    expect((await screen.findAllByText('Test notification failed: HTTP 500 from bot')).length).toBeGreaterThan(0);

    await app.user.click(screen.getByTestId('notif-save'));
    await waitFor(() => expect(calls.some((c) => c.method === 'PATCH')).toBe(true));
    const first = calls.find((c) => c.method === 'PATCH')?.body as Record<string, unknown>;
    expect(first).toMatchObject({ type: 6, updatedAt: '2025-01-02T00:00:00.000Z', spaceId: 'space-1' });
    expect('address' in first).toBe(false);
    expect('botPassword' in first && first.botPassword !== undefined).toBe(false);
  }, 20_000);

  it('clearing the stored bot password is a change of the form: Cancel puts it back, Save sends it', async () => {
    const stored = storedTarget({
      type: 6,
      address: '••••oint',
      botLoginId: 'bot@example.com',
      botPassword: '••••••word',
      spaceId: 'space-1',
    });
    const { calls } = mockApi(editRoutes(stored));
    const app = renderApp('/organization/1/notif-target/5', { session: makeSession(9) });
    await app.user.click(await screen.findByTestId('notif-bot-password-clear', {}, slow));
    expect(screen.queryByTestId('notif-bot-password-clear')).not.toBeInTheDocument();
    await app.user.click(screen.getByTestId('form-cancel'));
    expect(await screen.findByTestId('notif-bot-password-clear')).toBeInTheDocument();

    await app.user.click(screen.getByTestId('notif-bot-password-clear'));
    await app.user.click(screen.getByTestId('notif-save'));
    await waitFor(() => expect(calls.some((c) => c.method === 'PATCH')).toBe(true));
    expect(calls.find((c) => c.method === 'PATCH')?.body).toMatchObject({ botPassword: '' });
  }, 20_000);

  it('asks for the address again when the type of a sealed target changes', async () => {
    const { calls } = mockApi(editRoutes(storedTarget({ type: 1 })));
    const app = renderApp('/organization/1/notif-target/5', { session: makeSession(9) });
    const address = await screen.findByTestId('notif-address', {}, slow);
    expect(address).toHaveAttribute('placeholder', '••••/xyz');

    await app.user.selectOptions(screen.getByTestId('notif-type'), '0');
    expect(address).toBeRequired();
    await app.user.click(screen.getByTestId('notif-save'));
    expect(await screen.findByText('Required')).toBeInTheDocument();
    expect(calls.some((c) => c.method === 'PATCH')).toBe(false);

    // Back to Slack: empty keeps the stored webhook again; a typed one replaces it.
    await app.user.selectOptions(screen.getByTestId('notif-type'), '1');
    await app.user.type(address, 'https://hooks.slack.com/services/T0/B0/new');
    await app.user.click(screen.getByTestId('notif-save'));
    await waitFor(() => expect(calls.some((c) => c.method === 'PATCH')).toBe(true));
    expect(calls.find((c) => c.method === 'PATCH')?.body).toMatchObject({
      type: 1,
      address: 'https://hooks.slack.com/services/T0/B0/new',
    });
  }, 20_000);
});
