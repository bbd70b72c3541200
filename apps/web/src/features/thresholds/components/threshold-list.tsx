import { Alert, Anchor, Badge, Button, Group, NativeSelect, Stack, Text } from '@mantine/core';
import { THRESHOLD_LEVELS, THRESHOLD_STATUSES, type ThresholdRule } from '@portal/contract';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { ListSearch, ListTable, type Column } from '@/components/list-page';
import { PageHeader } from '@/components/page-header';
import { paths } from '@/config/paths';
import { useFormat } from '@/lib/format';
import { useListParams } from '@/lib/list-params';
import { useThresholdRules } from '../api';
import { thresholdListSchema, THRESHOLD_RULES_PER_PAGE } from '../list-params';
import { ThresholdTabs } from './threshold-tabs';
import { LevelBadge, useConditionText } from './words';

/** /threshold/list: the organization's threshold rules, searched, filtered and paged; the state is the URL. */
export function ThresholdList({ canManage }: { canManage: boolean }) {
  const { t } = useTranslation();
  const format = useFormat();
  const conditionText = useConditionText();
  const { params, setParams } = useListParams(thresholdListSchema);
  const list = useThresholdRules(params);
  const filtered = params.q !== '' || params.status !== null || params.level !== null;
  const columns: Column<ThresholdRule>[] = [
    {
      id: 'name',
      header: t('thresholds.columns.name'),
      meta: { rowHeader: true },
      cell: ({ row: { original: r } }) => (
        <Anchor component={Link} to={paths.threshold.detail.getHref(r.id)} data-testid={`threshold-link-${r.id}`}>
          {r.name}
        </Anchor>
      ),
    },
    {
      id: 'level',
      header: t('thresholds.columns.level'),
      cell: ({ row }) => <LevelBadge level={row.original.level} />,
    },
    {
      id: 'status',
      header: t('thresholds.columns.status'),
      cell: ({ row: { original: r } }) => (
        <Badge color={r.status === 1 ? 'green' : 'gray'} variant="light">
          {t(`thresholds.statuses.${r.status}` as 'thresholds.statuses.0')}
        </Badge>
      ),
    },
    {
      id: 'conditions',
      header: t('thresholds.columns.conditions'),
      cell: ({ row: { original: r } }) => (
        <Text size="sm">{r.conditions.map((c) => conditionText(c)).join(' / ')}</Text>
      ),
    },
    {
      id: 'updatedAt',
      header: t('thresholds.columns.updatedAt'),
      cell: ({ row }) => format.dateTime(row.original.updatedAt),
    },
  ];

  return (
    <Stack>
      <PageHeader title={t('thresholds.listTitle')}>
        {canManage && (
          <Button component={Link} to={paths.threshold.create.getHref()} data-testid="threshold-create">
            {t('thresholds.create')}
          </Button>
        )}
      </PageHeader>
      <ThresholdTabs active="rules" />
      {!canManage && (
        <Alert color="blue" data-testid="threshold-read-only">
          {t('thresholds.readOnly')}
        </Alert>
      )}
      <Group align="flex-end" wrap="wrap">
        <ListSearch
          value={params.q}
          onSearch={(q) => setParams({ q })}
          label={t('thresholds.search')}
          buttonLabel={t('thresholds.search')}
          placeholder={t('thresholds.searchHint')}
          testId="threshold-list-search"
          width={200}
        />
        <NativeSelect
          label={t('thresholds.columns.status')}
          value={params.status === null ? '' : String(params.status)}
          onChange={(e) =>
            setParams({ status: THRESHOLD_STATUSES.find((s) => String(s) === e.currentTarget.value) ?? null })
          }
          data={[
            { value: '', label: t('thresholds.all') },
            ...THRESHOLD_STATUSES.map((s) => ({ value: String(s), label: t(`thresholds.statuses.${s}`) })),
          ]}
          data-testid="threshold-list-status"
        />
        <NativeSelect
          label={t('thresholds.columns.level')}
          value={params.level === null ? '' : String(params.level)}
          onChange={(e) =>
            setParams({ level: THRESHOLD_LEVELS.find((l) => String(l) === e.currentTarget.value) ?? null })
          }
          data={[
            { value: '', label: t('thresholds.all') },
            ...THRESHOLD_LEVELS.map((l) => ({ value: String(l), label: t(`levels.${l}`) })),
          ]}
          data-testid="threshold-list-level"
        />
        {filtered && (
          <Button variant="subtle" onClick={() => setParams({ q: '', status: null, level: null })}>
            {t('thresholds.clear')}
          </Button>
        )}
      </Group>
      <ListTable
        query={list}
        empty={filtered ? t('thresholds.noMatch') : t('thresholds.empty')}
        emptyTestId="threshold-list-empty"
        count={(count) => t('thresholds.total', { count })}
        columns={columns}
        rowId={(item) => item.id}
        rowProps={(item) => ({ 'data-testid': `threshold-row-${item.id}` })}
        paging={{ page: params.page, perPage: THRESHOLD_RULES_PER_PAGE, onPage: (page) => setParams({ page }) }}
        minWidth={820}
        highlightOnHover
        data-testid="threshold-table"
      />
    </Stack>
  );
}
