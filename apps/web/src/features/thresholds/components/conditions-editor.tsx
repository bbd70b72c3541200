import { Button, Group, NativeSelect, Paper, Stack, Text, Title } from '@mantine/core';
import { THRESHOLD_CONDITIONS_MAX, THRESHOLD_JUDGMENTS, type ThresholdJudgment } from '@portal/contract';
import { Controller, useFieldArray, type UseFormReturn } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { OptionalNumberInput } from '@/components/form-page';
import type { ThresholdFormValues } from './threshold-form';
import { useThresholdMessage } from './use-threshold-message';

interface ConditionsEditorProps {
  form: UseFormReturn<ThresholdFormValues>;
  readOnly?: boolean;
}

/** The value fields a judgment uses: `range` its min and max, the others their target. */
const valueFields = (judgment: ThresholdJudgment) =>
  judgment === 'range' ? (['min', 'max'] as const) : (['target'] as const);

/**
 * The rule's conditions: one row each (judgment condition, and the target value or the min and max
 * it needs), rows added and removed; each value checked by the contract's schema as typed.
 */
export function ConditionsEditor({ form, readOnly }: ConditionsEditorProps) {
  const { t } = useTranslation();
  const message = useThresholdMessage();
  const rows = useFieldArray({ control: form.control, name: 'conditions' });
  const errors = form.formState.errors.conditions;
  const valueError = (i: number, key: 'target' | 'min' | 'max' | 'judgment') => message(errors?.[i]?.[key]?.message);
  // The list's own message (none, too many): the schema's lands on the array's root, the server's on the array.
  const listError = message(errors?.root?.message ?? errors?.message);

  return (
    <Paper withBorder p="sm">
      <Stack gap="xs">
        <Title order={3} size="h5">
          {t('thresholds.fields.conditions')}
        </Title>
        <Text size="xs" c="dimmed">
          {t('thresholds.fields.conditionsHint')}
        </Text>
        {rows.fields.length === 0 && (
          <Text c="dimmed" size="sm" data-testid="threshold-conditions-none">
            {t('thresholds.condition.none')}
          </Text>
        )}
        {rows.fields.map((row, i) => {
          const judgment = form.watch(`conditions.${i}.judgment`);
          return (
            <Group
              key={row.id}
              align="flex-start"
              wrap="wrap"
              role="group"
              aria-label={t('thresholds.condition.rowLabel', { number: i + 1 })}
              data-testid={`threshold-condition-${i}`}
            >
              <Controller
                control={form.control}
                name={`conditions.${i}.judgment`}
                render={({ field }) => (
                  <NativeSelect
                    label={t('thresholds.condition.judgment')}
                    value={field.value}
                    onChange={(e) => {
                      const next = e.currentTarget.value as ThresholdJudgment;
                      field.onChange(next);
                      // The values the new judgment does not use are dropped (not sent, not checked).
                      for (const key of ['target', 'min', 'max'] as const)
                        if (!(valueFields(next) as readonly string[]).includes(key))
                          form.setValue(`conditions.${i}.${key}`, null, { shouldDirty: true });
                    }}
                    data={THRESHOLD_JUDGMENTS.map((j) => ({
                      value: j,
                      label: t(`thresholds.condition.judgments.${j}`),
                    }))}
                    error={valueError(i, 'judgment')}
                    w={300}
                    data-testid={`threshold-condition-${i}-judgment`}
                  />
                )}
              />
              {valueFields(judgment).map((key) => (
                <Controller
                  key={key}
                  control={form.control}
                  name={`conditions.${i}.${key}`}
                  render={({ field }) => (
                    <OptionalNumberInput
                      label={t(`thresholds.condition.${key}`)}
                      required
                      value={field.value}
                      onChange={field.onChange}
                      onBlur={field.onBlur}
                      error={valueError(i, key)}
                      w={180}
                      data-testid={`threshold-condition-${i}-${key}`}
                    />
                  )}
                />
              ))}
              {!readOnly && (
                <Button
                  variant="subtle"
                  color="red"
                  mt={24}
                  onClick={() => rows.remove(i)}
                  aria-label={t('thresholds.condition.removeLabel', { number: i + 1 })}
                  data-testid={`threshold-condition-${i}-remove`}
                >
                  {t('thresholds.condition.remove')}
                </Button>
              )}
            </Group>
          );
        })}
        {listError && (
          <Text c="red" size="sm" role="alert" data-testid="threshold-conditions-error">
            {listError}
          </Text>
        )}
        {!readOnly && rows.fields.length < THRESHOLD_CONDITIONS_MAX && (
          <Group>
            <Button
              variant="light"
              size="xs"
              onClick={() => rows.append({ judgment: 'range', target: null, min: null, max: null })}
              data-testid="threshold-condition-add"
            >
              {t('thresholds.condition.add')}
            </Button>
          </Group>
        )}
      </Stack>
    </Paper>
  );
}
