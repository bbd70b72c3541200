import { Anchor, Badge, Button, Group, NativeSelect, Stack, Text } from '@mantine/core';
import { SCHEDULE_REPEATS, type Schedule } from '@portal/contract';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { BuildingFilter } from '@/components/building-filter';
import { ListSearch, ListTable, type Column } from '@/components/list-page';
import { PageHeader } from '@/components/page-header';
import { paths } from '@/config/paths';
import { useFormat } from '@/lib/format';
import { useListParams } from '@/lib/list-params';
import { SCHEDULES_PER_PAGE, useSchedules } from '../api';
import { scheduleListSchema } from '../list-params';
import { useNames, useRepeatText } from '../words';
import { IdFilter } from './filters';
import { ScheduleTabs } from './schedule-tabs';

/** /schedule/list: the entries with their next run (in the building's zone, the zone named). */
export function ScheduleList() {
  const { t } = useTranslation();
  const format = useFormat();
  const { params, setParams } = useListParams(scheduleListSchema);
  const list = useSchedules(params);
  const names = useNames();
  const repeatText = useRepeatText();

  const columns: Column<Schedule>[] = [
    {
      id: 'title',
      header: t('schedules.columns.title'),
      meta: { rowHeader: true },
      cell: ({ row: { original: s } }) => (
        <Anchor component={Link} to={paths.schedule.detail.getHref(s.id)} data-testid={`schedule-link-${s.id}`}>
          {s.title}
        </Anchor>
      ),
    },
    {
      id: 'building',
      header: t('schedules.columns.building'),
      cell: ({ row }) => names.building(row.original.buildingId),
    },
    { id: 'robot', header: t('schedules.columns.robot'), cell: ({ row }) => names.robot(row.original.robotId) },
    { id: 'flow', header: t('schedules.columns.flow'), cell: ({ row }) => names.flow(row.original.flowId) },
    {
      id: 'repeat',
      header: t('schedules.columns.repeat'),
      cell: ({ row: { original: s } }) => repeatText(s.repeat, s.weekdays),
    },
    {
      id: 'nextAt',
      header: t('schedules.columns.nextAt'),
      cell: ({ row: { original: s } }) =>
        s.nextAt ? (
          <time dateTime={s.nextAt} data-time-zone={s.timeZone}>
            {format.dateTime(s.nextAt, { timeZone: s.timeZone })}
          </time>
        ) : (
          t('schedules.nextNone')
        ),
    },
    {
      id: 'priority',
      header: t('schedules.columns.priority'),
      cell: ({ row }) =>
        row.original.priority && (
          <Text size="sm" c="orange.8" fw={600} style={{ whiteSpace: 'nowrap' }}>
            ★ {t('schedules.priorityMark')}
          </Text>
        ),
    },
    {
      id: 'enabled',
      header: t('schedules.columns.enabled'),
      cell: ({ row }) =>
        row.original.enabled ? (
          <Badge color="green" variant="light">
            {t('schedules.enabledYes')}
          </Badge>
        ) : (
          <Badge color="gray" variant="light">
            {t('schedules.enabledNo')}
          </Badge>
        ),
    },
  ];

  const filtered =
    params.q !== '' ||
    params.building !== null ||
    params.robot !== null ||
    params.flow !== null ||
    params.repeat !== null ||
    params.enabled !== null;

  return (
    <Stack>
      <PageHeader
        title={t('schedules.listTitle')}
        create={{ to: paths.schedule.create.getHref(), label: t('schedules.create'), testId: 'schedule-create' }}
      />
      <ScheduleTabs active="list" />
      <Group align="flex-end" wrap="wrap">
        <ListSearch
          value={params.q}
          onSearch={(q) => setParams({ q })}
          label={t('schedules.search')}
          placeholder={t('schedules.searchHint')}
          testId="schedule-search"
          width={220}
        />
        <BuildingFilter allowAll resetParams={['page', 'robot', 'flow']} />
        <IdFilter
          kind="robot"
          buildingId={params.building}
          value={params.robot}
          onChange={(robot) => setParams({ robot })}
        />
        <IdFilter
          kind="flow"
          buildingId={params.building}
          value={params.flow}
          onChange={(flow) => setParams({ flow })}
        />
        <NativeSelect
          label={t('schedules.filters.repeat')}
          value={params.repeat ?? ''}
          onChange={(e) => {
            const v = e.currentTarget.value;
            setParams({ repeat: SCHEDULE_REPEATS.find((r) => r === v) ?? null });
          }}
          data={[
            { value: '', label: t('schedules.all') },
            ...SCHEDULE_REPEATS.map((r) => ({ value: r, label: t(`schedules.repeats.${r}`) })),
          ]}
          data-testid="schedule-repeat-filter"
        />
        <NativeSelect
          label={t('schedules.filters.enabled')}
          value={params.enabled === null ? '' : String(params.enabled)}
          onChange={(e) => {
            const v = e.currentTarget.value;
            setParams({ enabled: v === '1' ? 1 : v === '0' ? 0 : null });
          }}
          data={[
            { value: '', label: t('schedules.all') },
            { value: '1', label: t('schedules.enabledYes') },
            { value: '0', label: t('schedules.enabledNo') },
          ]}
          data-testid="schedule-enabled-filter"
        />
        {filtered && (
          <Button
            variant="subtle"
            onClick={() => setParams({ q: '', building: null, robot: null, flow: null, repeat: null, enabled: null })}
          >
            {t('schedules.clear')}
          </Button>
        )}
      </Group>
      <ListTable
        query={list}
        empty={filtered ? t('schedules.noMatch') : t('schedules.empty')}
        emptyTestId="schedules-empty"
        count={(count) => t('schedules.total', { count })}
        columns={columns}
        rowId={(s) => s.id}
        paging={{ page: params.page, perPage: SCHEDULES_PER_PAGE, onPage: (page) => setParams({ page }) }}
        minWidth={1000}
        highlightOnHover
        data-testid="schedule-table"
      />
    </Stack>
  );
}
