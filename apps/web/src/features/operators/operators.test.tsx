import {
  buildingOps,
  buildingSchema,
  operatorOps,
  operatorSchema,
  organizationOps,
  organizationSchema,
  type Operator,
} from '@portal/contract';
import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { makeSession, signedInRoutes } from '@/testing/fixtures';
import { mockApi, on, reply, replyError, type Routes } from '@/testing/mock-api';
import { renderApp } from '@/testing/render-app';

const slow = { timeout: 5000 };
const op = (over: Partial<Operator> = {}): Operator =>
  operatorSchema.parse({
    id: 20,
    loginId: 'taro@example.com',
    firstName: 'Taro',
    lastName: 'Suzuki',
    type: 0,
    organizationId: 1,
    organizationName: 'Demo Corp',
    buildingId: 10,
    buildingName: 'Marunouchi Tower',
    flowEditRestricted: false,
    exportRestricted: false,
    status: 1,
    authMode: 'none',
    lockedUntil: null,
    mustChangePassword: false,
    lastLoginAt: null,
    createdAt: '2025-01-01T00:00:00.000Z',
    updatedAt: '2025-01-02T00:00:00.000Z',
    ...over,
  });

const routes = (extra: Routes = {}): Routes => ({
  ...signedInRoutes(),
  [on(buildingOps.listBuildings)]: () =>
    reply(z.array(buildingSchema.partial()), [
      { id: 10, name: 'Marunouchi Tower' },
      { id: 11, name: 'Shinjuku Annex' },
    ]),
  [on(organizationOps.listOrganizations)]: () =>
    reply(z.array(organizationSchema.pick({ id: true, name: true })), [
      { id: 1, name: 'Demo Corp' },
      { id: 2, name: 'Other Inc' },
    ]),
  ...extra,
});

describe('operator list', () => {
  it('sends search, type, building, sort and page of the URL as the filter', async () => {
    const { calls } = mockApi(
      routes({
        [on(operatorOps.listOperators)]: () => {
          const res = reply(z.array(operatorSchema), [op()]);
          res.headers.set('X-Total-Count', '41');
          return res;
        },
      }),
    );
    renderApp('/operator/list?page=3&sort=-lastLoginAt&q=suz&type=0&building=10', { session: makeSession(9) });
    const table = await screen.findByTestId('operator-table', {}, slow);
    expect(within(table).getByText('Suzuki Taro')).toBeInTheDocument();
    expect(within(table).getByText('Demo Corp')).toBeInTheDocument();
    const filter = JSON.parse(calls.find((c) => c.path === '/api/operators')?.search.get('filter') ?? '{}') as unknown;
    expect(filter).toEqual({
      where: {
        and: [
          { or: [{ lastName: { like: '%suz%' } }, { firstName: { like: '%suz%' } }, { loginId: { like: '%suz%' } }] },
          { type: 0 },
          { buildingId: 10 },
        ],
      },
      order: 'lastLoginAt DESC',
      limit: 20,
      skip: 40,
    });
  }, 20_000);

  it('hides the organization column from organization administrators', async () => {
    mockApi(routes({ [on(operatorOps.listOperators)]: () => reply(z.array(operatorSchema), [op()]) }));
    renderApp('/operator/list', { session: makeSession(2) });
    const table = await screen.findByTestId('operator-table', {}, slow);
    expect(within(table).queryByText('Demo Corp')).not.toBeInTheDocument();
  }, 20_000);
});

