import { Alert, Anchor, Badge, Button, Group, NativeSelect, Stack, Text } from '@mantine/core';
import { COMMAND_CATEGORIES, COMMAND_SCOPES, type Command } from '@portal/contract';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { ListSearch, ListTable, type Column } from '@/components/list-page';
import { PageHeader } from '@/components/page-header';
import { paths } from '@/config/paths';
import { useFormat } from '@/lib/format';
import { useListParams } from '@/lib/list-params';
import { useCommands } from '../api/get-commands';
import { commandListSchema, COMMANDS_PER_PAGE } from '../list-params';

interface CommandListProps {
  /** Organization and system administrators: the create button. */
  canManage: boolean;
  /** /command/list/read-only: the non-admins' view (no create, the §6 notice). */
  readOnly?: boolean;
}

/** /command/list and /command/list/read-only: the command library, filtered and paged; the state is the URL. */
export function CommandList({ canManage, readOnly = false }: CommandListProps) {
  const { t } = useTranslation();
  const format = useFormat();
  const { params, setParams } = useListParams(commandListSchema);
  const list = useCommands(params);
  const filtered = params.q !== '' || params.category !== null || params.scope !== null;
  const columns: Column<Command>[] = [
    {
      id: 'name',
      header: t('commands.columns.name'),
      meta: { rowHeader: true },
      cell: ({ row: { original: c } }) => (
        <Anchor component={Link} to={paths.command.detail.getHref(c.id)} data-testid={`command-link-${c.id}`}>
          {c.name}
        </Anchor>
      ),
    },
    {
      id: 'category',
      header: t('commands.columns.category'),
      cell: ({ row }) => t(`commands.categories.${row.original.category}` as 'commands.categories.0'),
    },
    {
      id: 'scope',
      header: t('commands.columns.scope'),
      cell: ({ row: { original: c } }) => (
        <Group gap={4} wrap="nowrap">
          {t(`commands.scopes.${c.scope}` as 'commands.scopes.0')}
          {c.organizationId === null && (
            <Badge size="xs" variant="light">
              {t('commands.systemCommand')}
            </Badge>
          )}
        </Group>
      ),
    },
    {
      id: 'models',
      header: t('commands.columns.models'),
      cell: ({ row: { original: c } }) =>
        c.modelsAllowed.length === 0 ? (
          <Text c="dimmed" size="sm">
            {t('commands.everyModel')}
          </Text>
        ) : (
          c.modelsAllowed.join(', ')
        ),
    },
    {
      id: 'status',
      header: t('commands.columns.status'),
      cell: ({ row: { original: c } }) => (
        <Badge color={c.status === 1 ? 'green' : 'gray'} variant="light">
          {t(`commands.statuses.${c.status}` as 'commands.statuses.0')}
        </Badge>
      ),
    },
    {
      id: 'updatedAt',
      header: t('commands.columns.updatedAt'),
      cell: ({ row }) => format.dateTime(row.original.updatedAt),
    },
  ];

  return (
    <Stack>
      <PageHeader title={readOnly ? t('commands.readOnlyTitle') : t('commands.listTitle')}>
        {canManage && !readOnly && (
          <Button component={Link} to={paths.command.create.getHref()} data-testid="command-create">
            {t('commands.create')}
          </Button>
        )}
      </PageHeader>
      {(readOnly || !canManage) && (
        <Alert color="blue" data-testid="command-read-only">
          {t('commands.readOnly')}
        </Alert>
      )}
      <Group align="flex-end" wrap="wrap">
        <ListSearch
          value={params.q}
          onSearch={(q) => setParams({ q })}
          label={t('commands.search')}
          buttonLabel={t('commands.search')}
          placeholder={t('commands.searchHint')}
          testId="command-list-search"
          width={200}
        />
        <NativeSelect
          label={t('commands.fields.category')}
          value={params.category === null ? '' : String(params.category)}
          onChange={(e) =>
            setParams({ category: COMMAND_CATEGORIES.find((c) => String(c) === e.currentTarget.value) ?? null })
          }
          data={[
            { value: '', label: t('commands.allCategories') },
            ...COMMAND_CATEGORIES.map((c) => ({
              value: String(c),
              label: t(`commands.categories.${c}` as 'commands.categories.0'),
            })),
          ]}
          data-testid="command-list-category"
        />
        <NativeSelect
          label={t('commands.fields.scope')}
          value={params.scope === null ? '' : String(params.scope)}
          onChange={(e) =>
            setParams({ scope: COMMAND_SCOPES.find((s) => String(s) === e.currentTarget.value) ?? null })
          }
          data={[
            { value: '', label: t('commands.allScopes') },
            ...COMMAND_SCOPES.map((s) => ({
              value: String(s),
              label: t(`commands.scopes.${s}` as 'commands.scopes.0'),
            })),
          ]}
          data-testid="command-list-scope"
        />
        {filtered && (
          <Button variant="subtle" onClick={() => setParams({ q: '', category: null, scope: null })}>
            {t('commands.clear')}
          </Button>
        )}
      </Group>
      <ListTable
        query={list}
        empty={filtered ? t('commands.noMatch') : t('commands.empty')}
        emptyTestId="command-list-empty"
        count={(count) => t('commands.total', { count })}
        columns={columns}
        rowId={(item) => item.id}
        rowProps={(item) => ({ 'data-testid': `command-row-${item.id}` })}
        paging={{ page: params.page, perPage: COMMANDS_PER_PAGE, onPage: (page) => setParams({ page }) }}
        minWidth={820}
        highlightOnHover
        data-testid="command-table"
      />
    </Stack>
  );
}
