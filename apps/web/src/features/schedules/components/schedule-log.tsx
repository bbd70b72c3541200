import { Button, Group, Modal, NativeSelect, Stack, Text, TextInput } from '@mantine/core';
import { SCHEDULE_LOG_RESULTS, type ScheduleLog } from '@portal/contract';
import { useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate, useSearchParams } from 'react-router';
import { BuildingFilter } from '@/components/building-filter';
import { ListTable, type Column } from '@/components/list-page';
import { PageHeader } from '@/components/page-header';
import { BuildingDateTime, TimeZoneNote } from '@/components/time-zone';
import { paths } from '@/config/paths';
import { useBuildingTimeZone } from '@/lib/building-time';
import { readListParams, writeListParams } from '@/lib/list-params';
import { SCHEDULE_LOGS_PER_PAGE, useScheduleLogs } from '../api';
import { scheduleLogSchema, type ScheduleLogParams } from '../list-params';
import { ResultBadge, useDetailText, useLogNames, useReasonText } from '../words';
import { IdFilter } from './filters';
import { ScheduleTabs } from './schedule-tabs';

interface ScheduleLogPageProps {
  page: number;
  /** A flow run's record (composed by the route: the flow-runs feature's panel). */
  runView?: (runId: number) => ReactNode;
}

/** /schedule/log/{page}: every occurrence that came due, newest first, with its result and reason. */
export function ScheduleLogPage({ page, runView }: ScheduleLogPageProps) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [search] = useSearchParams();
  const params = readListParams(scheduleLogSchema, search);
  const setParams = (change: Partial<ScheduleLogParams>) => {
    const qs = writeListParams(scheduleLogSchema, { ...params, ...change }).toString();
    void navigate(`${paths.schedule.log.getHref(1)}${qs ? `?${qs}` : ''}`);
  };
  const timeZone = useBuildingTimeZone(params.building);
  const logs = useScheduleLogs(params, page, timeZone);
  const names = useLogNames();
  const reasonText = useReasonText();
  const detailText = useDetailText();
  const [openRun, setOpenRun] = useState<number | null>(null);
  const qs = search.toString();

  const columns: Column<ScheduleLog>[] = [
    {
      id: 'dueAt',
      header: t('schedules.columns.dueAt'),
      cell: ({ row: { original: l } }) => <BuildingDateTime value={l.dueAt} buildingId={l.buildingId} />,
    },
    {
      id: 'startedAt',
      header: t('schedules.columns.startedAt'),
      cell: ({ row: { original: l } }) =>
        l.startedAt && <BuildingDateTime value={l.startedAt} buildingId={l.buildingId} />,
    },
    {
      id: 'endedAt',
      header: t('schedules.columns.endedAt'),
      cell: ({ row: { original: l } }) => l.endedAt && <BuildingDateTime value={l.endedAt} buildingId={l.buildingId} />,
    },
    {
      id: 'title',
      header: t('schedules.columns.title'),
      meta: { rowHeader: true },
      cell: ({ row }) => row.original.title,
    },
    { id: 'robot', header: t('schedules.columns.robot'), cell: ({ row }) => names.robot(row.original) },
    { id: 'flow', header: t('schedules.columns.flow'), cell: ({ row }) => names.flow(row.original) },
    {
      id: 'result',
      header: t('schedules.columns.result'),
      cell: ({ row }) => <ResultBadge result={row.original.result} />,
    },
    {
      id: 'reason',
      header: t('schedules.columns.reason'),
      cell: ({ row: { original: l } }) => {
        const detail = detailText(l);
        return (
          (l.reason || detail) && (
            <Stack gap={0} data-testid={`schedule-log-reason-${l.id}`}>
              {l.reason && <Text size="sm">{reasonText(l.reason)}</Text>}
              {detail && (
                <Text size="xs" c="dimmed" data-testid={`schedule-log-detail-${l.id}`}>
                  {detail}
                </Text>
              )}
            </Stack>
          )
        );
      },
    },
    {
      id: 'run',
      header: t('schedules.columns.run'),
      cell: ({ row: { original: l } }) =>
        l.flowRunId !== null &&
        runView && (
          <Button
            size="compact-xs"
            variant="subtle"
            onClick={() => setOpenRun(l.flowRunId)}
            data-testid={`schedule-log-run-${l.id}`}
          >
            {t('schedules.openRun')}
          </Button>
        ),
    },
  ];

  return (
    <Stack>
      <PageHeader title={t('schedules.logTitle')} />
      <ScheduleTabs active="log" />
      <Group align="flex-end" wrap="wrap">
        <BuildingFilter allowAll resetParams={['robot', 'flow']} firstPage={paths.schedule.log.getHref(1)} />
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
          label={t('schedules.filters.result')}
          value={params.result ?? ''}
          onChange={(e) => {
            const v = e.currentTarget.value;
            setParams({ result: SCHEDULE_LOG_RESULTS.find((r) => r === v) ?? null });
          }}
          data={[
            { value: '', label: t('schedules.all') },
            ...SCHEDULE_LOG_RESULTS.map((r) => ({ value: r, label: t(`schedules.results.${r}`) })),
          ]}
          data-testid="schedule-result-filter"
        />
        <TextInput
          type="date"
          label={t('schedules.filters.from')}
          value={params.from}
          onChange={(e) => setParams({ from: e.currentTarget.value })}
          data-testid="schedule-log-from"
        />
        <TextInput
          type="date"
          label={t('schedules.filters.to')}
          value={params.to}
          onChange={(e) => setParams({ to: e.currentTarget.value })}
          data-testid="schedule-log-to"
        />
      </Group>
      {params.building !== null && <TimeZoneNote timeZone={timeZone} />}
      <ListTable
        query={logs}
        empty={t('schedules.empty')}
        emptyTestId="schedule-log-empty"
        count={(count) => t('schedules.total', { count })}
        columns={columns}
        rowId={(l) => l.id}
        paging={{
          page,
          perPage: SCHEDULE_LOGS_PER_PAGE,
          pageHref: (p) => `${paths.schedule.log.getHref(p)}${qs ? `?${qs}` : ''}`,
        }}
        // Fits beside the menu at 1280 px; narrower windows scroll the table sideways.
        minWidth={1000}
        data-testid="schedule-log-table"
      />
      <Modal
        opened={openRun !== null}
        onClose={() => setOpenRun(null)}
        title={t('schedules.runTitle')}
        size="xl"
        closeButtonProps={{ 'aria-label': t('schedules.close') }}
      >
        {openRun !== null && runView?.(openRun)}
      </Modal>
    </Stack>
  );
}