describe('operator form', () => {
  it('shows the password checklist live and restricts flow editing to general operators', async () => {
    mockApi(routes());
    const app = renderApp('/operator/create', { session: makeSession(9) });
    const password = await screen.findByTestId('op-password', {}, slow);
    const rule = (r: string) => screen.getByTestId(`password-rule-${r}`).getAttribute('data-met');
    expect(rule('length')).toBe('false');
    await app.user.type(password, 'Abcdefgh12');
    expect(rule('length')).toBe('true');
    expect(rule('threeKinds')).toBe('true');
    expect(rule('special')).toBe('false');

    const flowEdit = screen.getByTestId('op-flow-edit');
    expect(flowEdit).toBeEnabled();
    await app.user.click(flowEdit);
    expect(flowEdit).toBeChecked();
    for (const type of ['1', '2', '9']) {
      await app.user.selectOptions(screen.getByTestId('op-type'), type);
      expect(screen.getByTestId('op-flow-edit')).toBeDisabled();
      expect(screen.getByTestId('op-flow-edit')).not.toBeChecked();
    }
    await app.user.selectOptions(screen.getByTestId('op-type'), '0');
    expect(screen.getByTestId('op-flow-edit')).toBeEnabled();
    // Export can be restricted for general operators only: the checkbox is not there for the others.
    await app.user.click(screen.getByTestId('op-export-restricted'));
    expect(screen.getByTestId('op-export-restricted')).toBeChecked();
    await app.user.selectOptions(screen.getByTestId('op-type'), '2');
    expect(screen.queryByTestId('op-export-restricted')).toBeNull();
    await app.user.selectOptions(screen.getByTestId('op-type'), '0');
    expect(screen.getByTestId('op-export-restricted')).not.toBeChecked();
    // System administrators choose the organization.
    expect(screen.getByTestId('op-organization')).toBeEnabled();
  }, 20_000);

  it('does not offer "system administrator" to organization administrators; their organization is fixed', async () => {
    mockApi(routes());
    renderApp('/operator/create', { session: makeSession(2) });
    const type = await screen.findByTestId('op-type', {}, slow);
    const options = within(type)
      .getAllByRole('option')
      .map((o) => o.textContent);
    expect(options).toEqual(['General', 'Area manager', 'Organization administrator']);
    expect(screen.getByTestId('op-organization')).toBeDisabled();
    expect(screen.getByTestId('op-organization')).toHaveValue('1');
  }, 20_000);

  it('shows a duplicate login ID under its field and sends the contract body', async () => {
    const { calls } = mockApi(
      routes({
        [on(operatorOps.createOperator)]: () =>
          replyError('DUPLICATE', [{ path: 'loginId', message: 'validation.duplicate' }]),
      }),
    );
    const app = renderApp('/operator/create', { session: makeSession(2) });
    await app.user.type(await screen.findByTestId('op-login-id', {}, slow), 'taro@example.com');
    await app.user.type(screen.getByTestId('op-last-name'), 'Suzuki');
    await app.user.type(screen.getByTestId('op-first-name'), 'Taro');
    await app.user.type(screen.getByTestId('op-password'), 'Abcdefgh12!');
    await app.user.click(screen.getByTestId('operator-save'));
    expect(await screen.findByText('Required')).toBeInTheDocument(); // the building
    await waitFor(() => expect(screen.getByRole('option', { name: 'Shinjuku Annex' })).toBeInTheDocument());
    await app.user.selectOptions(screen.getByTestId('op-building'), '11');
    await app.user.click(screen.getByTestId('operator-save'));
    expect(await screen.findByText('This login ID is already in use')).toBeInTheDocument();
    expect(calls.find((c) => c.method === 'POST')?.body).toEqual({
      loginId: 'taro@example.com',
      lastName: 'Suzuki',
      firstName: 'Taro',
      password: 'Abcdefgh12!',
      type: 0,
      organizationId: 1,
      buildingId: 11,
      flowEditRestricted: false,
      exportRestricted: false,
    });
  }, 20_000);

  it('keeps the password when left empty and keeps typed values on a stale update', async () => {
    const { calls } = mockApi(
      routes({
        [on(operatorOps.getOperator)]: () => reply(operatorSchema, op()),
        [on(operatorOps.updateOperator)]: () => replyError('STALE_UPDATE'),
      }),
    );
    const app = renderApp('/operator/20', { session: makeSession(2) });
    const last = await screen.findByTestId('op-last-name', {}, slow);
    expect(screen.queryByTestId('password-checklist')).not.toBeInTheDocument();
    await app.user.clear(last);
    await app.user.type(last, 'Sato');
    await app.user.click(screen.getByTestId('operator-save'));
    expect(await screen.findByTestId('conflict-keep')).toBeInTheDocument();
    expect(screen.getByTestId('op-last-name')).toHaveValue('Sato');
    const body = calls.find((c) => c.method === 'PATCH')?.body as Record<string, unknown>;
    expect(body).toMatchObject({ lastName: 'Sato', updatedAt: '2025-01-02T00:00:00.000Z' });
    expect(body).not.toHaveProperty('password');
  }, 20_000);

  it('locks after confirmation and says sessions end at once', async () => {
    // The server's operator is locked from the lock on (the lists and the detail refetch it).
    const locked = op({ lockedUntil: '9999-12-31T00:00:00.000Z', updatedAt: '2025-01-03T00:00:00.000Z' });
    let current = op();
    const { calls } = mockApi(
      routes({
        [on(operatorOps.getOperator)]: () => reply(operatorSchema, current),
        [on(operatorOps.lockOperator)]: () => {
          current = locked;
          return reply(operatorSchema, locked);
        },
      }),
    );
    const app = renderApp('/operator/20', { session: makeSession(2) });
    await app.user.click(await screen.findByTestId('operator-lock', {}, slow));
    expect(await screen.findByRole('dialog')).toHaveTextContent('Their sessions end at once');
    await app.user.click(screen.getByTestId('operator-lock-confirm'));
    expect(await screen.findByTestId('operator-action-done')).toHaveTextContent('The account is locked');
    expect(calls.some((c) => c.method === 'POST' && c.path === '/api/operators/20/lock')).toBe(true);
    expect(await screen.findByTestId('operator-unlock')).toBeInTheDocument();
  }, 20_000);
});
