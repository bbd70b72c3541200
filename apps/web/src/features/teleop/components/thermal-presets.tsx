import { ActionIcon, Button, Group, NativeSelect, NumberInput, Stack, Text, TextInput } from '@mantine/core';
import {
  THERMAL_COLOR_MAPS,
  THERMAL_PRESET_LIMIT,
  thermalColorMapSchema,
  thermalPresetInputSchema,
  type ThermalColorMap,
} from '@portal/contract';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { useErrorText, useMessageText } from '@/lib/i18n';
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

type Field = 'name' | 'rangeMin' | 'rangeMax';

/** Named thermal settings (colour map and temperature range): apply, save the current one, delete. */
export function ThermalPresets({ robotId, colorMap, actions, enabled }: ThermalPresetsProps) {
  const { t } = useTranslation();
  const messageText = useMessageText();
  const errorText = useErrorText();
  const presets = useThermalPresets(robotId);
  const save = useSaveThermalPreset(robotId);
  const remove = useDeleteThermalPreset(robotId);
  const [name, setName] = useState('');
  const [map, setMap] = useState<ThermalColorMap | null>(null);
  const [rangeMin, setRangeMin] = useState<number | string>(20);
  const [rangeMax, setRangeMax] = useState<number | string>(40);
  const [errors, setErrors] = useState<Partial<Record<Field, string>>>({});
  const chosenMap = map ?? colorMap ?? 'normal';

  const submit = (e: FormEvent) => {
    e.preventDefault();
    const parsed = thermalPresetInputSchema.safeParse({
      name,
      colorMap: chosenMap,
      rangeMin: typeof rangeMin === 'number' ? rangeMin : Number.NaN,
      rangeMax: typeof rangeMax === 'number' ? rangeMax : Number.NaN,
    });
    if (!parsed.success) {
      const next: Partial<Record<Field, string>> = {};
      for (const issue of parsed.error.issues) {
        const field = issue.path[0];
        if ((field === 'name' || field === 'rangeMin' || field === 'rangeMax') && !next[field])
          next[field] = messageText(issue.message);
      }
      setErrors(next);
      return;
    }
    setErrors({});
    save.mutate(parsed.data, {
      onSuccess: (result) => {
        setName('');
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
      onError: (err) => showNotification({ color: 'red', message: errorText(err) }),
    });
  };

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
      <form onSubmit={submit} noValidate>
        <Stack gap={6}>
          <TextInput
            size="xs"
            label={t('teleopScreen.thermal.name')}
            value={name}
            maxLength={40}
            onChange={(e) => setName(e.currentTarget.value)}
            error={errors.name}
          />
          <NativeSelect
            size="xs"
            label={t('teleopScreen.colorMap')}
            value={chosenMap}
            onChange={(e) => {
              const m = thermalColorMapSchema.safeParse(e.currentTarget.value);
              if (m.success) setMap(m.data);
            }}
            data={THERMAL_COLOR_MAPS.map((c) => ({ value: c, label: t(`teleopScreen.colorMaps.${c}`) }))}
          />
          <Group grow gap="xs" align="flex-start">
            <NumberInput
              size="xs"
              label={t('teleopScreen.thermal.rangeMin')}
              value={rangeMin}
              onChange={setRangeMin}
              min={-40}
              max={500}
              error={errors.rangeMin}
            />
            <NumberInput
              size="xs"
              label={t('teleopScreen.thermal.rangeMax')}
              value={rangeMax}
              onChange={setRangeMax}
              min={-40}
              max={500}
              error={errors.rangeMax}
            />
          </Group>
          <Button size="xs" type="submit" variant="light" loading={save.isPending}>
            {t('teleopScreen.thermal.save')}
          </Button>
          <Text size="xs" c="dimmed">
            {t('teleopScreen.thermal.hint', { limit: THERMAL_PRESET_LIMIT })}
          </Text>
        </Stack>
      </form>
    </Stack>
  );
}
