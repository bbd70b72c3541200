import { scheduleLogSchema, scheduleOccurrenceSchema, scheduleOps, type ScheduleOccurrence } from '@portal/contract';
import { screen, waitFor } from '@testing-library/react';
import i18n from 'i18next';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { makeSession } from '@/testing/fixtures';
import { mockApi, on, reply } from '@/testing/mock-api';
import { renderApp } from '@/testing/render-app';
import { logLine, scheduleRoutes } from './test-data';

const slow = { timeout: 10_000 };

/** Log lines with detail codes and parameters, and names of a deleted robot and flow. */
const lines = () =>
  z.array(scheduleLogSchema).parse([
    logLine(1, {
      result: 'fail',
      reason: 'PRIORITY',
      detail: 'another entry due at the same time on this robot won: "Urgent" (#7)',
      detailCode: 'priorityLost',
      detailParams: { scheduleId: 7, title: 'Urgent' },
    }),
    logLine(2, {
      result: 'fail',
      reason: 'HEALTH_CHECK_FAILED',
      detail: 'lowBattery, positionUnknown',
      detailCode: 'healthProblems',
      detailParams: { problems: 'lowBattery,positionUnknown' },
    }),
    logLine(3, {
      result: 'fail',
      reason: 'START_POSITION',
      detail: 'not at the start position: …',
      detailCode: 'startPositionFailed',
      detailParams: { camera: 'v1', score: 0.41, threshold: 0.7, takenAt: '2026-11-23T00:00:00.000Z', distance: 1.25 },
    }),
    logLine(4, {
      result: 'fail',
      reason: 'ROBOT_UNAVAILABLE',
      detail: 'the robot was deleted',
      detailCode: 'robotDeleted',
      robotId: 99,
      robotName: 'Old guard',
      robotDeleted: true,
      flowId: 98,
      flowName: 'Old patrol',
      flowDeleted: true,
    }),
    logLine(5, {
      result: 'fail',
      reason: 'MISSED',
      detail: 'found 13 min after its due time',
      detailCode: 'missed',
      detailParams: { minutes: 13 },
      robotName: 'Lobby guide',
      flowName: 'Night patrol',
    }),
    logLine(6, {
      result: 'fail',
      reason: 'START_FAILED',
      detail: 'FLOW_ALREADY_RUNNING: already running',
      detailCode: 'runError',
      detailParams: { code: 'FLOW_ALREADY_RUNNING', message: 'already running' },
    }),
    // An older line: no code, the server's English words; no names kept (the id stands in).
    logLine(7, { result: 'fail', reason: 'START_FAILED', detail: 'legacy words', robotId: 77, flowId: 76 }),
    // A detail that only repeats the reason is not shown twice.
    logLine(8, { result: 'fail', reason: 'ROBOT_OFFLINE', detail: 'the robot is offline', detailCode: 'robotOffline' }),
  ]);

async function showLog() {
  mockApi({
    ...scheduleRoutes(),
    [on(scheduleOps.listScheduleLogs)]: () => reply(z.array(scheduleLogSchema), lines()),
  });
  renderApp('/schedule/log/1?building=10', { session: makeSession(2) });
  await screen.findByTestId('schedule-log-reason-1', {}, slow);
  const detail = (id: number) => screen.queryByTestId(`schedule-log-detail-${id}`)?.textContent ?? null;
  const row = (id: number) => screen.getByTestId(`schedule-log-reason-${id}`).closest('tr')!;
  return { detail, row };
}

describe('schedule log details', () => {
  it('writes each detail from its code and parameters in English', async () => {
    const { detail, row } = await showLog();
    expect(detail(1)).toBe('The entry "Urgent" won');
    expect(detail(2)).toBe("Problems: The battery is below 20%, The robot's position is unknown");
    expect(detail(3)).toBe(
      'Not at the start position: camera v1, score 0.410 (pass from 0.7); reported position 1.25 m from the reference image’s',
    );
    expect(detail(4)).toBe('The robot was deleted');
    expect(detail(5)).toBe('Found 13 min after the due time');
    expect(detail(6)).toBe('Flow already running: this robot is carrying out another flow.');
    expect(detail(7)).toBe('legacy words');
    expect(detail(8)).toBeNull();
    expect(screen.getByTestId('schedule-log-reason-8')).toHaveTextContent('The robot was offline');
    // Names: a deleted robot and flow by the name kept on the line, marked; live ones by name; none kept: the id.
    expect(row(4)).toHaveTextContent('Old guard (deleted)');
    expect(row(4)).toHaveTextContent('Old patrol (deleted)');
    expect(row(5)).toHaveTextContent('Lobby guide');
    expect(row(5)).not.toHaveTextContent('(deleted)');
    await waitFor(() => expect(row(7)).toHaveTextContent('#77'));
    expect(row(7)).toHaveTextContent('#76');
  }, 30_000);

  it('writes them in Japanese on Japanese screens', async () => {
    await i18n.changeLanguage('ja');
    const { detail, row } = await showLog();
    expect(detail(1)).toBe('スケジュール「Urgent」が優先されました');
    expect(detail(2)).toMatch(/^問題：.+、.+$/);
    expect(detail(2)).not.toMatch(/lowBattery|positionUnknown/);
    expect(detail(3)).toBe(
      '開始位置にいません：カメラ v1、スコア 0.410（0.7 以上で合格）。報告された位置は基準画像の位置から 1.25 m',
    );
    expect(detail(4)).toBe('ロボットが削除されました');
    expect(detail(5)).toBe('予定時刻の 13 分後に検出されました');
    expect(detail(6)).not.toMatch(/FLOW_ALREADY_RUNNING|already running/);
    expect(detail(6)).toBeTruthy();
    expect(row(4)).toHaveTextContent('Old guard（削除済み）');
    expect(row(4)).toHaveTextContent('Old patrol（削除済み）');
  }, 30_000);
});

const occurrence = (over: Partial<ScheduleOccurrence>): ScheduleOccurrence =>
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

describe('calendar occurrence detail', () => {
  const routes = () => ({
    ...scheduleRoutes(),
    [on(scheduleOps.listScheduleOccurrences)]: () =>
      reply(z.array(scheduleOccurrenceSchema), [
        occurrence({
          log: {
            id: 1,
            result: 'fail',
            reason: 'PRIORITY',
            detail: 'another entry due at the same time on this robot won: "Urgent" (#7)',
            detailCode: 'priorityLost',
            detailParams: { scheduleId: 7, title: 'Urgent' },
          },
        }),
      ]),
  });

  it('shows the result, reason and detail of a past occurrence', async () => {
    mockApi(routes());
    const app = renderApp('/schedule/cal/week?building=10&date=2026-11-24', { session: makeSession(2) });
    await app.user.click(await screen.findByText(/Night patrol · Failed/, {}, slow));
    expect(await screen.findByTestId('schedule-occurrence-detail', {}, slow)).toHaveTextContent(
      'The entry "Urgent" won',
    );
  }, 30_000);

  it('shows them in Japanese on Japanese screens', async () => {
    await i18n.changeLanguage('ja');
    mockApi(routes());
    const app = renderApp('/schedule/cal/week?building=10&date=2026-11-24', { session: makeSession(2) });
    await app.user.click(await screen.findByText(/Night patrol · 失敗/, {}, slow));
    expect(await screen.findByTestId('schedule-occurrence-detail', {}, slow)).toHaveTextContent(
      'スケジュール「Urgent」が優先されました',
    );
  }, 30_000);
});
