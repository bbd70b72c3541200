import {
  buildingListSchema,
  buildingOps,
  scheduleLogSchema,
  scheduleOccurrenceSchema,
  scheduleOps,
  scheduleSchema,
  type ScheduleOccurrence,
} from '@portal/contract';
import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { initI18n } from '@/lib/i18n';
import { makeSession } from '@/testing/fixtures';
import { mockApi, noContent, on, reply, replyError } from '@/testing/mock-api';
import { renderApp } from '@/testing/render-app';
import { colourOf, occurrenceEvents, rangeQuery } from './calendar-events';
import { moveOccurrence, shiftSeries } from './components/schedule-calendar';
import { logLine, schedule, scheduleRoutes } from './test-data';
import { instantOf, wallClockOf } from './time';

const slow = { timeout: 5000 };
const filterOf = (search: URLSearchParams) => JSON.parse(search.get('filter') ?? '{}') as Record<string, unknown>;

describe('schedule entry list', () => {
  it('lists entries with names, repeat in words and the next run in the building zone, and filters', async () => {
    const { calls } = mockApi({
      ...scheduleRoutes(),
      [on(scheduleOps.listSchedules)]: () =>
        reply(z.array(scheduleSchema), [
          schedule(1, { title: 'Night patrol', repeat: 'weekly', weekdays: [3, 1], priority: true }),
          schedule(2, { title: 'Greeting', flowId: 4, robotId: 56, enabled: false, nextAt: null }),
        ]),
    });
    const app = renderApp('/schedule/list', { session: makeSession(2) });
    const link = await screen.findByTestId('schedule-link-1', {}, slow);
    const row = link.closest('tr')!;
    await waitFor(() => expect(within(row).getByText('Lobby guide')).toBeInTheDocument(), slow);
    expect(within(row).getByText('Weekly (Mon, Wed)')).toBeInTheDocument();
    expect(within(row).getByText(/Priority/)).toBeInTheDocument();
    // 2026-11-24T00:00Z is 09:00 in Tokyo, named with its zone.
    const time = row.querySelector('time')!;
    expect(time).toHaveAttribute('data-time-zone', 'Asia/Tokyo');
    expect(time.textContent).toMatch(/9:00/);
    const row2 = screen.getByTestId('schedule-link-2').closest('tr')!;
    expect(within(row2).getByText('No further runs')).toBeInTheDocument();
    expect(within(row2).getByText('Off')).toBeInTheDocument();

    await app.user.selectOptions(screen.getByTestId('schedule-repeat-filter'), 'weekly');
    await waitFor(() => expect(app.location()).toContain('repeat=weekly'));
    await app.user.selectOptions(screen.getByTestId('schedule-enabled-filter'), '1');
    await waitFor(() => {
      const last = calls.filter((c) => c.path === '/api/schedules').at(-1)!;
      expect(filterOf(last.search).where).toEqual({ and: [{ repeat: 'weekly' }, { enabled: true }] });
    });
  }, 30_000);
});

