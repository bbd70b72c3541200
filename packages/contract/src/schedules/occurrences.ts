import type { ScheduleException, ScheduleRepeat } from './resources.ts';

/**
 * The occurrences of a schedule entry (docs/api-schedules.md "Time zones"): pure functions shared by
 * the server (the dispatcher, the calendar's endpoint) and the web. Entries hold wall-clock times of
 * the building's IANA zone; these turn them into instants with the platform's `Intl` (no library).
 *
 * Rules:
 * - `none`: the start date only. `daily` and `weekly`: every date from the start date on whose
 *   weekday is in `weekdays`. `monthly`: the start's day of the month, every month; a month without
 *   that day (the 31st in April, the 29th–31st in a short February) has no occurrence (it is not
 *   moved to the month's last day). `weekdays` does not filter `none` and `monthly`.
 * - `repeatUntil` (inclusive) ends a repeating series; it is ignored for `none`.
 * - Every occurrence lasts as long on the wall clock as the first (`end − start`), so a 09:00–10:00
 *   entry stays 09:00–10:00 across a daylight-saving change.
 * - Exceptions are keyed by an occurrence's original date: `skip` drops it, `move` runs it at its own
 *   start and end instead. An exception whose date is not an occurrence of the series is ignored.
 *   An explicit move wins over the holiday rule; a date that is not moved is dropped when
 *   `skipHolidays` is set and the predicate says the date is a holiday.
 * - Wall clock → instant: a time that happens twice (the autumn fall-back overlap) takes the first
 *   (earlier) instant; a time that does not exist (the spring-forward gap) is moved forward by the
 *   length of the gap (02:30 in New York on the spring-forward day runs at 03:30 EDT).
 */

export interface OccurrenceEntry {
  start: string;
  end: string;
  repeat: ScheduleRepeat;
  weekdays: readonly number[];
  repeatUntil: string | null;
  skipHolidays: boolean;
  exceptions: readonly ScheduleException[];
}

export interface EntryOccurrence {
  /** The original start date (wall clock): the key of an exception. */
  date: string;
  /** Wall-clock start and end in the zone. */
  start: string;
  end: string;
  /** Instants (ISO 8601 UTC). */
  startAt: string;
  endAt: string;
  moved: boolean;
}

export interface OccurrenceOptions {
  /** Whether a date (`YYYY-MM-DD`) is a public holiday (the server passes Japan's). */
  isHoliday?: (date: string) => boolean;
}

const MINUTE = 60_000;
const DAY = 24 * 60 * MINUTE;

const formatters = new Map<string, Intl.DateTimeFormat>();
function formatter(timeZone: string): Intl.DateTimeFormat {
  let f = formatters.get(timeZone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
    });
    formatters.set(timeZone, f);
  }
  return f;
}

/** The wall clock (`YYYY-MM-DDTHH:mm`) of an instant in a zone. */
export function toZoned(at: Date | number, timeZone: string): string {
  const parts: Record<string, string> = {};
  for (const p of formatter(timeZone).formatToParts(typeof at === 'number' ? new Date(at) : at))
    parts[p.type] = p.value;
  return `${parts.year}-${parts.month}-${parts.day}T${parts.hour}:${parts.minute}`;
}

/** A wall-clock time read as if it were UTC (ms). */
const asUtc = (local: string): number => Date.parse(`${local}:00Z`);
const fromUtc = (ms: number): string => new Date(ms).toISOString().slice(0, 16);

/** The zone's offset from UTC at an instant (ms, minute precision). */
const offsetAt = (ms: number, timeZone: string): number =>
  asUtc(toZoned(ms, timeZone)) - Math.floor(ms / MINUTE) * MINUTE;

/**
 * The instant of a wall-clock time in a zone: the earlier one when the time happens twice, moved
 * forward by the gap when it does not exist (see the module's comment).
 */
export function fromZoned(local: string, timeZone: string): Date {
  const t = asUtc(local);
  const before = offsetAt(t - DAY, timeZone);
  const after = offsetAt(t + DAY, timeZone);
  const candidates = [...new Set([before, after])]
    .map((o) => t - o)
    .filter((u) => toZoned(u, timeZone) === local)
    .sort((a, b) => a - b);
  // In a gap no offset fits: the offset before the change moves it forward by the gap's length.
  return new Date(candidates[0] ?? t - before);
}

const addDays = (date: string, days: number): string =>
  new Date(Date.parse(`${date}T00:00:00Z`) + days * DAY).toISOString().slice(0, 10);
const weekdayOf = (date: string): number => new Date(`${date}T00:00:00Z`).getUTCDay();

/** Whether `date` is an occurrence date of the series (before exceptions and holidays). */
export function isSeriesDate(entry: OccurrenceEntry, date: string): boolean {
  const first = entry.start.slice(0, 10);
  if (date < first) return false;
  if (entry.repeat === 'none') return date === first;
  if (entry.repeatUntil && date > entry.repeatUntil) return false;
  if (entry.repeat === 'monthly') return date.slice(8, 10) === first.slice(8, 10);
  return entry.weekdays.includes(weekdayOf(date));
}

function occurrenceAt(
  entry: OccurrenceEntry,
  date: string,
  timeZone: string,
  duration: number,
  start: string,
  end: string | null,
  moved: boolean,
): EntryOccurrence {
  const endLocal = end ?? fromUtc(asUtc(start) + duration);
  const startAt = fromZoned(start, timeZone).getTime();
  // A span over a gap may shrink to nothing on the wall clock: it lasts at least a minute.
  const endAt = Math.max(fromZoned(endLocal, timeZone).getTime(), startAt + MINUTE);
  return {
    date,
    start,
    end: endLocal,
    startAt: new Date(startAt).toISOString(),
    endAt: new Date(endAt).toISOString(),
    moved,
  };
}

