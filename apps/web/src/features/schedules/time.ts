/**
 * Wall-clock times of a building's zone (`YYYY-MM-DDTHH:mm`, the contract's schedule times) and
 * instants. The calendar shows wall-clock times as if they were UTC (FullCalendar's `timeZone: 'UTC'`
 * without a zone plugin), so what it draws is exactly the building's clock.
 */

const pad = (n: number) => String(n).padStart(2, '0');

/** The wall-clock parts of an instant in a zone. */
function partsIn(ms: number, timeZone: string) {
  const f = new Intl.DateTimeFormat('en-US', {
    timeZone,
    hourCycle: 'h23',
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
  });
  const p = Object.fromEntries(f.formatToParts(new Date(ms)).map((x) => [x.type, x.value]));
  return Date.UTC(
    Number(p.year),
    Number(p.month) - 1,
    Number(p.day),
    Number(p.hour),
    Number(p.minute),
    Number(p.second),
  );
}

/** The instant (ISO, UTC) of a wall-clock time of `timeZone` (a gap's time moves forward; an overlap takes the first). */
export function instantOf(local: string, timeZone: string | undefined): string {
  const asUtc = Date.parse(`${local.length === 10 ? `${local}T00:00` : local}:00Z`);
  if (!timeZone) return new Date(Date.parse(`${local.length === 10 ? `${local}T00:00` : local}:00`)).toISOString();
  let guess = asUtc;
  for (let i = 0; i < 3; i++) {
    const offset = partsIn(guess, timeZone) - guess;
    const next = asUtc - offset;
    if (next === guess) break;
    guess = next;
  }
  return new Date(guess).toISOString();
}

/** The wall-clock time (`YYYY-MM-DDTHH:mm`) of an instant in a zone (the browser's without one). */
export function wallClockOf(instant: string | Date, timeZone: string | undefined): string {
  const ms = typeof instant === 'string' ? Date.parse(instant) : instant.getTime();
  const d = new Date(timeZone ? partsIn(ms, timeZone) : ms - new Date(ms).getTimezoneOffset() * 60_000);
  return utcWallClock(d);
}

/** A Date read as UTC (the calendar's dates) written as a wall-clock time. */
export const utcWallClock = (d: Date): string =>
  `${d.getUTCFullYear()}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())}T${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}`;

/** A wall-clock time as the calendar's Date (read as UTC). */
export const utcDateOf = (local: string): Date => new Date(`${local}:00Z`);

/** The weekday (0 Sunday … 6 Saturday) of a wall-clock date or date-time. */
export const weekdayOf = (local: string): number => new Date(`${local.slice(0, 10)}T00:00:00Z`).getUTCDay();

/** Adds minutes to a wall-clock time (as written, ignoring the zone). */
export const addMinutes = (local: string, minutes: number): string =>
  utcWallClock(new Date(utcDateOf(local).getTime() + minutes * 60_000));
