import { Group, NativeSelect, NumberInput, SegmentedControl, TextInput } from '@mantine/core';
import { CAMERA_IDS, VOICE_LANGUAGES, type MappedCommand } from '@portal/contract';
import { useTranslation } from 'react-i18next';

/** The commands a row can run, in the order of the editor's select. */
export const COMMAND_CHOICES = [
  'speak',
  'takePhoto',
  'startRecording',
  'stopRecording',
  'setRingLight',
  'setPatrolLamp',
  'gimbalJog',
  'setPeriscopeHeight',
  'pause',
  'resume',
  'cancel',
] as const;
export type CommandChoice = (typeof COMMAND_CHOICES)[number];

/** A new row's command of a kind, with its settings preset. */
export function defaultCommand(choice: CommandChoice): MappedCommand {
  switch (choice) {
    case 'speak':
      return { kind: 'action', action: { type: 'speak', text: '', language: 'ja' } };
    case 'takePhoto':
      return { kind: 'action', action: { type: 'takePhoto', camera: 'v1' } };
    case 'startRecording':
    case 'stopRecording':
      return { kind: 'action', action: { type: choice } };
    case 'setRingLight':
    case 'setPatrolLamp':
      return { kind: 'action', action: { type: choice, on: true } };
    case 'gimbalJog':
      return { kind: 'action', action: { type: 'gimbalJog', pan: 10, tilt: 0 } };
    case 'setPeriscopeHeight':
      return { kind: 'action', action: { type: 'setPeriscopeHeight', height: 1 } };
    default:
      return { kind: 'order', command: choice };
  }
}

const num = (v: string | number, fallback: number) => (typeof v === 'number' && Number.isFinite(v) ? v : fallback);

/** The settings of a row's command (phrase and language, camera, on/off, angles, height); none for the others. */
export function CommandSettings({
  value,
  onChange,
  row,
  error,
  disabled,
}: {
  value: MappedCommand;
  onChange: (c: MappedCommand) => void;
  row: number;
  error?: string;
  disabled?: boolean;
}) {
  const { t } = useTranslation();
  if (value.kind === 'order') return null;
  const a = value.action;
  const set = (action: typeof a) => onChange({ kind: 'action', action });
  const id = `cm-row-${row}`;
  switch (a.type) {
    case 'speak':
      return (
        <Group gap="xs" wrap="nowrap" align="flex-start">
          <TextInput
            aria-label={t('commandMappings.params.text')}
            placeholder={t('commandMappings.params.text')}
            value={a.text}
            onChange={(e) => set({ ...a, text: e.currentTarget.value })}
            error={error}
            disabled={disabled}
            miw={120}
            data-testid={`${id}-text`}
          />
          <NativeSelect
            aria-label={t('commandMappings.params.language')}
            value={a.language}
            onChange={(e) => set({ ...a, language: VOICE_LANGUAGES.find((l) => l === e.currentTarget.value) ?? 'ja' })}
            data={VOICE_LANGUAGES.map((l) => ({ value: l, label: t(`teleopScreen.speech.languages.${l}`) }))}
            disabled={disabled}
            miw={110}
          />
        </Group>
      );
    case 'takePhoto':
      return (
        <NativeSelect
          aria-label={t('commandMappings.params.camera')}
          value={a.camera}
          onChange={(e) => set({ ...a, camera: CAMERA_IDS.find((c) => c === e.currentTarget.value) ?? 'v1' })}
          data={CAMERA_IDS.map((c) => ({ value: c, label: t(`teleopScreen.cameras.${c}`) }))}
          disabled={disabled}
          data-testid={`${id}-camera`}
        />
      );
    case 'setRingLight':
    case 'setPatrolLamp':
      return (
        <SegmentedControl
          size="xs"
          value={a.on ? 'on' : 'off'}
          onChange={(v) => set({ ...a, on: v === 'on' })}
          data={[
            { value: 'on', label: t('commandMappings.params.on') },
            { value: 'off', label: t('commandMappings.params.off') },
          ]}
          disabled={disabled}
        />
      );
    case 'gimbalJog':
      return (
        <Group gap="xs" wrap="nowrap">
          <NumberInput
            aria-label={t('commandMappings.params.pan')}
            placeholder={t('commandMappings.params.pan')}
            value={a.pan}
            min={-45}
            max={45}
            onChange={(v) => set({ ...a, pan: num(v, 0) })}
            disabled={disabled}
            w={90}
          />
          <NumberInput
            aria-label={t('commandMappings.params.tilt')}
            placeholder={t('commandMappings.params.tilt')}
            value={a.tilt}
            min={-45}
            max={45}
            onChange={(v) => set({ ...a, tilt: num(v, 0) })}
            disabled={disabled}
            w={90}
          />
        </Group>
      );
    case 'setPeriscopeHeight':
      return (
        <NumberInput
          aria-label={t('commandMappings.params.height')}
          value={a.height}
          min={0}
          max={3}
          step={0.1}
          decimalScale={2}
          onChange={(v) => set({ ...a, height: num(v, 0) })}
          disabled={disabled}
          w={100}
        />
      );
    default:
      return null;
  }
}
