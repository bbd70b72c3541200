import { Text } from '@mantine/core';
import type { UseQueryResult } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { PageLoader } from '../page-loader';
import { QueryError } from '../query-error';

interface ListStatesProps<T> {
  query: UseQueryResult<{ items: T[]; total: number }>;
  /** The text when the list is empty (dimmed), with its test id. */
  empty: ReactNode;
  emptyTestId?: string;
  /** What stands while loading (the page loader unless given). */
  loading?: ReactNode;
  children: (page: { items: T[]; total: number }) => ReactNode;
}

/** A list's loading, error (with retry), empty and loaded states. */
export function ListStates<T>({ query, empty, emptyTestId, loading, children }: ListStatesProps<T>) {
  if (query.isPending) return loading ?? <PageLoader />;
  if (query.isError) return <QueryError error={query.error} onRetry={() => void query.refetch()} />;
  if (query.data.items.length === 0)
    return (
      <Text c="dimmed" data-testid={emptyTestId}>
        {empty}
      </Text>
    );
  return children(query.data);
}
