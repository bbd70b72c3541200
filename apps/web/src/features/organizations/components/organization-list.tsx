import { Anchor, Badge, Button, Group, Stack, Table, Text, TextInput, Title } from '@mantine/core';
import { isSystemAdmin, type Organization } from '@portal/contract';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router';
import { PageLoader } from '@/components/page-loader';
import { Pager } from '@/components/pager';
import { QueryError } from '@/components/query-error';
import { paths } from '@/config/paths';
import { useFormat } from '@/lib/format';
import { toSearchParams } from '@/lib/list-params';
import { useSession } from '@/lib/session';
import { useOrganizations } from '../api/get-organizations';
import {
  ORGANIZATIONS_PER_PAGE,
  organizationListQuery,
  parseOrganizationListParams,
  type OrganizationListParams,
} from '../list-params';
import { SortHeader } from '@/components/sort-header';

/** Organizations with server-side paging, sorting and name search; all of it lives in the URL. */
export function OrganizationList() {
  const { t } = useTranslation();
  const format = useFormat();
  const session = useSession();
  const [search, setSearch] = useSearchParams();
  const params = parseOrganizationListParams(search);
  const [q, setQ] = useState(params.q);
  const list = useOrganizations(params);

  const go = (next: OrganizationListParams) => setSearch(toSearchParams(organizationListQuery(next)));
  const location = (o: Organization) => [o.prefecture, o.city].filter(Boolean).join(' ');

  return (
    <Stack>
      <Group justify="space-between">
        <Title order={1} size="h2">
          {t('people.org.listTitle')}
        </Title>
        {session && isSystemAdmin(session.type) && (
          <Button component={Link} to={paths.organization.create.getHref()} data-testid="organization-create">
            {t('people.create')}
          </Button>
        )}
      </Group>
      <form
        role="search"
        onSubmit={(e) => {
          e.preventDefault();
          go({ ...params, q: q.trim(), page: 1 });
        }}
      >
        <Group align="flex-end">
          <TextInput
            label={t('people.searchName')}
            value={q}
            onChange={(e) => setQ(e.currentTarget.value)}
            data-testid="organization-search"
            w={280}
          />
          <Button type="submit" variant="light">
            {t('people.search')}
          </Button>
          {params.q && (
            <Button
              variant="subtle"
              onClick={() => {
                setQ('');
                go({ ...params, q: '', page: 1 });
              }}
            >
              {t('people.clear')}
            </Button>
          )}
        </Group>
      </form>
      {list.isPending ? (
        <PageLoader />
      ) : list.isError ? (
        <QueryError error={list.error} onRetry={() => void list.refetch()} />
      ) : list.data.items.length === 0 ? (
        <Text c="dimmed" data-testid="organizations-empty">
          {t('people.empty')}
        </Text>
      ) : (
        <>
          <Text size="sm" c="dimmed" aria-live="polite">
            {t('people.total', { count: list.data.total })}
          </Text>
          <Table.ScrollContainer minWidth={860}>
            <Table striped highlightOnHover withTableBorder verticalSpacing="xs" data-testid="organization-table">
              <Table.Thead>
                <Table.Tr>
                  {(
                    [
                      ['name', t('people.org.name')],
                      ['type', t('people.org.type')],
                      ['level', t('people.org.level')],
                      ['prefecture', t('people.org.location')],
                      ['status', t('people.status')],
                      ['labOption', t('people.org.labOption')],
                      ['updatedAt', t('people.updatedAt')],
                    ] as const
                  ).map(([column, label]) => (
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
                      <Anchor component={Link} to={paths.organization.detail.getHref(o.id)}>
                        {o.name}
                      </Anchor>
                    </Table.Td>
                    <Table.Td>{t(`people.org.types.${o.type}`)}</Table.Td>
                    <Table.Td>{o.level}</Table.Td>
                    <Table.Td>{location(o)}</Table.Td>
                    <Table.Td>
                      <Badge color={o.status === 1 ? 'green' : 'gray'} variant="light">
                        {t(`people.statuses.${o.status}`)}
                      </Badge>
                    </Table.Td>
                    <Table.Td>{o.labOption ? t('people.org.on') : t('people.org.off')}</Table.Td>
                    <Table.Td>{format.dateTime(o.updatedAt)}</Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
          <Pager
            page={params.page}
            total={list.data.total}
            perPage={ORGANIZATIONS_PER_PAGE}
            onChange={(page) => go({ ...params, page })}
          />
        </>
      )}
    </Stack>
  );
}
