/** Days of a building's zone as instants (the report filters' dates). */

const pad = (n: number) => String(n).padStart(2, '0');

/** The wall-clock parts of an instant in a zone, read as a UTC time. */
function wallAsUtc(ms: number, timeZone: string): number {
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

/** The instant (ISO, UTC) of 00:00 of a day (`YYYY-MM-DD`) in `timeZone` (the browser's without one). */
export function dayStartInstant(day: string, timeZone: string | undefined): string {
  if (!timeZone) return new Date(Date.parse(`${day}T00:00:00`)).toISOString();
  const asUtc = Date.parse(`${day}T00:00:00Z`);
  let guess = asUtc;
  for (let i = 0; i < 3; i++) {
    const next = asUtc - (wallAsUtc(guess, timeZone) - guess);
    if (next === guess) break;
    guess = next;
  }
  return new Date(guess).toISOString();
}

/** The instant of the end of a day (00:00 of the next day) in `timeZone`. */
export function dayEndInstant(day: string, timeZone: string | undefined): string {
  const d = new Date(`${day}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + 1);
  return dayStartInstant(`${d.getUTCFullYear()}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())}`, timeZone);
}

/** A duration in whole seconds between two instants (0 when the end is missing or before the start). */
export const secondsBetween = (from: string, to: string | null): number =>
  to ? Math.max(0, Math.round((Date.parse(to) - Date.parse(from)) / 1000)) : 0;
