import { organizationOps, organizationSchema, type Organization } from '@portal/contract';
import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { makeSession, signedInRoutes } from '@/testing/fixtures';
import { mockApi, on, reply, replyError, type ApiCall } from '@/testing/mock-api';
import { renderApp } from '@/testing/render-app';

const org = (over: Partial<Organization> = {}): Organization =>
  organizationSchema.parse({
    id: 1,
    name: 'Demo Corp',
    type: 0,
    level: 3,
    prefecture: '13',
    city: 'Chiyoda',
    address: '1-1',
    postalCode: '100-0001',
    status: 1,
    labOption: false,
    createdAt: '2025-01-01T00:00:00.000Z',
    updatedAt: '2025-02-01T00:00:00.000Z',
    ...over,
  });

const page = (items: Organization[], total: number) => {
  const res = reply(z.array(organizationSchema), items);
  res.headers.set('X-Total-Count', String(total));
  return res;
};
/** The first screen of a test loads its lazy route (and Mantine) first. */
const slow = { timeout: 5000 };
const filterOf = (call: ApiCall | undefined) => JSON.parse(call?.search.get('filter') ?? 'null') as unknown;

describe('organization list', () => {
  it('sends the page, sort and search of the URL as the filter and shows the rows', async () => {
    const { calls } = mockApi({
      ...signedInRoutes(),
      [on(organizationOps.listOrganizations)]: () => page([org(), org({ id: 2, name: 'Tokyo Annex', type: 1 })], 45),
      [on(organizationOps.listNotifTargets)]: () => reply(z.array(z.never()), []),
    });
    renderApp('/organization/list?page=2&sort=-updatedAt&q=tok', { session: makeSession(9) });
    const table = await screen.findByTestId('organization-table', {}, slow);
    expect(within(table).getByText('Tokyo Annex')).toBeInTheDocument();
    expect(within(table).getByText('Distributor')).toBeInTheDocument();
    expect(filterOf(calls.find((c) => c.path === '/api/organizations'))).toEqual({
      where: { name: { like: '%tok%' } },
      order: 'updatedAt DESC',
      limit: 20,
      skip: 20,
    });
    expect(screen.getByRole('search')).toBeInTheDocument();
    expect(screen.getByDisplayValue('tok')).toBeInTheDocument();
    expect(screen.getByTestId('organization-create')).toBeInTheDocument();
  }, 20_000);

  it('puts sorting and searching into the URL (page back to 1)', async () => {
    const { calls } = mockApi({ ...signedInRoutes(), [on(organizationOps.listOrganizations)]: () => page([org()], 1) });
    const app = renderApp('/organization/list?page=3', { session: makeSession(2) });
    await screen.findByTestId('organization-table', {}, slow);
    expect(screen.queryByTestId('organization-create')).not.toBeInTheDocument();
    await app.user.click(screen.getByTestId('sort-name'));
    await waitFor(() => expect(app.location()).toBe('/organization/list?sort=name'));
    await app.user.click(screen.getByTestId('sort-name'));
    await waitFor(() => expect(app.location()).toBe('/organization/list?sort=-name'));
    await app.user.type(screen.getByTestId('organization-search'), 'demo{Enter}');
    await waitFor(() => expect(app.location()).toBe('/organization/list?sort=-name&q=demo'));
    await waitFor(() =>
      expect(filterOf(calls.filter((c) => c.path === '/api/organizations').at(-1))).toEqual({
        where: { name: { like: '%demo%' } },
        order: 'name DESC',
        limit: 20,
        skip: 0,
      }),
    );
  }, 20_000);

  it('shows an empty state', async () => {
    mockApi({ ...signedInRoutes(), [on(organizationOps.listOrganizations)]: () => page([], 0) });
    renderApp('/organization/list', { session: makeSession(9) });
    expect(await screen.findByTestId('organizations-empty', {}, slow)).toBeInTheDocument();
  }, 20_000);

  it('tells other operators they are not allowed', async () => {
    mockApi(signedInRoutes());
    renderApp('/organization/list', { session: makeSession(1) });
    expect(await screen.findByTestId('forbidden', {}, slow)).toHaveTextContent(
      'Only organization administrators and system administrators can use this page.',
    );
  }, 20_000);
});

