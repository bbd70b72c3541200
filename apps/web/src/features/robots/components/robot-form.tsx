import { zodResolver } from '@hookform/resolvers/zod';
import { Button, Group, NativeSelect, SimpleGrid, Stack, Switch, Textarea, TextInput } from '@mantine/core';
import {
  floorDisplayName,
  RobotStatusCode,
  robotInputSchema,
  ROBOT_MODELS,
  VIDEO_MODES,
  type Robot,
} from '@portal/contract';
import { useQuery } from '@tanstack/react-query';
import { useState, type ReactNode } from 'react';
import { Controller, useForm, useWatch, type DefaultValues } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { z } from 'zod';
import { buildingFilterOptions } from '@/components/building-filter';
import { SaveErrorAlert } from '@/components/save-error-alert';
import { useMessageText } from '@/lib/i18n';
import { applyServerErrors, fieldErrorText } from '@/lib/server-errors';
import { useFloors } from '../api/get-floors';
import { useRobotGroups } from '../api/get-groups';

/** The contract's fields; `updatedAt` when editing (the version the edit is based on). */
const formSchema = robotInputSchema.extend({ updatedAt: z.string().optional() });
export type RobotFormValues = z.infer<typeof formSchema>;
const fields = [
  'serialNo',
  'name',
  'model',
  'version',
  'hardwareRevision',
  'buildingId',
  'floorId',
  'groupId',
  'status',
  'longTermRecordingAutoStart',
  'videoMode',
  'notes',
] as const;

export const robotFormValues = (r: Robot): RobotFormValues => ({
  serialNo: r.serialNo,
  name: r.name,
  model: r.model,
  version: r.version,
  hardwareRevision: r.hardwareRevision,
  buildingId: r.buildingId,
  floorId: r.floorId,
  groupId: r.groupId,
  status: r.status,
  longTermRecordingAutoStart: r.longTermRecordingAutoStart,
  videoMode: r.videoMode,
  notes: r.notes,
  updatedAt: r.updatedAt,
});

export const emptyRobotForm = (serialNo = '', buildingId?: number): DefaultValues<RobotFormValues> => ({
  serialNo,
  name: '',
  version: '',
  hardwareRevision: '',
  buildingId,
  groupId: null,
  status: RobotStatusCode.available,
  longTermRecordingAutoStart: false,
  videoMode: 'high',
  notes: '',
});

const statusCodes = Object.values(RobotStatusCode);
const toNumber = (v: string): number | undefined => (v === '' ? undefined : Number(v));

interface RobotFormProps {
  defaultValues: DefaultValues<RobotFormValues>;
  readOnly?: boolean;
  /** The serial names the robot's MQTT topics: fixed once registered. */
  serialLocked?: boolean;
  saving: boolean;
  submitLabel?: string;
  onSubmit: (values: RobotFormValues) => Promise<RobotFormValues | void>;
  onReload?: () => void;
  extraActions?: ReactNode;
}

