import type { Page } from '@playwright/test';
import {
  buildingOps,
  floorMapId,
  flowOps,
  flowRunOps,
  robotOps,
  scheduleOps,
  type Floor,
  type MapDocument,
} from '@portal/contract';
import { expect as baseExpect, test } from '../support/fixtures.ts';
import { api, createRobot, getBuildings, getFloorMap, getFloors, tokenFor } from '../support/api.ts';
import { startSimProcess, type SimProcess } from '../support/sim-process.ts';
import { agreeToTerms, DEMO, keepScreen, signIn, useLanguage, wallClock, weekdayOf } from '../support/ui.ts';

/**
 * Issue 15 "Done when": a weekly entry created in the calendar by mouse runs on a simulated robot and
 * appears in the log. The robot is this test's own, in its own simulator process, standing at the
 * flow's start (the reference photos taken at save match what its camera sees at the due time).
 */

const DEMO_BUILDING = 'Demo Tower';
/** Texts of the schedule screens (apps/web/src/locales/{ja,en}/schedules.ts), read as an operator does. */
const TEXT = {
  ja: { done: '完了', weekly: '毎週' },
  en: { done: 'Done', weekly: 'Weekly' },
} as const;

/** A loaded machine may take seconds per page: conditions get 30 s (waited for, never fixed times). */
const expect = baseExpect.configure({ timeout: 30_000 });
test.use({ actionTimeout: 30_000, navigationTimeout: 60_000 });

let sim: SimProcess | null = null;
const cleanups: Array<() => Promise<unknown>> = [];
test.afterEach(async () => {
  for (const clean of cleanups.splice(0).reverse()) await clean().catch(() => undefined);
  await sim?.stop();
  sim = null;
});

const waypointNamed = (doc: MapDocument, name: string) => {
  const w = doc.waypoints.find((x) => x.name === name);
  if (!w) throw new Error(`the demo map has no waypoint "${name}"`);
  return w;
};

/**
 * Selects an hour of today's column in the week view by dragging the mouse from its first half-hour
 * slot to its second (FullCalendar `selectable`); the hour is one without an event in today's column.
 * Answers the hour chosen.
 */
async function dragTodaySlot(page: Page, fromHour: number): Promise<number> {
  const today = page.locator('.fc-timegrid-col.fc-day-today');
  await expect(today).toBeVisible();
  const events = await today.locator('.fc-timegrid-event-harness').evaluateAll((els) =>
    els.map((e) => {
      const r = e.getBoundingClientRect();
      return [r.top, r.bottom] as const;
    }),
  );
  const slotTop = async (hour: number, half: 0 | 30) => {
    const time = `${String(hour).padStart(2, '0')}:${half === 0 ? '00' : '30'}:00`;
    return page
      .locator(`.fc-timegrid-slot-lane[data-time="${time}"]`)
      .evaluate((e) => [e.getBoundingClientRect().top, e.getBoundingClientRect().bottom]);
  };
  const hours = [...Array(22).keys()].map((i) => (fromHour + i) % 22);
  for (const hour of hours) {
    const [top] = await slotTop(hour, 0);
    const [, bottom] = await slotTop(hour, 30);
    if (events.some(([a, b]) => a < bottom! && b > top!)) continue;
    const first = page.locator(`.fc-timegrid-slot-lane[data-time="${String(hour).padStart(2, '0')}:00:00"]`);
    // In the middle of the viewport: near its edge, FullCalendar scrolls the page while the mouse
    // drags (its auto-scroll), and the selection grows by a slot. `scrollIntoViewIfNeeded` leaves an
    // hour that is already in view where it is, which can be just above the bottom edge.
    await first.evaluate((e) => e.scrollIntoView({ block: 'center' }));
    const col = (await today.boundingBox())!;
    const a = (await first.boundingBox())!;
    const b = (await page
      .locator(`.fc-timegrid-slot-lane[data-time="${String(hour).padStart(2, '0')}:30:00"]`)
      .boundingBox())!;
    const x = col.x + col.width / 2;
    await page.mouse.move(x, a.y + a.height / 2);
    await page.mouse.down();
    await page.mouse.move(x, a.y + a.height / 2 + 4, { steps: 3 });
    await page.mouse.move(x, b.y + b.height / 2, { steps: 8 });
    await page.mouse.up();
    return hour;
  }
  throw new Error('no free hour in today’s column');
}

