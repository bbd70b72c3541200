import { zodResolver } from '@hookform/resolvers/zod';
import {
  ActionIcon,
  Alert,
  Chip,
  Group,
  Input,
  NativeSelect,
  Stack,
  Switch,
  Text,
  Textarea,
  TextInput,
  Title,
} from '@mantine/core';
import {
  flowMoves,
  scheduleInputSchema,
  SCHEDULE_REPEATS,
  type Flow,
  type Schedule,
  type ScheduleException,
  type ScheduleRepeat,
} from '@portal/contract';
import { useQuery } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { Controller, useFieldArray, useForm, useWatch, type Resolver } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { buildingFilterOptions } from '@/components/building-filter';
import { FormShell, useFormKit } from '@/components/form-page';
import { paths } from '@/config/paths';
import { useBuildingTimeZone } from '@/lib/building-time';
import { useFormat } from '@/lib/format';
import { useCreateSchedule, useFlowOptions, useRobotOptions, useUpdateSchedule } from '../api';
import { weekdayOf } from '../time';
import { useScheduleMessage } from '../words';

export interface ScheduleFormValues {
  title: string;
  description: string;
  /** Not sent: it narrows the flow and robot choices (the server checks they share one building). */
  buildingId: number | undefined;
  flowId: number | undefined;
  robotId: number | undefined;
  /** Wall-clock `YYYY-MM-DDTHH:mm` of the building's zone, edited as a date and a time. */
  start: string;
  end: string;
  repeat: ScheduleRepeat;
  weekdays: number[];
  /** '' is none. */
  repeatUntil: string;
  priority: boolean;
  skipHolidays: boolean;
  enabled: boolean;
  exceptions: ScheduleException[];
}

const FIELDS = [
  'title',
  'description',
  'flowId',
  'robotId',
  'start',
  'end',
  'repeat',
  'weekdays',
  'repeatUntil',
  'priority',
  'skipHolidays',
  'enabled',
  'exceptions',
] as const;

export const ALL_DAYS = [0, 1, 2, 3, 4, 5, 6];

/** The body of a create or update (without the version). */
export const bodyOf = (v: ScheduleFormValues) => ({
  title: v.title.trim(),
  description: v.description.trim(),
  flowId: v.flowId ?? 0,
  robotId: v.robotId ?? 0,
  start: v.start,
  end: v.end,
  repeat: v.repeat,
  weekdays: [...v.weekdays].sort((a, b) => a - b),
  repeatUntil: v.repeat === 'none' || v.repeatUntil === '' ? null : v.repeatUntil,
  priority: v.priority,
  skipHolidays: v.skipHolidays,
  enabled: v.enabled,
  exceptions: v.exceptions,
});

/** The contract's schema on the body the form would send; a flow or robot not chosen is "required". */
const resolver: Resolver<ScheduleFormValues> = async (values, context, options) => {
  const resolve = zodResolver(scheduleInputSchema) as unknown as Resolver<Record<string, unknown>>;
  const result = await resolve(bodyOf(values), context, options as never);
  const errors = { ...result.errors } as Record<string, unknown>;
  for (const f of ['flowId', 'robotId'] as const)
    if (values[f] === undefined) errors[f] = { type: 'required', message: 'validation.required' };
  if (Object.keys(errors).length === 0) return { values, errors: {} };
  return { values: {}, errors } as never;
};

export const valuesOf = (s: Schedule): ScheduleFormValues => ({
  title: s.title,
  description: s.description,
  buildingId: s.buildingId,
  flowId: s.flowId,
  robotId: s.robotId,
  start: s.start,
  end: s.end,
  repeat: s.repeat,
  weekdays: s.weekdays,
  repeatUntil: s.repeatUntil ?? '',
  priority: s.priority,
  skipHolidays: s.skipHolidays,
  enabled: s.enabled,
  exceptions: s.exceptions,
});

/** Weekdays that fit a repeat: every day for daily, the start's weekday otherwise. */
export const weekdaysFor = (repeat: ScheduleRepeat, start: string, current: number[]): number[] => {
  const startDay = /^\d{4}-\d{2}-\d{2}/.test(start) ? weekdayOf(start) : new Date().getDay();
  if (repeat === 'daily') return ALL_DAYS;
  if (repeat === 'weekly') return current.length > 0 && current.length < 7 ? current : [startDay];
  return [startDay];
};

/** Whether the flow moves the robot (null while unknown). */
export function flowMovesOf(flow: Flow | undefined): boolean | null {
  if (!flow) return null;
  try {
    return flowMoves(flow.definition);
  } catch {
    return null;
  }
}

