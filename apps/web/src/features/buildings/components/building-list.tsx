import { Anchor, Badge, Group, NativeSelect, Stack } from '@mantine/core';
import { isSystemAdmin } from '@portal/contract';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { ListSearch, ListTable, type Column } from '@/components/list-page';
import { usePrefectureName } from '@/components/place-fields';
import { paths } from '@/config/paths';
import { useFormat } from '@/lib/format';
import { parseSort, positiveInt, sortParam, useListParams } from '@/lib/list-params';
import { useBuildingsPage } from '../api/get-buildings-page';
import { useOrganizationOptions } from '../api/get-organizations';
import { canManageBuildings } from '../can-manage';
import { BUILDINGS_PER_PAGE, buildingListSchema, buildingSortColumns, defaultBuildingSort } from '../list-params';
import { PageHeader } from '@/components/page-header';

type BuildingRow = NonNullable<ReturnType<typeof useBuildingsPage>['data']>['items'][number];

/** The orders of the "sort by" menu, as `?sort=` writes them. */
const sortChoices = ['-updatedAt', 'updatedAt', 'name', '-name'] as const;

interface BuildingListProps {
  sessionType: number;
  /** The shared building filter, composed by the route. */
  buildingFilter?: ReactNode;
}

export function BuildingList({ sessionType, buildingFilter }: BuildingListProps) {
  const { t } = useTranslation();
  const format = useFormat();
  const prefectureName = usePrefectureName();
  const { params, setParams } = useListParams(buildingListSchema);
  const sysadmin = isSystemAdmin(sessionType);
  const list = useBuildingsPage(params);
  const organizations = useOrganizationOptions(sysadmin);
  const orgName = new Map((organizations.data ?? []).map((o) => [o.id, o.name]));

  const columns: Column<BuildingRow>[] = [
    {
      id: 'name',
      header: t('buildings.columns.name'),
      enableSorting: true,
      cell: ({ row: { original: b } }) =>
        b.id !== undefined ? (
          <Anchor component={Link} to={paths.building.detail.getHref(b.id)} fw={600}>
            {b.name}
          </Anchor>
        ) : (
          b.name
        ),
    },
    {
      id: 'location',
      header: t('buildings.columns.location'),
      cell: ({ row: { original: b } }) => [prefectureName(b.prefecture), b.city].filter(Boolean).join(' '),
    },
    ...(sysadmin
      ? [
          {
            id: 'organization',
            header: t('buildings.columns.organization'),
            cell: ({ row: { original: b } }) =>
              (b.organizationId !== undefined && orgName.get(b.organizationId)) || b.organizationId,
          } satisfies Column<BuildingRow>,
        ]
      : []),
    {
      id: 'status',
      header: t('buildings.columns.status'),
      cell: ({ row: { original: b } }) => (
        <Badge variant="light" color={b.status === 1 ? 'green' : 'gray'}>
          {t(`buildings.statuses.${b.status === 0 ? '0' : '1'}`)}
        </Badge>
      ),
    },
    {
      id: 'ipRestriction',
      header: t('buildings.columns.ipRestriction'),
      cell: ({ row: { original: b } }) => (
        <Badge variant={b.ipRestrictionEnabled ? 'filled' : 'outline'} color={b.ipRestrictionEnabled ? 'blue' : 'gray'}>
          {b.ipRestrictionEnabled ? t('buildings.on') : t('buildings.off')}
        </Badge>
      ),
    },
    {
      id: 'updatedAt',
      header: t('buildings.columns.updatedAt'),
      enableSorting: true,
      cell: ({ row: { original: b } }) => (b.updatedAt ? format.dateTime(b.updatedAt) : ''),
    },
  ];

  return (
    <Stack>
      <PageHeader
        title={t('buildings.listTitle')}
        create={
          canManageBuildings(sessionType) && {
            to: paths.building.create.getHref(),
            label: t('buildings.create'),
            testId: 'building-create',
          }
        }
      />
      <Group align="flex-end" wrap="wrap">
        <ListSearch
          value={params.q}
          onSearch={(q) => setParams({ q })}
          label={t('buildings.search')}
          buttonLabel={t('buildings.searchSubmit')}
          type="search"
          gap="xs"
          testId="building-search"
        />
        {sysadmin && (
          <NativeSelect
            label={t('buildings.organizationFilter')}
            value={params.organization === null ? '' : String(params.organization)}
            onChange={(e) => setParams({ organization: positiveInt(e.currentTarget.value) })}
            data={[
              { value: '', label: t('buildings.allOrganizations') },
              ...(organizations.data ?? []).map((o) => ({ value: String(o.id), label: o.name ?? String(o.id) })),
            ]}
            data-testid="organization-filter"
          />
        )}
        {buildingFilter}
        <NativeSelect
          label={t('buildings.sortBy')}
          miw={220}
          value={sortParam(params.sort ?? defaultBuildingSort)}
          onChange={(e) => setParams({ sort: parseSort(e.currentTarget.value, buildingSortColumns) })}
          data={sortChoices.map((s) => ({ value: s, label: t(`buildings.sorts.${s}`) }))}
        />
      </Group>
      <ListTable
        query={list}
        empty={t('buildings.empty')}
        emptyHint={t('buildings.emptyHint')}
        emptyTestId="building-empty"
        count={(count) => t('buildings.total', { count })}
        columns={columns}
        rowId={(b) => b.id ?? `${b.name}`}
        sort={params.sort}
        onSort={(sort) => setParams({ sort })}
        paging={{ page: params.page, perPage: BUILDINGS_PER_PAGE, onPage: (page) => setParams({ page }) }}
        minWidth={720}
        data-testid="building-table"
      />
    </Stack>
  );
}
