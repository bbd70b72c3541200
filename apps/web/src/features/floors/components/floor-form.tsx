import { zodResolver } from '@hookform/resolvers/zod';
import { Button, Fieldset, Group, NativeSelect, SimpleGrid, Stack, TextInput } from '@mantine/core';
import { floorInputSchema, floorTypeSchema, type FloorDetail } from '@portal/contract';
import type { ReactNode } from 'react';
import { Controller, useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { z } from 'zod';
import { SaveErrorAlert } from '@/components/save-error-alert';
import { useMessageText } from '@/lib/i18n';
import { applyServerErrors } from '@/lib/server-errors';
import { FloorNumberSelect } from './floor-number-select';
import { OptionalNumber } from './optional-number';

const formSchema = floorInputSchema.extend({ updatedAt: z.string().optional() });
export type FloorFormValues = z.infer<typeof formSchema>;

export const floorFormValues = (f: FloorDetail): FloorFormValues => ({
  name: f.name,
  type: f.type,
  index: f.index,
  resolution: f.resolution,
  originX: f.originX,
  originY: f.originY,
  updatedAt: f.updatedAt,
});

interface FloorFormProps {
  defaultValues: FloorFormValues;
  readOnly?: boolean;
  saving: boolean;
  error: unknown;
  onSubmit: (values: FloorFormValues) => Promise<FloorFormValues | void>;
  onReload?: () => void;
  extraActions?: ReactNode;
}

/** Floor fields validated with the contract schema; a stale save keeps what was typed. */
export function FloorForm({
  defaultValues,
  readOnly,
  saving,
  error,
  onSubmit,
  onReload,
  extraActions,
}: FloorFormProps) {
  const { t } = useTranslation();
  const messageText = useMessageText();
  const form = useForm<FloorFormValues>({ resolver: zodResolver(formSchema), defaultValues });
  const { errors } = form.formState;

  const submit = form.handleSubmit(async (values) => {
    try {
      const saved = await onSubmit(values);
      if (saved) form.reset(saved);
    } catch (e) {
      applyServerErrors(e, form.setError, Object.keys(defaultValues) as (keyof FloorFormValues)[]);
    }
  });

  return (
    <form noValidate onSubmit={(e) => void submit(e)} aria-label={t('floors.editTitle')}>
      <fieldset disabled={readOnly} style={{ border: 0, padding: 0, margin: 0, minWidth: 0 }}>
        <Stack>
          <SaveErrorAlert error={error} onReload={onReload} staleText={t('floors.stale')} staleTestId="floor-stale" />
          <TextInput
            label={t('floors.name')}
            required
            error={messageText(errors.name?.message)}
            {...form.register('name')}
            data-testid="floor-name"
          />
          <Group align="flex-start">
            <NativeSelect
              label={t('floors.type')}
              data={floorTypeSchema.options.map((v) => ({ value: v, label: t(`floors.types.${v}`) }))}
              error={messageText(errors.type?.message)}
              {...form.register('type')}
            />
            <Controller
              control={form.control}
              name="index"
              render={({ field }) => (
                <FloorNumberSelect
                  label={t('floors.number')}
                  description={t('floors.numberHint')}
                  value={field.value}
                  onChange={field.onChange}
                  error={messageText(errors.index?.message)}
                />
              )}
            />
          </Group>
          <Fieldset legend={t('floors.mapMeta')} variant="filled">
            <SimpleGrid cols={{ base: 1, sm: 3 }}>
              {(['resolution', 'originX', 'originY'] as const).map((name) => (
                <Controller
                  key={name}
                  control={form.control}
                  name={name}
                  render={({ field }) => (
                    <OptionalNumber
                      label={t(`floors.${name}`)}
                      value={field.value}
                      onChange={field.onChange}
                      error={messageText(errors[name]?.message)}
                    />
                  )}
                />
              ))}
            </SimpleGrid>
          </Fieldset>
          {!readOnly && (
            <Group justify="space-between">
              <Group>{extraActions}</Group>
              <Button type="submit" loading={saving} data-testid="floor-save">
                {t('common.save')}
              </Button>
            </Group>
          )}
        </Stack>
      </fieldset>
    </form>
  );
}
