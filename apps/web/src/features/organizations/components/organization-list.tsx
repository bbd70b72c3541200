import { Anchor, Badge, Button, Stack } from '@mantine/core';
import { isSystemAdmin, type Organization } from '@portal/contract';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { ListSearch, ListTable, type Column } from '@/components/list-page';
import { usePrefectureName } from '@/components/place-fields';
import { paths } from '@/config/paths';
import { useFormat } from '@/lib/format';
import { useListParams } from '@/lib/list-params';
import { useSession } from '@/lib/session';
import { useOrganizations } from '../api/get-organizations';
import { ORGANIZATIONS_PER_PAGE, organizationListSchema } from '../list-params';
import { PageHeader } from '@/components/page-header';

/** Organizations with server-side paging, sorting and name search; all of it lives in the URL. */
export function OrganizationList() {
  const { t } = useTranslation();
  const format = useFormat();
  const prefectureName = usePrefectureName();
  const session = useSession();
  const { params, setParams } = useListParams(organizationListSchema);
  const list = useOrganizations(params);

  const columns: Column<Organization>[] = [
    {
      id: 'name',
      header: t('people.org.name'),
      cell: ({ row: { original: o } }) => (
        <Anchor component={Link} to={paths.organization.detail.getHref(o.id)}>
          {o.name}
        </Anchor>
      ),
    },
    { id: 'type', header: t('people.org.type'), cell: ({ row }) => t(`people.org.types.${row.original.type}`) },
    { id: 'level', header: t('people.org.level'), cell: ({ row }) => row.original.level },
    {
      id: 'prefecture',
      header: t('people.org.location'),
      cell: ({ row: { original: o } }) => [prefectureName(o.prefecture), o.city].filter(Boolean).join(' '),
    },
    {
      id: 'status',
      header: t('people.status'),
      cell: ({ row: { original: o } }) => (
        <Badge color={o.status === 1 ? 'green' : 'gray'} variant="light">
          {t(`people.statuses.${o.status}`)}
        </Badge>
      ),
    },
    {
      id: 'labOption',
      header: t('people.org.labOption'),
      cell: ({ row }) => (row.original.labOption ? t('people.org.on') : t('people.org.off')),
    },
    { id: 'updatedAt', header: t('people.updatedAt'), cell: ({ row }) => format.dateTime(row.original.updatedAt) },
  ];

  return (
    <Stack>
      <PageHeader
        title={t('people.org.listTitle')}
        create={
          !!session &&
          isSystemAdmin(session.type) && {
            to: paths.organization.create.getHref(),
            label: t('people.create'),
            testId: 'organization-create',
          }
        }
      />
      <ListSearch
        value={params.q}
        onSearch={(q) => setParams({ q })}
        label={t('people.searchName')}
        testId="organization-search"
        width={280}
      >
        {params.q && (
          <Button variant="subtle" onClick={() => setParams({ q: '' })}>
            {t('people.clear')}
          </Button>
        )}
      </ListSearch>
      <ListTable
        query={list}
        empty={t('people.empty')}
        emptyTestId="organizations-empty"
        count={(count) => t('people.total', { count })}
        columns={columns.map((c) => ({ ...c, enableSorting: true }))}
        rowId={(o) => o.id}
        sort={params.sort}
        onSort={(sort) => setParams({ sort })}
        paging={{ page: params.page, perPage: ORGANIZATIONS_PER_PAGE, onPage: (page) => setParams({ page }) }}
        minWidth={860}
        highlightOnHover
        data-testid="organization-table"
      />
    </Stack>
  );
}
