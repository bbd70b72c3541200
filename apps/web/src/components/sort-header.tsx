import { Table, UnstyledButton } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { Sort } from '@/lib/list-params';

interface SortHeaderProps<C extends string> {
  column: C;
  label: string;
  sort: Sort<C> | null;
  onSort: (sort: Sort<C>) => void;
}

/** A column header that sorts the list by its column (again: the other way round). */
export function SortHeader<C extends string>({ column, label, sort, onSort }: SortHeaderProps<C>) {
  const { t } = useTranslation();
  const active = sort?.column === column;
  const desc = active && sort.desc;
  return (
    <Table.Th aria-sort={active ? (desc ? 'descending' : 'ascending') : 'none'}>
      <UnstyledButton
        fw={600}
        fz="sm"
        onClick={() => onSort({ column, desc: active ? !sort.desc : false })}
        aria-label={`${t('people.sortBy', { column: label })}${active ? ` (${t(desc ? 'people.sortedDesc' : 'people.sortedAsc')})` : ''}`}
        data-testid={`sort-${column}`}
      >
        {label} <span aria-hidden="true">{active ? (desc ? '▼' : '▲') : '↕'}</span>
      </UnstyledButton>
    </Table.Th>
  );
}
