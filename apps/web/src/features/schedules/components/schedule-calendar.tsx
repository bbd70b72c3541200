import { Alert, Anchor, Badge, Button, Group, Loader, Modal, SegmentedControl, Stack, Text } from '@mantine/core';
import { isApiError } from '@/lib/api-client';
import { scheduleOps, type Schedule, type ScheduleOccurrence, type UpdateScheduleBody } from '@portal/contract';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { lazy, Suspense, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { BuildingFilter, buildingFilterOptions } from '@/components/building-filter';
import { PageHeader } from '@/components/page-header';
import { TimeZoneNote } from '@/components/time-zone';
import { paths } from '@/config/paths';
import { opQuery } from '@/lib/api-hooks';
import { useBuildingTimeZone } from '@/lib/building-time';
import { useErrorText } from '@/lib/i18n';
import { positiveInt } from '@/lib/list-params';
import { showNotification } from '@/lib/notify';
import { queryKeys } from '@/lib/query-keys';
import { useSession } from '@/lib/session';
import { useOccurrences, useUpdateSchedule } from '../api';
import { colourOf, occurrenceEvents, occurrenceKey, rangeQuery, type ColourBy } from '../calendar-events';
import { addMinutes, utcDateOf, utcWallClock, wallClockOf, weekdayOf } from '../time';
import { ResultBadge, useDetailText, useNames, useReasonText, useScheduleMessage } from '../words';
import type { CalendarType } from './calendar-view';
import { ScheduleTabs } from './schedule-tabs';

const CalendarView = lazy(() => import('./calendar-view'));

interface PendingChange {
  /** The entry as stored now (its version goes with the save). */
  schedule: Schedule;
  occurrence: ScheduleOccurrence;
  start: string;
  end: string;
  revert: () => void;
}

const minutesBetween = (a: string, b: string) => (utcDateOf(b).getTime() - utcDateOf(a).getTime()) / 60_000;

/** The body that moves a whole series by the occurrence's change (weekdays follow a change of day). */
export function shiftSeries(s: Schedule, occ: ScheduleOccurrence, start: string, end: string): UpdateScheduleBody {
  const startShift = minutesBetween(occ.start, start);
  const endShift = minutesBetween(occ.end, end);
  const newStart = addMinutes(s.start, startShift);
  const dayShift = (((weekdayOf(newStart) - weekdayOf(s.start)) % 7) + 7) % 7;
  const weekdays =
    s.repeat === 'daily'
      ? s.weekdays
      : s.repeat === 'weekly'
        ? [...new Set(s.weekdays.map((d) => (d + dayShift) % 7))].sort((a, b) => a - b)
        : [weekdayOf(newStart)];
  return { ...bodyOfSchedule(s), start: newStart, end: addMinutes(s.end, endShift), weekdays };
}

/** The body that moves one occurrence (a `move` exception replacing any for that date). */
export function moveOccurrence(s: Schedule, occ: ScheduleOccurrence, start: string, end: string): UpdateScheduleBody {
  const others = s.exceptions.filter((e) => e.date !== occ.date);
  return { ...bodyOfSchedule(s), exceptions: [...others, { date: occ.date, action: 'move', start, end }] };
}

const bodyOfSchedule = (s: Schedule): UpdateScheduleBody => ({
  title: s.title,
  description: s.description,
  flowId: s.flowId,
  robotId: s.robotId,
  start: s.start,
  end: s.end,
  repeat: s.repeat,
  weekdays: s.weekdays,
  repeatUntil: s.repeatUntil,
  priority: s.priority,
  skipHolidays: s.skipHolidays,
  enabled: s.enabled,
  exceptions: s.exceptions,
  updatedAt: s.updatedAt,
});

/**
 * /schedule/cal/{month|week|day}: the occurrences of a building's entries in FullCalendar, coloured by
 * robot or flow, with their log results; drag or resize to change times, select a slot to create.
 */
export function ScheduleCalendar({ type }: { type: CalendarType }) {
  const { t, i18n } = useTranslation();
  const navigate = useNavigate();
  const qc = useQueryClient();
  const session = useSession();
  const [search, setSearch] = useSearchParams();
  const buildings = useQuery(buildingFilterOptions());
  const buildingId =
    positiveInt(search.get('building')) ?? session?.buildingId ?? buildings.data?.find((b) => b.id)?.id ?? null;
  const colourBy: ColourBy = search.get('colour') === 'flow' ? 'flow' : 'robot';
  const date = /^\d{4}-\d{2}-\d{2}$/.test(search.get('date') ?? '') ? search.get('date') : null;
  const timeZone = useBuildingTimeZone(buildingId);
  const [range, setRange] = useState<{ start: Date; end: Date } | null>(null);
  const query = range && buildingId !== null ? rangeQuery(range.start, range.end, timeZone, buildingId) : null;
  const occurrences = useOccurrences(timeZone ? query : null);
  const names = useNames();
  const [open, setOpen] = useState<ScheduleOccurrence | null>(null);
  const [pending, setPending] = useState<PendingChange | null>(null);
  const update = useUpdateSchedule();
  const errorText = useErrorText();
  const scheduleMessage = useScheduleMessage();
  const language = i18n.language === 'ja' ? 'ja' : 'en';
  const now = useMemo(() => utcDateOf(wallClockOf(new Date(), timeZone)), [timeZone]);

  const list = useMemo(() => occurrences.data ?? [], [occurrences.data]);
  const byKey = useMemo(() => new Map(list.map((o) => [occurrenceKey(o), o])), [list]);
  const events = useMemo(
    () =>
      occurrenceEvents(list, {
        colourBy,
        resultText: (o) => (o.log ? t(`schedules.results.${o.log.result}`) : null),
      }),
    [list, colourBy, t],
  );
  const legend = [...new Map(list.map((o) => [colourBy === 'robot' ? o.robotId : o.flowId, o])).keys()];

  const setParam = (key: string, value: string | null) =>
    setSearch(
      (prev) => {
        const out = new URLSearchParams(prev);
        if (value === null) out.delete(key);
        else out.set(key, value);
        return out;
      },
      { replace: true },
    );

  const reasonOf = (error: unknown) => {
    if (isApiError(error) && error.code === 'VALIDATION_FAILED' && error.details.length > 0)
      return error.details.map((d) => scheduleMessage(d.message)).join(' ');
    return errorText(error);
  };

  const save = async (change: PendingChange, whole: boolean | null) => {
    setPending(null);
    const s = change.schedule;
    try {
      const body =
        whole === null
          ? { ...bodyOfSchedule(s), start: change.start, end: change.end, weekdays: [weekdayOf(change.start)] }
          : whole
            ? shiftSeries(s, change.occurrence, change.start, change.end)
            : moveOccurrence(s, change.occurrence, change.start, change.end);
      await update.mutateAsync({ id: s.id, body });
      showNotification({ color: 'green', message: t('schedules.calendar.saved') });
    } catch (error) {
      change.revert();
      showNotification({ color: 'red', message: t('schedules.calendar.failed', { reason: reasonOf(error) }) });
    }
  };

  return (
    <Stack>
      <PageHeader
        title={t('schedules.calendarTitle')}
        create={{
          to: paths.schedule.create.getHref({ building: buildingId }),
          label: t('schedules.create'),
          testId: 'schedule-create',
        }}
      />
      <ScheduleTabs active="calendar" />
      <Group align="flex-end" wrap="wrap">
        <BuildingFilter resetParams={[]} />
        <Stack gap={2}>
          <Text size="sm" fw={500}>
            {t('schedules.calendar.colourBy')}
          </Text>
          <SegmentedControl
            value={colourBy}
            onChange={(v) => setParam('colour', v === 'flow' ? 'flow' : null)}
            data={[
              { value: 'robot', label: t('schedules.calendar.byRobot') },
              { value: 'flow', label: t('schedules.calendar.byFlow') },
            ]}
            data-testid="schedule-colour-by"
          />
        </Stack>
        <SegmentedControl
          value={type}
          onChange={(v) => {
            const current = range ? utcWallClock(range.start).slice(0, 10) : date;
            void navigate(
              paths.schedule.calendar.getHref(v as CalendarType, {
                building: search.get('building'),
                colour: search.get('colour'),
                date: current,
              }),
            );
          }}
          data={(['month', 'week', 'day'] as const).map((v) => ({ value: v, label: t(`schedules.calendar.${v}`) }))}
          data-testid="schedule-view"
        />
      </Group>
      {buildingId === null ? (
        <Alert data-testid="schedule-choose-building">{t('schedules.calendar.chooseBuilding')}</Alert>
      ) : (
        <>
          <TimeZoneNote timeZone={timeZone} />
          {legend.length > 0 && (
            <Group gap={6} data-testid="schedule-legend">
              {legend.map((id) => (
                <Badge key={id} color={colourOf(id)} variant="filled">
                  {colourBy === 'robot' ? names.robot(id) : names.flow(id)}
                </Badge>
              ))}
            </Group>
          )}
          {occurrences.isError && <Alert color="red">{errorText(occurrences.error)}</Alert>}
          <Suspense fallback={<Loader aria-label={t('schedules.calendar.loading')} />}>
            <div data-testid="schedule-calendar" data-count={list.length}>
              <CalendarView
                type={type}
                date={date}
                now={now}
                language={language}
                hints={{
                  prev: t('schedules.calendar.prevHint'),
                  next: t('schedules.calendar.nextHint'),
                  today: t('schedules.calendar.todayHint'),
                }}
                events={events}
                onRange={(start, end) =>
                  setRange((r) =>
                    r && r.start.getTime() === start.getTime() && r.end.getTime() === end.getTime()
                      ? r
                      : { start, end },
                  )
                }
                onEventClick={(id) => setOpen(byKey.get(id) ?? null)}
                onEventChange={(id, start, end, revert) => {
                  const occurrence = byKey.get(id);
                  if (!occurrence) return revert();
                  const change = { occurrence, start: utcWallClock(start), end: utcWallClock(end), revert };
                  // A single entry moves at once; a repeating one asks (the stored entry tells, with its version).
                  void qc
                    .fetchQuery({
                      ...opQuery(scheduleOps.getSchedule, queryKeys.schedules.detail(occurrence.scheduleId), {
                        params: { id: occurrence.scheduleId },
                      }),
                      staleTime: 0,
                    })
                    .then(
                      (schedule) =>
                        schedule.repeat === 'none'
                          ? void save({ ...change, schedule }, null)
                          : setPending({ ...change, schedule }),
                      (error: unknown) => {
                        revert();
                        showNotification({
                          color: 'red',
                          message: t('schedules.calendar.failed', { reason: reasonOf(error) }),
                        });
                      },
                    );
                }}
                onSelect={(start, end, allDay) => {
                  const s = utcWallClock(start);
                  const e = allDay ? addMinutes(s.slice(0, 10) + 'T09:00', 60) : utcWallClock(end);
                  void navigate(
                    paths.schedule.create.getHref({
                      building: buildingId,
                      start: allDay ? `${s.slice(0, 10)}T09:00` : s,
                      end: e,
                    }),
                  );
                }}
              />
            </div>
          </Suspense>
        </>
      )}
      <OccurrencePanel occurrence={open} names={names} onClose={() => setOpen(null)} />
      <Modal
        opened={pending !== null}
        onClose={() => {
          pending?.revert();
          setPending(null);
        }}
        title={t('schedules.calendar.moveTitle')}
        size="sm"
      >
        <Stack>
          <Text size="sm">{t('schedules.calendar.moveBody')}</Text>
          <Group justify="flex-end">
            <Button
              variant="default"
              onClick={() => {
                pending?.revert();
                setPending(null);
              }}
            >
              {t('schedules.calendar.cancel')}
            </Button>
            <Button
              variant="light"
              onClick={() => pending && void save(pending, false)}
              data-testid="schedule-move-one"
            >
              {t('schedules.calendar.thisOnly')}
            </Button>
            <Button onClick={() => pending && void save(pending, true)} data-testid="schedule-move-series">
              {t('schedules.calendar.wholeSeries')}
            </Button>
          </Group>
        </Stack>
      </Modal>
    </Stack>
  );
}

/** The small panel of a clicked occurrence: what, who, when, and how it went. */
export function OccurrencePanel({
  occurrence: o,
  names,
  onClose,
}: {
  occurrence: ScheduleOccurrence | null;
  names: ReturnType<typeof useNames>;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const reasonText = useReasonText();
  const detailText = useDetailText();
  const detail = o?.log ? detailText(o.log) : '';
  const fmt = (v: string) => v.replace('T', ' ');
  return (
    <Modal opened={o !== null} onClose={onClose} title={o?.title} size="sm">
      {o && (
        <Stack gap="xs" data-testid="schedule-occurrence">
          <Text size="sm">
            {t('schedules.columns.robot')}: {names.robot(o.robotId)}
          </Text>
          <Text size="sm">
            {t('schedules.columns.flow')}: {names.flow(o.flowId)}
          </Text>
          <Text size="sm" data-testid="schedule-occurrence-time">
            {fmt(o.start)} – {fmt(o.end)}
          </Text>
          <Group gap="xs">
            {o.priority && (
              <Badge color="orange" variant="light">
                {t('schedules.priorityMark')}
              </Badge>
            )}
            {o.moved && <Badge variant="light">{t('schedules.calendar.moved')}</Badge>}
            {o.log ? (
              <ResultBadge result={o.log.result} />
            ) : (
              <Badge color="gray" variant="outline">
                {t('schedules.calendar.notYet')}
              </Badge>
            )}
          </Group>
          {o.log?.reason && <Text size="sm">{reasonText(o.log.reason)}</Text>}
          {detail && (
            <Text size="xs" c="dimmed" data-testid="schedule-occurrence-detail">
              {detail}
            </Text>
          )}
          <Anchor
            component={Link}
            to={paths.schedule.detail.getHref(o.scheduleId)}
            data-testid="schedule-occurrence-edit"
          >
            {t('schedules.calendar.editEntry')}
          </Anchor>
        </Stack>
      )}
    </Modal>
  );
}
