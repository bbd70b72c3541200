import { zodResolver } from '@hookform/resolvers/zod';
import {
  Alert,
  Button,
  Group,
  Input,
  Modal,
  NativeSelect,
  SegmentedControl,
  Stack,
  Switch,
  Text,
  Textarea,
  TextInput,
  Title,
} from '@mantine/core';
import {
  CHECK_ITEM_STATUSES,
  CHECK_ITEM_TYPES,
  MARKER_TYPES,
  METER_TYPES,
  READING_SERVICES,
  checkItemInputSchema,
  checkItemIssues,
  floorDisplayName,
  type CheckItem,
  type CheckItemInput,
  type CheckItemStatusCode,
  type CheckItemType,
  type MarkerType,
  type MeterType,
  type ReadingService,
} from '@portal/contract';
import { useQuery } from '@tanstack/react-query';
import { useState, type ReactNode } from 'react';
import { Controller, useForm, useWatch, type Resolver } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { buildingFilterOptions } from '@/components/building-filter';
import { FormShell, LockedFields, OptionalNumberInput, useFormKit } from '@/components/form-page';
import { paths } from '@/config/paths';
import { useCreateCheckItem, useFloorOptions, useThresholdRuleOptions, useUpdateCheckItem } from '../api';
import { useCheckItemMessage } from '../words';
import { LocationPicker } from './location-picker';

export interface CheckItemFormValues {
  name: string;
  buildingId: number | undefined;
  floorId: number | undefined;
  type: CheckItemType;
  status: CheckItemStatusCode;
  meterType: MeterType | null;
  readingService: ReadingService | null;
  qrCodeNumber: string;
  taskId: string;
  deviceId: string;
  alerting: boolean;
  thresholdRuleId: number | null;
  x: number | null;
  y: number | null;
  z: number | null;
  /** Radians (edited in degrees). */
  direction: number;
  markerType: MarkerType;
  areaDetectionMarker: boolean;
  definition: string;
}

const FIELDS = [
  'name',
  'buildingId',
  'floorId',
  'type',
  'status',
  'meterType',
  'readingService',
  'qrCodeNumber',
  'taskId',
  'deviceId',
  'alerting',
  'thresholdRuleId',
  'x',
  'y',
  'z',
  'direction',
  'markerType',
  'areaDetectionMarker',
  'definition',
] as const;

/** The fields of the meter settings dialog: an error there is named beside the dialog's button. */
const SETTINGS_FIELDS = [
  'meterType',
  'readingService',
  'qrCodeNumber',
  'taskId',
  'deviceId',
  'markerType',
  'areaDetectionMarker',
] as const;

export const emptyValues = (): CheckItemFormValues => ({
  name: '',
  buildingId: undefined,
  floorId: undefined,
  type: 'meter',
  status: 2,
  meterType: 'analog',
  readingService: 'builtin',
  qrCodeNumber: '',
  taskId: '',
  deviceId: '',
  alerting: false,
  thresholdRuleId: null,
  x: null,
  y: null,
  z: 0,
  direction: 0,
  markerType: 'qr',
  areaDetectionMarker: false,
  definition: '{}',
});

/** The body of a create or update (without the version). */
export const bodyOf = (v: CheckItemFormValues): CheckItemInput => ({
  name: v.name.trim(),
  buildingId: v.buildingId ?? 0,
  floorId: v.floorId ?? 0,
  type: v.type,
  status: v.status,
  meterType: v.type === 'meter' ? v.meterType : null,
  readingService: v.type === 'meter' ? v.readingService : null,
  qrCodeNumber: v.qrCodeNumber.trim(),
  taskId: v.type === 'meter' ? v.taskId.trim() : '',
  deviceId: v.type === 'meter' ? v.deviceId.trim() : '',
  alerting: v.alerting,
  thresholdRuleId: v.thresholdRuleId,
  x: v.x,
  y: v.y,
  z: v.z ?? 0,
  direction: v.direction,
  markerType: v.markerType,
  areaDetectionMarker: v.areaDetectionMarker,
  definition: v.definition,
});

