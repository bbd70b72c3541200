import { ActionIcon, Button, Group, NativeSelect, NumberInput, Stack, Text, TextInput } from '@mantine/core';
import { zodResolver } from '@hookform/resolvers/zod';
import {
  THERMAL_COLOR_MAPS,
  THERMAL_PRESET_LIMIT,
  thermalColorMapSchema,
  thermalPresetInputSchema,
  type ThermalColorMap,
  type ThermalPresetInput,
  type ThermalPresetSaveResult,
} from '@portal/contract';
import type { BaseSyntheticEvent } from 'react';
import { Controller, useForm, useWatch } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { FormShell, useFormKit } from '@/components/form-page';
import { useErrorText } from '@/lib/i18n';
import { showNotification } from '@/lib/notify';
import { useDeleteThermalPreset } from '../api/delete-thermal-preset';
import { useThermalPresets } from '../api/get-thermal-presets';
import { useSaveThermalPreset } from '../api/save-thermal-preset';
import type { useRobotActions } from '../hooks/use-robot-action';

interface ThermalPresetsProps {
  robotId: number;
  /** The colour map the thermal camera shows now (the default of a new preset). */
  colorMap: ThermalColorMap | null;
  actions: ReturnType<typeof useRobotActions>;
  enabled: boolean;
}

const fields = ['name', 'colorMap', 'rangeMin', 'rangeMax'] as const;

/** Named thermal settings (colour map and temperature range): apply, save the current one, delete. */
export function ThermalPresets({ robotId, colorMap, actions, enabled }: ThermalPresetsProps) {
  const { t } = useTranslation();
  const errorText = useErrorText();
  const presets = useThermalPresets(robotId);
  const save = useSaveThermalPreset(robotId);
  const remove = useDeleteThermalPreset(robotId);
  // The colour map starts unset: the camera's current one is shown (and saved) until another is chosen.
  const form = useForm<ThermalPresetInput>({
    resolver: zodResolver(thermalPresetInputSchema),
    defaultValues: { name: '', rangeMin: 20, rangeMax: 40 },
  });
  const kit = useFormKit(form, { fields });
  const chosenMap = useWatch({ control: form.control, name: 'colorMap' }) ?? colorMap ?? 'normal';

  const submitPreset = form.handleSubmit((values) =>
    save.mutate(
      values,
      kit.saved<ThermalPresetSaveResult>({
        successText: false,
        onSuccess: (result) => {
          form.reset({ ...form.getValues(), name: '' });
          const saved = result.preset.name;
          showNotification({
            color: 'teal',
            message: result.overwritten
              ? t('teleopScreen.thermal.overwritten', { name: saved })
              : t('teleopScreen.thermal.saved', { name: saved }),
          });
          if (result.deleted.length > 0)
            showNotification({
              color: 'orange',
              autoClose: 8000,
              message: t('teleopScreen.thermal.deletedOldest', {
                limit: THERMAL_PRESET_LIMIT,
                names: result.deleted.join('”, “'),
              }),
            });
        },
      }),
    ),
  );
  const onSubmit = (e?: BaseSyntheticEvent) => {
    if (form.getValues('colorMap') === undefined) form.setValue('colorMap', chosenMap);
    return submitPreset(e);
  };
  /** A number field: '' (cleared) stays a number the schema refuses, not 0. */
  const asNumber = (v: number | string) => (typeof v === 'number' ? v : Number.NaN);

  return (
    <Stack gap="xs" data-testid="teleop-thermal-presets">
      <Text size="xs" fw={600} c="dimmed">
        {t('teleopScreen.thermal.title')}
      </Text>
      {presets.data && presets.data.length === 0 && (
        <Text size="xs" c="dimmed">
          {t('teleopScreen.thermal.none')}
        </Text>
      )}
      {presets.data?.map((p) => (
        <Group key={p.id} gap="xs" wrap="nowrap" justify="space-between" data-testid="teleop-thermal-preset">
          <div style={{ minWidth: 0 }}>
            <Text size="sm" lineClamp={1}>
              {p.name}
            </Text>
            <Text size="xs" c="dimmed">
              {t(`teleopScreen.colorMaps.${p.colorMap}`)} ·{' '}
              {t('teleopScreen.thermal.range', { min: p.rangeMin, max: p.rangeMax })}
            </Text>
          </div>
          <Group gap={4} wrap="nowrap">
            <Button
              size="compact-xs"
              variant="light"
              disabled={!enabled}
              onClick={() =>
                void actions.run(
                  { type: 'setThermal', colorMap: p.colorMap, rangeMin: p.rangeMin, rangeMax: p.rangeMax },
                  t('teleopScreen.thermal.applied'),
                )
              }
            >
              {t('teleopScreen.thermal.apply')}
            </Button>
            <ActionIcon
              size="sm"
              variant="subtle"
              color="red"
              aria-label={t('teleopScreen.thermal.deleteLabel', { name: p.name })}
              loading={remove.isPending && remove.variables === p.id}
              onClick={() =>
                remove.mutate(p.id, {
                  onSuccess: () => showNotification({ color: 'teal', message: t('teleopScreen.thermal.deleted') }),
                  onError: (err) => showNotification({ color: 'red', message: errorText(err) }),
                })
              }
            >
              ✕
            </ActionIcon>
          </Group>
        </Group>
      ))}
      <FormShell
        kit={kit}
        onSubmit={onSubmit}
        mutation={save}
        label={t('teleopScreen.thermal.title')}
        testId="thermal-preset-form"
        submitTestId="thermal-preset-save"
        submitLabel={t('teleopScreen.thermal.save')}
        maw="none"
      >
        <TextInput
          size="xs"
          label={t('teleopScreen.thermal.name')}
          maxLength={40}
          error={kit.err('name')}
          data-testid="thermal-preset-name"
          {...form.register('name')}
        />
        <NativeSelect
          size="xs"
          label={t('teleopScreen.colorMap')}
          value={chosenMap}
          onChange={(e) => {
            const m = thermalColorMapSchema.safeParse(e.currentTarget.value);
            if (m.success) form.setValue('colorMap', m.data, { shouldDirty: true });
          }}
          data={THERMAL_COLOR_MAPS.map((c) => ({ value: c, label: t(`teleopScreen.colorMaps.${c}`) }))}
        />
        <Group grow gap="xs" align="flex-start">
          <Controller
            control={form.control}
            name="rangeMin"
            render={({ field }) => (
              <NumberInput
                size="xs"
                label={t('teleopScreen.thermal.rangeMin')}
                value={Number.isNaN(field.value) ? '' : field.value}
                onChange={(v) => field.onChange(asNumber(v))}
                onBlur={field.onBlur}
                min={-40}
                max={500}
                error={kit.err('rangeMin')}
                data-testid="thermal-preset-min"
              />
            )}
          />
          <Controller
            control={form.control}
            name="rangeMax"
            render={({ field }) => (
              <NumberInput
                size="xs"
                label={t('teleopScreen.thermal.rangeMax')}
                value={Number.isNaN(field.value) ? '' : field.value}
                onChange={(v) => field.onChange(asNumber(v))}
                onBlur={field.onBlur}
                min={-40}
                max={500}
                error={kit.err('rangeMax')}
                data-testid="thermal-preset-max"
              />
            )}
          />
        </Group>
        <Text size="xs" c="dimmed">
          {t('teleopScreen.thermal.hint', { limit: THERMAL_PRESET_LIMIT })}
        </Text>
      </FormShell>
    </Stack>
  );
}
