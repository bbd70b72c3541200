import { Anchor, Badge, Button, Group, NativeSelect, Stack, Text } from '@mantine/core';
import {
  ALL_COMMAND_MODES,
  COMMAND_MAPPING_STATUSES,
  type CommandMapping,
  type CommandMappingStatus,
} from '@portal/contract';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { BuildingFilter } from '@/components/building-filter';
import { ListSearch, ListTable, type Column } from '@/components/list-page';
import { PageHeader } from '@/components/page-header';
import { paths } from '@/config/paths';
import { useFormat } from '@/lib/format';
import { parseSort, sortParam, useListParams } from '@/lib/list-params';
import { useCommandMappings } from '../api';
import {
  COMMAND_MAPPINGS_PER_PAGE,
  commandMappingListSchema,
  commandMappingSortColumns,
  defaultCommandMappingSort,
} from '../list-params';
import { keyName, useModeLabel } from '../words';
import { useCanWrite } from './command-mapping-page';
import { ReadOnlyNotice } from './read-only-notice';

/** The orders of the "sort by" menu, as `?sort=` writes them. */
const sortChoices = ['name', '-name', 'mode', '-mode', '-updatedAt', 'updatedAt'] as const;

export function StatusBadge({ status }: { status: CommandMappingStatus }) {
  const { t } = useTranslation();
  return (
    <Badge color={status === 1 ? 'green' : 'gray'} variant="light" miw="max-content">
      {t(`commandMappings.statuses.${String(status) as '0'}`)}
    </Badge>
  );
}

/** A row's controls in short: "Greet (G, 0)". */
function Controls({ mapping }: { mapping: CommandMapping }) {
  const text = mapping.definition.entries
    .map((e) => {
      const bindings = [e.key === null ? null : keyName(e.key), e.gamepadButton === null ? null : `◯${e.gamepadButton}`]
        .filter((x) => x !== null)
        .join(', ');
      return bindings ? `${e.label} (${bindings})` : e.label;
    })
    .join(' · ');
  return (
    <Text size="sm" lineClamp={2} title={text}>
      {text}
    </Text>
  );
}

/**
 * /command-mapping/list: the mappings in scope with search, building, mode and status filters, a
 * sort and pages; the state is the URL. Non-admins read and see the §6 notice.
 */
export function CommandMappingList() {
  const { t } = useTranslation();
  const format = useFormat();
  const modeLabel = useModeLabel();
  const { params, setParams } = useListParams(commandMappingListSchema);
  const list = useCommandMappings(params);
  const canWrite = useCanWrite();

  const columns: Column<CommandMapping>[] = [
    {
      id: 'name',
      header: t('commandMappings.columns.name'),
      enableSorting: true,
      meta: { rowHeader: true },
      cell: ({ row: { original: m } }) => (
        <Anchor
          component={Link}
          to={paths.commandMapping.detail.getHref(m.id)}
          data-testid={`command-mapping-link-${m.id}`}
          style={{ overflowWrap: 'anywhere' }}
        >
          {m.name}
        </Anchor>
      ),
    },
    { id: 'building', header: t('commandMappings.columns.building'), cell: ({ row }) => row.original.buildingName },
    {
      id: 'mode',
      header: t('commandMappings.columns.mode'),
      enableSorting: true,
      cell: ({ row }) => modeLabel(row.original.mode),
    },
    {
      id: 'controls',
      header: t('commandMappings.columns.controls'),
      cell: ({ row }) => <Controls mapping={row.original} />,
    },
    { id: 'revision', header: t('commandMappings.columns.revision'), cell: ({ row }) => row.original.revision },
    {
      id: 'status',
      header: t('commandMappings.columns.status'),
      cell: ({ row }) => <StatusBadge status={row.original.status} />,
    },
    {
      id: 'updatedAt',
      header: t('commandMappings.columns.updatedAt'),
      enableSorting: true,
      cell: ({ row }) => format.dateTime(row.original.updatedAt),
    },
  ];

  const filtered = params.q !== '' || params.building !== null || params.mode !== null || params.status !== null;

  return (
    <Stack>
      <PageHeader
        title={t('commandMappings.listTitle')}
        create={
          canWrite
            ? {
                to: paths.commandMapping.create.getHref({ building: params.building, mode: params.mode }),
                label: t('commandMappings.create'),
                testId: 'command-mapping-create',
              }
            : undefined
        }
      />
      {!canWrite && <ReadOnlyNotice />}
      <Group align="flex-end" wrap="wrap">
        <ListSearch
          value={params.q}
          onSearch={(q) => setParams({ q })}
          label={t('commandMappings.search')}
          placeholder={t('commandMappings.searchHint')}
          testId="command-mapping-search"
          width={200}
        />
        <BuildingFilter allowAll />
        <NativeSelect
          label={t('commandMappings.filters.mode')}
          value={params.mode === null ? '' : String(params.mode)}
          onChange={(e) => {
            const v = e.currentTarget.value;
            setParams({ mode: ALL_COMMAND_MODES.find((m) => String(m) === v) ?? null });
          }}
          data={[
            { value: '', label: t('commandMappings.all') },
            ...ALL_COMMAND_MODES.map((m) => ({ value: String(m), label: modeLabel(m) })),
          ]}
          data-testid="command-mapping-mode-filter"
        />
        <NativeSelect
          label={t('commandMappings.filters.status')}
          value={params.status === null ? '' : String(params.status)}
          onChange={(e) => {
            const v = e.currentTarget.value;
            setParams({ status: COMMAND_MAPPING_STATUSES.find((s) => String(s) === v) ?? null });
          }}
          data={[
            { value: '', label: t('commandMappings.all') },
            ...COMMAND_MAPPING_STATUSES.map((s) => ({
              value: String(s),
              label: t(`commandMappings.statuses.${String(s) as '0'}`),
            })),
          ]}
          data-testid="command-mapping-status-filter"
        />
        <NativeSelect
          label={t('commandMappings.sortBy')}
          value={sortParam(params.sort ?? defaultCommandMappingSort)}
          onChange={(e) => setParams({ sort: parseSort(e.currentTarget.value, commandMappingSortColumns) })}
          data={sortChoices.map((s) => ({
            value: s,
            label: `${t(`commandMappings.sorts.${s.replace('-', '') === 'updatedAt' ? 'updated' : (s.replace('-', '') as 'name')}`)} ${s.startsWith('-') ? '↓' : '↑'}`,
          }))}
          data-testid="command-mapping-sort"
        />
        {filtered && (
          <Button variant="subtle" onClick={() => setParams({ q: '', building: null, mode: null, status: null })}>
            {t('commandMappings.clear')}
          </Button>
        )}
      </Group>
      <ListTable
        query={list}
        empty={filtered ? t('commandMappings.noMatch') : t('commandMappings.empty')}
        emptyTestId="command-mappings-empty"
        count={(count) => t('commandMappings.total', { count })}
        columns={columns}
        rowId={(m) => m.id}
        sort={params.sort}
        onSort={(sort) => setParams({ sort })}
        paging={{ page: params.page, perPage: COMMAND_MAPPINGS_PER_PAGE, onPage: (page) => setParams({ page }) }}
        minWidth={1000}
        highlightOnHover
        data-testid="command-mapping-table"
      />
    </Stack>
  );
}
