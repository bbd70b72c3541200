import { notifTargetSchema, organizationOps, organizationSchema } from '@portal/contract';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act, renderHook } from '@testing-library/react';
import type { ReactNode } from 'react';
import { describe, expect, it } from 'vitest';
import { queryKeys } from '@/lib/query-keys';
import { mockApi, noContent, on, reply } from '@/testing/mock-api';
import { useCreateNotifTarget } from './create-notif-target';
import { useDeleteOrganization } from './delete-organization';
import { useUpdateOrganization } from './update-organization';

const org = organizationSchema.parse({
  id: 1,
  name: 'Demo Corp',
  type: 0,
  level: 3,
  prefecture: null,
  city: null,
  address: null,
  postalCode: null,
  status: 1,
  labOption: false,
  createdAt: '2025-01-01T00:00:00.000Z',
  updatedAt: '2025-02-01T00:00:00.000Z',
});
const target = notifTargetSchema.parse({
  id: 5,
  organizationId: 1,
  type: 0,
  level: 5,
  buildingId: null,
  room: '',
  address: 'ops@example.com',
  botLoginId: '',
  botPassword: null,
  spaceId: '',
  language: 'ja',
  createdAt: '2025-01-01T00:00:00.000Z',
  updatedAt: '2025-01-01T00:00:00.000Z',
});

/** A query client holding views of organizations (and of buildings), none of them stale yet. */
function seeded() {
  const queryClient = new QueryClient({ defaultOptions: { queries: { staleTime: Infinity, retry: false } } });
  const views = {
    list: queryKeys.organizations.list({ limit: 20 }),
    options: queryKeys.organizations.options('names'),
    targets: queryKeys.organizations.part(1, 'notif-targets'),
    buildingOptions: queryKeys.buildings.options('of-organization', 1),
  };
  for (const key of Object.values(views)) queryClient.setQueryData(key, []);
  const invalidated = () =>
    Object.entries(views)
      .filter(([, key]) => queryClient.getQueryState(key)?.isInvalidated)
      .map(([name]) => name)
      .sort();
  const wrapper = ({ children }: { children: ReactNode }) => (
    <QueryClientProvider client={queryClient}>{children}</QueryClientProvider>
  );
  return { queryClient, invalidated, wrapper };
}

describe('a change to organizations refreshes every view of them (lists, options, parts), not buildings', () => {
  it('an edit, keeping the answer as the detail', async () => {
    mockApi({ [on(organizationOps.updateOrganization)]: () => reply(organizationSchema, org) });
    const { queryClient, invalidated, wrapper } = seeded();
    const { result } = renderHook(() => useUpdateOrganization(), { wrapper });
    const body = { ...org, prefecture: '', city: '', address: '', postalCode: '' };
    await act(() => result.current.mutateAsync({ id: 1, body }));
    expect(invalidated()).toEqual(['list', 'options', 'targets']);
    expect(queryClient.getQueryData(queryKeys.organizations.detail(1))).toEqual(org);
  });

  it('a deletion', async () => {
    mockApi({ [on(organizationOps.deleteOrganization)]: noContent });
    const { invalidated, wrapper } = seeded();
    const { result } = renderHook(() => useDeleteOrganization(), { wrapper });
    await act(() => result.current.mutateAsync(1));
    expect(invalidated()).toEqual(['list', 'options', 'targets']);
  });

  it('a new notification target', async () => {
    mockApi({ [on(organizationOps.createNotifTarget)]: () => reply(notifTargetSchema, target, 201) });
    const { invalidated, wrapper } = seeded();
    const { result } = renderHook(() => useCreateNotifTarget(), { wrapper });
    const body = {
      type: 0,
      level: 5,
      buildingId: null,
      room: '',
      address: 'ops@example.com',
      botLoginId: '',
      spaceId: '',
    } as const;
    await act(() => result.current.mutateAsync({ organizationId: 1, body }));
    expect(invalidated()).toEqual(['list', 'options', 'targets']);
  });
});