describe('schedule log', () => {
  it('shows results and reasons in words, and filters by result and date in the building zone', async () => {
    const { calls } = mockApi({
      ...scheduleRoutes(),
      [on(scheduleOps.listScheduleLogs)]: () =>
        reply(z.array(scheduleLogSchema), [
          logLine(1, { result: 'fail', reason: 'ROBOT_OFFLINE', detail: 'No state for 30 s' }),
          logLine(2, { result: 'cancel', reason: 'RUN_EMERGENCY_STOP' }),
          logLine(3, { result: 'unknown', reason: 'X_NEW' }),
          logLine(4, { result: 'done', flowRunId: 9, startedAt: '2026-11-23T12:00:01.000Z' }),
        ]),
    });
    const app = renderApp('/schedule/log/1?building=10', { session: makeSession(2) });
    const reason = await screen.findByTestId('schedule-log-reason-1', {}, slow);
    expect(reason).toHaveTextContent('The robot was offline');
    expect(reason).toHaveTextContent('No state for 30 s');
    expect(screen.getByTestId('schedule-log-reason-2')).toHaveTextContent('The emergency stop button was pressed');
    expect(screen.getByTestId('schedule-log-reason-3')).toHaveTextContent('Code X_NEW');
    const badges = screen.getAllByTestId('schedule-result').map((b) => b.textContent);
    expect(badges).toEqual(['Failed', 'Cancelled', 'Unknown', 'Done']);
    expect(screen.getByTestId('schedule-log-run-4')).toBeInTheDocument();
    expect(await screen.findByTestId('time-zone-note')).toHaveTextContent('Asia/Tokyo');

    await app.user.selectOptions(screen.getByTestId('schedule-result-filter'), 'fail');
    await waitFor(() => expect(app.location()).toBe('/schedule/log/1?building=10&result=fail'));
    await app.user.type(screen.getByTestId('schedule-log-from'), '2026-11-20');
    await waitFor(() => {
      const last = calls.filter((c) => c.path === '/api/schedule-logs').at(-1)!;
      // The day starts at 00:00 in Tokyo: 15:00 UTC the day before.
      expect(filterOf(last.search)).toEqual(
        expect.objectContaining({
          where: { and: [{ buildingId: 10 }, { result: 'fail' }, { dueAt: { gte: '2026-11-19T15:00:00.000Z' } }] },
          order: 'dueAt DESC',
        }),
      );
    });
  }, 30_000);

  it('goes back to the first page of the log when the building changes', async () => {
    mockApi({
      ...scheduleRoutes(),
      [on(buildingOps.listBuildings)]: () =>
        new Response(
          JSON.stringify(
            buildingListSchema.parse([
              { id: 10, name: 'Marunouchi Tower' },
              { id: 11, name: 'Shinjuku Annex' },
            ]),
          ),
          { status: 200, headers: { 'X-Total-Count': '2' } },
        ),
      [on(scheduleOps.listScheduleLogs)]: () => reply(z.array(scheduleLogSchema), [logLine(1, { result: 'fail' })]),
    });
    const app = renderApp('/schedule/log/3?building=10&result=fail&robot=55', { session: makeSession(2) });
    const select = await screen.findByTestId('building-filter', {}, slow);
    await waitFor(() => expect(select).toHaveValue('10'));
    await app.user.selectOptions(select, '11');
    // The robot was one of the old building's: it is dropped with the page; the result stays.
    await waitFor(() => expect(app.location()).toBe('/schedule/log/1?building=11&result=fail'));
  }, 30_000);

  it('shows the log in Japanese', async () => {
    mockApi({
      ...scheduleRoutes(),
      [on(scheduleOps.listScheduleLogs)]: () =>
        reply(z.array(scheduleLogSchema), [logLine(1, { result: 'fail', reason: 'START_POSITION' })]),
    });
    initI18n('ja');
    renderApp('/schedule/log/1', { session: makeSession(2) });
    expect(await screen.findByTestId('schedule-log-reason-1', {}, slow)).toHaveTextContent(
      'ロボットがフローの開始位置にいませんでした',
    );
    expect(screen.getByTestId('schedule-result')).toHaveTextContent('失敗');
  }, 30_000);
});

