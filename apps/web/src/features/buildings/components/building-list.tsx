import {
  Anchor,
  Badge,
  Button,
  Group,
  NativeSelect,
  Stack,
  Table,
  Text,
  TextInput,
  Title,
  UnstyledButton,
} from '@mantine/core';
import { isSystemAdmin } from '@portal/contract';
import { useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router';
import { PageLoader } from '@/components/page-loader';
import { QueryError } from '@/components/query-error';
import { paths } from '@/config/paths';
import { useFormat } from '@/lib/format';
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

const positiveInt = (v: string | null): number | null => {
  const n = Number(v);
  return v !== null && Number.isInteger(n) && n >= 1 ? n : null;
};
const isSort = (v: string | null): v is BuildingSort => (buildingSorts as readonly (string | null)[]).includes(v);

/** The list state lives in the URL: ?page=&sort=&q=&organization=&building=. */
export function listStateFrom(params: URLSearchParams): BuildingListState {
  const sort = params.get('sort');
  return {
    page: positiveInt(params.get('page')) ?? 1,
    sort: isSort(sort) ? sort : '-updatedAt',
    q: params.get('q') ?? '',
    organizationId: positiveInt(params.get('organization')),
    buildingId: positiveInt(params.get('building')),
  };
}

interface BuildingListProps {
  sessionType: number;
  /** The shared building filter, composed by the route. */
  buildingFilter?: ReactNode;
}

export function BuildingList({ sessionType, buildingFilter }: BuildingListProps) {
  const { t } = useTranslation();
  const format = useFormat();
  const [params, setParams] = useSearchParams();
  const state = listStateFrom(params);
  const sysadmin = isSystemAdmin(sessionType);
  const list = useBuildingsPage(state);
  const organizations = useOrganizationOptions(sysadmin);
  const [q, setQ] = useState(state.q);
  const orgName = new Map((organizations.data ?? []).map((o) => [o.id, o.name]));

  const update = (changes: Record<string, string | null>, keepPage = false) =>
    setParams((prev) => {
      const out = new URLSearchParams(prev);
      for (const [k, v] of Object.entries(changes)) {
        if (v === null || v === '') out.delete(k);
        else out.set(k, v);
      }
      if (!keepPage) out.delete('page');
      return out;
    });

  const sortHeader = (field: 'name' | 'updatedAt', label: string) => {
    const active = state.sort === field ? 'ascending' : state.sort === `-${field}` ? 'descending' : 'none';
    const next = state.sort === field ? `-${field}` : field;
    return (
      <Table.Th aria-sort={active}>
        <UnstyledButton
          onClick={() => update({ sort: next })}
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
        <form
          role="search"
          onSubmit={(e) => {
            e.preventDefault();
            update({ q: q.trim() });
          }}
        >
          <Group align="flex-end" gap="xs">
            <TextInput
              label={t('buildings.search')}
              type="search"
              value={q}
              onChange={(e) => setQ(e.currentTarget.value)}
              data-testid="building-search"
            />
            <Button type="submit" variant="light">
              {t('buildings.searchSubmit')}
            </Button>
          </Group>
        </form>
        {sysadmin && (
          <NativeSelect
            label={t('buildings.organizationFilter')}
            value={state.organizationId === null ? '' : String(state.organizationId)}
            onChange={(e) => update({ organization: e.currentTarget.value })}
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
          onChange={(e) => update({ sort: e.currentTarget.value })}
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
            onChange={(p) => update({ page: p > 1 ? String(p) : null }, true)}
          />
        </>
      )}
    </Stack>
  );
}
