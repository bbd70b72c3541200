import { zodResolver } from '@hookform/resolvers/zod';
import { Group, NativeSelect, Stack, Text, Textarea, TextInput } from '@mantine/core';
import {
  ALL_COMMAND_MODES,
  COMMAND_MAPPING_DEFINITION_VERSION,
  COMMAND_MAPPING_STATUSES,
  commandMappingInputSchema,
  type CommandMapping,
  type CommandMappingInput,
} from '@portal/contract';
import { useQuery } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { Controller, useForm, type Resolver } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { buildingFilterOptions } from '@/components/building-filter';
import { FormShell, LockedFields, useFormKit } from '@/components/form-page';
import { paths } from '@/config/paths';
import { useCreateCommandMapping, useUpdateCommandMapping } from '../api';
import { useCommandMappingMessage, useModeLabel } from '../words';
import { DefinitionEditor, type CommandMappingFormValues } from './definition-editor';
import { defaultCommand } from './command-settings';

const FIELDS = ['name', 'buildingId', 'mode', 'memo', 'status', 'definition'] as const;

export const emptyValues = (): CommandMappingFormValues => ({
  name: '',
  buildingId: undefined,
  mode: 10,
  memo: '',
  status: 1,
  definition: {
    version: COMMAND_MAPPING_DEFINITION_VERSION,
    entries: [{ label: '', screen: true, key: null, gamepadButton: null, command: defaultCommand('speak') }],
  },
});

/** The body of a create or update (without the version). */
export const bodyOf = (v: CommandMappingFormValues): CommandMappingInput => ({
  name: v.name.trim(),
  buildingId: v.buildingId ?? 0,
  mode: v.mode as CommandMappingInput['mode'],
  memo: v.memo.trim(),
  status: v.status,
  definition: v.definition,
});

export const valuesOf = (m: CommandMapping): CommandMappingFormValues => ({
  name: m.name,
  buildingId: m.buildingId,
  mode: m.mode,
  memo: m.memo,
  status: m.status,
  definition: m.definition,
});

/** The contract's schema on the body the form would send; a building not chosen is "required". */
const resolver: Resolver<CommandMappingFormValues> = async (values, context, options) => {
  const resolve = zodResolver(commandMappingInputSchema) as unknown as Resolver<Record<string, unknown>>;
  const result = await resolve(bodyOf(values) as never, context, options as never);
  const errors = { ...result.errors } as Record<string, unknown>;
  if (values.buildingId === undefined) errors.buildingId = { type: 'required', message: 'validation.required' };
  if (Object.keys(errors).length === 0) return { values, errors: {} };
  return { values: {}, errors } as never;
};

interface CommandMappingFormProps {
  mapping?: CommandMapping;
  initial?: Partial<CommandMappingFormValues>;
  readOnly?: boolean;
  onReload?: () => Promise<CommandMapping | undefined>;
  onCreated?: (m: CommandMapping) => void;
  startActions?: ReactNode;
}

