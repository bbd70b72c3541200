import type { Page } from '@playwright/test';
import {
  buildingOps,
  DEMO_WAYPOINTS,
  flowOps,
  flowRunOps,
  mapOps,
  robotOps,
  WaypointType,
  workPlanOps,
  type MapDocument,
  type WorkPlanDefinition,
} from '@portal/contract';
import { buttonPixel, demoButtonPanels, panelViewpoint, worldFor } from '@portal/robot-sim';
import { expect, test } from '../support/fixtures.ts';
import { api, getBuildings, setFloorFrame, tokenFor, uploadFloorImage } from '../support/api.ts';
import { makePng } from '../support/png.ts';
import { startSimProcess, type SimProcess } from '../support/sim-process.ts';
import { E2E_ADMIN } from '../support/state.ts';
import { robotTenant, type RobotTenant } from '../support/tenant.ts';
import { agreeToTerms, keepScreen, signIn, useLanguage } from '../support/ui.ts';

/**
 * Issue 14 "Done when" (docs/api-work-plans.md): a work plan launched from the operator screen of a
 * simulated robot, its hall button pressed by clicking the depth image (the simulator's elevator,
 * the demo building's simulated building systems, answers the call) and the step checked; and a
 * flow whose `launchWorkPlan` step opens a plan on the operator screen, paused until the operator
 * walks it through (its movement steps sent with "Go") and closes it, then resumed to its end.
 */

const DEMO_BUILDING = 'Demo Tower';
/** The simulated pro's depth camera height (docs/api-robot-arm.md). */
const EYE_HEIGHT = 1.2;

let sim: SimProcess | null = null;
test.afterEach(async () => {
  await sim?.stop();
  sim = null;
});

const step = (id: string, title: string, type: string, main: Record<string, unknown>) => ({
  id,
  title,
  type,
  main,
  auxiliary: [],
  before: { pose: null },
  after: { waitSeconds: 0 },
});

/** The demo building's simulated elevators and doors (their API's URL is the building's T-Spider link). */
async function demoBuildingSystems(): Promise<string> {
  const token = await tokenFor(E2E_ADMIN.loginId, E2E_ADMIN.password);
  const demo = (await getBuildings(token)).find((b) => b.name === DEMO_BUILDING)!;
  const links = await api.call(buildingOps.getBuildingLinks, { token, params: { id: demo.id } });
  expect(links.tSpiderUrl, 'the simulated building systems (SIMULATED_BUILDING_SYSTEMS=1)').toMatch(/^http:/);
  return links.tSpiderUrl.replace(/\/$/, '');
}

async function createPlan(t: RobotTenant, name: string, steps: unknown[]): Promise<number> {
  const plan = await api.call(workPlanOps.createWorkPlan, {
    token: t.adminToken,
    body: {
      name,
      description: '',
      buildingId: t.buildingId,
      floorId: t.floorId,
      icon: 'elevator',
      type: 0,
      status: 1,
      templateId: null,
      definition: { version: 1, steps } as WorkPlanDefinition,
    },
  });
  return plan.id;
}

/** Waits until the robot is online for the building's operator. */
async function online(t: RobotTenant, token: string): Promise<void> {
  await expect
    .poll(
      async () =>
        (await api.call(robotOps.listFleet, { token, query: { buildingId: t.buildingId } })).find(
          (r) => r.serialNo === t.serialNo,
        )?.live.online,
      { timeout: 20_000 },
    )
    .toBe(true);
}

/** The operator signs in (agreeing to the terms) and opens the robot's operator screen with the controls. */
async function operatorScreen(page: Page, t: RobotTenant): Promise<void> {
  await signIn(page, t.operator);
  // A new operator agrees to the terms first.
  await expect(page).toHaveURL((url) => url.pathname === '/term/agreement');
  await agreeToTerms(page);
  await expect(page).toHaveURL((url) => url.pathname === '/robot/control');
  await page.goto(`/app/tele-ope/drive/${t.serialNo}`);
  await expect(page.getByTestId('teleop-state')).not.toHaveAttribute('data-state', 'connecting', { timeout: 30_000 });
}

