import { zodResolver } from '@hookform/resolvers/zod';
import { Alert, Button, Group, Modal, NativeSelect, Progress, Stack, Text } from '@mantine/core';
import {
  createExportBodySchema,
  EXPORT_ENCODINGS,
  EXPORT_FORMATS,
  reportOps,
  type CreateExportBody,
  type ExportEncoding,
  type ExportFormat,
  type ExportJob,
  type ReportSelection,
} from '@portal/contract';
import { useState } from 'react';
import { Controller, useForm, useWatch, type Resolver } from 'react-hook-form';
import { FormShell, useFormKit } from '@/components/form-page';
import { useErrorText } from '@/lib/i18n';
import { useCreateExport, useExportJob, useTemplateOptions } from '../api';
import { downloadFile } from '../download';
import { useJobErrorText, useReportMessageText, useReportWords } from '../words';

interface ExportValues {
  format: ExportFormat;
  encoding: ExportEncoding;
  templateId: number | null;
}
const FIELDS = ['format', 'encoding', 'templateId'] as const;

interface ExportDialogProps {
  opened: boolean;
  onClose: () => void;
  /** The list's current filters. */
  selection: ReportSelection;
  /** How often the export's progress is asked for (tests make it short). */
  pollMs?: number;
}

/**
 * Export of the reports the list's filters select: format, encoding and (Excel) a template; then the
 * export's progress, polled until it is done, and its download. EXPORT_FORBIDDEN and NO_TARGET_DATA
 * show their sentences in the form's alert.
 */
export function ExportDialog({ opened, onClose, selection, pollMs }: ExportDialogProps) {
  const { t } = useReportWords();
  const [jobId, setJobId] = useState<number | null>(null);
  const close = () => {
    setJobId(null);
    onClose();
  };
  return (
    <Modal
      opened={opened}
      onClose={close}
      title={t('reports.export.title')}
      size="lg"
      closeButtonProps={{ 'aria-label': t('reports.export.close') }}
      data-testid="export-dialog"
    >
      {jobId === null ? (
        <ExportForm selection={selection} onStarted={(job) => setJobId(job.id)} />
      ) : (
        <ExportProgress jobId={jobId} pollMs={pollMs} onClose={close} />
      )}
    </Modal>
  );
}

function ExportForm({ selection, onStarted }: { selection: ReportSelection; onStarted: (job: ExportJob) => void }) {
  const { t } = useReportWords();
  const create = useCreateExport();
  const templates = useTemplateOptions(true);
  const form = useForm<ExportValues>({
    resolver: zodResolver(createExportBodySchema) as unknown as Resolver<ExportValues>,
    defaultValues: { format: 'csv', encoding: 'utf-8', templateId: null },
  });
  const kit = useFormKit(form, { fields: FIELDS, translate: useReportMessageText() });
  const format = useWatch({ control: form.control, name: 'format' });
  const onSubmit = form.handleSubmit((v) => {
    const body: CreateExportBody = {
      format: v.format,
      encoding: v.encoding,
      templateId: v.format === 'xlsx' ? v.templateId : null,
      selection,
    };
    create.mutate(body, kit.saved({ successText: false, onSuccess: onStarted }));
  });
  return (
    <Stack>
      <Text size="sm" c="dimmed">
        {t('reports.export.hint')}
      </Text>
      <FormShell
        kit={kit}
        onSubmit={onSubmit}
        mutation={create}
        label={t('reports.export.title')}
        submitLabel={t('reports.export.start')}
        submitTestId="export-start"
        testId="export-form"
        inline
      >
        <Controller
          control={form.control}
          name="format"
          render={({ field }) => (
            <NativeSelect
              label={t('reports.export.format')}
              value={field.value}
              onChange={(e) => {
                const v = e.currentTarget.value as ExportFormat;
                field.onChange(v);
                if (v !== 'xlsx') form.setValue('templateId', null);
              }}
              data={EXPORT_FORMATS.map((f) => ({ value: f, label: t(`reports.export.formats.${f}`) }))}
              error={kit.err('format')}
              data-testid="export-format"
            />
          )}
        />
        <Controller
          control={form.control}
          name="encoding"
          render={({ field }) => (
            <NativeSelect
              label={t('reports.export.encoding')}
              value={field.value}
              onChange={(e) => field.onChange(e.currentTarget.value as ExportEncoding)}
              data={EXPORT_ENCODINGS.map((f) => ({ value: f, label: t(`reports.export.encodings.${f}`) }))}
              error={kit.err('encoding')}
              data-testid="export-encoding"
            />
          )}
        />
        <Controller
          control={form.control}
          name="templateId"
          render={({ field }) => (
            <NativeSelect
              label={t('reports.export.template')}
              value={field.value === null ? '' : String(field.value)}
              disabled={format !== 'xlsx'}
              description={format !== 'xlsx' ? t('reports.export.templateExcelOnly') : undefined}
              onChange={(e) => field.onChange(e.currentTarget.value === '' ? null : Number(e.currentTarget.value))}
              data={[
                { value: '', label: t('reports.export.noTemplate') },
                ...(templates.data ?? []).map((x) => ({ value: String(x.id), label: x.name })),
              ]}
              error={kit.err('templateId')}
              data-testid="export-template"
            />
          )}
        />
      </FormShell>
    </Stack>
  );
}

function ExportProgress({ jobId, pollMs, onClose }: { jobId: number; pollMs?: number; onClose: () => void }) {
  const { t } = useReportWords();
  const errorText = useErrorText();
  const job = useExportJob(jobId, pollMs);
  const jobError = useJobErrorText();
  const [downloadError, setDownloadError] = useState<unknown>(null);
  const j = job.data;
  const percent = j ? (j.status === 'done' ? 100 : j.rowCount > 0 ? (100 * j.rowsDone) / j.rowCount : 0) : 0;
  return (
    <Stack data-testid="export-progress">
      {j && (j.status === 'queued' || j.status === 'running') && (
        <>
          <Progress value={percent} animated aria-label={t('reports.historyColumns.status')} data-testid="export-bar" />
          <Text size="sm" aria-live="polite">
            {j.status === 'queued'
              ? t('reports.export.queued')
              : t('reports.export.progress', { done: j.rowsDone, total: j.rowCount })}
          </Text>
        </>
      )}
      {j?.status === 'done' && (
        <>
          <Progress value={100} color="green" aria-label={t('reports.historyColumns.status')} />
          <Text size="sm" aria-live="polite" data-testid="export-done">
            {t('reports.export.done', { count: j.rowCount })}
          </Text>
        </>
      )}
      {(j?.status === 'fail' || j?.status === 'expired') && (
        <Alert color="red" role="alert" data-testid="export-failed">
          {t('reports.export.failed', { error: j.error ? jobError(j.error) : t(`reports.statuses.${j.status}`) })}
        </Alert>
      )}
      {job.isError && (
        <Alert color="red" role="alert">
          {errorText(job.error)}
        </Alert>
      )}
      {downloadError !== null && (
        <Alert color="red" role="alert">
          {t('reports.downloadFailed', { error: errorText(downloadError) })}
        </Alert>
      )}
      <Group justify="flex-end">
        <Button variant="default" onClick={onClose}>
          {t('reports.export.close')}
        </Button>
        {j?.status === 'done' && (
          <Button
            onClick={() => {
              setDownloadError(null);
              downloadFile(reportOps.downloadReportExport, j.id, j.fileName).catch(setDownloadError);
            }}
            data-testid="export-download"
          >
            {t('reports.export.download')}
          </Button>
        )}
      </Group>
    </Stack>
  );
}
