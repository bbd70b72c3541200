import { operatorOps, operatorSchema } from '@portal/contract';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act, renderHook } from '@testing-library/react';
import type { ReactNode } from 'react';
import { describe, expect, it } from 'vitest';
import { queryKeys } from '@/lib/query-keys';
import { mockApi, on, reply } from '@/testing/mock-api';
import { useLockOperator } from './lock-operator';

const locked = operatorSchema.parse({
  id: 20,
  loginId: 'taro@example.com',
  firstName: 'Taro',
  lastName: 'Suzuki',
  type: 0,
  organizationId: 1,
  buildingId: 10,
  flowEditRestricted: false,
  exportRestricted: false,
  status: 1,
  authMode: 'none',
  lockedUntil: '9999-12-31T00:00:00.000Z',
  mustChangePassword: false,
  lastLoginAt: null,
  createdAt: '2025-01-01T00:00:00.000Z',
  updatedAt: '2025-01-03T00:00:00.000Z',
});

describe('a change to an operator', () => {
  it('refreshes every view of operators (lists, options of other screens) and keeps the answer as the detail', async () => {
    mockApi({ [on(operatorOps.lockOperator)]: () => reply(operatorSchema, locked) });
    const queryClient = new QueryClient({ defaultOptions: { queries: { staleTime: Infinity, retry: false } } });
    const views = {
      list: queryKeys.operators.list({ limit: 20 }),
      options: queryKeys.operators.options('audit-log'),
      organizations: queryKeys.organizations.options('names'),
    };
    for (const key of Object.values(views)) queryClient.setQueryData(key, []);
    const wrapper = ({ children }: { children: ReactNode }) => (
      <QueryClientProvider client={queryClient}>{children}</QueryClientProvider>
    );
    const { result } = renderHook(() => useLockOperator(), { wrapper });
    await act(() => result.current.mutateAsync(20));
    const invalidated = Object.entries(views)
      .filter(([, key]) => queryClient.getQueryState(key)?.isInvalidated)
      .map(([name]) => name);
    expect(invalidated.sort()).toEqual(['list', 'options']);
    expect(queryClient.getQueryData(queryKeys.operators.detail(20))).toEqual(locked);
  });
});
