import {
  webhookDeliveryResultSchema,
  webhookOps,
  webhookSchema,
  webhookWithSecretSchema,
  type Webhook,
} from '@portal/contract';
import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { makeSession, signedInRoutes } from '@/testing/fixtures';
import { mockApi, on, reply } from '@/testing/mock-api';
import { renderApp } from '@/testing/render-app';

const slow = { timeout: 15_000 };

/** A stored webhook as the server answers it (secrets masked). */
const stored = (fields: Partial<Webhook> = {}): Webhook =>
  webhookSchema.parse({
    id: 7,
    name: 'Security desk',
    type: 0,
    url: 'https://hooks.example.com/••••••ab12',
    urlHost: 'hooks.example.com',
    authType: 'token',
    authUsername: '',
    authSecret: '••••••9876',
    customHeaderName: '',
    signingSecret: '••••••wxyz',
    status: 1,
    level: 0,
    eventKinds: null,
    consecutiveFailures: 0,
    lastError: null,
    lastSuccessAt: '2026-01-05T01:00:00.000Z',
    lastFailureAt: null,
    createdAt: '2026-01-01T00:00:00.000Z',
    updatedAt: '2026-01-02T00:00:00.000Z',
    ...fields,
  });
const errored = stored({
  id: 8,
  name: 'T-Spider gateway',
  type: 2,
  url: 'http://spider.example.net/••••••vent',
  urlHost: 'spider.example.net',
  authType: 'none',
  authSecret: null,
  status: 9,
  consecutiveFailures: 5,
  lastError: 'http-503',
  lastFailureAt: '2026-01-06T02:00:00.000Z',
});

