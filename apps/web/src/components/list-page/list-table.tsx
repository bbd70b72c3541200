import { Text } from '@mantine/core';
import type { ReactNode } from 'react';
import { DataTable, type DataTableProps } from './data-table';
import { ListPager, type ListPaging } from './list-pager';
import { listItems, ListStates, type ListData, type ListStatesProps } from './list-states';

export interface ListTableProps<T, C extends string>
  extends Omit<DataTableProps<T, C>, 'data'>, Omit<ListStatesProps<ListData<T>>, 'children'> {
  /** The count line above the table ("45 buildings"); a paged list's total, an unpaged list's length. */
  count?: (count: number) => ReactNode;
  /** Server paging: the page numbers under the table (a paged query). */
  paging?: ListPaging;
  /** Rows shown of an unpaged list (a filter applied in the page); all of them unless given. */
  rows?: (items: T[]) => T[];
  /** Stands instead of the table when `rows` leaves none ("no match"). */
  noMatch?: ReactNode;
}

/**
 * A list query as a table: loading, error and empty states, the count, the column-defined table and the
 * page numbers. Striped, bordered, `xs` row spacing unless told otherwise.
 */
export function ListTable<T, C extends string = string>({
  query,
  empty,
  emptyHint,
  emptyTestId,
  loading,
  count,
  paging,
  rows,
  noMatch,
  striped = true,
  withTableBorder = true,
  verticalSpacing = 'xs',
  ...table
}: ListTableProps<T, C>) {
  return (
    <ListStates query={query} empty={empty} emptyHint={emptyHint} emptyTestId={emptyTestId} loading={loading}>
      {(data) => {
        const all = listItems(data);
        const shown = rows ? rows(all) : all;
        const total = Array.isArray(data) ? data.length : data.total;
        return (
          <>
            {count && (
              <Text size="sm" c="dimmed" aria-live="polite">
                {count(total)}
              </Text>
            )}
            {shown.length === 0 && noMatch !== undefined ? (
              <Text c="dimmed">{noMatch}</Text>
            ) : (
              <DataTable
                data={shown}
                striped={striped}
                withTableBorder={withTableBorder}
                verticalSpacing={verticalSpacing}
                {...table}
              />
            )}
            {paging && <ListPager {...paging} total={total} />}
          </>
        );
      }}
    </ListStates>
  );
}