describe('organization form', () => {
  it('validates with the contract schema, in the user language', async () => {
    mockApi(signedInRoutes());
    const app = renderApp('/organization/create', { session: makeSession(9) });
    await screen.findByTestId('organization-form', {}, slow);
    await app.user.type(screen.getByTestId('org-postal-code'), '1234567');
    await app.user.click(screen.getByTestId('organization-save'));
    expect(await screen.findByText('Required')).toBeInTheDocument();
    expect(screen.getByText('Enter a postal code like 123-4567')).toBeInTheDocument();
  }, 20_000);

  it('shows a duplicate name under the name field', async () => {
    const { calls } = mockApi({
      ...signedInRoutes(),
      [on(organizationOps.createOrganization)]: () =>
        replyError('DUPLICATE', [{ path: 'name', message: 'validation.duplicate' }]),
    });
    const app = renderApp('/organization/create', { session: makeSession(9) });
    await screen.findByTestId('organization-form', {}, slow);
    await app.user.type(screen.getByTestId('org-name'), 'Demo Corp');
    await app.user.click(screen.getByTestId('organization-save'));
    expect(await screen.findByText('This organization name is already in use')).toBeInTheDocument();
    expect(screen.getByTestId('org-name')).toHaveAttribute('aria-invalid', 'true');
    expect(calls.find((c) => c.method === 'POST')?.body).toMatchObject({ name: 'Demo Corp', type: 0, status: 1 });
  }, 20_000);

  it('on a stale update opens the conflict dialog and keeps what was typed; "show the stored version" starts from it', async () => {
    let stored = org();
    const { calls } = mockApi({
      ...signedInRoutes(),
      [on(organizationOps.getOrganization)]: () => reply(organizationSchema, stored),
      [on(organizationOps.listNotifTargets)]: () => reply(z.array(z.never()), []),
      [on(organizationOps.updateOrganization)]: () => {
        stored = org({ name: 'Renamed elsewhere', updatedAt: '2025-03-01T00:00:00.000Z' });
        return replyError('STALE_UPDATE');
      },
    });
    const app = renderApp('/organization/1', { session: makeSession(2) });
    const name = await screen.findByTestId('org-name', {}, slow);
    // Organization administrators cannot change the system fields.
    expect(screen.getByTestId('org-type')).toBeDisabled();
    await app.user.clear(name);
    await app.user.type(name, 'My new name');
    await app.user.click(screen.getByTestId('organization-save'));
    expect(await screen.findByTestId('conflict-dialog', {}, slow)).toHaveTextContent(
      'Someone else saved this record meanwhile',
    );
    expect(screen.getByTestId('org-name')).toHaveValue('My new name');
    expect(calls.find((c) => c.method === 'PATCH')?.body).toMatchObject({
      name: 'My new name',
      updatedAt: '2025-02-01T00:00:00.000Z',
    });
    await app.user.click(screen.getByTestId('conflict-reload'));
    await waitFor(() => expect(screen.getByTestId('org-name')).toHaveValue('Renamed elsewhere'));
    expect(screen.queryByTestId('conflict-reload')).not.toBeInTheDocument();
  }, 20_000);

  it('"keep my values" after a stale update saves them again over the stored version', async () => {
    let stored = org();
    const { calls } = mockApi({
      ...signedInRoutes(),
      [on(organizationOps.getOrganization)]: () => reply(organizationSchema, stored),
      [on(organizationOps.listNotifTargets)]: () => reply(z.array(z.never()), []),
      [on(organizationOps.updateOrganization)]: (call) => {
        if (calls.filter((c) => c.method === 'PATCH').length === 1) {
          stored = org({ name: 'Renamed elsewhere', updatedAt: '2025-03-01T00:00:00.000Z' });
          return replyError('STALE_UPDATE');
        }
        stored = org({ ...(call.body as object), updatedAt: '2025-04-01T00:00:00.000Z' });
        return reply(organizationSchema, stored);
      },
    });
    const app = renderApp('/organization/1', { session: makeSession(2) });
    const name = await screen.findByTestId('org-name', {}, slow);
    await app.user.clear(name);
    await app.user.type(name, 'My new name');
    await app.user.click(screen.getByTestId('organization-save'));
    await app.user.click(await screen.findByTestId('conflict-keep', {}, slow));
    await waitFor(() => expect(screen.queryByTestId('conflict-keep')).not.toBeInTheDocument());
    expect(screen.getByTestId('org-name')).toHaveValue('My new name');
    await app.user.click(screen.getByTestId('organization-save'));
    await waitFor(() => expect(calls.filter((c) => c.method === 'PATCH')).toHaveLength(2));
    expect(calls.filter((c) => c.method === 'PATCH')[1]?.body).toMatchObject({
      name: 'My new name',
      updatedAt: '2025-03-01T00:00:00.000Z',
    });
    expect(await screen.findByText('Saved')).toBeInTheDocument();
  }, 20_000);

  it('explains IN_USE when a delete is refused', async () => {
    mockApi({
      ...signedInRoutes(),
      [on(organizationOps.getOrganization)]: () => reply(organizationSchema, org()),
      [on(organizationOps.listNotifTargets)]: () => reply(z.array(z.never()), []),
      [on(organizationOps.deleteOrganization)]: () =>
        replyError('IN_USE', [
          { path: 'buildings', message: 'validation.inUse' },
          { path: 'operators', message: 'validation.inUse' },
        ]),
    });
    const app = renderApp('/organization/1', { session: makeSession(9) });
    await app.user.click(await screen.findByTestId('organization-delete', {}, slow));
    await app.user.click(await screen.findByTestId('organization-delete-confirm', {}, slow));
    expect(await screen.findByTestId('delete-in-use', {}, slow)).toHaveTextContent(
      'Still in use by: buildings, operators.',
    );
  }, 20_000);
});