interface ScheduleFormProps {
  schedule?: Schedule;
  /** New entry: the values to start from (the calendar's selected slot, the user's building). */
  initial?: Partial<ScheduleFormValues>;
  onReload?: () => Promise<Schedule | undefined>;
  onCreated?: (s: Schedule) => void;
  startActions?: ReactNode;
}

/** A date and a time input editing one wall-clock `YYYY-MM-DDTHH:mm` value. */
function DateTimeFields({
  value,
  onChange,
  dateLabel,
  timeLabel,
  error,
  testId,
}: {
  value: string;
  onChange: (v: string) => void;
  dateLabel: string;
  timeLabel: string;
  error?: string;
  testId: string;
}) {
  const [date = '', time = ''] = value.split('T');
  return (
    <Group grow align="flex-start">
      <TextInput
        type="date"
        label={dateLabel}
        required
        value={date}
        onChange={(e) => onChange(`${e.currentTarget.value}T${time}`)}
        error={error}
        data-testid={`${testId}-date`}
      />
      <TextInput
        type="time"
        label={timeLabel}
        required
        value={time}
        onChange={(e) => onChange(`${date}T${e.currentTarget.value}`)}
        error={error ? ' ' : undefined}
        data-testid={`${testId}-time`}
      />
    </Group>
  );
}