/** Robot registry fields validated with the contract schema; a stale save keeps what was typed. */
export function RobotForm({
  defaultValues,
  readOnly,
  serialLocked,
  saving,
  submitLabel,
  onSubmit,
  onReload,
  extraActions,
}: RobotFormProps) {
  const { t } = useTranslation();
  const messageText = useMessageText();
  const form = useForm<RobotFormValues>({ resolver: zodResolver(formSchema), defaultValues });
  const { errors } = form.formState;
  const [saveError, setSaveError] = useState<unknown>(null);
  const buildingId = useWatch({ control: form.control, name: 'buildingId' }) ?? null;
  const buildings = useQuery(buildingFilterOptions());
  const floors = useFloors(buildingId);
  const groups = useRobotGroups(buildingId);
  const err = (name: (typeof fields)[number]) => fieldErrorText(errors[name], messageText);

  const submit = form.handleSubmit(async (values) => {
    setSaveError(null);
    try {
      const saved = await onSubmit(values);
      if (saved) form.reset(saved);
    } catch (e) {
      const placed = applyServerErrors(e, form.setError, fields, t('robotRegistry.form.duplicate'));
      if (!placed) setSaveError(e);
    }
  });

  const choose = { value: '', label: t('robotRegistry.choose'), disabled: true };
  const buildingData: Array<{ value: string; label: string; disabled?: boolean }> = [
    choose,
    ...(buildings.data ?? [])
      .filter((b): b is typeof b & { id: number } => typeof b.id === 'number')
      .map((b) => ({ value: String(b.id), label: b.name ?? `#${b.id}` })),
  ];
  if (buildingId !== null && !buildingData.some((b) => b.value === String(buildingId)))
    buildingData.push({ value: String(buildingId), label: `#${buildingId}`, disabled: false });
  const floorData = [
    buildingId === null ? { ...choose, label: t('robotRegistry.chooseBuildingFirst') } : choose,
    ...(floors.data ?? [])
      .filter((f): f is typeof f & { id: number } => typeof f.id === 'number')
      .map((f) => ({
        value: String(f.id),
        label: floorDisplayName(f),
      })),
  ];

  return (
    <form
      onSubmit={(e) => void submit(e)}
      noValidate
      aria-label={t('robotRegistry.tabs.settings')}
      data-testid="robot-form"
    >
      <fieldset disabled={readOnly} style={{ border: 0, padding: 0, margin: 0, minWidth: 0 }}>
        <Stack>
          <SaveErrorAlert
            error={saveError}
            onReload={onReload}
            staleText={t('robotRegistry.form.stale')}
            staleTestId="robot-stale"
          />
          <SimpleGrid cols={{ base: 1, sm: 2 }}>
            <TextInput
              label={t('robotCommon.fields.serialNo')}
              description={t(serialLocked ? 'robotRegistry.form.serialLockedHint' : 'robotRegistry.form.serialHint')}
              required
              maxLength={24}
              autoComplete="off"
              error={err('serialNo')}
              data-testid="robot-serial"
              readOnly={readOnly || serialLocked}
              {...form.register('serialNo')}
            />
            <TextInput
              label={t('robotCommon.fields.name')}
              required
              maxLength={40}
              error={err('name')}
              data-testid="robot-name"
              {...form.register('name')}
            />
            <Controller
              control={form.control}
              name="model"
              render={({ field }) => (
                <NativeSelect
                  label={t('robotCommon.fields.model')}
                  required
                  value={field.value ?? ''}
                  onChange={(e) => field.onChange(ROBOT_MODELS.find((m) => m === e.currentTarget.value))}
                  onBlur={field.onBlur}
                  name={field.name}
                  data={[choose, ...ROBOT_MODELS.map((m) => ({ value: m, label: t(`robotCommon.models.${m}`) }))]}
                  error={err('model')}
                  data-testid="robot-model"
                />
              )}
            />
            <TextInput label={t('robotCommon.fields.version')} error={err('version')} {...form.register('version')} />
            <TextInput
              label={t('robotCommon.fields.hardwareRevision')}
              description={t('robotRegistry.form.hardwareRevisionHint')}
              inputMode="numeric"
              maxLength={3}
              error={err('hardwareRevision')}
              data-testid="robot-hardware-revision"
              {...form.register('hardwareRevision')}
            />
            <Controller
              control={form.control}
              name="status"
              render={({ field }) => (
                <NativeSelect
                  label={t('robotCommon.fields.status')}
                  required
                  value={field.value === undefined ? '' : String(field.value)}
                  onChange={(e) => field.onChange(statusCodes.find((c) => String(c) === e.currentTarget.value))}
                  data={statusCodes.map((c) => ({ value: String(c), label: t(`robotCommon.statusCodes.${c}`) }))}
                  error={err('status')}
                  data-testid="robot-status-code"
                />
              )}
            />
            <Controller
              control={form.control}
              name="buildingId"
              render={({ field }) => (
                <NativeSelect
                  label={t('robotCommon.fields.buildingId')}
                  required
                  value={field.value === undefined || field.value === null ? '' : String(field.value)}
                  onChange={(e) => {
                    field.onChange(toNumber(e.currentTarget.value));
                    form.setValue('floorId', undefined as unknown as number);
                    form.setValue('groupId', null);
                  }}
                  data={buildingData}
                  error={err('buildingId')}
                  data-testid="robot-building"
                />
              )}
            />
            <Controller
              control={form.control}
              name="floorId"
              render={({ field }) => (
                <NativeSelect
                  label={t('robotCommon.fields.floorId')}
                  required
                  value={field.value === undefined || field.value === null ? '' : String(field.value)}
                  onChange={(e) => field.onChange(toNumber(e.currentTarget.value))}
                  data={floorData}
                  disabled={buildingId === null}
                  error={err('floorId')}
                  data-testid="robot-floor"
                />
              )}
            />
            <Controller
              control={form.control}
              name="groupId"
              render={({ field }) => (
                <NativeSelect
                  label={t('robotCommon.fields.groupId')}
                  value={field.value === null || field.value === undefined ? '' : String(field.value)}
                  onChange={(e) => field.onChange(toNumber(e.currentTarget.value) ?? null)}
                  data={[
                    { value: '', label: t('robotCommon.noGroup') },
                    ...(groups.data ?? []).map((g) => ({ value: String(g.id), label: g.name })),
                  ]}
                  disabled={buildingId === null}
                  error={err('groupId')}
                  data-testid="robot-group"
                />
              )}
            />
            <Controller
              control={form.control}
              name="videoMode"
              render={({ field }) => (
                <NativeSelect
                  label={t('robotCommon.fields.videoMode')}
                  description={t('robotRegistry.form.videoModeHint')}
                  required
                  value={field.value ?? ''}
                  onChange={(e) => field.onChange(VIDEO_MODES.find((m) => m === e.currentTarget.value))}
                  data={VIDEO_MODES.map((m) => ({ value: m, label: t(`robotCommon.videoModes.${m}`) }))}
                  error={err('videoMode')}
                  data-testid="robot-video-mode"
                />
              )}
            />
          </SimpleGrid>
          <Controller
            control={form.control}
            name="longTermRecordingAutoStart"
            render={({ field }) => (
              <Switch
                label={t('robotCommon.fields.longTermRecordingAutoStart')}
                checked={field.value ?? false}
                onChange={(e) => field.onChange(e.currentTarget.checked)}
                data-testid="robot-recording"
              />
            )}
          />
          <Textarea
            label={t('robotCommon.fields.notes')}
            autosize
            minRows={2}
            maxRows={8}
            maxLength={1000}
            error={err('notes')}
            {...form.register('notes')}
          />
          {!readOnly && (
            <Group justify="space-between">
              <Group>{extraActions}</Group>
              <Button type="submit" loading={saving} data-testid="robot-save">
                {submitLabel ?? t('common.save')}
              </Button>
            </Group>
          )}
        </Stack>
      </fieldset>
    </form>
  );
}
