import { buildingOps, flowOps, robotOps, scheduleOps, type ScheduleInput } from '@portal/contract';
import { expect, test } from '../support/fixtures.ts';
import { api, createRobot, getBuildings, getFloors, tokenFor } from '../support/api.ts';
import { agreeToTerms, DEMO, keepScreen, signIn, useLanguage, wallClock, weekdayOf } from '../support/ui.ts';

const DEMO_BUILDING = 'Demo Tower';

/** Texts of the schedule screens (apps/web/src/locales/{ja,en}/schedules.ts), read as an operator does. */
const TEXT = {
  ja: { offline: 'ロボットがオフラインでした', failed: '失敗', stops: '終了時刻にまだ実行中なら停止します' },
  en: { offline: 'The robot was offline', failed: 'Failed', stops: 'it is stopped at the end time' },
} as const;

test('the schedule screens in Japanese and English: calendar, entries, an entry, and the log of an offline robot (screenshots)', async ({
  page,
}) => {
  test.setTimeout(300_000);
  const token = await tokenFor(DEMO.orgAdmin.loginId, DEMO.orgAdmin.password);
  const building = (await getBuildings(token)).find((b) => b.name === DEMO_BUILDING);
  expect(building, `the demo building "${DEMO_BUILDING}"`).toBeDefined();
  const buildingId = building!.id;
  const { timeZone } = await api.call(buildingOps.getBuilding, { token, params: { id: buildingId } });
  const floor = (await getFloors(token, buildingId))[0]!;
  const stamp = Date.now().toString(36).toUpperCase();
  const cleanups: (() => Promise<unknown>)[] = [];
  try {
    // A robot that never connects (its runs fail as offline) and two flows: one speaks, one moves.
    const created = await createRobot(token, {
      serialNo: `SCHED-${stamp}`,
      name: `Patrol ${stamp}`.slice(0, 30),
      model: 'pro',
      version: '',
      hardwareRevision: '',
      buildingId,
      floorId: floor.id,
      groupId: null,
      status: 1,
      longTermRecordingAutoStart: false,
      videoMode: 'medium',
      notes: '',
    });
    const robotId = created.robot.id;
    cleanups.push(() => api.call(robotOps.deleteRobot, { token, params: { id: robotId } }));
    const flow = async (name: string, steps: unknown[]) => {
      const f = await api.call(flowOps.createFlow, {
        token,
        body: {
          name,
          description: '',
          buildingId,
          floorId: floor.id,
          flowGroupId: null,
          enabled: true,
          definition: { version: 1, steps } as never,
        },
      });
      cleanups.push(() => api.call(flowOps.deleteFlow, { token, params: { id: f.id } }));
      return f;
    };
    const greeting = await flow(`Greeting ${stamp}`.slice(0, 24), [
      { kind: 'speak', id: 's1', text: 'いらっしゃいませ', language: 'ja' },
    ]);
    const patrol = await flow(`Patrol ${stamp}`.slice(0, 24), [{ kind: 'returnToCharger', id: 'r1' }]);

    const now = Date.now();
    const today = wallClock(now, timeZone).slice(0, 10);
    // Due within two minutes: the robot is offline, so the log gets a failed line with the reason.
    const soon = wallClock(Math.ceil((now + 60_000) / 60_000) * 60_000 + 60_000, timeZone);
    const entry = async (body: Partial<ScheduleInput> & Pick<ScheduleInput, 'title' | 'start' | 'end'>) => {
      const s = await api.call(scheduleOps.createSchedule, {
        token,
        body: {
          description: '',
          flowId: greeting.id,
          robotId,
          repeat: 'none',
          weekdays: [weekdayOf(body.start)],
          repeatUntil: null,
          priority: false,
          skipHolidays: false,
          enabled: true,
          exceptions: [],
          ...body,
        },
      });
      cleanups.push(() => api.call(scheduleOps.deleteSchedule, { token, params: { id: s.id } }));
      return s;
    };
    const due = await entry({
      title: `受付あいさつ ${stamp}`,
      start: soon,
      end: new Date(Date.parse(`${soon}:00Z`) + 30 * 60_000).toISOString().slice(0, 16),
    });
    await entry({
      title: `夜間巡回 ${stamp}`,
      flowId: patrol.id,
      start: `${today}T21:00`,
      end: `${today}T22:00`,
      repeat: 'weekly',
      weekdays: [1, 3, 5],
      priority: true,
    });
    const daily = await entry({
      title: `朝の点検 ${stamp}`,
      start: `${today}T08:00`,
      end: `${today}T08:45`,
      repeat: 'daily',
      weekdays: [0, 1, 2, 3, 4, 5, 6],
      skipHolidays: true,
    });
    await expect
      .poll(
        async () =>
          (
            await api.call(scheduleOps.listScheduleLogs, {
              token,
              query: { filter: { where: { scheduleId: due.id } } },
            })
          )[0]?.reason ?? null,
        { timeout: 180_000, intervals: [2_000] },
      )
      .toBe('ROBOT_OFFLINE');

    await signIn(page, DEMO.orgAdmin);
    if (new URL(page.url()).pathname === '/term/agreement') await agreeToTerms(page);
    await page.waitForURL((url) => url.pathname === '/robot/control');
    for (const lang of ['ja', 'en'] as const) {
      await useLanguage(page, lang);
      await page.goto(`/schedule/cal/week?building=${buildingId}`);
      // The calendar's chunk and the occurrences load after the page (a loaded machine takes a while).
      await expect(page.locator('.fc-event').filter({ hasText: `受付あいさつ ${stamp}` })).toContainText(
        TEXT[lang].failed,
        { timeout: 30_000 },
      );
      await keepScreen(page, `schedule-calendar-week-${lang}`);
      await page
        .getByTestId('schedule-view')
        .getByText(lang === 'ja' ? '月' : 'Month', { exact: true })
        .click();
      await expect(page).toHaveURL((url) => url.pathname === '/schedule/cal/month');
      await expect(page.locator('.fc-dayGridMonth-view')).toBeVisible({ timeout: 30_000 });
      await keepScreen(page, `schedule-calendar-month-${lang}`);

      await page.goto(`/schedule/list?building=${buildingId}`);
      await expect(page.getByTestId(`schedule-link-${daily.id}`)).toBeVisible({ timeout: 30_000 });
      await keepScreen(page, `schedule-list-${lang}`);

      await page.goto(`/schedule/${due.id}`);
      await expect(page.getByTestId('schedule-flow-end')).toContainText(TEXT[lang].stops, { timeout: 30_000 });
      await keepScreen(page, `schedule-entry-${lang}`);

      await page.goto(`/schedule/log/1?building=${buildingId}`);
      await expect(page.getByTestId('schedule-log-table')).toContainText(TEXT[lang].offline, { timeout: 30_000 });
      await keepScreen(page, `schedule-log-${lang}`);
    }
  } finally {
    for (const c of cleanups.reverse()) await c().catch(() => undefined);
  }
});
