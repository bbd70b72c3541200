import { Anchor, Badge, Button, Group, NativeSelect, Stack } from '@mantine/core';
import { operatorTypeSchema, type Operator } from '@portal/contract';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { ListSearch, ListTable, type Column } from '@/components/list-page';
import { paths } from '@/config/paths';
import { useFormat } from '@/lib/format';
import { useListParams } from '@/lib/list-params';
import { useOperators } from '../api/get-operators';
import { OPERATORS_PER_PAGE, operatorListSchema } from '../list-params';
import { isLocked } from './operator-actions';
import { PageHeader } from '@/components/page-header';

interface OperatorListProps {
  /** System administrators see every organization, so the list shows each operator's. */
  showOrganization: boolean;
  /** The building filter bound to `?building=` (composed by the route). */
  buildingFilter: ReactNode;
}

function StatusBadges({ o }: { o: Operator }) {
  const { t } = useTranslation();
  return (
    <Group gap={4}>
      {isLocked(o) ? (
        <Badge color="red" variant="light">
          {t('people.op.locked')}
        </Badge>
      ) : o.status === 1 ? (
        <Badge color="green" variant="light">
          {t('people.op.active')}
        </Badge>
      ) : (
        <Badge color="gray" variant="light">
          {t('people.op.inactive')}
        </Badge>
      )}
      {o.mustChangePassword && (
        <Badge color="orange" variant="light">
          {t('people.op.mustChangePassword')}
        </Badge>
      )}
    </Group>
  );
}

/** Operators with server paging, sorting, search and filters; the state is the URL. */
export function OperatorList({ showOrganization, buildingFilter }: OperatorListProps) {
  const { t } = useTranslation();
  const format = useFormat();
  const { params, setParams } = useListParams(operatorListSchema);
  const list = useOperators(params);

  const columns: Column<Operator>[] = [
    {
      id: 'lastName',
      header: t('people.op.name'),
      enableSorting: true,
      cell: ({ row: { original: o } }) => (
        <Anchor component={Link} to={paths.operator.detail.getHref(o.id)}>
          {t('people.op.fullName', { lastName: o.lastName, firstName: o.firstName })}
        </Anchor>
      ),
    },
    { id: 'loginId', header: t('people.op.loginId'), enableSorting: true, cell: ({ row }) => row.original.loginId },
    {
      id: 'type',
      header: t('people.op.type'),
      enableSorting: true,
      cell: ({ row }) => t(`people.op.types.${row.original.type}`),
    },
    ...(showOrganization
      ? [
          {
            id: 'organization',
            header: t('people.op.organization'),
            cell: ({ row: { original: o } }) => o.organizationName ?? `#${o.organizationId}`,
          } satisfies Column<Operator>,
        ]
      : []),
    {
      id: 'buildingId',
      header: t('people.op.building'),
      enableSorting: true,
      cell: ({ row: { original: o } }) => o.buildingName ?? (o.buildingId === null ? '' : `#${o.buildingId}`),
    },
    {
      id: 'status',
      header: t('people.op.statusColumn'),
      enableSorting: true,
      cell: ({ row }) => <StatusBadges o={row.original} />,
    },
    {
      id: 'lastLoginAt',
      header: t('people.op.lastLogin'),
      enableSorting: true,
      cell: ({ row: { original: o } }) => (o.lastLoginAt ? format.dateTime(o.lastLoginAt) : t('people.op.never')),
    },
  ];

  return (
    <Stack>
      <PageHeader
        title={t('people.op.listTitle')}
        create={{ to: paths.operator.create.getHref(), label: t('people.create'), testId: 'operator-create' }}
      />
      <Group align="flex-end" wrap="wrap">
        <ListSearch
          value={params.q}
          onSearch={(q) => setParams({ q })}
          label={t('people.search')}
          placeholder={t('people.op.searchHint')}
          testId="operator-search"
          width={240}
        />
        <NativeSelect
          label={t('people.op.type')}
          value={params.type === null ? '' : String(params.type)}
          onChange={(e) => {
            const v = operatorTypeSchema.safeParse(Number(e.currentTarget.value));
            setParams({ type: e.currentTarget.value !== '' && v.success ? v.data : null });
          }}
          data={[
            { value: '', label: t('people.op.allTypes') },
            ...operatorTypeSchema.options.map((o) => ({
              value: String(o.value),
              label: t(`people.op.types.${o.value}`),
            })),
          ]}
          data-testid="operator-type-filter"
        />
        {buildingFilter}
        {(params.q || params.type !== null || params.building !== null) && (
          <Button variant="subtle" onClick={() => setParams({ q: '', type: null, building: null })}>
            {t('people.clear')}
          </Button>
        )}
      </Group>
      <ListTable
        query={list}
        empty={t('people.empty')}
        emptyTestId="operators-empty"
        count={(count) => t('people.total', { count })}
        columns={columns}
        rowId={(o) => o.id}
        sort={params.sort}
        onSort={(sort) => setParams({ sort })}
        paging={{ page: params.page, perPage: OPERATORS_PER_PAGE, onPage: (page) => setParams({ page }) }}
        minWidth={960}
        highlightOnHover
        data-testid="operator-table"
      />
    </Stack>
  );
}
