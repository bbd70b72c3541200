/**
 * The calendar's drag, resize and select handling: FullCalendar renders in jsdom (schedules.test.tsx)
 * but cannot be dragged there (no layout), so the view is replaced by buttons that call the same
 * handlers FullCalendar calls.
 */
import { scheduleOccurrenceSchema, scheduleOps, scheduleSchema, type ScheduleOccurrence } from '@portal/contract';
import { screen, waitFor } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { makeSession } from '@/testing/fixtures';
import { mockApi, on, reply, replyError } from '@/testing/mock-api';
import { renderApp } from '@/testing/render-app';
import type { CalendarViewProps } from './components/calendar-view';
import { schedule, scheduleRoutes } from './test-data';

const reverted = vi.fn();

vi.mock('./components/calendar-view', () => ({
  default: (p: CalendarViewProps) => {
    // The visible week of 2026-11-24 (the calendar's dates are the building's wall clock read as UTC).
    if (p.events.length === 0)
      queueMicrotask(() =>
        p.onRange(
          new Date('2026-11-22T00:00:00Z'),
          new Date('2026-11-29T00:00:00Z'),
          p.type,
          new Date('2026-11-22T00:00:00Z'),
        ),
      );
    return (
      <div>
        {p.events.map((e) => (
          <button
            key={String(e.id)}
            type="button"
            onClick={() =>
              p.onEventChange(
                String(e.id),
                new Date('2026-11-26T11:00:00Z'),
                new Date('2026-11-26T12:00:00Z'),
                reverted,
              )
            }
          >
            drag {String(e.title)}
          </button>
        ))}
        <button
          type="button"
          onClick={() => p.onSelect(new Date('2026-11-27T14:00:00Z'), new Date('2026-11-27T15:30:00Z'), false)}
        >
          select slot
        </button>
      </div>
    );
  },
}));

const occ = (over: Partial<ScheduleOccurrence>): ScheduleOccurrence =>
  scheduleOccurrenceSchema.parse({
    scheduleId: 1,
    title: 'Night patrol',
    buildingId: 10,
    flowId: 3,
    robotId: 55,
    priority: false,
    date: '2026-11-25',
    startAt: '2026-11-25T00:00:00.000Z',
    endAt: '2026-11-25T01:00:00.000Z',
    start: '2026-11-25T09:00',
    end: '2026-11-25T10:00',
    moved: false,
    log: null,
    ...over,
  });

const weekly = schedule(1, {
  title: 'Night patrol',
  repeat: 'weekly',
  weekdays: [3],
  start: '2026-11-18T09:00',
  end: '2026-11-18T10:00',
});
const once = schedule(2, { title: 'Greeting', start: '2026-11-25T13:00', end: '2026-11-25T14:00', weekdays: [3] });

function routes(put: () => Response) {
  return mockApi({
    ...scheduleRoutes(),
    [on(scheduleOps.listScheduleOccurrences)]: () =>
      reply(z.array(scheduleOccurrenceSchema), [
        occ({}),
        occ({ scheduleId: 2, title: 'Greeting', start: '2026-11-25T13:00', end: '2026-11-25T14:00' }),
      ]),
    [on(scheduleOps.getSchedule, { id: 1 })]: () => reply(scheduleSchema, weekly),
    [on(scheduleOps.getSchedule, { id: 2 })]: () => reply(scheduleSchema, once),
    [on(scheduleOps.updateSchedule)]: put,
  });
}

describe('calendar changes', () => {
  it('moves only one occurrence of a repeating entry when asked, by a move exception with the version', async () => {
    const { calls } = routes(() => reply(scheduleSchema, weekly));
    const app = renderApp('/schedule/cal/week?building=10', { session: makeSession(2) });
    await app.user.click(await screen.findByText('drag Night patrol', {}, { timeout: 5000 }));
    await app.user.click(await screen.findByTestId('schedule-move-one'));
    await waitFor(() =>
      expect(calls.find((c) => c.method === 'PUT')?.body).toEqual(
        expect.objectContaining({
          start: '2026-11-18T09:00',
          exceptions: [{ date: '2026-11-25', action: 'move', start: '2026-11-26T11:00', end: '2026-11-26T12:00' }],
          updatedAt: weekly.updatedAt,
        }),
      ),
    );
  }, 30_000);

  it('changes a single entry at once; a refused save puts the event back and shows the reason', async () => {
    const { calls } = routes(() =>
      replyError('VALIDATION_FAILED', [{ path: 'end', message: 'scheduleValidation.tooLong' }]),
    );
    const app = renderApp('/schedule/cal/week?building=10', { session: makeSession(2) });
    await app.user.click(await screen.findByText('drag Greeting', {}, { timeout: 5000 }));
    await waitFor(() =>
      expect(calls.find((c) => c.method === 'PUT')?.body).toEqual(
        expect.objectContaining({ start: '2026-11-26T11:00', end: '2026-11-26T12:00', weekdays: [4], exceptions: [] }),
      ),
    );
    expect(await screen.findByText(/An occurrence may last at most 24 hours/)).toBeInTheDocument();
    expect(reverted).toHaveBeenCalled();
  }, 30_000);

  it('opens the create form with the selected slot', async () => {
    routes(() => reply(scheduleSchema, once));
    const app = renderApp('/schedule/cal/week?building=10', { session: makeSession(2) });
    await app.user.click(await screen.findByText('select slot', {}, { timeout: 5000 }));
    await waitFor(() =>
      expect(app.location()).toBe('/schedule/create?building=10&start=2026-11-27T14%3A00&end=2026-11-27T15%3A30'),
    );
    expect(await screen.findByTestId('schedule-start-time', {}, { timeout: 5000 })).toHaveValue('14:00');
  }, 30_000);
});