/** The series occurrence of one date, or null when the date has none (after exceptions and holidays). */
function onDate(
  entry: OccurrenceEntry,
  date: string,
  timeZone: string,
  duration: number,
  moves: Map<string, ScheduleException>,
  opts: OccurrenceOptions,
): EntryOccurrence | null {
  if (!isSeriesDate(entry, date) || moves.has(date)) return null;
  if (entry.exceptions.some((e) => e.action === 'skip' && e.date === date)) return null;
  if (entry.skipHolidays && opts.isHoliday?.(date)) return null;
  return occurrenceAt(entry, date, timeZone, duration, `${date}${entry.start.slice(10)}`, null, false);
}

function movedOccurrences(entry: OccurrenceEntry, timeZone: string): EntryOccurrence[] {
  const out: EntryOccurrence[] = [];
  for (const e of entry.exceptions) {
    if (e.action !== 'move' || !isSeriesDate(entry, e.date)) continue;
    out.push(occurrenceAt(entry, e.date, timeZone, 0, e.start, e.end, true));
  }
  return out;
}

function movesOf(entry: OccurrenceEntry): Map<string, ScheduleException> {
  const moves = new Map<string, ScheduleException>();
  for (const e of entry.exceptions) if (e.action === 'move' && isSeriesDate(entry, e.date)) moves.set(e.date, e);
  return moves;
}

const durationOf = (entry: OccurrenceEntry) => asUtc(entry.end) - asUtc(entry.start);

/** The occurrences starting in `[from, to)`, by start (then original date). */
export function occurrencesBetween(
  entry: OccurrenceEntry,
  timeZone: string,
  from: Date,
  to: Date,
  opts: OccurrenceOptions = {},
): EntryOccurrence[] {
  const duration = durationOf(entry);
  const moves = movesOf(entry);
  const out: EntryOccurrence[] = [];
  const inWindow = (o: EntryOccurrence) => {
    const s = Date.parse(o.startAt);
    return s >= from.getTime() && s < to.getTime();
  };
  // Local dates around the window (a zone is at most 14 h off UTC).
  const firstDate = entry.start.slice(0, 10);
  let date = toZoned(from, timeZone).slice(0, 10);
  date = addDays(date < firstDate ? firstDate : date, -1);
  const last = addDays(toZoned(to, timeZone).slice(0, 10), 1);
  for (; date <= last; date = addDays(date, 1)) {
    if (entry.repeat !== 'none' && entry.repeatUntil && date > entry.repeatUntil) break;
    if (entry.repeat === 'none' && date > firstDate) break;
    const o = onDate(entry, date, timeZone, duration, moves, opts);
    if (o && inWindow(o)) out.push(o);
  }
  for (const o of movedOccurrences(entry, timeZone)) if (inWindow(o)) out.push(o);
  return out.sort((a, b) => a.startAt.localeCompare(b.startAt) || a.date.localeCompare(b.date));
}

/**
 * The first occurrence starting after `after` (strictly; `inclusive`: at or after), or null when
 * the series has none left. Looks at most `horizonDays` ahead of `after` (default 800: a monthly
 * entry on the 31st skips at most two months; the rest is holidays and exceptions).
 */
export function nextOccurrence(
  entry: OccurrenceEntry,
  timeZone: string,
  after: Date,
  opts: OccurrenceOptions & { inclusive?: boolean; horizonDays?: number } = {},
): EntryOccurrence | null {
  const duration = durationOf(entry);
  const moves = movesOf(entry);
  const ok = (o: EntryOccurrence) =>
    opts.inclusive ? Date.parse(o.startAt) >= after.getTime() : Date.parse(o.startAt) > after.getTime();
  let best: EntryOccurrence | null = null;
  for (const o of movedOccurrences(entry, timeZone)) if (ok(o) && (!best || o.startAt < best.startAt)) best = o;
  const firstDate = entry.start.slice(0, 10);
  let date = addDays(toZoned(after, timeZone).slice(0, 10), -1);
  if (date < firstDate) date = firstDate;
  const last = addDays(date, opts.horizonDays ?? 800);
  for (; date <= last; date = addDays(date, 1)) {
    if (entry.repeat !== 'none' && entry.repeatUntil && date > entry.repeatUntil) break;
    if (entry.repeat === 'none' && date > firstDate) break;
    // Series dates come in order of their start; a moved one found earlier may still be earlier.
    if (best && `${date}T00:00` > toZoned(Date.parse(best.startAt) + DAY, timeZone)) break;
    const o = onDate(entry, date, timeZone, duration, moves, opts);
    if (o && ok(o)) {
      if (!best || o.startAt < best.startAt) best = o;
      break;
    }
  }
  return best;
}

/** The occurrence of the series that starts at this instant (the log's `dueAt`), if any. */
export function occurrenceAtInstant(
  entry: OccurrenceEntry,
  timeZone: string,
  at: Date,
  opts: OccurrenceOptions = {},
): EntryOccurrence | null {
  const o = nextOccurrence(entry, timeZone, at, { ...opts, inclusive: true, horizonDays: 3 });
  return o && Date.parse(o.startAt) === at.getTime() ? o : null;
}
