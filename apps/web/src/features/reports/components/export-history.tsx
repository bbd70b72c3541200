import { Alert, Button, Progress, Stack, Text } from '@mantine/core';
import { reportOps, type ExportJob } from '@portal/contract';
import { useState } from 'react';
import { ListTable, type Column } from '@/components/list-page';
import { PageHeader } from '@/components/page-header';
import { TimeZoneNote } from '@/components/time-zone';
import { paths } from '@/config/paths';
import { useFormat } from '@/lib/format';
import { useErrorText } from '@/lib/i18n';
import { useExports } from '../api';
import { downloadFile } from '../download';
import { EXPORTS_PER_PAGE } from '../list-params';
import { useJobErrorText, useReportWords } from '../words';
import { ReportTabs } from './report-tabs';

const STATUS_COLOURS: Record<ExportJob['status'], string> = {
  queued: 'gray',
  running: 'blue',
  done: 'green',
  fail: 'red',
  expired: 'gray',
};

/** /report/export-history/{page}: the exports in scope, newest first, with their progress and files. */
export function ExportHistoryPage({ page }: { page: number }) {
  const { t } = useReportWords();
  const format = useFormat();
  const errorText = useErrorText();
  const exports = useExports(page);
  const jobError = useJobErrorText();
  const [downloadError, setDownloadError] = useState<unknown>(null);

  const columns: Column<ExportJob>[] = [
    {
      id: 'createdAt',
      header: t('reports.historyColumns.createdAt'),
      meta: { rowHeader: true },
      cell: ({ row }) => <time dateTime={row.original.createdAt}>{format.dateTime(row.original.createdAt)}</time>,
    },
    {
      id: 'format',
      header: t('reports.historyColumns.format'),
      cell: ({ row }) => t(`reports.export.formats.${row.original.format}`),
    },
    {
      id: 'encoding',
      header: t('reports.historyColumns.encoding'),
      cell: ({ row }) => t(`reports.export.encodings.${row.original.encoding}`),
    },
    {
      id: 'template',
      header: t('reports.historyColumns.template'),
      cell: ({ row }) => row.original.templateName ?? '',
    },
    {
      id: 'rows',
      header: t('reports.historyColumns.rows'),
      meta: { cellProps: { style: { textAlign: 'right' } } },
      cell: ({ row }) => format.number(row.original.rowCount),
    },
    { id: 'exporter', header: t('reports.historyColumns.exporter'), cell: ({ row }) => row.original.exporterName },
    {
      id: 'status',
      header: t('reports.historyColumns.status'),
      cell: ({ row: { original: j } }) => (
        <Stack gap={4} miw={120} data-testid={`export-status-${j.id}`}>
          <Text size="sm" c={STATUS_COLOURS[j.status]} fw={j.status === 'fail' ? 700 : undefined}>
            {j.status === 'fail' && <span aria-hidden="true">⚠ </span>}
            {t(`reports.statuses.${j.status}`)}
          </Text>
          {(j.status === 'queued' || j.status === 'running') && (
            <>
              <Progress
                value={j.rowCount > 0 ? (100 * j.rowsDone) / j.rowCount : 0}
                size="sm"
                animated
                aria-label={t('reports.historyColumns.status')}
              />
              <Text size="xs" c="dimmed">
                {t('reports.export.progress', { done: j.rowsDone, total: j.rowCount })}
              </Text>
            </>
          )}
          {j.status === 'fail' && j.error && (
            <Text size="xs" c="red.8">
              {jobError(j.error)}
            </Text>
          )}
        </Stack>
      ),
    },
    {
      id: 'expiresAt',
      header: t('reports.historyColumns.expiresAt'),
      cell: ({ row: { original: j } }) =>
        j.expiresAt && <time dateTime={j.expiresAt}>{format.dateTime(j.expiresAt)}</time>,
    },
    {
      id: 'file',
      header: t('reports.historyColumns.file'),
      cell: ({ row: { original: j } }) => (
        <Stack gap={4} align="flex-start">
          <Text size="xs" c="dimmed" style={{ wordBreak: 'break-all' }}>
            {j.fileName}
          </Text>
          {j.status === 'done' && (
            <Button
              size="compact-sm"
              variant="light"
              onClick={() => {
                setDownloadError(null);
                downloadFile(reportOps.downloadReportExport, j.id, j.fileName).catch(setDownloadError);
              }}
              title={j.fileName}
              data-testid={`export-download-${j.id}`}
            >
              {t('reports.export.download')}
            </Button>
          )}
        </Stack>
      ),
    },
  ];

  return (
    <Stack>
      <PageHeader title={t('reports.historyTitle')} />
      <ReportTabs active="history" />
      <TimeZoneNote />
      {downloadError !== null && (
        <Alert color="red" role="alert" withCloseButton onClose={() => setDownloadError(null)}>
          {t('reports.downloadFailed', { error: errorText(downloadError) })}
        </Alert>
      )}
      <ListTable
        query={exports}
        empty={t('reports.historyEmpty')}
        emptyTestId="export-history-empty"
        count={(count) => t('reports.historyTotal', { count })}
        columns={columns}
        rowId={(j) => j.id}
        rowProps={(j) => ({ 'data-testid': `export-row-${j.id}` })}
        paging={{ page, perPage: EXPORTS_PER_PAGE, pageHref: (p) => paths.report.exportHistory.getHref(p) }}
        minWidth={1000}
        data-testid="export-history-table"
      />
    </Stack>
  );
}
