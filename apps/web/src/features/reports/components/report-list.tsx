import { Anchor, Button, Checkbox, Group, Image, NativeSelect, Stack, Text, TextInput } from '@mantine/core';
import { REPORT_RESULTS, REPORT_TYPES, type Report } from '@portal/contract';
import { useState } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { BuildingFilter } from '@/components/building-filter';
import { ListTable, type Column } from '@/components/list-page';
import { PageHeader } from '@/components/page-header';
import { BuildingDateTime, TimeZoneNote } from '@/components/time-zone';
import { paths } from '@/config/paths';
import { useBuildingTimeZone } from '@/lib/building-time';
import { useFloors } from '@/lib/floor-options';
import { readListParams, writeListParams } from '@/lib/list-params';
import { useReports, useRobotOptions } from '../api';
import { REPORTS_PER_PAGE, reportListSchema, reportSelection, type ReportListParams } from '../list-params';
import { ResultBadge, useReportWords } from '../words';
import { ExportDialog } from './export-dialog';
import { ReportTabs } from './report-tabs';

/** /report/list/{page}: every report in scope, newest first, with filters, abnormal ones marked, and the export. */
export function ReportListPage({ page, pollMs }: { page: number; pollMs?: number }) {
  const w = useReportWords();
  const { t } = w;
  const navigate = useNavigate();
  const [search] = useSearchParams();
  const params = readListParams(reportListSchema, search);
  const setParams = (change: Partial<ReportListParams>) => {
    const qs = writeListParams(reportListSchema, { ...params, ...change }).toString();
    void navigate(`${paths.report.list.getHref(1)}${qs ? `?${qs}` : ''}`);
  };
  const timeZone = useBuildingTimeZone(params.building);
  const reports = useReports(params, page, timeZone);
  const floors = useFloors(params.building);
  const robots = useRobotOptions(params.building);
  const [exporting, setExporting] = useState(false);
  const qs = search.toString();
  const all = { value: '', label: t('reports.all') };
  const idOptions = (rows: { id: number; name: string }[], value: number | null) => {
    const data = [all, ...rows.map((r) => ({ value: String(r.id), label: r.name }))];
    if (value !== null && !rows.some((r) => r.id === value)) data.push({ value: String(value), label: `#${value}` });
    return data;
  };
  const idOf = (v: string) => (v === '' ? null : Number(v));

  const columns: Column<Report>[] = [
    {
      id: 'startedAt',
      header: t('reports.columns.startedAt'),
      meta: { rowHeader: true, cellProps: { style: { whiteSpace: 'nowrap' } } },
      cell: ({ row: { original: r } }) => (
        <Anchor
          component={Link}
          to={paths.report.detail.getHref(r.id)}
          onClick={(e) => e.stopPropagation()}
          aria-label={t('reports.open', { id: r.id })}
          data-testid={`report-link-${r.id}`}
        >
          <BuildingDateTime value={r.startedAt} buildingId={r.buildingId} />
        </Anchor>
      ),
    },
    { id: 'type', header: t('reports.columns.type'), cell: ({ row }) => w.type(row.original.type) },
    {
      id: 'place',
      header: t('reports.columns.place'),
      cell: ({ row: { original: r } }) => (
        <Stack gap={0}>
          <Text size="sm">{r.buildingName}</Text>
          <Text size="xs" c="dimmed">
            {r.floorName}
          </Text>
        </Stack>
      ),
    },
    { id: 'robot', header: t('reports.columns.robot'), cell: ({ row }) => row.original.robotName },
    { id: 'flow', header: t('reports.columns.flow'), cell: ({ row }) => row.original.flowName },
    {
      id: 'caller',
      header: t('reports.columns.caller'),
      cell: ({ row: { original: r } }) => (
        <Stack gap={0}>
          <Text size="sm">{w.caller(r.caller)}</Text>
          {r.callerName && (
            <Text size="xs" c="dimmed">
              {r.callerName}
            </Text>
          )}
        </Stack>
      ),
    },
    {
      id: 'result',
      header: t('reports.columns.result'),
      cell: ({ row }) => <ResultBadge result={row.original.result} />,
    },
    {
      id: 'abnormal',
      header: t('reports.columns.abnormal'),
      cell: ({ row: { original: r } }) =>
        r.abnormalCount > 0 ? (
          <Text size="sm" c="red.7" fw={700} data-testid={`report-abnormal-${r.id}`}>
            <span aria-hidden="true">⚠ </span>
            {t('reports.abnormalCount', { count: r.abnormalCount })}
          </Text>
        ) : (
          <Text size="sm" c="dimmed">
            0
          </Text>
        ),
    },
    {
      id: 'photos',
      header: t('reports.columns.photos'),
      cell: ({ row: { original: r } }) => (
        <Group gap="xs" wrap="nowrap">
          {r.thumbnailUrl && (
            <Image
              src={r.thumbnailUrl}
              alt={t('reports.photoAlt', { id: r.id })}
              w={56}
              h={32}
              fit="cover"
              radius="xs"
              loading="lazy"
            />
          )}
          <Text size="sm">{r.photoCount}</Text>
        </Group>
      ),
    },
  ];

  return (
    <Stack>
      <PageHeader title={t('reports.listTitle')}>
        <Button onClick={() => setExporting(true)} data-testid="report-export">
          {t('reports.export.button')}
        </Button>
      </PageHeader>
      <ReportTabs active="list" />
      <Group align="flex-end" wrap="wrap">
        <BuildingFilter allowAll resetParams={['floor', 'robot']} firstPage={paths.report.list.getHref(1)} />
        <NativeSelect
          label={t('reports.filters.floor')}
          value={params.floor === null ? '' : String(params.floor)}
          disabled={params.building === null}
          onChange={(e) => setParams({ floor: idOf(e.currentTarget.value) })}
          data={idOptions(
            (floors.data ?? []).flatMap((f) =>
              typeof f.id === 'number' ? [{ id: f.id, name: f.name ?? String(f.id) }] : [],
            ),
            params.floor,
          )}
          data-testid="report-floor-filter"
        />
        <NativeSelect
          label={t('reports.filters.robot')}
          value={params.robot === null ? '' : String(params.robot)}
          onChange={(e) => setParams({ robot: idOf(e.currentTarget.value) })}
          data={idOptions(robots.data ?? [], params.robot)}
          data-testid="report-robot-filter"
        />
        <NativeSelect
          label={t('reports.filters.type')}
          value={params.type === null ? '' : String(params.type)}
          onChange={(e) => {
            const v = e.currentTarget.value;
            setParams({ type: REPORT_TYPES.find((x) => String(x) === v) ?? null });
          }}
          data={[all, ...REPORT_TYPES.map((x) => ({ value: String(x), label: w.type(x) }))]}
          data-testid="report-type-filter"
        />
        <NativeSelect
          label={t('reports.filters.result')}
          value={params.result === null ? '' : String(params.result)}
          onChange={(e) => {
            const v = e.currentTarget.value;
            setParams({ result: REPORT_RESULTS.find((x) => String(x) === v) ?? null });
          }}
          data={[all, ...REPORT_RESULTS.map((x) => ({ value: String(x), label: w.result(x) }))]}
          data-testid="report-result-filter"
        />
        <TextInput
          type="date"
          label={t('reports.filters.from')}
          value={params.from}
          onChange={(e) => setParams({ from: e.currentTarget.value })}
          data-testid="report-from"
        />
        <TextInput
          type="date"
          label={t('reports.filters.to')}
          value={params.to}
          onChange={(e) => setParams({ to: e.currentTarget.value })}
          data-testid="report-to"
        />
        <Checkbox
          label={t('reports.filters.abnormal')}
          checked={params.abnormal === 1}
          onChange={(e) => setParams({ abnormal: e.currentTarget.checked ? 1 : null })}
          mb={8}
          data-testid="report-abnormal-filter"
        />
      </Group>
      {params.building !== null && <TimeZoneNote timeZone={timeZone} />}
      <ListTable
        query={reports}
        empty={qs ? t('reports.noMatch') : t('reports.empty')}
        emptyTestId="report-empty"
        count={(count) => t('reports.total', { count })}
        columns={columns}
        rowId={(r) => r.id}
        rowProps={(r) => ({
          'data-testid': `report-row-${r.id}`,
          'data-abnormal': r.abnormalCount > 0 || r.result === 9 ? 'true' : undefined,
          style: {
            cursor: 'pointer',
            ...(r.abnormalCount > 0 || r.result === 9 ? { boxShadow: 'inset 4px 0 0 var(--mantine-color-red-6)' } : {}),
          },
          onClick: () => void navigate(paths.report.detail.getHref(r.id)),
        })}
        paging={{
          page,
          perPage: REPORTS_PER_PAGE,
          pageHref: (p) => `${paths.report.list.getHref(p)}${qs ? `?${qs}` : ''}`,
        }}
        minWidth={1100}
        data-testid="report-table"
      />
      <ExportDialog
        opened={exporting}
        onClose={() => setExporting(false)}
        selection={reportSelection(params, timeZone)}
        pollMs={pollMs}
      />
    </Stack>
  );
}
