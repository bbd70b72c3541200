import { MantineProvider } from '@mantine/core';
import { QueryClient, QueryClientProvider, useQuery } from '@tanstack/react-query';
import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { ReactNode } from 'react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { listParam, readListParams, writeListParams } from '@/lib/list-params';
import type { Column } from './data-table';
import { ListTable } from './list-table';

interface Row {
  id: number;
  name: string;
}
const rows = (n: number, from = 1): Row[] =>
  Array.from({ length: n }, (_, i) => ({ id: from + i, name: `r${from + i}` }));
const columns: Column<Row>[] = [
  { id: 'name', header: 'Name', enableSorting: true, meta: { rowHeader: true }, cell: ({ row }) => row.original.name },
  { id: 'id', header: 'Id', cell: ({ row }) => row.original.id },
];

/** Renders `ui` in a router at `/list` (and `/list/:page`), with a query client. */
function setup(ui: () => ReactNode, initial = '/list') {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  const router = createMemoryRouter(
    [
      { path: '/list', element: ui() },
      { path: '/list/:page', element: ui() },
    ],
    { initialEntries: [initial] },
  );
  render(
    <MantineProvider env="test">
      <QueryClientProvider client={client}>
        <RouterProvider router={router} />
      </QueryClientProvider>
    </MantineProvider>,
  );
  return { router, user: userEvent.setup() };
}

function Paged(props: { fetch: () => Promise<{ items: Row[]; total: number }>; onPage?: (p: number) => void }) {
  const query = useQuery({ queryKey: ['paged'], queryFn: props.fetch });
  return (
    <ListTable
      query={query}
      empty="Nothing"
      emptyHint="Add one"
      emptyTestId="empty"
      count={(n) => `${n} rows`}
      columns={columns}
      rowId={(r) => r.id}
      sort={{ column: 'name', desc: true }}
      onSort={() => undefined}
      paging={{ page: 1, perPage: 2, onPage: props.onPage }}
      data-testid="table"
    />
  );
}

describe('ListTable', () => {
  it('shows the count, the rows (row headers where the column says so), the sort and the pager', async () => {
    const onPage = vi.fn();
    const { user } = setup(() => <Paged fetch={() => Promise.resolve({ items: rows(2), total: 5 })} onPage={onPage} />);
    const table = await screen.findByTestId('table');
    expect(screen.getByText('5 rows')).toBeInTheDocument();
    expect(within(table).getByRole('rowheader', { name: 'r1' })).toBeInTheDocument();
    expect(within(table).getByRole('columnheader', { name: /Name/ })).toHaveAttribute('aria-sort', 'descending');
    await user.click(screen.getByRole('button', { name: 'Page 3' }));
    expect(onPage).toHaveBeenCalledWith(3);
  });

  it('shows an empty list as a title with its hint', async () => {
    setup(() => <Paged fetch={() => Promise.resolve({ items: [], total: 0 })} />);
    const empty = await screen.findByTestId('empty');
    expect(empty).toHaveTextContent('Nothing');
    expect(empty).toHaveTextContent('Add one');
    expect(screen.queryByTestId('table')).toBeNull();
  });

  it('shows a failed load with a retry button', async () => {
    setup(() => <Paged fetch={() => Promise.reject(new Error('boom'))} />);
    expect(await screen.findByRole('alert')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Retry' })).toBeInTheDocument();
  });

  it('an unpaged list: its length as count and a local filter', async () => {
    function Local({ q }: { q: string }) {
      const query = useQuery({ queryKey: ['local'], queryFn: () => Promise.resolve(rows(3)) });
      return (
        <ListTable
          query={query}
          empty="Nothing"
          count={(n) => `${n} rows`}
          rows={(items) => items.filter((r) => r.name.includes(q))}
          noMatch="No match"
          columns={columns}
          rowId={(r) => r.id}
          data-testid="table"
        />
      );
    }
    setup(() => <Local q="r2" />);
    expect(await screen.findByText('3 rows')).toBeInTheDocument();
    expect(within(screen.getByTestId('table')).getAllByRole('row')).toHaveLength(2);
  });

  it('shows "no match" when the local filter leaves nothing', async () => {
    function Local() {
      const query = useQuery({ queryKey: ['local'], queryFn: () => Promise.resolve(rows(3)) });
      return (
        <ListTable
          query={query}
          empty="Nothing"
          rows={() => []}
          noMatch="No match"
          columns={columns}
          rowId={(r) => r.id}
        />
      );
    }
    setup(() => <Local />);
    expect(await screen.findByText('No match')).toBeInTheDocument();
    expect(screen.queryByRole('table')).toBeNull();
  });

  it('a page held in the path: the pager goes to its address', async () => {
    function PathPaged() {
      const query = useQuery({ queryKey: ['path'], queryFn: () => Promise.resolve({ items: rows(2), total: 4 }) });
      return (
        <ListTable
          query={query}
          empty="Nothing"
          columns={columns}
          rowId={(r) => r.id}
          paging={{ page: 1, perPage: 2, pageHref: (p) => `/list/${p}` }}
        />
      );
    }
    const { router, user } = setup(() => <PathPaged />);
    await user.click(await screen.findByRole('button', { name: 'Page 2' }));
    expect(router.state.location.pathname).toBe('/list/2');
  });
});

describe('listParam.sort with a fallback', () => {
  const schema = z.object({
    sort: listParam.sort(['name', 'updatedAt'] as const, { column: 'updatedAt', desc: true }),
  });

  it('reads the fallback for an absent or invalid sort and leaves it out of the URL', () => {
    expect(readListParams(schema, new URLSearchParams(''))).toEqual({ sort: { column: 'updatedAt', desc: true } });
    expect(readListParams(schema, new URLSearchParams('sort=nope'))).toEqual({
      sort: { column: 'updatedAt', desc: true },
    });
    expect(writeListParams(schema, { sort: { column: 'updatedAt', desc: true } }).toString()).toBe('');
    expect(writeListParams(schema, { sort: { column: 'updatedAt', desc: false } }).toString()).toBe('sort=updatedAt');
    expect(readListParams(schema, new URLSearchParams('sort=-name'))).toEqual({ sort: { column: 'name', desc: true } });
  });
});