test('the elevator ride: launched from the operator screen, the hall button pressed on the depth image calls the elevator, the step is checked', async ({
  page,
}) => {
  test.setTimeout(180_000);
  const elevators = await demoBuildingSystems();
  const t = await robotTenant('WpRide', 'pro');
  const mapId = `floor-${t.floorId}`;
  // The robot stands before the hall panel of the simulator's world; its presses reach the elevators.
  const pose = panelViewpoint(demoButtonPanels(mapId).find((p) => p.id === 'hall')!);
  sim = await startSimProcess([
    { created: t.created, model: 'pro', floorId: t.floorId, start: pose, building: { url: elevators, floor: 1 } },
  ]);
  await online(t, await tokenFor(t.operator.loginId, t.operator.password));
  await createPlan(t, 'エレベーター乗車（ボタン押し）', [
    step('pressCall', '呼びボタンを押す', 'pressRight', { kind: 'pressButton', target: 'hall-up' }),
    step('board', '乗り込む', 'manual', { kind: 'manualCheck', instruction: 'かごが来たら乗り込む' }),
  ]);
  // The rides the simulated elevators know before the press (other tests may have ridden).
  const ride = (n: number) =>
    fetch(`${elevators}/elevator-calls/A-ride-${n}`).then(async (r) =>
      r.ok ? ((await r.json()) as { phase: string; doorsOpen: boolean }) : null,
    );
  let rides = 0;
  while (await ride(rides + 1)) rides++;

  await operatorScreen(page, t);
  // The only plan of the floor starts without a chooser.
  await page.getByTestId('teleop-workplan').click();
  const panel = page.getByTestId('wp-run-panel');
  await expect(panel.getByTestId('wp-run-name')).toHaveText('エレベーター乗車（ボタン押し）');
  const first = panel.getByTestId('wp-run-step-0');
  await expect(first).toHaveAttribute('data-done', 'false');

  // Click the depth image where the hall's "up" button is.
  const image = panel.getByTestId('depth-image-area');
  await expect(image.locator('img')).toBeVisible({ timeout: 30_000 });
  const up = buttonPixel({ pose, eyeHeight: EYE_HEIGHT, world: worldFor(mapId), isLit: () => false }, 'hall-up')!;
  const box = (await image.boundingBox())!;
  await image.click({ position: { x: ((up.u + 0.5) * box.width) / 640, y: ((up.v + 0.5) * box.height) / 480 } });
  await expect(panel.getByTestId('wp-run-pressed')).toContainText('hall-up', { timeout: 30_000 });
  // The simulated elevator answers the call: a car comes to the robot's floor and opens.
  await expect.poll(() => ride(rides + 1), { timeout: 15_000 }).not.toBeNull();
  await expect.poll(async () => (await ride(rides + 1))?.doorsOpen, { timeout: 90_000 }).toBe(true);

  await panel.getByTestId('wp-run-confirm').click();
  await expect(first).toHaveAttribute('data-done', 'true');
  await panel.getByTestId('wp-run-confirm').click();
  await expect(panel.getByTestId('wp-run-step-1')).toHaveAttribute('data-done', 'true');
  await expect(panel.getByTestId('wp-run-all-done')).toBeVisible();
  await panel.getByTestId('wp-run-close').click();
  await expect(panel).toBeHidden();
});

/** The simulator's demo waypoints as the floor's map (charger – standby – patrol loop). */
function demoMap(): MapDocument {
  const type = { charger: WaypointType.charge, standby: WaypointType.standby, patrol: WaypointType.normal } as const;
  const waypoints = DEMO_WAYPOINTS.map((w, i) => ({
    id: i + 1,
    name: w.name,
    x: w.x,
    y: w.y,
    theta: w.theta,
    type: type[w.role],
  }));
  const pairs: Array<[number, number]> = [
    [1, 2],
    [2, 3],
    [3, 4],
    [4, 5],
    [5, 6],
    [6, 7],
    [7, 3],
  ];
  return {
    waypoints,
    edges: pairs.map(([from, to], k) => ({ id: k + 1, from, to, oneWay: false, speed: 'normal', path: null })),
    routes: [],
    noGoAreas: [],
    partialMaps: [],
  } as MapDocument;
}

