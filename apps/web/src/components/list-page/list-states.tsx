import { Stack, Text } from '@mantine/core';
import type { UseQueryResult } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { PageLoader } from '../page-loader';
import { QueryError } from '../query-error';

/** What a list query answers: a page of rows with the total, or all the rows (a list without paging). */
export type ListData<T> = { items: T[]; total: number } | T[];

/** The rows of a list query's answer. */
export const listItems = <T,>(data: ListData<T>): T[] => (Array.isArray(data) ? data : data.items);

interface EmptyStateProps {
  /** The text (dimmed), or the title when a hint follows. */
  children: ReactNode;
  /** A second line under a bold title (what to do about it). */
  hint?: ReactNode;
  testId?: string;
}

/** An empty list: a dimmed text, or a bold title with a dimmed hint. */
export function EmptyState({ children, hint, testId }: EmptyStateProps) {
  if (hint === undefined)
    return (
      <Text c="dimmed" data-testid={testId}>
        {children}
      </Text>
    );
  return (
    <Stack gap={4} py="lg" data-testid={testId}>
      <Text fw={600}>{children}</Text>
      <Text c="dimmed" size="sm">
        {hint}
      </Text>
    </Stack>
  );
}

export interface ListStatesProps<D extends ListData<unknown>> {
  query: UseQueryResult<D>;
  /** The text when the list is empty (dimmed), with its test id. */
  empty: ReactNode;
  /** A hint under the empty text (the empty text is then a bold title). */
  emptyHint?: ReactNode;
  emptyTestId?: string;
  /** What stands while loading (the page loader unless given). */
  loading?: ReactNode;
  children: (data: D) => ReactNode;
}

/** A list's loading, error (with retry), empty and loaded states; paged (`{ items, total }`) or not (an array). */
export function ListStates<D extends ListData<unknown>>({
  query,
  empty,
  emptyHint,
  emptyTestId,
  loading,
  children,
}: ListStatesProps<D>) {
  if (query.isPending) return loading ?? <PageLoader />;
  if (query.isError) return <QueryError error={query.error} onRetry={() => void query.refetch()} />;
  if (listItems(query.data).length === 0)
    return (
      <EmptyState hint={emptyHint} testId={emptyTestId}>
        {empty}
      </EmptyState>
    );
  return children(query.data);
}