/** /command-mapping/create and /command-mapping/{id}: name, building, mode, memo, status and the definition rows. */
export function CommandMappingForm({
  mapping,
  initial,
  readOnly,
  onReload,
  onCreated,
  startActions,
}: CommandMappingFormProps) {
  const { t } = useTranslation();
  const messageText = useCommandMappingMessage();
  const modeLabel = useModeLabel();
  const create = useCreateCommandMapping();
  const update = useUpdateCommandMapping();
  const mutation = mapping ? update : create;
  const form = useForm<CommandMappingFormValues>({
    resolver,
    defaultValues: mapping ? valuesOf(mapping) : { ...emptyValues(), ...initial },
  });
  const kit = useFormKit(form, {
    fields: FIELDS,
    record: mapping,
    reload: onReload,
    toValues: valuesOf,
    translate: messageText,
  });
  const { err } = kit;
  const buildings = useQuery(buildingFilterOptions());

  const onSubmit = form.handleSubmit((v) => {
    const body = bodyOf(v);
    const base = kit.base;
    if (base) update.mutate({ id: base.id, body: { ...body, updatedAt: base.updatedAt } }, kit.saved());
    else
      create.mutate(
        body,
        kit.saved<CommandMapping>({ successText: t('commandMappings.form.created'), onSuccess: onCreated }),
      );
  });

  const buildingRows = (buildings.data ?? []).flatMap((b) =>
    typeof b.id === 'number' ? [{ value: String(b.id), label: b.name ?? `#${b.id}` }] : [],
  );

  return (
    <FormShell
      kit={kit}
      onSubmit={onSubmit}
      mutation={mutation}
      label={t('commandMappings.listTitle')}
      testId="command-mapping-form"
      submitTestId="command-mapping-save"
      createLabel={t('commandMappings.create')}
      createCancelTo={paths.commandMapping.list.getHref()}
      startActions={startActions}
      readOnly={readOnly}
      cancelTo={readOnly ? paths.commandMapping.list.getHref() : undefined}
      cancelLabel={readOnly ? t('commandMappings.back') : undefined}
    >
      <LockedFields locked={readOnly}>
        <Stack>
          <TextInput
            label={t('commandMappings.form.name')}
            required
            maxLength={64}
            error={err('name')}
            data-testid="command-mapping-name"
            {...form.register('name')}
          />
          <Group grow align="flex-start">
            <Controller
              control={form.control}
              name="buildingId"
              render={({ field }) => {
                const data = [
                  { value: '', label: t('commandMappings.form.chooseBuilding'), disabled: true },
                  ...buildingRows,
                ];
                if (field.value !== undefined && !data.some((d) => d.value === String(field.value)))
                  data.push({ value: String(field.value), label: mapping?.buildingName ?? `#${field.value}` });
                return (
                  <NativeSelect
                    label={t('commandMappings.form.building')}
                    required
                    value={field.value === undefined ? '' : String(field.value)}
                    onChange={(e) =>
                      field.onChange(e.currentTarget.value === '' ? undefined : Number(e.currentTarget.value))
                    }
                    error={err('buildingId')}
                    data={data}
                    data-testid="command-mapping-building"
                  />
                );
              }}
            />
            <Controller
              control={form.control}
              name="mode"
              render={({ field }) => (
                <NativeSelect
                  label={t('commandMappings.form.mode')}
                  required
                  value={String(field.value)}
                  onChange={(e) => field.onChange(Number(e.currentTarget.value))}
                  error={err('mode')}
                  data={ALL_COMMAND_MODES.map((m) => ({ value: String(m), label: modeLabel(m) }))}
                  data-testid="command-mapping-mode"
                />
              )}
            />
            <Controller
              control={form.control}
              name="status"
              render={({ field }) => (
                <NativeSelect
                  label={t('commandMappings.form.status')}
                  required
                  value={String(field.value)}
                  onChange={(e) => field.onChange(e.currentTarget.value === '0' ? 0 : 1)}
                  error={err('status')}
                  data={COMMAND_MAPPING_STATUSES.map((s) => ({
                    value: String(s),
                    label: t(`commandMappings.statuses.${String(s) as '0'}`),
                  }))}
                  data-testid="command-mapping-status"
                />
              )}
            />
          </Group>
          <Text size="xs" c="dimmed">
            {t('commandMappings.form.modeHint')}
          </Text>
          {mapping && (
            <Text size="sm" c="dimmed" data-testid="command-mapping-revision">
              {t('commandMappings.form.revision', { revision: mapping.revision })}
            </Text>
          )}
          <Textarea
            label={t('commandMappings.form.memo')}
            autosize
            minRows={2}
            error={err('memo')}
            data-testid="command-mapping-memo"
            {...form.register('memo')}
          />
          <DefinitionEditor
            control={form.control}
            errors={form.formState.errors}
            readOnly={readOnly}
            serverError={
              (form.formState.errors.definition as { type?: string } | undefined)?.type === 'server'
                ? err('definition')
                : undefined
            }
          />
        </Stack>
      </LockedFields>
    </FormShell>
  );
}