describe('schedule form', () => {
  it('validates the times and weekdays, explains the end time from the flow, and sends the entry', async () => {
    const { calls } = mockApi({
      ...scheduleRoutes(),
      [on(scheduleOps.createSchedule)]: (c) =>
        reply(scheduleSchema, schedule(9, { ...(c.body as object), nextAt: null }), 201),
      [on(scheduleOps.getSchedule)]: () => reply(scheduleSchema, schedule(9)),
    });
    const app = renderApp('/schedule/create?building=10&start=2026-11-24T09:00&end=2026-11-24T08:00', {
      session: makeSession(2),
    });
    const title = await screen.findByTestId('schedule-title', {}, slow);
    await app.user.type(title, 'Night patrol');
    expect(screen.getByTestId('schedule-zone')).toHaveTextContent('Asia/Tokyo');

    // The flow's content says what the end time means.
    await waitFor(
      () => expect(within(screen.getByTestId('schedule-flow')).getByText('Greeting')).toBeInTheDocument(),
      slow,
    );
    await app.user.selectOptions(screen.getByTestId('schedule-flow'), '4');
    expect(screen.getByTestId('schedule-flow-end')).toHaveTextContent('stopped at the end time');
    await app.user.selectOptions(screen.getByTestId('schedule-flow'), '3');
    expect(screen.getByTestId('schedule-flow-end')).toHaveTextContent('only an estimate');
    await app.user.selectOptions(screen.getByTestId('schedule-robot'), '55');

    // Weekly starts on the start's weekday (2026-11-24 is a Tuesday).
    await app.user.selectOptions(screen.getByTestId('schedule-repeat'), 'weekly');
    expect(screen.getByTestId('schedule-weekday-2')).toBeChecked();
    await app.user.click(screen.getByTestId('schedule-weekday-2'));

    await app.user.click(screen.getByTestId('schedule-save'));
    expect(await screen.findByText('The end must be after the start')).toBeInTheDocument();
    expect(screen.getByText('Choose at least one weekday')).toBeInTheDocument();
    expect(calls.some((c) => c.method === 'POST')).toBe(false);

    const endTime = screen.getByTestId('schedule-end-time');
    await app.user.clear(endTime);
    await app.user.type(endTime, '10:30');
    await app.user.click(screen.getByTestId('schedule-weekday-1'));
    await app.user.click(screen.getByTestId('schedule-weekday-5'));
    await app.user.click(screen.getByTestId('schedule-exception-add'));
    await app.user.click(screen.getByTestId('schedule-save'));
    await waitFor(() =>
      expect(calls.find((c) => c.method === 'POST' && c.path === '/api/schedules')?.body).toEqual({
        title: 'Night patrol',
        description: '',
        flowId: 3,
        robotId: 55,
        start: '2026-11-24T09:00',
        end: '2026-11-24T10:30',
        repeat: 'weekly',
        weekdays: [1, 5],
        repeatUntil: null,
        priority: false,
        skipHolidays: false,
        enabled: true,
        exceptions: [{ date: '2026-11-24', action: 'skip' }],
      }),
    );
    await waitFor(() => expect(app.location()).toBe('/schedule/9'), slow);
  }, 30_000);

  it('shows a server field error under its field, sends the version, and deletes after confirmation', async () => {
    const stored = schedule(5, { title: 'Morning round', updatedAt: '2026-11-02T00:00:00.000Z' });
    let puts = 0;
    const { calls } = mockApi({
      ...scheduleRoutes(),
      [on(scheduleOps.getSchedule)]: () => reply(scheduleSchema, stored),
      [on(scheduleOps.updateSchedule)]: () => {
        puts += 1;
        return puts === 1
          ? replyError('VALIDATION_FAILED', [{ path: 'robotId', message: 'scheduleValidation.weekdays' }])
          : reply(scheduleSchema, stored);
      },
      [on(scheduleOps.deleteSchedule)]: () => noContent(),
      [on(scheduleOps.listSchedules)]: () => reply(z.array(scheduleSchema), []),
    });
    const app = renderApp('/schedule/5', { session: makeSession(2) });
    const title = await screen.findByTestId('schedule-title', {}, slow);
    await app.user.type(title, ' 2');
    await app.user.click(screen.getByTestId('schedule-save'));
    await waitFor(() =>
      expect(screen.getByTestId('schedule-robot')).toHaveAccessibleDescription('Choose at least one weekday'),
    );
    const put = calls.find((c) => c.method === 'PUT')!;
    expect(put.body).toEqual(
      expect.objectContaining({ title: 'Morning round 2', updatedAt: '2026-11-02T00:00:00.000Z' }),
    );

    await app.user.click(screen.getByTestId('schedule-delete'));
    await app.user.click(await screen.findByTestId('confirm-button'));
    await waitFor(() => expect(calls.some((c) => c.method === 'DELETE' && c.path === '/api/schedules/5')).toBe(true));
    await waitFor(() => expect(app.location()).toBe('/schedule/list'), slow);
  }, 30_000);
});