export const valuesOf = (c: CheckItem): CheckItemFormValues => ({
  name: c.name,
  buildingId: c.buildingId,
  floorId: c.floorId,
  type: c.type,
  status: c.status,
  meterType: c.meterType,
  readingService: c.readingService,
  qrCodeNumber: c.qrCodeNumber,
  taskId: c.taskId,
  deviceId: c.deviceId,
  alerting: c.alerting,
  thresholdRuleId: c.thresholdRuleId,
  x: c.x,
  y: c.y,
  z: c.z,
  direction: c.direction,
  markerType: c.markerType,
  areaDetectionMarker: c.areaDetectionMarker,
  definition: c.definition,
});

/** The contract's schema on the body the form would send; a building or floor not chosen is "required". */
const resolver: Resolver<CheckItemFormValues> = async (values, context, options) => {
  const resolve = zodResolver(checkItemInputSchema) as unknown as Resolver<Record<string, unknown>>;
  const result = await resolve(bodyOf(values) as never, context, options as never);
  const errors = { ...result.errors } as Record<string, unknown>;
  for (const f of ['buildingId', 'floorId'] as const)
    if (values[f] === undefined) errors[f] = { type: 'required', message: 'validation.required' };
  // The rules across fields, shown together with the others (the schema runs them once the fields parse).
  for (const issue of checkItemIssues(bodyOf(values)))
    errors[issue.path] ??= { type: 'custom', message: issue.message };
  if (Object.keys(errors).length === 0) return { values, errors: {} };
  return { values: {}, errors } as never;
};

const toDegrees = (rad: number) => Math.round(((rad * 180) / Math.PI) * 10) / 10;
const toRadians = (deg: number) => (deg * Math.PI) / 180;

interface CheckItemFormProps {
  item?: CheckItem;
  initial?: Partial<CheckItemFormValues>;
  readOnly?: boolean;
  onReload?: () => Promise<CheckItem | undefined>;
  onCreated?: (c: CheckItem) => void;
  startActions?: ReactNode;
}

