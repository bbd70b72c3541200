import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import {
  fromZoned,
  nextOccurrence,
  occurrenceAtInstant,
  occurrencesBetween,
  toZoned,
  type OccurrenceEntry,
} from '../src/index.ts';

const entry = (e: Partial<OccurrenceEntry>): OccurrenceEntry => ({
  start: '2026-03-02T09:00',
  end: '2026-03-02T10:00',
  repeat: 'none',
  weekdays: [1],
  repeatUntil: null,
  skipHolidays: false,
  exceptions: [],
  ...e,
});
const NY = 'America/New_York';
const TOKYO = 'Asia/Tokyo';
const between = (e: OccurrenceEntry, zone: string, from: string, to: string, isHoliday?: (d: string) => boolean) =>
  occurrencesBetween(e, zone, new Date(from), new Date(to), isHoliday ? { isHoliday } : {});

describe('wall clock ↔ instant', () => {
  it.each([
    // Tokyo has no daylight saving: always +09:00.
    ['2026-11-24T09:00', TOKYO, '2026-11-24T00:00:00.000Z'],
    ['2026-01-01T00:30', TOKYO, '2025-12-31T15:30:00.000Z'],
    // New York: EST −05:00 in winter, EDT −04:00 in summer.
    ['2026-01-15T09:00', NY, '2026-01-15T14:00:00.000Z'],
    ['2026-07-15T09:00', NY, '2026-07-15T13:00:00.000Z'],
    // Spring forward (2026-03-08 02:00 → 03:00): 02:30 does not exist and moves forward by the gap.
    ['2026-03-08T02:30', NY, '2026-03-08T07:30:00.000Z'],
    ['2026-03-08T01:59', NY, '2026-03-08T06:59:00.000Z'],
    ['2026-03-08T03:00', NY, '2026-03-08T07:00:00.000Z'],
    // Fall back (2026-11-01 02:00 → 01:00): 01:30 happens twice and takes the first (EDT).
    ['2026-11-01T01:30', NY, '2026-11-01T05:30:00.000Z'],
    ['2026-11-01T02:30', NY, '2026-11-01T07:30:00.000Z'],
  ])('%s in %s is %s', (local, zone, iso) => {
    expect(fromZoned(local, zone).toISOString()).toBe(iso);
  });

  it('round-trips every existing wall-clock time (property)', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: Date.UTC(2020, 0, 1), max: Date.UTC(2035, 0, 1) }),
        fc.constantFrom(NY, TOKYO, 'Europe/London', 'Australia/Sydney', 'UTC'),
        (ms, zone) => {
          const at = Math.floor(ms / 60_000) * 60_000;
          const local = toZoned(at, zone);
          const back = fromZoned(local, zone).getTime();
          // The same instant, or for an overlapped time the earlier of its two instants.
          expect(toZoned(back, zone)).toBe(local);
          expect(back).toBeLessThanOrEqual(at);
          expect(at - back).toBeLessThanOrEqual(60 * 60_000);
        },
      ),
      { numRuns: 500 },
    );
  });
});

