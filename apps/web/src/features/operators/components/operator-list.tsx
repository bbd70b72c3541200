import { Anchor, Badge, Button, Group, NativeSelect, Stack, Table, Text, TextInput, Title } from '@mantine/core';
import { operatorTypeSchema, type Operator } from '@portal/contract';
import { useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router';
import { PageLoader } from '@/components/page-loader';
import { Pager } from '@/components/pager';
import { QueryError } from '@/components/query-error';
import { paths } from '@/config/paths';
import { useFormat } from '@/lib/format';
import { toSearchParams } from '@/lib/list-params';
import { useOperators } from '../api/get-operators';
import {
  OPERATORS_PER_PAGE,
  operatorListQuery,
  parseOperatorListParams,
  type OperatorListParams,
} from '../list-params';
import { isLocked } from './operator-actions';
import { SortHeader } from '@/components/sort-header';

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
  const [search, setSearch] = useSearchParams();
  const params = parseOperatorListParams(search);
  const [q, setQ] = useState(params.q);
  const list = useOperators(params);

  const go = (next: OperatorListParams) => setSearch(toSearchParams(operatorListQuery(next)));
  const columns = [
    ['lastName', t('people.op.name')],
    ['loginId', t('people.op.loginId')],
    ['type', t('people.op.type')],
  ] as const;
  const after = [
    ['buildingId', t('people.op.building')],
    ['status', t('people.op.statusColumn')],
    ['lastLoginAt', t('people.op.lastLogin')],
  ] as const;

  return (
    <Stack>
      <Group justify="space-between">
        <Title order={1} size="h2">
          {t('people.op.listTitle')}
        </Title>
        <Button component={Link} to={paths.operator.create.getHref()} data-testid="operator-create">
          {t('people.create')}
        </Button>
      </Group>
      <Group align="flex-end" wrap="wrap">
        <form
          role="search"
          onSubmit={(e) => {
            e.preventDefault();
            go({ ...params, q: q.trim(), page: 1 });
          }}
        >
          <Group align="flex-end">
            <TextInput
              label={t('people.search')}
              placeholder={t('people.op.searchHint')}
              value={q}
              onChange={(e) => setQ(e.currentTarget.value)}
              data-testid="operator-search"
              w={240}
            />
            <Button type="submit" variant="light">
              {t('people.search')}
            </Button>
          </Group>
        </form>
        <NativeSelect
          label={t('people.op.type')}
          value={params.type === null ? '' : String(params.type)}
          onChange={(e) => {
            const v = operatorTypeSchema.safeParse(Number(e.currentTarget.value));
            go({ ...params, type: e.currentTarget.value !== '' && v.success ? v.data : null, page: 1 });
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
          <Button
            variant="subtle"
            onClick={() => {
              setQ('');
              go({ page: 1, sort: params.sort, q: '', type: null, building: null });
            }}
          >
            {t('people.clear')}
          </Button>
        )}
      </Group>
      {list.isPending ? (
        <PageLoader />
      ) : list.isError ? (
        <QueryError error={list.error} onRetry={() => void list.refetch()} />
      ) : list.data.items.length === 0 ? (
        <Text c="dimmed" data-testid="operators-empty">
          {t('people.empty')}
        </Text>
      ) : (
        <>
          <Text size="sm" c="dimmed" aria-live="polite">
            {t('people.total', { count: list.data.total })}
          </Text>
          <Table.ScrollContainer minWidth={960}>
            <Table striped highlightOnHover withTableBorder verticalSpacing="xs" data-testid="operator-table">
              <Table.Thead>
                <Table.Tr>
                  {columns.map(([column, label]) => (
                    <SortHeader
                      key={column}
                      column={column}
                      label={label}
                      sort={params.sort}
                      onSort={(sort) => go({ ...params, sort, page: 1 })}
                    />
                  ))}
                  {showOrganization && <Table.Th>{t('people.op.organization')}</Table.Th>}
                  {after.map(([column, label]) => (
                    <SortHeader
                      key={column}
                      column={column}
                      label={label}
                      sort={params.sort}
                      onSort={(sort) => go({ ...params, sort, page: 1 })}
                    />
                  ))}
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {list.data.items.map((o) => (
                  <Table.Tr key={o.id}>
                    <Table.Td>
                      <Anchor component={Link} to={paths.operator.detail.getHref(o.id)}>
                        {t('people.op.fullName', { lastName: o.lastName, firstName: o.firstName })}
                      </Anchor>
                    </Table.Td>
                    <Table.Td>{o.loginId}</Table.Td>
                    <Table.Td>{t(`people.op.types.${o.type}`)}</Table.Td>
                    {showOrganization && <Table.Td>{o.organizationName ?? `#${o.organizationId}`}</Table.Td>}
                    <Table.Td>{o.buildingName ?? (o.buildingId === null ? '' : `#${o.buildingId}`)}</Table.Td>
                    <Table.Td>
                      <StatusBadges o={o} />
                    </Table.Td>
                    <Table.Td>{o.lastLoginAt ? format.dateTime(o.lastLoginAt) : t('people.op.never')}</Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
          <Pager
            page={params.page}
            total={list.data.total}
            perPage={OPERATORS_PER_PAGE}
            onChange={(page) => go({ ...params, page })}
          />
        </>
      )}
    </Stack>
  );
}