for (const lang of ['ja', 'en'] as const) {
  test(`a weekly entry created in the calendar by mouse runs on a simulated robot and appears in the log (${lang})`, async ({
    page,
  }) => {
    test.setTimeout(420_000);
    const token = await tokenFor(DEMO.orgAdmin.loginId, DEMO.orgAdmin.password);
    const building = (await getBuildings(token)).find((b) => b.name === DEMO_BUILDING);
    expect(building, `the demo building "${DEMO_BUILDING}"`).toBeDefined();
    const buildingId = building!.id;
    const { timeZone } = await api.call(buildingOps.getBuilding, { token, params: { id: buildingId } });
    const floor = (await getFloors(token, buildingId)).sort((a: Floor, b: Floor) => a.index - b.index)[0]!;
    const map = (await getFloorMap(token, floor.id)).document;
    const standby = waypointNamed(map, 'Standby');
    const target = waypointNamed(map, 'Patrol 1');

    // ---- seeded through the API (not the subject): the robot in its simulator, the flow
    const stamp = `${Date.now().toString(36)}${Math.floor(Math.random() * 1e4).toString(36)}`.toUpperCase();
    const created = await createRobot(token, {
      serialNo: `SCHEDRUN-${stamp}`,
      name: `Sched ${lang} ${stamp}`.slice(0, 30),
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
    sim = await startSimProcess([
      { created, model: 'pro', floorId: floor.id, start: { x: standby.x, y: standby.y, theta: standby.theta } },
    ]);
    const live = async () => {
      const fleet = await api.call(robotOps.listFleet, { token, query: { buildingId } });
      return fleet.find((r) => r.id === robotId)!.live;
    };
    await expect
      .poll(async () => (await live()).position?.mapId ?? null, { timeout: 20_000 })
      .toBe(floorMapId(floor.id));
    const flow = await api.call(flowOps.createFlow, {
      token,
      body: {
        name: `Sched ${lang} ${stamp}`.slice(0, 24),
        description: '',
        buildingId,
        floorId: floor.id,
        flowGroupId: null,
        enabled: true,
        definition: { version: 1, steps: [{ kind: 'moveToWaypoint', id: 'm1', waypointId: target.id }] } as never,
      },
    });
    cleanups.push(() => api.call(flowOps.deleteFlow, { token, params: { id: flow.id } }));

    await signIn(page, DEMO.orgAdmin);
    if (new URL(page.url()).pathname === '/term/agreement') await agreeToTerms(page);
    await page.waitForURL((url) => url.pathname === '/robot/control');
    await useLanguage(page, lang);

    // ---- by mouse: an empty slot of today dragged in the week view opens the form, times prefilled
    await page.goto(`/schedule/cal/week?building=${buildingId}`);
    const today = wallClock(Date.now(), timeZone).slice(0, 10);
    const nowHour = Number(wallClock(Date.now(), timeZone).slice(11, 13));
    const hour = await dragTodaySlot(page, (nowHour + 2) % 22);
    await expect(page).toHaveURL((url) => url.pathname === '/schedule/create');
    const hh = String(hour).padStart(2, '0');
    await expect(page.getByTestId('schedule-start-date')).toHaveValue(today);
    await expect(page.getByTestId('schedule-start-time')).toHaveValue(`${hh}:00`);
    await expect(page.getByTestId('schedule-end-time')).toHaveValue(`${String(hour + 1).padStart(2, '0')}:00`);
    await expect(page.getByTestId('schedule-building')).toHaveValue(String(buildingId));

    const title = `${lang === 'ja' ? '週次巡回' : 'Weekly round'} ${stamp}`;
    await page.getByTestId('schedule-title').fill(title);
    // The building's flows and robots load after the form.
    await expect(page.getByTestId('schedule-flow').locator(`option[value="${flow.id}"]`)).toBeAttached();
    await page.getByTestId('schedule-flow').selectOption(String(flow.id));
    await expect(page.getByTestId('schedule-robot').locator(`option[value="${robotId}"]`)).toBeAttached();
    await page.getByTestId('schedule-robot').selectOption(String(robotId));
    await page.getByTestId('schedule-repeat').selectOption('weekly');
    await expect(page.getByTestId('schedule-repeat').locator('option:checked')).toHaveText(TEXT[lang].weekly);
    const day = weekdayOf(today);
    await expect(page.getByTestId(`schedule-weekday-${day}`)).toBeChecked();
    for (const d of [0, 1, 2, 3, 4, 5, 6].filter((x) => x !== day))
      await expect(page.getByTestId(`schedule-weekday-${d}`)).not.toBeChecked();

    // Due in 1.5–2.5 minutes on the building's clock (the reference photos are taken at save); the
    // end 45 minutes later (only an estimate: the flow moves).
    const dueMs = Math.ceil((Date.now() + 90_000) / 60_000) * 60_000;
    const due = wallClock(dueMs, timeZone);
    const end = wallClock(dueMs + 45 * 60_000, timeZone);
    await page.getByTestId('schedule-start-date').fill(due.slice(0, 10));
    await page.getByTestId('schedule-start-time').fill(due.slice(11));
    await page.getByTestId('schedule-end-date').fill(end.slice(0, 10));
    await page.getByTestId('schedule-end-time').fill(end.slice(11));
    await expect(page.getByTestId(`schedule-weekday-${weekdayOf(due)}`)).toBeChecked();
    await page.getByTestId('schedule-save').click();
    await expect(page).toHaveURL((url) => /^\/schedule\/\d+$/.test(url.pathname));
    const scheduleId = Number(new URL(page.url()).pathname.split('/').pop());
    cleanups.unshift(() => api.call(scheduleOps.deleteSchedule, { token, params: { id: scheduleId } }));
    const saved = await api.call(scheduleOps.getSchedule, { token, params: { id: scheduleId } });
    expect(saved).toMatchObject({
      title,
      flowId: flow.id,
      robotId,
      repeat: 'weekly',
      weekdays: [weekdayOf(due)],
      start: due,
      end,
      enabled: true,
    });
    expect(Date.now(), 'saved before the due time').toBeLessThan(dueMs - 20_000);

    // The occurrence is in the week's calendar.
    await page.goto(`/schedule/cal/week?building=${buildingId}`);
    // An occurrence crossing midnight (the test run near midnight in Tokyo) is drawn as one segment
    // per day: its first one is the start.
    const event = page.locator('.fc-event').filter({ hasText: title }).first();
    await expect(event).toBeVisible();
    await keepScreen(page, `schedule-run-calendar-${lang}`);

    // ---- the due time: the robot runs the flow, started by the schedule
    const runs = async () =>
      api.call(flowRunOps.listFlowRuns, { token, query: { filter: { where: { robotId } } } as never });
    await expect
      .poll(async () => (await runs()).map((r) => [r.flowId, r.startedBy]), { timeout: 240_000, intervals: [2_000] })
      .toEqual([[flow.id, null]]);
    const logs = async () =>
      api.call(scheduleOps.listScheduleLogs, { token, query: { filter: { where: { scheduleId } } } });
    await expect
      .poll(async () => (await logs()).map((l) => l.result), { timeout: 120_000, intervals: [2_000] })
      .toEqual(['done']);
    const [line] = await logs();
    const [run] = await runs();
    expect(line).toMatchObject({ robotId, flowId: flow.id, flowRunId: run!.id, reason: null });
    expect(Date.parse(line!.dueAt)).toBe(dueMs);
    // The start position was checked against the photos taken at save.
    expect(line!.detail).toMatch(/start position checked/);
    expect(run!.status).toBe('done');
    const at = await live();
    expect(Math.hypot(at.position!.x - target.x, at.position!.y - target.y)).toBeLessThan(0.5);

    // ---- the log screen shows the line with its result in words; the calendar marks it done
    await page.goto(`/schedule/log/1?building=${buildingId}`);
    const table = page.getByTestId('schedule-log-table');
    const row = table.locator('tr').filter({ hasText: title });
    await expect(row).toBeVisible();
    await expect(row.getByTestId('schedule-result')).toHaveText(TEXT[lang].done);
    await expect(row.getByTestId(`schedule-log-run-${line!.id}`)).toBeVisible();
    await keepScreen(page, `schedule-run-log-${lang}`);

    await page.goto(`/schedule/cal/week?building=${buildingId}`);
    await expect(page.locator('.fc-event').filter({ hasText: title }).first()).toContainText(TEXT[lang].done);
    await keepScreen(page, `schedule-run-calendar-done-${lang}`);
  });
}
