import { zodResolver } from '@hookform/resolvers/zod';
import { NativeSelect, SimpleGrid, Stack, Switch, Textarea, TextInput } from '@mantine/core';
import {
  THRESHOLD_LEVELS,
  thresholdRuleInputSchema,
  type ThresholdCondition,
  type ThresholdRule,
} from '@portal/contract';
import type { ReactNode } from 'react';
import { Controller, useForm, useWatch, type Path, type Resolver } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { FormShell, LockedFields, useFormKit } from '@/components/form-page';
import { useCreateThresholdRule, useUpdateThresholdRule } from '../api';
import { ConditionsEditor } from './conditions-editor';
import { useThresholdMessage } from './use-threshold-message';

/** The form's values: the contract's rule input (the organization is the caller's). */
export interface ThresholdFormValues {
  name: string;
  description: string;
  level: number;
  status: 0 | 1;
  conditions: ThresholdCondition[];
}

/** The server's rules, mirrored: the contract's schema. */
const formSchema = thresholdRuleInputSchema.omit({ organizationId: true });

export const thresholdFormValues = (r: ThresholdRule): ThresholdFormValues => ({
  name: r.name,
  description: r.description,
  level: r.level,
  status: r.status === 0 ? 0 : 1,
  conditions: r.conditions,
});

export const emptyThresholdForm = (): ThresholdFormValues => ({
  name: '',
  description: '',
  level: 5,
  status: 1,
  conditions: [{ judgment: 'range', target: null, min: null, max: null }],
});

/** Every field a server error may name: the rule's, and each condition's values. */
const fieldsFor = (count: number): Path<ThresholdFormValues>[] => [
  'name',
  'description',
  'level',
  'status',
  'conditions',
  ...Array.from({ length: count }, (_, i) =>
    (['judgment', 'target', 'min', 'max'] as const).map((k) => `conditions.${i}.${k}` as const),
  ).flat(),
];

interface ThresholdFormProps {
  /** Edit: the stored rule. */
  rule?: ThresholdRule;
  /** Edit: fetches the stored rule again (the conflict dialog's answers). */
  onReload?: () => Promise<ThresholdRule | undefined>;
  /** Create: the new rule (e.g. go to its page). */
  onCreated?: (rule: ThresholdRule) => void;
  readOnly?: boolean;
  /** Buttons at the start of the button row (delete). */
  extraActions?: ReactNode;
  cancelTo?: string;
}

/**
 * A threshold rule on the form kit: name, description, notification level, status and the
 * conditions, checked as typed with the contract's schema (spec §5), the server's field errors
 * under their fields.
 */
export function ThresholdForm({ rule, onReload, onCreated, readOnly, extraActions, cancelTo }: ThresholdFormProps) {
  const { t } = useTranslation();
  const message = useThresholdMessage();
  const create = useCreateThresholdRule();
  const update = useUpdateThresholdRule();
  const form = useForm<ThresholdFormValues>({
    resolver: zodResolver(formSchema) as unknown as Resolver<ThresholdFormValues>,
    defaultValues: rule ? thresholdFormValues(rule) : emptyThresholdForm(),
  });
  const count = useWatch({ control: form.control, name: 'conditions' })?.length ?? 0;
  const kit = useFormKit(form, {
    fields: fieldsFor(Math.max(count, 1)),
    record: rule,
    reload: onReload,
    toValues: thresholdFormValues,
    translate: message,
  });
  const base = kit.base;

  const submit = form.handleSubmit((values) => {
    const body = { ...values, level: values.level as 0 | 5 | 9 };
    if (base)
      update.mutate(
        { id: base.id, body: { ...body, updatedAt: base.updatedAt } },
        kit.saved({ successText: t('thresholds.saved') }),
      );
    else create.mutate(body, kit.saved<ThresholdRule>({ successText: t('thresholds.created'), onSuccess: onCreated }));
  });

  return (
    <FormShell
      kit={kit}
      onSubmit={submit}
      mutation={base ? update : create}
      label={t('thresholds.listTitle')}
      testId="threshold-form"
      submitTestId="threshold-save"
      createLabel={t('thresholds.create')}
      createCancelTo={cancelTo}
      cancelTo={readOnly ? cancelTo : undefined}
      cancelLabel={readOnly ? t('thresholds.backToList') : undefined}
      readOnly={readOnly}
      startActions={extraActions}
      maw={960}
    >
      <LockedFields locked={readOnly}>
        <Stack>
          <TextInput
            label={t('thresholds.fields.name')}
            required
            {...form.register('name')}
            error={kit.err('name')}
            data-testid="threshold-name"
          />
          <Textarea
            label={t('thresholds.fields.description')}
            autosize
            minRows={2}
            {...form.register('description')}
            error={kit.err('description')}
            data-testid="threshold-description"
          />
          <SimpleGrid cols={{ base: 1, sm: 2 }}>
            <Controller
              control={form.control}
              name="level"
              render={({ field }) => (
                <NativeSelect
                  label={t('thresholds.fields.level')}
                  value={String(field.value)}
                  onChange={(e) => field.onChange(Number(e.currentTarget.value))}
                  data={THRESHOLD_LEVELS.map((l) => ({ value: String(l), label: t(`levels.${l}`) }))}
                  error={kit.err('level')}
                  data-testid="threshold-level"
                />
              )}
            />
            <Controller
              control={form.control}
              name="status"
              render={({ field }) => (
                <Switch
                  mt={{ sm: 28 }}
                  label={t('thresholds.fields.status')}
                  checked={field.value === 1}
                  onChange={(e) => field.onChange(e.currentTarget.checked ? 1 : 0)}
                  data-testid="threshold-status"
                />
              )}
            />
          </SimpleGrid>
          <ConditionsEditor form={form} readOnly={readOnly} />
        </Stack>
      </LockedFields>
    </FormShell>
  );
}
