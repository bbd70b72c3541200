import { Alert, Button, Group, Stack, Text } from '@mantine/core';
import { isDataAdmin, reportOps, type ExportTemplate } from '@portal/contract';
import { useState } from 'react';
import { ConfirmButton } from '@/components/confirm-button';
import { ListTable, type Column } from '@/components/list-page';
import { PageHeader } from '@/components/page-header';
import { paths } from '@/config/paths';
import { useFormat } from '@/lib/format';
import { useErrorText } from '@/lib/i18n';
import { showNotification } from '@/lib/notify';
import { useSession } from '@/lib/session';
import { useDeleteTemplate, useTemplates } from '../api';
import { downloadFile } from '../download';
import { TEMPLATES_PER_PAGE } from '../list-params';
import { useReportWords } from '../words';
import { ReportTabs } from './report-tabs';

/** /report/export-template/list/{page}: the organization's export templates; administrators add and delete. */
export function TemplateListPage({ page }: { page: number }) {
  const { t } = useReportWords();
  const format = useFormat();
  const errorText = useErrorText();
  const session = useSession();
  const admin = session !== null && isDataAdmin(session.type);
  const templates = useTemplates(page);
  const remove = useDeleteTemplate();
  const [error, setError] = useState<unknown>(null);

  const columns: Column<ExportTemplate>[] = [
    {
      id: 'name',
      header: t('reports.templates.columns.name'),
      meta: { rowHeader: true },
      cell: ({ row }) => row.original.name,
    },
    {
      id: 'description',
      header: t('reports.templates.columns.description'),
      cell: ({ row }) => (
        <Text size="sm" lineClamp={2}>
          {row.original.description}
        </Text>
      ),
    },
    { id: 'fileName', header: t('reports.templates.columns.fileName'), cell: ({ row }) => row.original.fileName },
    { id: 'rawSheet', header: t('reports.templates.columns.rawSheet'), cell: ({ row }) => row.original.rawSheetName },
    {
      id: 'sheets',
      header: t('reports.templates.columns.sheets'),
      cell: ({ row }) => (
        <Text size="xs" c="dimmed">
          {row.original.sheetNames.join(', ')}
        </Text>
      ),
    },
    {
      id: 'created',
      header: t('reports.templates.columns.created'),
      cell: ({ row: { original: x } }) => (
        <Stack gap={0}>
          <Text size="sm">{x.createdByName}</Text>
          <Text size="xs" c="dimmed">
            <time dateTime={x.createdAt}>{format.dateTime(x.createdAt)}</time>
          </Text>
        </Stack>
      ),
    },
    {
      id: 'actions',
      header: t('reports.templates.columns.actions'),
      cell: ({ row: { original: x } }) => (
        <Group gap="xs" wrap="nowrap">
          <Button
            size="compact-sm"
            variant="light"
            onClick={() => {
              setError(null);
              downloadFile(reportOps.downloadExportTemplate, x.id, x.fileName).catch(setError);
            }}
            data-testid={`template-download-${x.id}`}
          >
            {t('reports.templates.download')}
          </Button>
          {admin && (
            <ConfirmButton
              size="compact-sm"
              label={t('reports.templates.delete')}
              message={
                <>
                  {t('reports.templates.deleteTitle', { name: x.name })} {t('reports.templates.deleteBody')}
                </>
              }
              onConfirm={() =>
                remove.mutate(x.id, {
                  onSuccess: () => showNotification({ color: 'green', message: t('reports.templates.deleted') }),
                  onError: setError,
                })
              }
              testId={`template-delete-${x.id}`}
            />
          )}
        </Group>
      ),
    },
  ];

  return (
    <Stack>
      <PageHeader
        title={t('reports.templatesTitle')}
        create={
          admin && {
            to: paths.report.templateCreate.getHref(),
            label: t('reports.templates.create'),
            testId: 'template-create',
          }
        }
      />
      <ReportTabs active="templates" />
      <Text size="sm" c="dimmed">
        {t('reports.templates.hint')}
      </Text>
      {error !== null && (
        <Alert color="red" role="alert" withCloseButton onClose={() => setError(null)}>
          {errorText(error)}
        </Alert>
      )}
      <ListTable
        query={templates}
        empty={t('reports.templates.empty')}
        emptyTestId="template-empty"
        count={(count) => t('reports.templates.total', { count })}
        columns={columns}
        rowId={(x) => x.id}
        rowProps={(x) => ({ 'data-testid': `template-row-${x.id}` })}
        paging={{ page, perPage: TEMPLATES_PER_PAGE, pageHref: (p) => paths.report.templateList.getHref(p) }}
        minWidth={1000}
        data-testid="template-table"
      />
    </Stack>
  );
}
