import { Anchor, Badge, Button, Group, NativeSelect, Stack, Text } from '@mantine/core';
import { CHECK_ITEM_STATUSES, CHECK_ITEM_TYPES, type CheckItem, type CheckItemStatusCode } from '@portal/contract';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { BuildingFilter } from '@/components/building-filter';
import { ListSearch, ListTable, type Column } from '@/components/list-page';
import { PageHeader } from '@/components/page-header';
import { paths } from '@/config/paths';
import { useFormat } from '@/lib/format';
import { useListParams } from '@/lib/list-params';
import { useCheckItems, useThresholdRuleOptions } from '../api';
import { CHECK_ITEMS_PER_PAGE, checkItemListSchema } from '../list-params';
import { useCanWrite } from './check-item-page';

const STATUS_COLOURS: Record<CheckItemStatusCode, string> = { 0: 'gray', 1: 'green', 2: 'yellow' };

export function StatusBadge({ status }: { status: CheckItemStatusCode }) {
  const { t } = useTranslation();
  return (
    <Badge color={STATUS_COLOURS[status]} variant="light" miw="max-content" data-testid="check-item-status-badge">
      {t(`checkItems.statuses.${String(status) as '0'}`)}
    </Badge>
  );
}

/** /check-item/list: the items in scope with search, building, status and type filters; the state is the URL. */
export function CheckItemList() {
  const { t } = useTranslation();
  const format = useFormat();
  const { params, setParams } = useListParams(checkItemListSchema);
  const list = useCheckItems(params);
  const rules = useThresholdRuleOptions();
  const canWrite = useCanWrite();
  const ruleName = (id: number | null) =>
    id === null ? t('checkItems.noRule') : ((rules.data ?? []).find((r) => r.id === id)?.name ?? `#${id}`);

  const columns: Column<CheckItem>[] = [
    {
      id: 'name',
      header: t('checkItems.columns.name'),
      meta: { rowHeader: true },
      cell: ({ row: { original: c } }) => (
        <Anchor
          component={Link}
          to={paths.checkItem.detail.getHref(c.id)}
          data-testid={`check-item-link-${c.id}`}
          style={{ overflowWrap: 'anywhere' }}
        >
          {c.name}
        </Anchor>
      ),
    },
    { id: 'type', header: t('checkItems.columns.type'), cell: ({ row }) => t(`checkItems.types.${row.original.type}`) },
    { id: 'building', header: t('checkItems.columns.building'), cell: ({ row }) => row.original.buildingName },
    { id: 'floor', header: t('checkItems.columns.floor'), cell: ({ row }) => row.original.floorName },
    {
      id: 'qr',
      header: t('checkItems.columns.qrCodeNumber'),
      cell: ({ row }) => row.original.qrCodeNumber || '—',
    },
    {
      id: 'threshold',
      header: t('checkItems.columns.threshold'),
      cell: ({ row: { original: c } }) => (
        <Text size="sm" c={c.thresholdRuleId === null ? 'dimmed' : undefined}>
          {ruleName(c.thresholdRuleId)}
        </Text>
      ),
    },
    {
      id: 'status',
      header: t('checkItems.columns.status'),
      cell: ({ row }) => <StatusBadge status={row.original.status} />,
    },
    {
      id: 'updatedAt',
      header: t('checkItems.columns.updatedAt'),
      cell: ({ row }) => format.dateTime(row.original.updatedAt),
    },
  ];

  const filtered = params.q !== '' || params.building !== null || params.status !== null || params.type !== null;

  return (
    <Stack>
      <PageHeader
        title={t('checkItems.listTitle')}
        create={
          canWrite
            ? {
                to: paths.checkItem.create.getHref(),
                label: t('checkItems.create'),
                testId: 'check-item-create',
              }
            : undefined
        }
      />
      <Group align="flex-end" wrap="wrap">
        <ListSearch
          value={params.q}
          onSearch={(q) => setParams({ q })}
          label={t('checkItems.search')}
          placeholder={t('checkItems.searchHint')}
          testId="check-item-search"
          width={220}
        />
        <BuildingFilter allowAll />
        <NativeSelect
          label={t('checkItems.filters.status')}
          value={params.status === null ? '' : String(params.status)}
          onChange={(e) => {
            const v = e.currentTarget.value;
            setParams({ status: CHECK_ITEM_STATUSES.find((s) => String(s) === v) ?? null });
          }}
          data={[
            { value: '', label: t('checkItems.all') },
            ...CHECK_ITEM_STATUSES.map((s) => ({
              value: String(s),
              label: t(`checkItems.statuses.${String(s) as '0'}`),
            })),
          ]}
          data-testid="check-item-status-filter"
        />
        <NativeSelect
          label={t('checkItems.filters.type')}
          value={params.type ?? ''}
          onChange={(e) => {
            const v = e.currentTarget.value;
            setParams({ type: CHECK_ITEM_TYPES.find((x) => x === v) ?? null });
          }}
          data={[
            { value: '', label: t('checkItems.all') },
            ...CHECK_ITEM_TYPES.map((x) => ({ value: x, label: t(`checkItems.types.${x}`) })),
          ]}
          data-testid="check-item-type-filter"
        />
        {filtered && (
          <Button variant="subtle" onClick={() => setParams({ q: '', building: null, status: null, type: null })}>
            {t('checkItems.clear')}
          </Button>
        )}
      </Group>
      {!canWrite && (
        <Text size="sm" c="dimmed" data-testid="check-item-list-read-only">
          {t('checkItems.readOnly')}
        </Text>
      )}
      <ListTable
        query={list}
        empty={filtered ? t('checkItems.noMatch') : t('checkItems.empty')}
        emptyTestId="check-items-empty"
        count={(count) => t('checkItems.total', { count })}
        columns={columns}
        rowId={(c) => c.id}
        paging={{ page: params.page, perPage: CHECK_ITEMS_PER_PAGE, onPage: (page) => setParams({ page }) }}
        minWidth={1000}
        highlightOnHover
        data-testid="check-item-table"
      />
    </Stack>
  );
}