const occurrence = (over: Partial<ScheduleOccurrence> = {}): ScheduleOccurrence =>
  scheduleOccurrenceSchema.parse({
    scheduleId: 1,
    title: 'Night patrol',
    buildingId: 10,
    flowId: 3,
    robotId: 55,
    priority: false,
    date: '2026-11-24',
    startAt: '2026-11-24T00:00:00.000Z',
    endAt: '2026-11-24T01:00:00.000Z',
    start: '2026-11-24T09:00',
    end: '2026-11-24T10:00',
    moved: false,
    log: null,
    ...over,
  });

describe('schedule calendar', () => {
  it('fetches the occurrences of the visible week in the building zone and shows them with their results', async () => {
    const { calls } = mockApi({
      ...scheduleRoutes(),
      [on(scheduleOps.listScheduleOccurrences)]: () =>
        reply(z.array(scheduleOccurrenceSchema), [
          occurrence({
            priority: true,
            log: { id: 1, result: 'fail', reason: 'ROBOT_OFFLINE', detail: '', detailCode: null, detailParams: {} },
          }),
          occurrence({
            scheduleId: 2,
            title: 'Greeting',
            date: '2026-11-25',
            start: '2026-11-25T13:00',
            end: '2026-11-25T13:30',
          }),
        ]),
    });
    renderApp('/schedule/cal/week?building=10&date=2026-11-24', { session: makeSession(2) });
    await waitFor(() => expect(screen.getByTestId('schedule-calendar')).toHaveAttribute('data-count', '2'), slow);
    const call = calls.find((c) => c.path === '/api/schedules/occurrences')!;
    // The week of 2026-11-24 (Sunday 22nd to Sunday 29th, 00:00 in Tokyo).
    expect(Object.fromEntries(call.search)).toEqual({
      from: '2026-11-21T15:00:00.000Z',
      to: '2026-11-28T15:00:00.000Z',
      buildingId: '10',
    });
    expect(await screen.findByText(/★ Night patrol · Failed/)).toBeInTheDocument();
    expect(screen.getByText('Greeting')).toBeInTheDocument();
  }, 30_000);
});

describe('schedule calendar interactions', () => {
  it('opens an occurrence panel with its result and an edit link, and switches the view in the route', async () => {
    mockApi({
      ...scheduleRoutes(),
      [on(scheduleOps.listScheduleOccurrences)]: () =>
        reply(z.array(scheduleOccurrenceSchema), [
          occurrence({
            log: { id: 1, result: 'fail', reason: 'ROBOT_OFFLINE', detail: '', detailCode: null, detailParams: {} },
          }),
        ]),
    });
    const app = renderApp('/schedule/cal/week?building=10&date=2026-11-24', { session: makeSession(2) });
    await app.user.click(await screen.findByText(/Night patrol · Failed/, {}, slow));
    const panel = await screen.findByTestId('schedule-occurrence');
    expect(panel).toHaveTextContent('Lobby guide');
    expect(panel).toHaveTextContent('2026-11-24 09:00 – 2026-11-24 10:00');
    expect(panel).toHaveTextContent('The robot was offline');
    expect(within(panel).getByTestId('schedule-occurrence-edit')).toHaveAttribute('href', '/schedule/1');
    await app.user.keyboard('{Escape}');

    await app.user.click(screen.getByRole('radio', { name: 'Month' }));
    await waitFor(() => expect(app.location()).toMatch(/^\/schedule\/cal\/month\?building=10&date=2026-11-2/));
  }, 30_000);
});

