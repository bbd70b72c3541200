import { Anchor, Group, Image, NativeSelect, Stack, Text, TextInput } from '@mantine/core';
import { THRESHOLD_LEVELS, type ThresholdLog } from '@portal/contract';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { ListTable, type Column } from '@/components/list-page';
import { PageHeader } from '@/components/page-header';
import { BuildingDateTime } from '@/components/time-zone';
import { paths } from '@/config/paths';
import { useFormat } from '@/lib/format';
import { readListParams, writeListParams } from '@/lib/list-params';
import { useThresholdLogs, useThresholdRuleOptions } from '../api';
import { thresholdLogSchema, THRESHOLD_LOGS_PER_PAGE, type ThresholdLogParams } from '../list-params';
import { ThresholdTabs } from './threshold-tabs';
import { LevelBadge, useConditionText } from './words';

/**
 * /threshold/log/{page}: every reading that breached a rule, newest first: when, the rule, the
 * check item, the value, the condition it breached, the level, who was notified and the photo.
 */
export function ThresholdLogPage({ page }: { page: number }) {
  const { t } = useTranslation();
  const format = useFormat();
  const navigate = useNavigate();
  const conditionText = useConditionText();
  const [search] = useSearchParams();
  const params = readListParams(thresholdLogSchema, search);
  const setParams = (change: Partial<ThresholdLogParams>) => {
    const qs = writeListParams(thresholdLogSchema, { ...params, ...change }).toString();
    void navigate(`${paths.threshold.log.getHref(1)}${qs ? `?${qs}` : ''}`);
  };
  const logs = useThresholdLogs(params, page);
  const rules = useThresholdRuleOptions();
  const qs = search.toString();

  const columns: Column<ThresholdLog>[] = [
    {
      id: 'at',
      header: t('thresholds.log.columns.at'),
      cell: ({ row: { original: l } }) => <BuildingDateTime value={l.at} buildingId={l.buildingId} />,
    },
    {
      id: 'rule',
      header: t('thresholds.log.columns.rule'),
      meta: { rowHeader: true },
      cell: ({ row: { original: l } }) =>
        l.ruleId === null ? (
          t('thresholds.log.deletedRule', { name: l.ruleName })
        ) : (
          <Anchor component={Link} to={paths.threshold.detail.getHref(l.ruleId)}>
            {l.ruleName}
          </Anchor>
        ),
    },
    { id: 'checkItem', header: t('thresholds.log.columns.checkItem'), cell: ({ row }) => row.original.checkItemName },
    {
      id: 'value',
      header: t('thresholds.log.columns.value'),
      cell: ({ row }) => (
        <Text size="sm" fw={600} ta="right">
          {format.number(row.original.value)}
        </Text>
      ),
    },
    {
      id: 'condition',
      header: t('thresholds.log.columns.condition'),
      cell: ({ row }) => conditionText(row.original.condition),
    },
    {
      id: 'level',
      header: t('thresholds.log.columns.level'),
      cell: ({ row }) => <LevelBadge level={row.original.level} />,
    },
    {
      id: 'notified',
      header: t('thresholds.log.columns.notified'),
      cell: ({ row: { original: l } }) =>
        l.notified.length === 0 ? (
          <Text size="sm" c="dimmed">
            {t('thresholds.log.nobody')}
          </Text>
        ) : (
          <Text size="sm" data-testid={`threshold-log-notified-${l.id}`}>
            {l.notified.map((n) => n.name).join(', ')}
          </Text>
        ),
    },
    {
      id: 'photo',
      header: t('thresholds.log.columns.photo'),
      cell: ({ row: { original: l } }) =>
        l.photoUrl && (
          <Anchor
            href={l.photoUrl}
            target="_blank"
            rel="noreferrer"
            aria-label={t('thresholds.log.openPhoto')}
            data-testid={`threshold-log-photo-${l.id}`}
          >
            <Image
              src={l.photoUrl}
              alt={t('thresholds.log.photoAlt', { name: l.checkItemName })}
              w={64}
              h={48}
              fit="cover"
              radius="sm"
            />
          </Anchor>
        ),
    },
  ];

  const ruleOptions = rules.data?.items ?? [];
  return (
    <Stack>
      <PageHeader title={t('thresholds.logTitle')} />
      <ThresholdTabs active="log" />
      <Group align="flex-end" wrap="wrap">
        <NativeSelect
          label={t('thresholds.log.rule')}
          value={params.rule === null ? '' : String(params.rule)}
          onChange={(e) => setParams({ rule: e.currentTarget.value === '' ? null : Number(e.currentTarget.value) })}
          data={[
            { value: '', label: t('thresholds.all') },
            ...ruleOptions.map((r) => ({ value: String(r.id), label: r.name })),
            // A rule named by the URL that is not among the options (deleted, or past the first 200).
            ...(params.rule !== null && !ruleOptions.some((r) => r.id === params.rule)
              ? [{ value: String(params.rule), label: `#${params.rule}` }]
              : []),
          ]}
          data-testid="threshold-log-rule"
        />
        <NativeSelect
          label={t('thresholds.log.level')}
          value={params.level === null ? '' : String(params.level)}
          onChange={(e) =>
            setParams({ level: THRESHOLD_LEVELS.find((l) => String(l) === e.currentTarget.value) ?? null })
          }
          data={[
            { value: '', label: t('thresholds.all') },
            ...THRESHOLD_LEVELS.map((l) => ({ value: String(l), label: t(`levels.${l}`) })),
          ]}
          data-testid="threshold-log-level"
        />
        <TextInput
          type="date"
          label={t('thresholds.log.from')}
          value={params.from}
          onChange={(e) => setParams({ from: e.currentTarget.value })}
          data-testid="threshold-log-from"
        />
        <TextInput
          type="date"
          label={t('thresholds.log.to')}
          value={params.to}
          onChange={(e) => setParams({ to: e.currentTarget.value })}
          data-testid="threshold-log-to"
        />
      </Group>
      <ListTable
        query={logs}
        empty={
          params.rule !== null || params.level !== null || params.from || params.to
            ? t('thresholds.log.noMatch')
            : t('thresholds.log.empty')
        }
        emptyTestId="threshold-log-empty"
        count={(count) => t('thresholds.log.total', { count })}
        columns={columns}
        rowId={(l) => l.id}
        rowProps={(l) => ({ 'data-testid': `threshold-log-row-${l.id}` })}
        paging={{
          page,
          perPage: THRESHOLD_LOGS_PER_PAGE,
          pageHref: (p) => `${paths.threshold.log.getHref(p)}${qs ? `?${qs}` : ''}`,
        }}
        minWidth={1000}
        data-testid="threshold-log-table"
      />
    </Stack>
  );
}