describe('webhook screens', () => {
  it('lists webhooks with the error state visible and sends a test from the list', async () => {
    mockApi({
      ...signedInRoutes(),
      [on(webhookOps.listWebhooks)]: () => reply(z.array(webhookSchema), [stored(), errored]),
      [on(webhookOps.testWebhook)]: () =>
        reply(webhookDeliveryResultSchema, { deliveryId: 4, status: 'failed', error: 'http-500', webhookStatus: 1 }),
    });
    const app = renderApp('/system/webhooks/list', { session: makeSession(9) });
    const table = await screen.findByTestId('webhook-table', {}, slow);
    const rows = within(table).getAllByRole('row');
    const spider = rows.find((r) => within(r).queryByText('T-Spider gateway'))!;
    expect(within(spider).getByText('Error')).toBeInTheDocument();
    expect(within(spider).getByText('spider.example.net')).toBeInTheDocument();
    expect(within(spider).getByText(/The receiver answered HTTP 503 · 5 failed in a row/)).toBeInTheDocument();
    const desk = rows.find((r) => within(r).queryByText('Security desk'))!;
    expect(within(desk).getByText('Enabled')).toBeInTheDocument();
    expect(within(desk).getByText('https://hooks.example.com/••••••ab12')).toBeInTheDocument();

    await app.user.click(within(desk).getByTestId('webhook-test-7'));
    expect(await screen.findByTestId('webhook-test-result-7')).toHaveTextContent(
      'Test failed: The receiver answered HTTP 500',
    );
  }, 30_000);

  it('asks for the fields of each auth type, checks the URL, and shows the signing secret once created', async () => {
    const created = stored({ id: 12, name: 'Ops', authType: 'custom', customHeaderName: 'X-Api-Key' });
    const { calls } = mockApi({
      ...signedInRoutes(),
      [on(webhookOps.createWebhook)]: () =>
        reply(webhookWithSecretSchema, { webhook: created, signingSecret: 'whsec_FullSecretShownOnce' }, 201),
      [on(webhookOps.getWebhook, { id: 12 })]: () => reply(webhookSchema, created),
    });
    const app = renderApp('/system/webhooks/create', { session: makeSession(9) });
    const name = await screen.findByTestId('webhook-name', {}, slow);
    await app.user.type(name, 'Ops');
    await app.user.type(screen.getByTestId('webhook-url'), 'ftp://files.example.com/x');
    // No auth: no secret field.
    expect(screen.queryByTestId('webhook-authSecret')).not.toBeInTheDocument();

    await app.user.selectOptions(screen.getByTestId('webhook-authType'), 'password');
    expect(screen.getByTestId('webhook-authUsername')).toBeInTheDocument();
    expect(screen.getByLabelText(/^Password/)).toBeInTheDocument();
    await app.user.click(screen.getByTestId('webhook-save'));
    expect(await screen.findByText(/Enter an http:\/\/ or https:\/\/ URL/)).toBeInTheDocument();
    expect(screen.getAllByText('Required')).toHaveLength(2);

    await app.user.selectOptions(screen.getByTestId('webhook-authType'), 'custom');
    expect(screen.queryByTestId('webhook-authUsername')).not.toBeInTheDocument();
    await app.user.type(screen.getByTestId('webhook-customHeaderName'), 'Content-Type');
    await app.user.type(screen.getByTestId('webhook-authSecret'), 'key-1');
    await app.user.clear(screen.getByTestId('webhook-url'));
    await app.user.type(screen.getByTestId('webhook-url'), 'https://ops.example.com/hook');
    await app.user.click(screen.getByTestId('webhook-save'));
    expect(await screen.findByText('The portal sets this header itself; choose another name')).toBeInTheDocument();
    await app.user.clear(screen.getByTestId('webhook-customHeaderName'));
    await app.user.type(screen.getByTestId('webhook-customHeaderName'), 'X-Api-Key');
    expect(screen.getByTestId('webhook-level')).toHaveValue('0');
    expect(screen.getByLabelText('Minimum level')).toBeInTheDocument();
    await app.user.selectOptions(screen.getByTestId('webhook-level'), '9');
    // Every kind ticked by default; untick all but two.
    expect(screen.getByText('Notification kinds')).toBeInTheDocument();
    for (const k of [
      'thresholdBreach',
      'taskEvent',
      'hardwareError',
      'flowRunFailed',
      'scheduleFailed',
      'robotOffline',
    ]) {
      expect(screen.getByTestId(`webhook-kind-${k}`)).toBeChecked();
      await app.user.click(screen.getByTestId(`webhook-kind-${k}`));
    }
    expect(screen.getByLabelText('Low battery')).toBeChecked();
    await app.user.click(screen.getByTestId('webhook-save'));

    await waitFor(() => expect(calls.some((c) => c.method === 'POST')).toBe(true));
    expect(calls.find((c) => c.method === 'POST')?.body).toEqual({
      name: 'Ops',
      type: 0,
      url: 'https://ops.example.com/hook',
      authType: 'custom',
      authUsername: '',
      authSecret: 'key-1',
      customHeaderName: 'X-Api-Key',
      status: 1,
      level: 9,
      eventKinds: ['lowBattery', 'emergencyStop'],
    });
    // The edit page opens with the signing secret shown this once.
    expect(await screen.findByTestId('webhook-signing-secret', {}, slow)).toHaveTextContent(
      'whsec_FullSecretShownOnce',
    );
  }, 40_000);

  it('keeps the stored URL and secret on an edit and shows why an errored webhook stopped', async () => {
    const w = stored({
      ...errored,
      authType: 'token',
      authSecret: '••••••9876',
      level: 5,
      eventKinds: ['emergencyStop'],
    });
    const { calls } = mockApi({
      ...signedInRoutes(),
      [on(webhookOps.getWebhook, { id: 8 })]: () => reply(webhookSchema, w),
      [on(webhookOps.updateWebhook, { id: 8 })]: () => reply(webhookSchema, { ...w, status: 1 }),
      [on(webhookOps.listWebhooks)]: () => reply(z.array(webhookSchema), [w]),
    });
    const app = renderApp('/system/webhooks/8', { session: makeSession(9) });
    expect(await screen.findByTestId('webhook-error-state', {}, slow)).toHaveTextContent(
      'Stopped after 5 failed deliveries in a row (The receiver answered HTTP 503)',
    );
    const url = screen.getByTestId('webhook-url');
    expect(url).toHaveValue('');
    expect(url).toHaveAttribute('placeholder', 'http://spider.example.net/••••••vent');
    expect(screen.getByTestId('webhook-authSecret')).toHaveAttribute('placeholder', 'Unchanged');
    expect(screen.getByTestId('webhook-status')).toHaveValue('9');
    expect(screen.getByTestId('webhook-level')).toHaveValue('5');
    expect(screen.getByTestId('webhook-kind-emergencyStop')).toBeChecked();
    expect(screen.getByTestId('webhook-kind-lowBattery')).not.toBeChecked();
    await app.user.selectOptions(screen.getByTestId('webhook-status'), '1');
    await app.user.click(screen.getByTestId('webhook-save'));
    await waitFor(() => expect(calls.some((c) => c.method === 'PATCH')).toBe(true));
    expect(calls.find((c) => c.method === 'PATCH')?.body).toEqual({
      name: 'T-Spider gateway',
      type: 2,
      authType: 'token',
      authUsername: '',
      customHeaderName: '',
      status: 1,
      level: 5,
      eventKinds: ['emergencyStop'],
      updatedAt: w.updatedAt,
    });
  }, 30_000);

  it('tells other operators they may not see webhooks', async () => {
    mockApi({ ...signedInRoutes() });
    renderApp('/system/webhooks/list', { session: makeSession(2) });
    expect(await screen.findByTestId('forbidden', {}, slow)).toBeInTheDocument();
  }, 20_000);
});
