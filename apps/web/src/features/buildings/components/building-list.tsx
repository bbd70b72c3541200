import { Anchor, Badge, Button, Group, NativeSelect, Stack, Table, Text, Title, UnstyledButton } from '@mantine/core';
import { isSystemAdmin } from '@portal/contract';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { z } from 'zod';
import { ListSearch } from '@/components/list-page';
import { PageLoader } from '@/components/page-loader';
import { QueryError } from '@/components/query-error';
import { paths } from '@/config/paths';
import { useFormat } from '@/lib/format';
import { listParam, positiveInt, urlParam, useListParams } from '@/lib/list-params';
import {
  BUILDINGS_PER_PAGE,
  buildingSorts,
  useBuildingsPage,
  type BuildingListState,
  type BuildingSort,
} from '../api/get-buildings-page';
import { useOrganizationOptions } from '../api/get-organizations';
import { canManageBuildings } from '../can-manage';
import { Pager } from '@/components/pager';

/** The list state lives in the URL: ?page=&sort=&q=&organization=&building=. */
const buildingListSchema = z.object({
  page: listParam.page(),
  sort: urlParam<BuildingSort>(
    (raw) => buildingSorts.find((s) => s === raw) ?? '-updatedAt',
    (sort) => (sort === '-updatedAt' ? undefined : sort),
  ),
  q: listParam.text(),
  organization: listParam.id(),
  building: listParam.id(),
});

interface BuildingListProps {
  sessionType: number;
  /** The shared building filter, composed by the route. */
  buildingFilter?: ReactNode;
}

export function BuildingList({ sessionType, buildingFilter }: BuildingListProps) {
  const { t } = useTranslation();
  const format = useFormat();
  const { params, setParams } = useListParams(buildingListSchema);
  const state: BuildingListState = {
    page: params.page,
    sort: params.sort,
    q: params.q,
    organizationId: params.organization,
    buildingId: params.building,
  };
  const sysadmin = isSystemAdmin(sessionType);
  const list = useBuildingsPage(state);
  const organizations = useOrganizationOptions(sysadmin);
  const orgName = new Map((organizations.data ?? []).map((o) => [o.id, o.name]));

  const sortHeader = (field: 'name' | 'updatedAt', label: string) => {
    const active = state.sort === field ? 'ascending' : state.sort === `-${field}` ? 'descending' : 'none';
    const next: BuildingSort = state.sort === field ? `-${field}` : field;
    return (
      <Table.Th aria-sort={active}>
        <UnstyledButton
          onClick={() => setParams({ sort: next })}
          aria-label={t('buildings.sortColumn', { column: label })}
          fw={700}
          fz="sm"
        >
          {label} {active === 'ascending' ? '▲' : active === 'descending' ? '▼' : ''}
        </UnstyledButton>
      </Table.Th>
    );
  };

  return (
    <Stack>
      <Group justify="space-between">
        <Title order={1} size="h2">
          {t('buildings.listTitle')}
        </Title>
        {canManageBuildings(sessionType) && (
          <Button component={Link} to={paths.building.create.getHref()} data-testid="building-create">
            {t('buildings.create')}
          </Button>
        )}
      </Group>
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
            value={state.organizationId === null ? '' : String(state.organizationId)}
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
          value={state.sort}
          onChange={(e) => setParams({ sort: buildingSorts.find((v) => v === e.currentTarget.value) ?? '-updatedAt' })}
          data={buildingSorts.map((s) => ({ value: s, label: t(`buildings.sorts.${s}`) }))}
        />
      </Group>
      {list.isPending ? (
        <PageLoader />
      ) : list.isError ? (
        <QueryError error={list.error} onRetry={() => void list.refetch()} />
      ) : list.data.items.length === 0 ? (
        <Stack gap={4} py="lg" data-testid="building-empty">
          <Text fw={600}>{t('buildings.empty')}</Text>
          <Text c="dimmed" size="sm">
            {t('buildings.emptyHint')}
          </Text>
        </Stack>
      ) : (
        <>
          <Text size="sm" c="dimmed" aria-live="polite">
            {t('buildings.total', { count: list.data.total })}
          </Text>
          <Table.ScrollContainer minWidth={720}>
            <Table striped withTableBorder verticalSpacing="xs" data-testid="building-table">
              <Table.Thead>
                <Table.Tr>
                  {sortHeader('name', t('buildings.columns.name'))}
                  <Table.Th>{t('buildings.columns.location')}</Table.Th>
                  {sysadmin && <Table.Th>{t('buildings.columns.organization')}</Table.Th>}
                  <Table.Th>{t('buildings.columns.status')}</Table.Th>
                  <Table.Th>{t('buildings.columns.ipRestriction')}</Table.Th>
                  {sortHeader('updatedAt', t('buildings.columns.updatedAt'))}
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {list.data.items.map((b) => (
                  <Table.Tr key={b.id}>
                    <Table.Td>
                      {b.id !== undefined ? (
                        <Anchor component={Link} to={paths.building.detail.getHref(b.id)} fw={600}>
                          {b.name}
                        </Anchor>
                      ) : (
                        b.name
                      )}
                    </Table.Td>
                    <Table.Td>{[b.prefecture, b.city].filter(Boolean).join(' ')}</Table.Td>
                    {sysadmin && (
                      <Table.Td>
                        {(b.organizationId !== undefined && orgName.get(b.organizationId)) || b.organizationId}
                      </Table.Td>
                    )}
                    <Table.Td>
                      <Badge variant="light" color={b.status === 1 ? 'green' : 'gray'}>
                        {t(`buildings.statuses.${b.status === 0 ? '0' : '1'}`)}
                      </Badge>
                    </Table.Td>
                    <Table.Td>
                      <Badge
                        variant={b.ipRestrictionEnabled ? 'filled' : 'outline'}
                        color={b.ipRestrictionEnabled ? 'blue' : 'gray'}
                      >
                        {b.ipRestrictionEnabled ? t('buildings.on') : t('buildings.off')}
                      </Badge>
                    </Table.Td>
                    <Table.Td>{b.updatedAt ? format.dateTime(b.updatedAt) : ''}</Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
          <Pager
            page={state.page}
            total={list.data.total}
            perPage={BUILDINGS_PER_PAGE}
            onChange={(page) => setParams({ page })}
          />
        </>
      )}
    </Stack>
  );
}
