import { zodResolver } from '@hookform/resolvers/zod';
import { FileInput, Stack, Text, Textarea, TextInput } from '@mantine/core';
import { EXPORT_TEMPLATE_MAX_BYTES, exportTemplateFieldsSchema, isDataAdmin } from '@portal/contract';
import { Controller, useForm, type Resolver } from 'react-hook-form';
import { Navigate, useNavigate } from 'react-router';
import { z } from 'zod';
import { FormShell, useFormKit } from '@/components/form-page';
import { PageHeader } from '@/components/page-header';
import { paths } from '@/config/paths';
import { useSession } from '@/lib/session';
import { useCreateTemplate, type TemplateUpload } from '../api';
import { useReportMessageText, useReportWords } from '../words';

const FIELDS = ['name', 'description', 'file'] as const;

/** The upload's fields as the contract checks them, and the workbook (an .xlsx of at most 10 MB). */
const templateFormSchema = exportTemplateFieldsSchema.pick({ name: true, description: true }).extend({
  file: z
    .custom<File | null>((v) => v instanceof File, 'reportValidation.fileRequired')
    .refine((f) => f === null || /\.xlsx$/i.test(f.name), 'reportValidation.notXlsx')
    .refine((f) => f === null || f.size <= EXPORT_TEMPLATE_MAX_BYTES, 'reportValidation.fileTooLarge'),
});

/** /report/export-template/create: an administrator uploads a workbook with a raw data sheet. */
export function TemplateCreatePage() {
  const { t } = useReportWords();
  const session = useSession();
  if (session !== null && !isDataAdmin(session.type))
    return <Navigate to={paths.report.templateList.getHref(1)} replace />;
  return (
    <Stack>
      <PageHeader title={t('reports.templates.createTitle')} />
      <Text size="sm" c="dimmed" maw={720}>
        {t('reports.templates.hint')}
      </Text>
      <TemplateForm />
    </Stack>
  );
}

function TemplateForm() {
  const { t } = useReportWords();
  const navigate = useNavigate();
  const create = useCreateTemplate();
  const form = useForm<TemplateUpload>({
    resolver: zodResolver(templateFormSchema) as unknown as Resolver<TemplateUpload>,
    defaultValues: { name: '', description: '', file: null },
  });
  const kit = useFormKit(form, { fields: FIELDS, translate: useReportMessageText() });
  const onSubmit = form.handleSubmit((v) =>
    create.mutate(
      { name: v.name.trim(), description: v.description.trim(), file: v.file },
      kit.saved({
        successText: t('reports.templates.saved'),
        onSuccess: () => void navigate(paths.report.templateList.getHref(1)),
      }),
    ),
  );
  return (
    <FormShell
      kit={kit}
      onSubmit={onSubmit}
      mutation={create}
      label={t('reports.templates.createTitle')}
      submitLabel={t('reports.templates.save')}
      submitTestId="template-save"
      cancelTo={paths.report.templateList.getHref(1)}
      testId="template-form"
    >
      <TextInput
        label={t('reports.templates.name')}
        required
        {...form.register('name')}
        error={kit.err('name')}
        data-testid="template-name"
      />
      <Textarea
        label={t('reports.templates.description')}
        autosize
        minRows={2}
        {...form.register('description')}
        error={kit.err('description')}
        data-testid="template-description"
      />
      <Controller
        control={form.control}
        name="file"
        render={({ field }) => (
          <FileInput
            label={t('reports.templates.file')}
            placeholder={t('reports.templates.filePlaceholder')}
            description={t('reports.templates.fileHint')}
            accept=".xlsx,application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
            required
            clearable
            value={field.value}
            onChange={(f) => field.onChange(f)}
            onBlur={field.onBlur}
            error={kit.err('file')}
            data-testid="template-file-button"
            fileInputProps={{ 'data-testid': 'template-file' } as never}
          />
        )}
      />
    </FormShell>
  );
}
