import type { EventInput } from '@fullcalendar/core';
import {
  SCHEDULE_OCCURRENCES_MAX_DAYS,
  type ScheduleOccurrence,
  type ScheduleOccurrencesQuery,
} from '@portal/contract';
import { addMinutes, instantOf, utcWallClock } from './time';

/** Distinct colours for robots or flows (by id, stable across renders and pages). */
export const PALETTE = [
  '#1c7ed6',
  '#2f9e44',
  '#e8590c',
  '#9c36b5',
  '#0c8599',
  '#c2255c',
  '#5c940d',
  '#f08c00',
  '#3b5bdb',
  '#862e9c',
];
export const colourOf = (id: number) => PALETTE[Math.abs(id) % PALETTE.length]!;

export type ColourBy = 'robot' | 'flow';

/** The event id of an occurrence: its entry and its original date. */
export const occurrenceKey = (o: Pick<ScheduleOccurrence, 'scheduleId' | 'date'>) => `${o.scheduleId}:${o.date}`;

/**
 * Occurrences as calendar events. Times are the building's wall clock given without an offset (the
 * calendar runs in UTC, so it draws them as written). An occurrence that came due carries its log
 * result; priority entries are marked; only occurrences not yet due may be dragged.
 */
export function occurrenceEvents(
  occurrences: ScheduleOccurrence[],
  opts: { colourBy: ColourBy; resultText: (o: ScheduleOccurrence) => string | null },
): EventInput[] {
  return occurrences.map((o) => {
    const colour = colourOf(opts.colourBy === 'robot' ? o.robotId : o.flowId);
    const result = opts.resultText(o);
    return {
      id: occurrenceKey(o),
      title: `${o.priority ? '★ ' : ''}${o.title}${result ? ` · ${result}` : ''}`,
      start: o.start,
      end: o.end,
      backgroundColor: colour,
      borderColor: colour,
      editable: o.log === null,
      classNames: [
        'schedule-event',
        ...(o.priority ? ['schedule-event-priority'] : []),
        ...(o.log ? [`schedule-event-${o.log.result}`] : []),
        ...(o.moved ? ['schedule-event-moved'] : []),
      ],
      extendedProps: { occurrence: o },
    };
  });
}

/**
 * The occurrences query of the calendar's visible range (`start`/`end` are the calendar's dates, the
 * building's wall clock read as UTC), as instants of the building's zone, at most the API's window.
 */
export function rangeQuery(
  start: Date,
  end: Date,
  timeZone: string | undefined,
  buildingId: number | null,
): ScheduleOccurrencesQuery {
  const from = utcWallClock(start);
  const maxTo = addMinutes(from, SCHEDULE_OCCURRENCES_MAX_DAYS * 24 * 60);
  const to = utcWallClock(end) < maxTo ? utcWallClock(end) : maxTo;
  return {
    from: instantOf(from, timeZone),
    to: instantOf(to, timeZone),
    ...(buildingId !== null ? { buildingId } : {}),
  };
}