export function ScheduleForm({ schedule, initial, onReload, onCreated, startActions }: ScheduleFormProps) {
  const { t } = useTranslation();
  const format = useFormat();
  const messageText = useScheduleMessage();
  const create = useCreateSchedule();
  const update = useUpdateSchedule();
  const mutation = schedule ? update : create;
  const form = useForm<ScheduleFormValues>({
    resolver,
    defaultValues: schedule
      ? valuesOf(schedule)
      : {
          title: '',
          description: '',
          buildingId: undefined,
          flowId: undefined,
          robotId: undefined,
          start: '',
          end: '',
          repeat: 'none',
          weekdays: [],
          repeatUntil: '',
          priority: false,
          skipHolidays: false,
          enabled: true,
          exceptions: [],
          ...initial,
        },
  });
  const kit = useFormKit(form, {
    fields: FIELDS,
    record: schedule,
    reload: onReload,
    toValues: valuesOf,
    translate: messageText,
  });
  const { err } = kit;
  const exceptions = useFieldArray({ control: form.control, name: 'exceptions' });
  const [buildingId, flowId, repeat, start] = useWatch({
    control: form.control,
    name: ['buildingId', 'flowId', 'repeat', 'start'],
  });
  const buildings = useQuery(buildingFilterOptions());
  const flows = useFlowOptions(buildingId ?? null);
  const robots = useRobotOptions(buildingId ?? null);
  const timeZone = useBuildingTimeZone(buildingId) ?? schedule?.timeZone;
  const moves = flowMovesOf((flows.data ?? []).find((f) => f.id === flowId));

  const onSubmit = form.handleSubmit((v) => {
    const body = bodyOf(v);
    const base = kit.base;
    if (base) update.mutate({ id: base.id, body: { ...body, updatedAt: base.updatedAt } }, kit.saved());
    else create.mutate(body, kit.saved<Schedule>({ successText: t('schedules.form.created'), onSuccess: onCreated }));
  });

  const choose = (label: string, rows: { id?: number; name?: string }[], value: number | undefined) => {
    const data = [
      { value: '', label, disabled: true },
      ...rows.flatMap((r) => (typeof r.id === 'number' ? [{ value: String(r.id), label: r.name ?? `#${r.id}` }] : [])),
    ];
    if (value !== undefined && !data.some((d) => d.value === String(value)))
      data.push({ value: String(value), label: `#${value}` });
    return data;
  };
  const exceptionError = (i: number, f: 'date' | 'start' | 'end') =>
    messageText(form.formState.errors.exceptions?.[i]?.[f as 'date']?.message);

  return (
    <FormShell
      kit={kit}
      onSubmit={onSubmit}
      mutation={mutation}
      label={t('schedules.listTitle')}
      testId="schedule-form"
      submitTestId="schedule-save"
      createLabel={t('schedules.create')}
      createCancelTo={paths.schedule.list.getHref()}
      startActions={startActions}
    >
      <TextInput
        label={t('schedules.form.title')}
        required
        error={err('title')}
        data-testid="schedule-title"
        {...form.register('title')}
      />
      <Textarea
        label={t('schedules.form.description')}
        autosize
        minRows={2}
        error={err('description')}
        data-testid="schedule-description"
        {...form.register('description')}
      />
      <Group grow align="flex-start">
        <Controller
          control={form.control}
          name="buildingId"
          render={({ field }) => (
            <NativeSelect
              label={t('schedules.form.building')}
              required
              value={field.value === undefined ? '' : String(field.value)}
              onChange={(e) => {
                field.onChange(e.currentTarget.value === '' ? undefined : Number(e.currentTarget.value));
                form.setValue('flowId', undefined);
                form.setValue('robotId', undefined);
              }}
              data={choose(t('schedules.form.chooseBuilding'), buildings.data ?? [], field.value)}
              data-testid="schedule-building"
            />
          )}
        />
        <Controller
          control={form.control}
          name="flowId"
          render={({ field }) => (
            <NativeSelect
              label={t('schedules.form.flow')}
              required
              disabled={buildingId === undefined}
              value={field.value === undefined ? '' : String(field.value)}
              onChange={(e) => field.onChange(e.currentTarget.value === '' ? undefined : Number(e.currentTarget.value))}
              error={err('flowId')}
              data={choose(t('schedules.form.chooseFlow'), buildingId ? (flows.data ?? []) : [], field.value)}
              data-testid="schedule-flow"
            />
          )}
        />
        <Controller
          control={form.control}
          name="robotId"
          render={({ field }) => (
            <NativeSelect
              label={t('schedules.form.robot')}
              required
              disabled={buildingId === undefined}
              value={field.value === undefined ? '' : String(field.value)}
              onChange={(e) => field.onChange(e.currentTarget.value === '' ? undefined : Number(e.currentTarget.value))}
              error={err('robotId')}
              data={choose(t('schedules.form.chooseRobot'), buildingId ? (robots.data ?? []) : [], field.value)}
              data-testid="schedule-robot"
            />
          )}
        />
      </Group>
      {moves !== null && (
        <Alert color={moves ? 'blue' : 'orange'} variant="light" data-testid="schedule-flow-end">
          {moves ? t('schedules.form.endEstimate') : t('schedules.form.endStops')}
        </Alert>
      )}
      <Text size="sm" c="dimmed" data-testid="schedule-zone">
        {t('schedules.form.zoneHint', { zone: format.zone(timeZone) })}
      </Text>
      <Controller
        control={form.control}
        name="start"
        render={({ field }) => (
          <DateTimeFields
            value={field.value}
            onChange={(v) => {
              const before = field.value;
              field.onChange(v);
              // A weekday that followed the start keeps following it.
              const r = form.getValues('repeat');
              const days = form.getValues('weekdays');
              const followed =
                days.length === 0 ||
                r === 'none' ||
                r === 'monthly' ||
                (r === 'weekly' &&
                  days.length === 1 &&
                  /^\d{4}-\d{2}-\d{2}/.test(before) &&
                  days[0] === weekdayOf(before));
              if (followed && r !== 'daily' && /^\d{4}-\d{2}-\d{2}/.test(v)) form.setValue('weekdays', [weekdayOf(v)]);
              if (r === 'daily' && days.length === 0) form.setValue('weekdays', ALL_DAYS);
            }}
            dateLabel={t('schedules.form.startDate')}
            timeLabel={t('schedules.form.startTime')}
            error={err('start')}
            testId="schedule-start"
          />
        )}
      />
      <Controller
        control={form.control}
        name="end"
        render={({ field }) => (
          <DateTimeFields
            value={field.value}
            onChange={field.onChange}
            dateLabel={t('schedules.form.endDate')}
            timeLabel={t('schedules.form.endTime')}
            error={err('end')}
            testId="schedule-end"
          />
        )}
      />
      <Controller
        control={form.control}
        name="repeat"
        render={({ field }) => (
          <NativeSelect
            label={t('schedules.form.repeat')}
            value={field.value}
            onChange={(e) => {
              const next = SCHEDULE_REPEATS.find((r) => r === e.currentTarget.value) ?? 'none';
              field.onChange(next);
              form.setValue('weekdays', weekdaysFor(next, form.getValues('start'), form.getValues('weekdays')));
            }}
            error={err('repeat')}
            data={SCHEDULE_REPEATS.map((r) => ({ value: r, label: t(`schedules.repeats.${r}`) }))}
            data-testid="schedule-repeat"
          />
        )}
      />
      {(repeat === 'weekly' || repeat === 'daily') && (
        <Controller
          control={form.control}
          name="weekdays"
          render={({ field }) => (
            <Input.Wrapper label={t('schedules.form.weekdays')} required error={err('weekdays')}>
              <Chip.Group
                multiple
                value={field.value.map(String)}
                onChange={(v) => field.onChange(v.map(Number).sort((a, b) => a - b))}
              >
                <Group gap={6} mt={4} data-testid="schedule-weekdays">
                  {ALL_DAYS.map((d) => (
                    <Chip key={d} value={String(d)} size="sm" data-testid={`schedule-weekday-${d}`}>
                      {t(`schedules.weekdaysShort.${String(d) as '0'}`)}
                    </Chip>
                  ))}
                </Group>
              </Chip.Group>
            </Input.Wrapper>
          )}
        />
      )}
      {repeat !== 'none' && (
        <TextInput
          type="date"
          label={t('schedules.form.repeatUntil')}
          error={err('repeatUntil')}
          data-testid="schedule-repeat-until"
          {...form.register('repeatUntil')}
        />
      )}
      {(['priority', 'skipHolidays', 'enabled'] as const).map((name) => (
        <Controller
          key={name}
          control={form.control}
          name={name}
          render={({ field }) => (
            <Switch
              label={t(`schedules.form.${name}`)}
              checked={field.value}
              onChange={(e) => field.onChange(e.currentTarget.checked)}
              onBlur={field.onBlur}
              ref={field.ref}
              data-testid={`schedule-${name}`}
            />
          )}
        />
      ))}
      <Stack gap="xs" data-testid="schedule-exceptions">
        <Group justify="space-between">
          <Title order={2} size="h5">
            {t('schedules.form.exceptions')}
          </Title>
          <ActionIcon
            variant="light"
            onClick={() => exceptions.append({ date: start.slice(0, 10), action: 'skip' })}
            aria-label={t('schedules.form.addException')}
            data-testid="schedule-exception-add"
          >
            +
          </ActionIcon>
        </Group>
        <Text size="sm" c="dimmed">
          {exceptions.fields.length === 0 ? t('schedules.form.noExceptions') : t('schedules.form.exceptionsHint')}
        </Text>
        {exceptions.fields.map((row, i) => (
          <ExceptionRow
            key={row.id}
            index={i}
            control={form.control}
            error={exceptionError}
            onRemove={() => exceptions.remove(i)}
          />
        ))}
      </Stack>
    </FormShell>
  );
}