test('a flow launches a work plan on the operator screen: paused while the operator walks it through (Go to its waypoints), resumed to its end once closed', async ({
  page,
}) => {
  test.setTimeout(240_000);
  const t = await robotTenant('WpFlow', 'pro');
  // A plan image covering the demo waypoints (x -5..25, y -5..15 at 5 cm), then the map.
  await setFloorFrame(t.adminToken, t.floorId, { resolution: 0.05, originX: -5, originY: -5 });
  await uploadFloorImage(t.adminToken, t.floorId, makePng(600, 400));
  await api.call(mapOps.saveFloorMap, {
    token: t.adminToken,
    params: { id: t.floorId },
    body: { baseRevision: 0, document: demoMap() },
  });
  const standby = DEMO_WAYPOINTS[1]!;
  sim = await startSimProcess([
    { created: t.created, model: 'pro', floorId: t.floorId, start: { x: standby.x, y: standby.y, theta: 0 } },
  ]);
  const opToken = await tokenFor(t.operator.loginId, t.operator.password);
  await online(t, opToken);
  const planId = await createPlan(t, '見回りの手伝い', [
    step('toPatrol2', '巡回点2へ', 'move', { kind: 'moveToWaypoint', waypointId: 4 }),
    step('toPatrol1', '巡回点1へ', 'move', { kind: 'moveToWaypoint', waypointId: 3 }),
    step('look', '目視確認', 'manual', { kind: 'manualCheck', instruction: '周囲を確認する' }),
  ]);
  const flow = await api.call(flowOps.createFlow, {
    token: t.adminToken,
    body: {
      name: '作業計画つきフロー',
      description: '',
      buildingId: t.buildingId,
      floorId: t.floorId,
      flowGroupId: null,
      enabled: true,
      definition: {
        version: 1,
        steps: [
          { kind: 'launchWorkPlan', id: 'plan', workPlanId: planId },
          { kind: 'wait', id: 'after', seconds: 1 },
        ],
      },
    },
  });

  await operatorScreen(page, t);
  // The operator holding the controls starts the flow; it opens the plan and pauses.
  const run = await api.call(flowRunOps.startFlowRun, {
    token: opToken,
    params: { id: flow.id },
    body: { robotId: t.created.robot.id },
  });
  // The running flow's line under the title (it carries the run's status).
  const flowLine = page.locator('[data-testid="teleop-flow"][data-status]');
  await expect(flowLine).toHaveAttribute('data-status', 'paused', { timeout: 30_000 });
  const action = page.getByTestId('teleop-workplan');
  await expect(action).toContainText('見回りの手伝い', { timeout: 15_000 });
  await action.click();
  const panel = page.getByTestId('wp-run-panel');
  await expect(panel.getByTestId('wp-run-flow')).toBeVisible();

  // "Go": the robot drives to the step's waypoint; the step is checked when it arrives.
  const walk = async (i: number, shot: string) => {
    const row = panel.getByTestId(`wp-run-step-${i}`);
    await row.getByTestId('wp-run-go').click();
    await expect(row.getByTestId('wp-run-moving')).toBeVisible({ timeout: 15_000 });
    await expect(row).toHaveAttribute('data-move', 'moving');
    await keepScreen(page, shot, { fullPage: false });
    await expect(row).toHaveAttribute('data-done', 'true', { timeout: 120_000 });
  };
  await walk(0, 'wp2-panel-moving-ja');
  await useLanguage(page, 'en');
  await expect(panel.getByTestId('wp-run-flow')).toContainText('paused');
  await walk(1, 'wp2-panel-moving-en');
  await expect(flowLine).toHaveAttribute('data-status', 'paused');

  await panel.getByTestId('wp-run-confirm').click();
  await expect(panel.getByTestId('wp-run-all-done')).toBeVisible();
  await panel.getByTestId('wp-run-close').click();
  await expect(panel).toBeHidden();
  // The flow goes on from its launchWorkPlan step to its end: no running flow on the screen any more.
  await expect(flowLine).toBeHidden({ timeout: 60_000 });
  await page.goto(`/robot/${t.created.robot.id}`);
  await expect(page.getByTestId(`flow-run-row-${run.id}`)).toContainText('Done', { timeout: 30_000 });
});