describe('calendar event mapping', () => {
  it('marks priority, results and moved occurrences, colours by robot or flow, and locks occurrences that came due', () => {
    const events = occurrenceEvents(
      [
        occurrence({
          priority: true,
          log: { id: 1, result: 'done', reason: null, detail: '', detailCode: null, detailParams: {} },
        }),
        occurrence({ scheduleId: 2, flowId: 4, moved: true }),
      ],
      { colourBy: 'flow', resultText: (o) => (o.log ? o.log.result : null) },
    );
    expect(events[0]).toEqual(
      expect.objectContaining({
        id: '1:2026-11-24',
        title: '★ Night patrol · done',
        start: '2026-11-24T09:00',
        editable: false,
      }),
    );
    expect(events[0]!.classNames).toContain('schedule-event-done');
    expect(events[1]).toEqual(expect.objectContaining({ editable: true, backgroundColor: colourOf(4) }));
    expect(events[1]!.classNames).toContain('schedule-event-moved');
  });

  it('asks for at most the API window, in the building zone', () => {
    const q = rangeQuery(new Date('2026-01-01T00:00:00Z'), new Date('2026-06-01T00:00:00Z'), 'America/New_York', 10);
    expect(q).toEqual({ from: '2026-01-01T05:00:00.000Z', to: '2026-03-04T05:00:00.000Z', buildingId: 10 });
  });

  it('moves one occurrence by an exception, or shifts the whole series with its weekdays', () => {
    const s = schedule(1, {
      repeat: 'weekly',
      weekdays: [1, 3],
      start: '2026-11-23T09:00',
      end: '2026-11-23T10:00',
      exceptions: [{ date: '2026-11-25', action: 'skip' }],
    });
    const occ = occurrence({ date: '2026-11-25', start: '2026-11-25T09:00', end: '2026-11-25T10:00' });
    expect(moveOccurrence(s, occ, '2026-11-26T11:00', '2026-11-26T12:00').exceptions).toEqual([
      { date: '2026-11-25', action: 'move', start: '2026-11-26T11:00', end: '2026-11-26T12:00' },
    ]);
    const series = shiftSeries(s, occ, '2026-11-26T11:00', '2026-11-26T12:30');
    expect(series).toEqual(
      expect.objectContaining({
        start: '2026-11-24T11:00',
        end: '2026-11-24T12:30',
        weekdays: [2, 4],
        updatedAt: s.updatedAt,
      }),
    );
  });
});

describe('building wall clock', () => {
  it('turns wall-clock times of a zone into instants across daylight-saving changes', () => {
    expect(instantOf('2026-07-01T09:00', 'America/New_York')).toBe('2026-07-01T13:00:00.000Z');
    expect(instantOf('2026-12-01T09:00', 'America/New_York')).toBe('2026-12-01T14:00:00.000Z');
    // 02:30 does not exist on 2026-03-08 in New York: the time moves forward by the gap.
    expect(instantOf('2026-03-08T02:30', 'America/New_York')).toBe('2026-03-08T07:30:00.000Z');
    expect(wallClockOf('2026-11-24T15:30:00.000Z', 'Asia/Tokyo')).toBe('2026-11-25T00:30');
  });

  it('sends an unknown calendar type to the week', async () => {
    mockApi({
      ...scheduleRoutes(),
      [on(scheduleOps.listScheduleOccurrences)]: () => reply(z.array(scheduleOccurrenceSchema), []),
    });
    const app = renderApp('/schedule/cal/year?building=10', { session: makeSession(2) });
    await waitFor(() => expect(app.location()).toBe('/schedule/cal/week'), slow);
  }, 30_000);
});