/** /check-item/create and /check-item/{id}: the item's fields, its place on the floor map, the meter settings dialog. */
export function CheckItemForm({ item, initial, readOnly, onReload, onCreated, startActions }: CheckItemFormProps) {
  const { t } = useTranslation();
  const messageText = useCheckItemMessage();
  const create = useCreateCheckItem();
  const update = useUpdateCheckItem();
  const mutation = item ? update : create;
  const form = useForm<CheckItemFormValues>({
    resolver,
    defaultValues: item ? valuesOf(item) : { ...emptyValues(), ...initial },
  });
  const kit = useFormKit(form, {
    fields: FIELDS,
    record: item,
    reload: onReload,
    toValues: valuesOf,
    translate: messageText,
  });
  const { err } = kit;
  const [settingsOpen, setSettingsOpen] = useState(false);
  const [buildingId, floorId, type, alerting, meterType, readingService, markerType] = useWatch({
    control: form.control,
    name: ['buildingId', 'floorId', 'type', 'alerting', 'meterType', 'readingService', 'markerType'],
  });
  // The place as typed or picked: the map's marker follows the fields, and the fields the map.
  const [placeX, placeY, placeDirection] = useWatch({ control: form.control, name: ['x', 'y', 'direction'] });
  const buildings = useQuery(buildingFilterOptions());
  const floors = useFloorOptions(buildingId);
  const rules = useThresholdRuleOptions();
  const floorRows = (floors.data ?? []).filter((f): f is typeof f & { id: number } => typeof f.id === 'number');
  const floor = floorRows.find((f) => f.id === floorId);
  const floorName = floor ? floorDisplayName(floor) : (item?.floorName ?? '');
  const settingsErrors = SETTINGS_FIELDS.some((f) => err(f) !== undefined);

  const onSubmit = form.handleSubmit((v) => {
    const body = bodyOf(v);
    const base = kit.base;
    if (base) update.mutate({ id: base.id, body: { ...body, updatedAt: base.updatedAt } }, kit.saved());
    else create.mutate(body, kit.saved<CheckItem>({ successText: t('checkItems.form.created'), onSuccess: onCreated }));
  });

  const choose = (label: string, rows: Array<{ value: string; label: string }>, value: number | null | undefined) => {
    const data = [{ value: '', label, disabled: label !== t('checkItems.form.chooseRule') }, ...rows];
    if (value !== undefined && value !== null && !data.some((d) => d.value === String(value)))
      data.push({ value: String(value), label: `#${value}` });
    return data;
  };
  const numberOrUndefined = (v: string) => (v === '' ? undefined : Number(v));

  return (
    <FormShell
      kit={kit}
      onSubmit={onSubmit}
      mutation={mutation}
      label={t('checkItems.listTitle')}
      testId="check-item-form"
      submitTestId="check-item-save"
      createLabel={t('checkItems.create')}
      createCancelTo={paths.checkItem.list.getHref()}
      startActions={startActions}
      readOnly={readOnly}
      cancelTo={readOnly ? paths.checkItem.list.getHref() : undefined}
      cancelLabel={readOnly ? t('checkItems.back') : undefined}
    >
      <LockedFields locked={readOnly}>
        <Stack>
          <TextInput
            label={t('checkItems.form.name')}
            required
            error={err('name')}
            data-testid="check-item-name"
            {...form.register('name')}
          />
          <Group grow align="flex-start">
            <Controller
              control={form.control}
              name="type"
              render={({ field }) => (
                <Input.Wrapper label={t('checkItems.form.type')} required error={err('type')}>
                  <SegmentedControl
                    fullWidth
                    mt={4}
                    value={field.value}
                    onChange={(v) => field.onChange(CHECK_ITEM_TYPES.find((x) => x === v) ?? 'meter')}
                    data={CHECK_ITEM_TYPES.map((x) => ({ value: x, label: t(`checkItems.types.${x}`) }))}
                    disabled={readOnly}
                    data-testid="check-item-type"
                  />
                </Input.Wrapper>
              )}
            />
            <Controller
              control={form.control}
              name="status"
              render={({ field }) => (
                <NativeSelect
                  label={t('checkItems.form.status')}
                  required
                  value={String(field.value)}
                  onChange={(e) =>
                    field.onChange(CHECK_ITEM_STATUSES.find((s) => String(s) === e.currentTarget.value) ?? 2)
                  }
                  error={err('status')}
                  data={CHECK_ITEM_STATUSES.map((s) => ({
                    value: String(s),
                    label: t(`checkItems.statuses.${String(s) as '0'}`),
                  }))}
                  data-testid="check-item-status"
                />
              )}
            />
          </Group>
          <Group grow align="flex-start">
            <Controller
              control={form.control}
              name="buildingId"
              render={({ field }) => (
                <NativeSelect
                  label={t('checkItems.form.building')}
                  required
                  value={field.value === undefined ? '' : String(field.value)}
                  onChange={(e) => {
                    field.onChange(numberOrUndefined(e.currentTarget.value));
                    form.setValue('floorId', undefined, { shouldDirty: true });
                  }}
                  error={err('buildingId')}
                  data={choose(
                    t('checkItems.form.chooseBuilding'),
                    (buildings.data ?? []).flatMap((b) =>
                      typeof b.id === 'number' ? [{ value: String(b.id), label: b.name ?? `#${b.id}` }] : [],
                    ),
                    field.value,
                  )}
                  data-testid="check-item-building"
                />
              )}
            />
            <Controller
              control={form.control}
              name="floorId"
              render={({ field }) => (
                <NativeSelect
                  label={t('checkItems.form.floor')}
                  required
                  disabled={buildingId === undefined}
                  value={field.value === undefined ? '' : String(field.value)}
                  onChange={(e) => field.onChange(numberOrUndefined(e.currentTarget.value))}
                  error={err('floorId')}
                  data={choose(
                    t('checkItems.form.chooseFloor'),
                    floorRows.map((f) => ({ value: String(f.id), label: floorDisplayName(f) })),
                    field.value,
                  )}
                  data-testid="check-item-floor"
                />
              )}
            />
          </Group>
        </Stack>
      </LockedFields>

      {/* Outside the locked fields: a read-only form still opens the dialog to show the settings. */}
      {type === 'meter' && (
        <Stack gap={4}>
          <Group justify="space-between" wrap="nowrap">
            <Text size="sm" data-testid="check-item-settings-summary">
              <Text span fw={600}>
                {t('checkItems.form.meterSettings')}
              </Text>
              {': '}
              {meterType && readingService
                ? t('checkItems.form.settingsSummary', {
                    meterType: t(`checkItems.meterTypes.${meterType}`),
                    service: t(`checkItems.readingServices.${readingService}`),
                    marker: t(`checkItems.markerTypes.${markerType}`),
                  })
                : t('checkItems.form.settingsIncomplete')}
            </Text>
            <Button variant="light" onClick={() => setSettingsOpen(true)} data-testid="check-item-settings-open">
              {t('checkItems.form.openSettings')}
            </Button>
          </Group>
          {settingsErrors && (
            <Text size="sm" c="red" role="alert" data-testid="check-item-settings-errors">
              {t('checkItems.form.settingsErrors')}
            </Text>
          )}
        </Stack>
      )}

      <LockedFields locked={readOnly}>
        <Stack>
          <Controller
            control={form.control}
            name="alerting"
            render={({ field }) => (
              <Switch
                label={t('checkItems.form.alerting')}
                checked={field.value}
                onChange={(e) => field.onChange(e.currentTarget.checked)}
                onBlur={field.onBlur}
                ref={field.ref}
                data-testid="check-item-alerting"
              />
            )}
          />
          <Controller
            control={form.control}
            name="thresholdRuleId"
            render={({ field }) => (
              <NativeSelect
                label={t('checkItems.form.thresholdRule')}
                required={alerting}
                value={field.value === null ? '' : String(field.value)}
                onChange={(e) => field.onChange(numberOrUndefined(e.currentTarget.value) ?? null)}
                error={err('thresholdRuleId')}
                description={rules.isError ? t('checkItems.form.rulesUnavailable') : undefined}
                data={choose(
                  t('checkItems.form.chooseRule'),
                  (rules.data ?? []).map((r) => ({ value: String(r.id), label: r.name })),
                  field.value,
                )}
                data-testid="check-item-threshold-rule"
              />
            )}
          />

          <Stack gap="xs">
            <Title order={2} size="h5">
              {t('checkItems.form.location')}
            </Title>
            {!readOnly && (
              <Text size="sm" c="dimmed">
                {floorId === undefined ? t('checkItems.form.chooseFloorFirst') : t('checkItems.form.locationHint')}
              </Text>
            )}
            {floorId !== undefined && (
              <LocationPicker
                floorId={floorId}
                floorName={floorName}
                disabled={readOnly}
                value={{ x: placeX, y: placeY, direction: placeDirection }}
                onChange={(p) => {
                  const opts = { shouldDirty: true, shouldValidate: form.formState.isSubmitted };
                  form.setValue('x', p.x, opts);
                  form.setValue('y', p.y, opts);
                  form.setValue('direction', p.direction, opts);
                }}
              />
            )}
            <Group grow align="flex-start">
              {(['x', 'y', 'z'] as const).map((name) => (
                <Controller
                  key={name}
                  control={form.control}
                  name={name}
                  render={({ field }) => (
                    <OptionalNumberInput
                      label={t(`checkItems.form.${name}`)}
                      value={field.value}
                      onChange={field.onChange}
                      onBlur={field.onBlur}
                      error={err(name)}
                      placeholder={name === 'z' ? '0' : t('checkItems.form.notPlaced')}
                      data-testid={`check-item-${name}`}
                    />
                  )}
                />
              ))}
              <Controller
                control={form.control}
                name="direction"
                render={({ field }) => (
                  <OptionalNumberInput
                    label={t('checkItems.form.direction')}
                    value={toDegrees(field.value)}
                    onChange={(deg) => field.onChange(deg === null ? 0 : toRadians(deg))}
                    onBlur={field.onBlur}
                    error={err('direction')}
                    data-testid="check-item-direction"
                  />
                )}
              />
            </Group>
          </Stack>

          <Textarea
            label={t('checkItems.form.definition')}
            description={t('checkItems.form.definitionHint')}
            required
            autosize
            minRows={3}
            maxRows={14}
            styles={{ input: { fontFamily: 'var(--mantine-font-family-monospace)' } }}
            error={err('definition')}
            data-testid="check-item-definition"
            {...form.register('definition')}
          />
        </Stack>
      </LockedFields>

      <Modal
        opened={settingsOpen}
        onClose={() => setSettingsOpen(false)}
        title={t('checkItems.form.meterSettings')}
        size="lg"
        data-testid="check-item-settings"
      >
        <LockedFields locked={readOnly}>
          <Stack>
            <Controller
              control={form.control}
              name="meterType"
              render={({ field }) => (
                <NativeSelect
                  label={t('checkItems.form.meterType')}
                  required
                  value={field.value ?? ''}
                  onChange={(e) => field.onChange(METER_TYPES.find((m) => m === e.currentTarget.value) ?? null)}
                  error={err('meterType')}
                  data={[
                    { value: '', label: t('checkItems.form.chooseMeterType'), disabled: true },
                    ...METER_TYPES.map((m) => ({ value: m, label: t(`checkItems.meterTypes.${m}`) })),
                  ]}
                  data-testid="check-item-meter-type"
                />
              )}
            />
            <Controller
              control={form.control}
              name="readingService"
              render={({ field }) => (
                <NativeSelect
                  label={t('checkItems.form.readingService')}
                  required
                  value={field.value ?? ''}
                  onChange={(e) => field.onChange(READING_SERVICES.find((m) => m === e.currentTarget.value) ?? null)}
                  error={err('readingService')}
                  data={[
                    { value: '', label: t('checkItems.form.chooseReadingService'), disabled: true },
                    ...READING_SERVICES.map((m) => ({ value: m, label: t(`checkItems.readingServices.${m}`) })),
                  ]}
                  data-testid="check-item-reading-service"
                />
              )}
            />
            <TextInput
              label={t('checkItems.form.qrCodeNumber')}
              error={err('qrCodeNumber')}
              data-testid="check-item-qr"
              {...form.register('qrCodeNumber')}
            />
            <Group grow align="flex-start">
              <TextInput
                label={t('checkItems.form.taskId')}
                description={t('checkItems.form.taskIdHint')}
                required={readingService === 'hakaru'}
                error={err('taskId')}
                data-testid="check-item-task-id"
                {...form.register('taskId')}
              />
              <TextInput
                label={t('checkItems.form.deviceId')}
                error={err('deviceId')}
                data-testid="check-item-device-id"
                {...form.register('deviceId')}
              />
            </Group>
            <Controller
              control={form.control}
              name="markerType"
              render={({ field }) => (
                <NativeSelect
                  label={t('checkItems.form.markerType')}
                  value={field.value}
                  onChange={(e) => field.onChange(MARKER_TYPES.find((m) => m === e.currentTarget.value) ?? 'qr')}
                  error={err('markerType')}
                  data={MARKER_TYPES.map((m) => ({ value: m, label: t(`checkItems.markerTypes.${m}`) }))}
                  data-testid="check-item-marker-type"
                />
              )}
            />
            <Controller
              control={form.control}
              name="areaDetectionMarker"
              render={({ field }) => (
                <Switch
                  label={t('checkItems.form.areaDetectionMarker')}
                  checked={field.value}
                  onChange={(e) => field.onChange(e.currentTarget.checked)}
                  data-testid="check-item-area-marker"
                />
              )}
            />
          </Stack>
        </LockedFields>
        <Group justify="flex-end" mt="md">
          <Button onClick={() => setSettingsOpen(false)} data-testid="check-item-settings-done">
            {t('checkItems.form.done')}
          </Button>
        </Group>
      </Modal>
      {readOnly && (
        <Alert color="gray" variant="light" data-testid="check-item-read-only">
          {t('checkItems.readOnly')}
        </Alert>
      )}
    </FormShell>
  );
}
