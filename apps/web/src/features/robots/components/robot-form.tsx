import { zodResolver } from '@hookform/resolvers/zod';
import { NativeSelect, SimpleGrid, Stack, Switch, Textarea, TextInput } from '@mantine/core';
import {
  createRobotBodySchema,
  DEFAULT_ROBOT_MANUFACTURER,
  floorDisplayName,
  isKnownRobotModel,
  RobotStatusCode,
  robotInputSchema,
  ROBOT_MODEL_MAX,
  ROBOT_MODELS,
  VIDEO_MODES,
  type CreatedRobot,
  type Robot,
  type RobotInput,
} from '@portal/contract';
import { useQuery } from '@tanstack/react-query';
import { useState, type ReactNode } from 'react';
import { Controller, useForm, useWatch, type DefaultValues } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { buildingFilterOptions } from '@/components/building-filter';
import { FormShell, LockedFields, useFormKit } from '@/components/form-page';
import { paths } from '@/config/paths';
import { useCreateRobot } from '../api/create-robot';
import { useFloors } from '../api/get-floors';
import { useRobotGroups } from '../api/get-groups';
import { useUpdateRobot } from '../api/update-robot';

/**
 * The contract's fields (an edit sends the version its values started from, `kit.base.updatedAt`),
 * and at registration the robot's VDA 5050 manufacturer (fixed afterwards: it names the robot's topics).
 */
export type RobotFormValues = RobotInput & { manufacturer?: string };
const fields = [
  'serialNo',
  'manufacturer',
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
});

export const emptyRobotForm = (serialNo = '', buildingId?: number): DefaultValues<RobotFormValues> => ({
  serialNo,
  manufacturer: DEFAULT_ROBOT_MANUFACTURER,
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
  /** Edit: the stored robot (the serial is then fixed: it names the robot's MQTT topics). */
  robot?: Robot;
  /** Edit: fetches the stored robot again (the conflict dialog's answers). */
  onReload?: () => Promise<Robot | undefined>;
  /** Create: the values to start from (a pending robot's serial, the current building). */
  initial?: DefaultValues<RobotFormValues>;
  /** Create: the registered robot with its broker credentials (shown once). */
  onCreated?: (created: CreatedRobot) => void;
  readOnly?: boolean;
  /** Buttons at the start of the button row (delete, new credentials). */
  extraActions?: ReactNode;
}

/** Robot registry fields validated with the contract schema, on the form kit (a stale save asks). */
export function RobotForm({ robot, onReload, initial, onCreated, readOnly, extraActions }: RobotFormProps) {
  const { t } = useTranslation();
  const create = useCreateRobot();
  const update = useUpdateRobot();
  const form = useForm<RobotFormValues>({
    resolver: zodResolver(robot ? robotInputSchema : createRobotBodySchema),
    defaultValues: robot ? robotFormValues(robot) : (initial ?? emptyRobotForm()),
  });
  const kit = useFormKit(form, {
    fields,
    duplicateText: t('robotRegistry.form.duplicate'),
    record: robot,
    reload: onReload,
    toValues: robotFormValues,
  });
  const base = kit.base;
  const serialLocked = robot !== undefined;
  const buildingId = useWatch({ control: form.control, name: 'buildingId' }) ?? null;
  const buildings = useQuery(buildingFilterOptions());
  const floors = useFloors(buildingId);
  const groups = useRobotGroups(buildingId);
  const { err } = kit;

  const submit = form.handleSubmit((values) => {
    if (base) {
      const { manufacturer: _fixed, ...input } = values;
      update.mutate({ id: base.id, body: { ...input, updatedAt: base.updatedAt } }, kit.saved());
    } else
      create.mutate(
        values,
        kit.saved<CreatedRobot>({ successText: t('robotRegistry.form.created'), onSuccess: onCreated }),
      );
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
    <FormShell
      kit={kit}
      onSubmit={submit}
      mutation={base ? update : create}
      label={t('robotRegistry.tabs.settings')}
      testId="robot-form"
      submitTestId="robot-save"
      createLabel={t('robotRegistry.register')}
      createCancelTo={paths.robot.list.getHref()}
      readOnly={readOnly}
      startActions={extraActions}
      maw="none"
    >
      <LockedFields locked={readOnly}>
        <Stack>
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
                <ModelField
                  value={field.value}
                  onChange={field.onChange}
                  onBlur={field.onBlur}
                  error={err('model')}
                  chooseLabel={choose.label}
                />
              )}
            />
            {!base && (
              <TextInput
                label={t('robotCommon.fields.manufacturer')}
                description={t('robotRegistry.form.manufacturerHint')}
                required
                maxLength={40}
                autoComplete="off"
                error={err('manufacturer')}
                data-testid="robot-manufacturer"
                readOnly={readOnly}
                {...form.register('manufacturer')}
              />
            )}
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
        </Stack>
      </LockedFields>
    </FormShell>
  );
}

/** The "other model" choice: a maker's own model name typed in. */
const OTHER_MODEL = '__other';

/**
 * The model: a known one from the list, or "Other model" with the maker's model name typed in (the
 * model list is open; what the robot can do comes from its factsheet).
 */
function ModelField(props: {
  value: string | undefined;
  onChange: (v: string | undefined) => void;
  onBlur: () => void;
  error: ReactNode;
  chooseLabel: string;
}) {
  const { t } = useTranslation();
  const { value, onChange, onBlur, error } = props;
  const known = value === undefined || value === '' || isKnownRobotModel(value);
  const [other, setOther] = useState(!known);
  const selected = other || !known ? OTHER_MODEL : (value ?? '');
  return (
    <Stack gap={4}>
      <NativeSelect
        label={t('robotCommon.fields.model')}
        required
        value={selected}
        onChange={(e) => {
          const v = e.currentTarget.value;
          setOther(v === OTHER_MODEL);
          onChange(v === OTHER_MODEL ? '' : ROBOT_MODELS.find((m) => m === v));
        }}
        onBlur={onBlur}
        data={[
          { value: '', label: props.chooseLabel, disabled: true },
          ...ROBOT_MODELS.map((m) => ({ value: m, label: t(`robotCommon.models.${m}`) })),
          { value: OTHER_MODEL, label: t('robotRegistry.form.otherModel') },
        ]}
        error={selected === OTHER_MODEL ? undefined : error}
        data-testid="robot-model"
      />
      {selected === OTHER_MODEL && (
        <TextInput
          aria-label={t('robotRegistry.form.otherModelName')}
          placeholder={t('robotRegistry.form.otherModelName')}
          description={t('robotRegistry.form.otherModelHint')}
          maxLength={ROBOT_MODEL_MAX}
          value={value ?? ''}
          onChange={(e) => onChange(e.currentTarget.value)}
          onBlur={onBlur}
          error={error}
          data-testid="robot-model-other"
        />
      )}
    </Stack>
  );
}
