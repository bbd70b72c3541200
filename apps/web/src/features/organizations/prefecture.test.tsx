import { organizationOps, organizationSchema, type Organization } from '@portal/contract';
import { screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { makeSession, signedInRoutes } from '@/testing/fixtures';
import { mockApi, on, reply } from '@/testing/mock-api';
import { renderApp } from '@/testing/render-app';

const slow = { timeout: 10_000 };
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

describe('organization prefecture', { timeout: 60_000 }, () => {
  it('is chosen from the 47 by name and saved as its code', async () => {
    const { calls } = mockApi({
      ...signedInRoutes(),
      [on(organizationOps.getOrganization)]: () => reply(organizationSchema, org()),
      [on(organizationOps.listNotifTargets)]: () => reply(z.array(z.never()), []),
      [on(organizationOps.updateOrganization)]: (call) =>
        reply(organizationSchema, org({ ...(call.body as object), updatedAt: '2025-03-01T00:00:00.000Z' })),
    });
    const app = renderApp('/organization/1', { session: makeSession(9) });
    const prefecture = await screen.findByTestId('org-prefecture', {}, slow);
    expect(prefecture).toHaveValue('Tokyo');
    await app.user.clear(prefecture);
    await app.user.type(prefecture, 'Fuku');
    await app.user.click(await screen.findByRole('option', { name: 'Fukuoka' }));
    await app.user.click(screen.getByTestId('organization-save'));
    await waitFor(() => expect(calls.some((c) => c.method === 'PATCH')).toBe(true));
    expect(calls.find((c) => c.method === 'PATCH')?.body).toMatchObject({ prefecture: '40' });
  });

  it('is named in the list', async () => {
    const res = () => {
      const r = reply(z.array(organizationSchema), [org({ prefecture: '27', city: 'Kita' })]);
      r.headers.set('X-Total-Count', '1');
      return r;
    };
    mockApi({ ...signedInRoutes(), [on(organizationOps.listOrganizations)]: res });
    renderApp('/organization/list', { session: makeSession(9) });
    expect(await screen.findByText('Osaka Kita', {}, slow)).toBeInTheDocument();
  });
});
