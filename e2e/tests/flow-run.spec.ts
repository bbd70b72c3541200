import type { Locator, Page } from '@playwright/test';
import {
  floorMapId,
  flowOps,
  flowRunOps,
  robotOps,
  type Floor,
  type FlowDefinition,
  type MapDocument,
} from '@portal/contract';
import { expect as baseExpect, test } from '../support/fixtures.ts';
import { api, createRobot, getBuildings, getFloorMap, getFloors, tokenFor } from '../support/api.ts';
import { startSimProcess, type SimProcess } from '../support/sim-process.ts';
import { agreeToTerms, DEMO, keepScreen, signIn, useLanguage } from '../support/ui.ts';

/**
 * Issue 13 "Done when": a flow built by mouse in Chromium runs on a simulated robot across two floors
 * through an elevator and a security door, with progress on screen. The server runs the demo
 * building's simulated elevator bank `A` and doors `door-1`, `door-2` (SIMULATED_BUILDING_SYSTEMS=1 in
 * global-setup); the robot is this test's own, in its own simulator process.
 */

const DEMO_BUILDING = 'Demo Tower';
const DOOR = 'door-1';
/** Texts of the run dialog and panel (apps/web/src/locales/{ja,en}/flow-runs.ts), read as an operator does. */
const TEXT = {
  ja: { start: '開始', running: '実行中', done: '完了', valid: '問題はありません。保存できます。' },
  en: { start: 'Start', running: 'Running', done: 'Done', valid: 'No problems: the flow can be saved.' },
} as const;

/**
 * The machine the tests share may be busy (a page can take seconds to answer): the UI's conditions
 * get 30 s (still conditions waited for, never fixed times).
 */
const expect = baseExpect.configure({ timeout: 30_000 });
test.use({ actionTimeout: 30_000, navigationTimeout: 60_000 });

let sim: SimProcess | null = null;
const cleanups: Array<() => Promise<unknown>> = [];
test.afterEach(async () => {
  await sim?.stop();
  sim = null;
  for (const clean of cleanups.splice(0).reverse()) await clean().catch(() => undefined);
});

const waypointNamed = (doc: MapDocument, name: string) => {
  const w = doc.waypoints.find((x) => x.name === name);
  if (!w) throw new Error(`the demo map has no waypoint "${name}"`);
  return w;
};

/** A step's form: selects the step (its block's head) and answers the block. */
async function openStep(page: Page, path: string): Promise<Locator> {
  await page.getByTestId(`flow-step-select-${path}`).click();
  return page.getByTestId(`flow-step-${path}`);
}

