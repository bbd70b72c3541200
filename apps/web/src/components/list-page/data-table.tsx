import { Table, type TableProps } from '@mantine/core';
import {
  flexRender,
  getCoreRowModel,
  useReactTable,
  type ColumnDef,
  type RowData,
  type SortingState,
} from '@tanstack/react-table';
import type { Sort } from '@/lib/list-params';
import { SortHeader } from '../sort-header';

declare module '@tanstack/react-table' {
  // eslint-disable-next-line @typescript-eslint/no-unused-vars
  interface ColumnMeta<TData extends RowData, TValue> {
    /** The header cell's own props (`th`): width. */
    headerProps?: Record<string, unknown>;
    /** The cells' own props (`td`): width, alignment, style. */
    cellProps?: Record<string, unknown>;
    /** The column names its row: its cells are row headers (`th scope="row"`). */
    rowHeader?: boolean;
  }
}

/**
 * A column of a {@link DataTable}: `id`, `header`, `cell`; `enableSorting: true` makes the header a sort
 * button for the server's sort column `id` (the header is then a text).
 */
export type Column<T> = ColumnDef<T, unknown>;

export interface DataTableProps<T, C extends string> extends Omit<TableProps, 'data'> {
  data: T[];
  columns: Column<T>[];
  /** The row key. */
  rowId: (row: T) => string | number;
  /** The server's sort (columns with `enableSorting: true` get a sort header). */
  sort?: Sort<C> | null;
  onSort?: (sort: Sort<C>) => void;
  /** Wraps the table in a horizontal scroll container of this minimum width. */
  minWidth?: number;
  /** Props of each row (`tr`), e.g. a test id. */
  rowProps?: (row: T) => Record<string, unknown>;
}

/**
 * The list table: columns defined once (TanStack Table in manual mode: the server pages and sorts, the
 * table only lays out), Mantine's table around them.
 */
export function DataTable<T, C extends string = string>({
  data,
  columns,
  rowId,
  sort = null,
  onSort,
  minWidth,
  rowProps,
  ...tableProps
}: DataTableProps<T, C>) {
  const sorting: SortingState = sort ? [{ id: sort.column, desc: sort.desc }] : [];
  // eslint-disable-next-line react-hooks/incompatible-library -- the table is rebuilt with each render, as it should.
  const table = useReactTable({
    data,
    columns,
    getCoreRowModel: getCoreRowModel(),
    getRowId: (row) => String(rowId(row)),
    manualSorting: true,
    manualPagination: true,
    state: { sorting },
  });
  const body = (
    <Table {...tableProps}>
      <Table.Thead>
        {table.getHeaderGroups().map((group) => (
          <Table.Tr key={group.id}>
            {group.headers.map((header) => {
              const def = header.column.columnDef;
              return def.enableSorting === true && onSort && typeof def.header === 'string' ? (
                <SortHeader
                  key={header.id}
                  column={header.column.id as C}
                  label={def.header}
                  sort={sort}
                  onSort={onSort}
                />
              ) : (
                <Table.Th key={header.id} {...def.meta?.headerProps}>
                  {flexRender(def.header, header.getContext())}
                </Table.Th>
              );
            })}
          </Table.Tr>
        ))}
      </Table.Thead>
      <Table.Tbody>
        {table.getRowModel().rows.map((row) => (
          <Table.Tr key={row.id} {...rowProps?.(row.original)}>
            {row.getVisibleCells().map((cell) => {
              const { meta, cell: content } = cell.column.columnDef;
              const Cell = meta?.rowHeader ? Table.Th : Table.Td;
              return (
                <Cell key={cell.id} {...(meta?.rowHeader ? { scope: 'row' } : {})} {...meta?.cellProps}>
                  {flexRender(content, cell.getContext())}
                </Cell>
              );
            })}
          </Table.Tr>
        ))}
      </Table.Tbody>
    </Table>
  );
  return minWidth === undefined ? body : <Table.ScrollContainer minWidth={minWidth}>{body}</Table.ScrollContainer>;
}