describe('occurrences', () => {
  it('once: only the start date', () => {
    const o = between(entry({}), TOKYO, '2026-03-01T00:00:00Z', '2026-04-01T00:00:00Z');
    expect(o).toEqual([
      {
        date: '2026-03-02',
        start: '2026-03-02T09:00',
        end: '2026-03-02T10:00',
        startAt: '2026-03-02T00:00:00.000Z',
        endAt: '2026-03-02T01:00:00.000Z',
        moved: false,
      },
    ]);
  });

  it('weekly on Monday and Wednesday, until a date, in Tokyo', () => {
    const e = entry({ repeat: 'weekly', weekdays: [1, 3], repeatUntil: '2026-03-16' });
    const o = between(e, TOKYO, '2026-03-01T00:00:00+09:00', '2026-04-01T00:00:00+09:00');
    expect(o.map((x) => x.start)).toEqual([
      '2026-03-02T09:00',
      '2026-03-04T09:00',
      '2026-03-09T09:00',
      '2026-03-11T09:00',
      '2026-03-16T09:00',
    ]);
  });

  it('a weekly 09:00 entry in New York stays at 09:00 across both changes', () => {
    const e = entry({ start: '2026-03-02T09:00', end: '2026-03-02T10:00', repeat: 'weekly', weekdays: [1] });
    const spring = between(e, NY, '2026-03-01T00:00:00Z', '2026-03-17T00:00:00Z');
    expect(spring.map((x) => [x.start, x.startAt])).toEqual([
      ['2026-03-02T09:00', '2026-03-02T14:00:00.000Z'],
      ['2026-03-09T09:00', '2026-03-09T13:00:00.000Z'],
      ['2026-03-16T09:00', '2026-03-16T13:00:00.000Z'],
    ]);
    const fall = between(e, NY, '2026-10-26T00:00:00Z', '2026-11-09T00:00:00Z');
    expect(fall.map((x) => x.startAt)).toEqual(['2026-10-26T13:00:00.000Z', '2026-11-02T14:00:00.000Z']);
  });

  it('a daily 02:30 entry in New York runs once on the spring-forward day, at 03:30, and once on the fall-back day', () => {
    const e = entry({
      start: '2026-03-06T02:30',
      end: '2026-03-06T03:00',
      repeat: 'daily',
      weekdays: [0, 1, 2, 3, 4, 5, 6],
    });
    const o = between(e, NY, '2026-03-07T00:00:00Z', '2026-03-10T00:00:00Z');
    expect(o.map((x) => [x.date, x.startAt, x.endAt])).toEqual([
      ['2026-03-07', '2026-03-07T07:30:00.000Z', '2026-03-07T08:00:00.000Z'],
      ['2026-03-08', '2026-03-08T07:30:00.000Z', '2026-03-08T07:31:00.000Z'],
      ['2026-03-09', '2026-03-09T06:30:00.000Z', '2026-03-09T07:00:00.000Z'],
    ]);
    const e2 = entry({ ...e, start: '2026-10-30T01:30', end: '2026-10-30T01:45' });
    const fall = between(e2, NY, '2026-11-01T00:00:00Z', '2026-11-02T00:00:00Z');
    expect(fall.map((x) => x.startAt)).toEqual(['2026-11-01T05:30:00.000Z']);
  });

  it('monthly on the 31st skips the months without one', () => {
    const e = entry({ start: '2026-01-31T09:00', end: '2026-01-31T09:30', repeat: 'monthly', weekdays: [6] });
    const o = between(e, TOKYO, '2026-01-01T00:00:00Z', '2026-08-01T00:00:00Z');
    expect(o.map((x) => x.date)).toEqual(['2026-01-31', '2026-03-31', '2026-05-31', '2026-07-31']);
  });

  it('exceptions skip and move one occurrence; a move wins over the holiday rule', () => {
    const e = entry({
      repeat: 'daily',
      weekdays: [0, 1, 2, 3, 4, 5, 6],
      skipHolidays: true,
      exceptions: [
        { date: '2026-03-03', action: 'skip' },
        { date: '2026-03-04', action: 'move', start: '2026-03-04T13:00', end: '2026-03-04T14:00' },
        // Not an occurrence of the series (before its start): ignored.
        { date: '2026-02-01', action: 'move', start: '2026-03-05T01:00', end: '2026-03-05T02:00' },
      ],
    });
    const holiday = (d: string) => d === '2026-03-04' || d === '2026-03-05';
    const o = between(e, TOKYO, '2026-03-02T00:00:00+09:00', '2026-03-07T00:00:00+09:00', holiday);
    expect(o.map((x) => [x.date, x.start, x.moved])).toEqual([
      ['2026-03-02', '2026-03-02T09:00', false],
      ['2026-03-04', '2026-03-04T13:00', true],
      ['2026-03-06', '2026-03-06T09:00', false],
    ]);
  });

  it('the next occurrence after an instant, and none once the series is over', () => {
    const e = entry({ repeat: 'weekly', weekdays: [1], repeatUntil: '2026-03-09' });
    const first = nextOccurrence(e, TOKYO, new Date('2026-01-01T00:00:00Z'));
    expect(first?.startAt).toBe('2026-03-02T00:00:00.000Z');
    // Strictly after: the occurrence at that instant is not its own next.
    expect(nextOccurrence(e, TOKYO, new Date('2026-03-02T00:00:00Z'))?.startAt).toBe('2026-03-09T00:00:00.000Z');
    expect(nextOccurrence(e, TOKYO, new Date('2026-03-02T00:00:00Z'), { inclusive: true })?.startAt).toBe(
      '2026-03-02T00:00:00.000Z',
    );
    expect(nextOccurrence(e, TOKYO, new Date('2026-03-09T00:00:00Z'))).toBeNull();
    expect(occurrenceAtInstant(e, TOKYO, new Date('2026-03-09T00:00:00Z'))?.date).toBe('2026-03-09');
    expect(occurrenceAtInstant(e, TOKYO, new Date('2026-03-09T00:01:00Z'))).toBeNull();
  });

  it('next agrees with the window expansion (property)', () => {
    fc.assert(
      fc.property(
        fc.constantFrom('daily', 'weekly', 'monthly', 'none') as fc.Arbitrary<OccurrenceEntry['repeat']>,
        fc.uniqueArray(fc.integer({ min: 0, max: 6 }), { minLength: 1, maxLength: 7 }),
        fc.integer({ min: 0, max: 23 }),
        fc.integer({ min: 0, max: 120 }),
        fc.constantFrom(NY, TOKYO),
        (repeat, weekdays, hour, offsetDays, zone) => {
          const start = `2026-02-2${(offsetDays % 8) + 1}T${String(hour).padStart(2, '0')}:30`;
          const e = entry({ start, end: `${start.slice(0, 11)}${String(hour).padStart(2, '0')}:59`, repeat, weekdays });
          const from = new Date(Date.UTC(2026, 1, 1) + offsetDays * 86_400_000);
          const all = between(e, zone, from.toISOString(), new Date(from.getTime() + 62 * 86_400_000).toISOString());
          const next = nextOccurrence(e, zone, from, { inclusive: true });
          if (all.length > 0) expect(next?.startAt).toBe(all[0]!.startAt);
          for (let i = 1; i < all.length; i += 1)
            expect(nextOccurrence(e, zone, new Date(all[i - 1]!.startAt))?.startAt).toBe(all[i]!.startAt);
        },
      ),
      { numRuns: 200 },
    );
  });
});