for (const lang of ['ja', 'en'] as const) {
  test(`a flow built by mouse rides the elevator and passes a security door on a simulated robot, progress on screen (${lang})`, async ({
    page,
  }) => {
    test.setTimeout(300_000);
    const token = await tokenFor(DEMO.orgAdmin.loginId, DEMO.orgAdmin.password);
    const building = (await getBuildings(token)).find((b) => b.name === DEMO_BUILDING);
    expect(building, `the demo building "${DEMO_BUILDING}"`).toBeDefined();
    const buildingId = building!.id;
    // The lowest floor and the top one (the demo's B1 and 2F): the elevator serves every floor.
    const floors = (await getFloors(token, buildingId)).sort((a: Floor, b: Floor) => a.index - b.index);
    const lower = floors[0]!;
    const upper = floors[floors.length - 1]!;
    expect(upper.index).toBeGreaterThan(lower.index);
    const lowerMap = (await getFloorMap(token, lower.id)).document;
    const upperMap = (await getFloorMap(token, upper.id)).document;
    const standby = waypointNamed(lowerMap, 'Standby');
    const firstStop = waypointNamed(lowerMap, 'Patrol 1');
    const arrival = waypointNamed(upperMap, 'Patrol 1');
    const lastStop = waypointNamed(upperMap, 'Patrol 2');

    // A robot of this test on the lowest floor, standing at its standby point.
    const stamp = `${Date.now().toString(36)}${Math.floor(Math.random() * 1e4).toString(36)}`.toUpperCase();
    const created = await createRobot(token, {
      serialNo: `FLOWRUN-${stamp}`,
      name: `Runner ${lang} ${stamp}`.slice(0, 30),
      model: 'pro',
      version: '',
      hardwareRevision: '',
      buildingId,
      floorId: lower.id,
      groupId: null,
      status: 1,
      longTermRecordingAutoStart: false,
      videoMode: 'medium',
      notes: '',
    });
    const robotId = created.robot.id;
    cleanups.push(() => api.call(robotOps.deleteRobot, { token, params: { id: robotId } }));
    sim = await startSimProcess([
      { created, model: 'pro', floorId: lower.id, start: { x: standby.x, y: standby.y, theta: standby.theta } },
    ]);
    const live = async () => {
      const fleet = await api.call(robotOps.listFleet, { token, query: { buildingId } });
      return fleet.find((r) => r.id === robotId)!.live;
    };
    await expect
      .poll(async () => (await live()).position?.mapId ?? null, { timeout: 20_000 })
      .toBe(floorMapId(lower.id));

    await signIn(page, DEMO.orgAdmin);
    if (new URL(page.url()).pathname === '/term/agreement') await agreeToTerms(page);
    await page.waitForURL((url) => url.pathname === '/robot/control');
    await useLanguage(page, lang);

    // ---- the flow, built by mouse on the lowest floor
    const name = `Ride ${lang} ${stamp}`.slice(0, 24);
    await page.goto('/flow/create');
    await page.getByTestId('flow-name').fill(name);
    await page.getByTestId('flow-form-building').selectOption(String(buildingId));
    await page.getByTestId('flow-form-floor').selectOption(String(lower.id));
    await expect(page.getByTestId(`flow-preview-floor-${lower.id}`).locator('svg circle').first()).toBeVisible();

    // Each palette entry goes after the step added before it.
    for (const kind of ['moveToWaypoint', 'moveToFloor', 'passSecurityDoor', 'moveToWaypoint']) {
      await page.getByTestId(`flow-palette-${kind}`).click();
    }
    await expect(page.getByTestId('flow-step-steps.3')).toHaveAttribute('data-kind', 'moveToWaypoint');

    // 1. to Patrol 1 on this floor, 2. the elevator to the top floor's Patrol 1,
    // 3. through door-1, 4. to the top floor's Patrol 2, clicked on that floor's path preview.
    const move = await openStep(page, 'steps.0');
    await move.getByTestId('flow-field-waypointId').selectOption(String(firstStop.id));
    await expect(move).toContainText(firstStop.name);
    const ride = await openStep(page, 'steps.1');
    await ride.getByTestId('flow-field-floorId').selectOption(String(upper.id));
    await ride.getByTestId('flow-field-waypointId').selectOption(String(arrival.id));
    await expect(ride).toContainText(`${upper.name} / ${arrival.name}`);
    const door = await openStep(page, 'steps.2');
    await door.getByTestId('flow-field-doorId').fill(DOOR);
    await openStep(page, 'steps.3');
    const upperPreview = page.getByTestId(`flow-preview-floor-${upper.id}`);
    await upperPreview.getByTestId(`flow-preview-waypoint-${lastStop.id}`).click();
    await expect(page.getByTestId('flow-step-steps.3')).toContainText(lastStop.name);
    await expect(page.getByTestId('flow-builder-valid')).toHaveText(TEXT[lang].valid);
    await keepScreen(page, `flow-run-builder-${lang}`);

    await page.getByTestId('flow-save').click();
    await expect(page).toHaveURL((url) => /^\/flow\/\d+$/.test(url.pathname));
    const flowId = Number(new URL(page.url()).pathname.split('/').pop());
    cleanups.push(() => api.call(flowOps.deleteFlow, { token, params: { id: flowId } }));
    const saved = await api.call(flowOps.getFlow, { token, params: { id: flowId } });
    const steps: FlowDefinition['steps'] = saved.definition.steps;
    expect(steps).toMatchObject([
      { kind: 'moveToWaypoint', waypointId: firstStop.id },
      { kind: 'moveToFloor', floorId: upper.id, waypointId: arrival.id },
      { kind: 'passSecurityDoor', doorId: DOOR },
      { kind: 'moveToWaypoint', waypointId: lastStop.id },
    ]);

    // ---- "Run on robot": the robot chosen, the run started, its progress in the dialog
    await page.getByTestId('flow-run-on-robot').click();
    const dialog = page.getByRole('dialog');
    await dialog.getByTestId('flow-run-choice').selectOption(String(robotId));
    await dialog.getByRole('button', { name: TEXT[lang].start, exact: true }).click();
    const panel = dialog.getByTestId('flow-run-panel');
    await expect(panel).toBeVisible();
    const runId = Number(await panel.getAttribute('data-run-id'));
    const status = panel.getByTestId('flow-run-status');
    const stepRow = (i: number) => panel.getByTestId(`flow-run-step-${steps[i]!.id}`);

    // The steps are done one after the other; the elevator ride and the door (seconds each) are seen
    // highlighted as the current step while the run shows "running".
    await expect(stepRow(0)).toHaveAttribute('data-result', 'done', { timeout: 60_000 });
    await expect(stepRow(1)).toHaveAttribute('data-current', 'true', { timeout: 30_000 });
    await expect(status).toHaveAttribute('data-status', 'running');
    await expect(status).toHaveText(TEXT[lang].running);
    await expect(panel.getByTestId('flow-run-current-step')).toContainText(steps[1]!.id);
    await keepScreen(page, `flow-run-progress-${lang}`, { fullPage: false });
    await expect(stepRow(1)).toHaveAttribute('data-result', 'done', { timeout: 90_000 });
    await expect(stepRow(2)).toHaveAttribute('data-result', /^(running|done)$/, { timeout: 30_000 });
    await expect(stepRow(2)).toHaveAttribute('data-result', 'done', { timeout: 60_000 });
    await expect(status).toHaveAttribute('data-status', 'done', { timeout: 60_000 });
    await expect(status).toHaveText(TEXT[lang].done);
    for (let i = 0; i < steps.length; i++) await expect(stepRow(i)).toHaveAttribute('data-result', 'done');
    await keepScreen(page, `flow-run-done-${lang}`, { fullPage: false });

    // The record: every step done once; the robot stands at the last stop on the top floor.
    const run = await api.call(flowRunOps.getFlowRun, { token, params: { id: runId } });
    expect(run.status).toBe('done');
    expect([...run.steps].sort((a, b) => a.seq - b.seq).map((s) => [s.stepId, s.result])).toEqual(
      steps.map((s) => [s.id, 'done']),
    );
    const end = await live();
    expect(end.floorId).toBe(upper.id);
    expect(end.position?.mapId).toBe(floorMapId(upper.id));
    expect(Math.hypot(end.position!.x - lastStop.x, end.position!.y - lastStop.y)).toBeLessThan(0.5);
  });
}