function ExceptionRow({
  index: i,
  control,
  error,
  onRemove,
}: {
  index: number;
  control: ReturnType<typeof useForm<ScheduleFormValues>>['control'];
  error: (i: number, f: 'date' | 'start' | 'end') => string | undefined;
  onRemove: () => void;
}) {
  const { t } = useTranslation();
  return (
    <Controller
      control={control}
      name={`exceptions.${i}`}
      render={({ field }) => {
        const e = field.value;
        const set = (next: ScheduleException) => field.onChange(next);
        return (
          <Group align="flex-end" wrap="wrap" data-testid={`schedule-exception-${i}`}>
            <TextInput
              type="date"
              label={t('schedules.form.exceptionDate')}
              value={e.date}
              onChange={(ev) => set({ ...e, date: ev.currentTarget.value })}
              error={error(i, 'date')}
              data-testid={`schedule-exception-${i}-date`}
            />
            <NativeSelect
              label={t('schedules.form.exceptionAction')}
              value={e.action}
              onChange={(ev) =>
                set(
                  ev.currentTarget.value === 'move'
                    ? { date: e.date, action: 'move', start: `${e.date}T09:00`, end: `${e.date}T10:00` }
                    : { date: e.date, action: 'skip' },
                )
              }
              data={(['skip', 'move'] as const).map((a) => ({ value: a, label: t(`schedules.form.actions.${a}`) }))}
              data-testid={`schedule-exception-${i}-action`}
            />
            {e.action === 'move' && (
              <>
                <TextInput
                  type="datetime-local"
                  label={t('schedules.form.movedStart')}
                  value={e.start}
                  onChange={(ev) => set({ ...e, start: ev.currentTarget.value })}
                  error={error(i, 'start')}
                  data-testid={`schedule-exception-${i}-start`}
                />
                <TextInput
                  type="datetime-local"
                  label={t('schedules.form.movedEnd')}
                  value={e.end}
                  onChange={(ev) => set({ ...e, end: ev.currentTarget.value })}
                  error={error(i, 'end')}
                  data-testid={`schedule-exception-${i}-end`}
                />
              </>
            )}
            <ActionIcon
              variant="subtle"
              color="red"
              onClick={onRemove}
              aria-label={t('schedules.form.removeException', { n: i + 1 })}
              data-testid={`schedule-exception-${i}-remove`}
            >
              ×
            </ActionIcon>
          </Group>
        );
      }}
    />
  );
}
