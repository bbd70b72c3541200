import { zodResolver } from '@hookform/resolvers/zod';
import { Alert, NativeSelect, Stack, Text, Textarea, TextInput } from '@mantine/core';
import {
  WORK_PLAN_TYPES,
  emptyWorkPlanDefinition,
  workPlanTemplateInputSchema,
  type WorkPlanDefinition,
  type WorkPlanTemplate,
  type WorkPlanTemplateInput,
  type WorkPlanType,
} from '@portal/contract';
import type { ReactNode } from 'react';
import { Controller, useForm, useWatch, type Resolver } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { FormShell, LockedFields, useFormKit } from '@/components/form-page';
import { paths } from '@/config/paths';
import { useCreateWorkPlanTemplate, useUpdateWorkPlanTemplate } from '../api';
import { useWorkPlanMessage } from '../words';
import { StepEditor } from './step-editor';
import { definitionIssues, useDefinitionIssues } from './work-plan-form';

export interface TemplateFormValues {
  name: string;
  description: string;
  type: WorkPlanType;
  definition: WorkPlanDefinition;
}

const FIELDS = ['name', 'description', 'type', 'definition'] as const;

const bodyOf = (v: TemplateFormValues): WorkPlanTemplateInput => ({
  name: v.name.trim(),
  description: v.description.trim(),
  type: v.type,
  definition: v.definition,
});
export const templateValuesOf = (p: WorkPlanTemplate): TemplateFormValues => ({
  name: p.name,
  description: p.description,
  type: p.type === 0 ? 0 : 1,
  definition: p.definition,
});

const resolver: Resolver<TemplateFormValues> = async (values, context, options) => {
  const resolve = zodResolver(workPlanTemplateInputSchema.omit({ definition: true })) as unknown as Resolver<
    Record<string, unknown>
  >;
  const result = await resolve(bodyOf(values) as never, context, options as never);
  const errors = { ...result.errors } as Record<string, unknown>;
  const first = definitionIssues(values.definition, false)[0];
  if (first) errors.definition = { type: 'custom', message: first.message };
  if (Object.keys(errors).length === 0) return { values, errors: {} };
  return { values: {}, errors } as never;
};

interface TemplateFormProps {
  template?: WorkPlanTemplate;
  initial?: Partial<TemplateFormValues>;
  readOnly?: boolean;
  /** Why the form is read-only (a shipped template, a non-administrator). */
  readOnlyNote?: ReactNode;
  onReload?: () => Promise<WorkPlanTemplate | undefined>;
  onCreated?: (p: WorkPlanTemplate) => void;
  startActions?: ReactNode;
}

/** /workplan/create-template (and `?id=` to edit one): a template's name, description, type and steps. */
export function TemplateForm({
  template,
  initial,
  readOnly,
  readOnlyNote,
  onReload,
  onCreated,
  startActions,
}: TemplateFormProps) {
  const { t } = useTranslation();
  const messageText = useWorkPlanMessage();
  const create = useCreateWorkPlanTemplate();
  const update = useUpdateWorkPlanTemplate();
  const mutation = template ? update : create;
  const form = useForm<TemplateFormValues>({
    resolver,
    defaultValues: template
      ? templateValuesOf(template)
      : { name: '', description: '', type: 0, definition: emptyWorkPlanDefinition(), ...initial },
  });
  const kit = useFormKit(form, {
    fields: FIELDS,
    record: template,
    reload: onReload,
    toValues: templateValuesOf,
    translate: messageText,
  });
  const { err } = kit;
  const definition = useWatch({ control: form.control, name: 'definition' });
  const { issueAt, onServerError } = useDefinitionIssues(definition, false, form.formState.submitCount > 0);

  const onSubmit = form.handleSubmit((v) => {
    const body = bodyOf(v);
    const base = kit.base;
    const withIssues = <D,>(s: { onSuccess: (d: D) => void; onError: (e: unknown) => void }) => ({
      ...s,
      onError: (e: unknown) => {
        onServerError(e);
        s.onError(e);
      },
    });
    if (base) update.mutate({ id: base.id, body: { ...body, updatedAt: base.updatedAt } }, withIssues(kit.saved()));
    else
      create.mutate(
        body,
        withIssues(
          kit.saved<WorkPlanTemplate>({ successText: t('workPlans.form.templateCreated'), onSuccess: onCreated }),
        ),
      );
  });

  return (
    <FormShell
      kit={kit}
      onSubmit={onSubmit}
      mutation={mutation}
      label={t('workPlans.tabs.templates')}
      testId="wp-template-form"
      submitTestId="wp-template-save"
      createLabel={t('workPlans.createTemplate')}
      createCancelTo={paths.workplan.settings.getHref({ tab: 'templates' })}
      startActions={startActions}
      readOnly={readOnly}
      cancelTo={readOnly ? paths.workplan.settings.getHref({ tab: 'templates' }) : undefined}
      cancelLabel={readOnly ? t('workPlans.back') : undefined}
    >
      {readOnly && readOnlyNote && (
        <Alert color="gray" mb="sm" data-testid="wp-template-read-only">
          {readOnlyNote}
        </Alert>
      )}
      <LockedFields locked={readOnly}>
        <Stack>
          <TextInput
            label={t('workPlans.form.name')}
            required
            error={err('name')}
            data-testid="wp-template-name"
            {...form.register('name')}
          />
          <Textarea
            label={t('workPlans.form.description')}
            autosize
            minRows={2}
            error={err('description')}
            data-testid="wp-template-description"
            {...form.register('description')}
          />
          <Controller
            control={form.control}
            name="type"
            render={({ field }) => (
              <NativeSelect
                label={t('workPlans.form.type')}
                required
                value={String(field.value)}
                onChange={(e) => field.onChange(e.currentTarget.value === '0' ? 0 : 1)}
                data={WORK_PLAN_TYPES.map((x) => ({ value: String(x), label: t(`workPlans.types.${x}`) }))}
                data-testid="wp-template-type"
              />
            )}
          />
          {err('definition') && (
            <Text c="red" size="sm">
              {err('definition')}
            </Text>
          )}
          <Controller
            control={form.control}
            name="definition"
            render={({ field }) => (
              <StepEditor
                value={field.value}
                onChange={field.onChange}
                place={null}
                issueAt={issueAt}
                readOnly={readOnly}
              />
            )}
          />
        </Stack>
      </LockedFields>
    </FormShell>
  );
}
