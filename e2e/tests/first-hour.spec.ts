import { mkdirSync } from 'node:fs';
import path from 'node:path';
import type { Browser, BrowserContext, Page, TestInfo } from '@playwright/test';
import {
  DEMO_MAP_RESOLUTION,
  DEMO_PATROL_ROUTE,
  DEMO_WAYPOINTS,
  OCCUPANCY,
  demoWorldPlan,
  mapOps,
  planOccupancyAt,
  robotOps,
  type CreatedRobot,
  type KnownRobotModel,
} from '@portal/contract';
import { startRobot, type SimRobot } from '@portal/robot-sim';
import { expect, test } from '../support/fixtures.ts';
import {
  api,
  createRobot,
  getBuildings,
  getFloor,
  getFloorMap,
  getFloors,
  importInitData,
  tokenFor,
} from '../support/api.ts';
import { makePng } from '../support/png.ts';
import { startSimProcess, type SimProcess } from '../support/sim-process.ts';
import { ARTIFACTS_DIR, E2E_ADMIN, baseUrl } from '../support/state.ts';
import {
  DEMO,
  agreeToTerms,
  fontsReady,
  noNotifications,
  pageLanguage,
  submitLogin,
  type Lang,
} from '../support/ui.ts';

/**
 * The first hour of a new user (issue 12): the demo building's real maps with robots on them, a map
 * image that the editor uses at once, the server's own reason when a trial run is refused, a
 * watch-only viewer who cannot change what someone else's robot does, and the screens at tablet
 * width. Screenshots at 1366 and 768 px in ja and en go to e2e/.artifacts/screens and the report.
 */

/** Texts of apps/web/src/locales/{ja,en} the test reads (copied on purpose: wording is visible). */
const T = {
  ja: {
    busy: 'ロボットは動作中です。停止するか指示を取り消してから実行してください',
    trialRobot: 'このフロアのロボット',
    trialRoute: 'ルート',
    trialStart: '試走を開始',
    noImage: 'このフロアにはマップ画像がありません',
    operatedBy: (name: string) => `${name} さんが操作中`,
  },
  en: {
    busy: 'The robot is busy: wait until it is idle, or cancel its order',
    trialRobot: 'Robot on this floor',
    trialRoute: 'Route',
    trialStart: 'Start trial run',
    noImage: 'This floor has no map image',
    operatedBy: (name: string) => `Being operated by ${name}`,
  },
} as const;

const DEMO_BUILDING = 'Demo Tower';
const SCREENS_DIR = path.join(ARTIFACTS_DIR, 'screens');

const sims: Array<SimRobot | SimProcess> = [];
test.afterEach(async () => {
  for (const s of sims.splice(0)) await s.stop();
});

const stamp = () => `${Date.now().toString(36)}${Math.floor(Math.random() * 1e4).toString(36)}`;

/** The demo building and its floors (1F, 2F, B1) as the system administrator sees them. */
async function demoBuilding() {
  const admin = await tokenFor(E2E_ADMIN.loginId, E2E_ADMIN.password);
  const building = (await getBuildings(admin)).find((b) => b.name === DEMO_BUILDING)!;
  expect(building, 'the demo building is seeded').toBeTruthy();
  const floors = await getFloors(admin, building.id);
  const floor = (name: string) => floors.find((f) => f.name === name)!;
  return { admin, building, floors, floor };
}

/** Registers a robot on a demo floor (as the system administrator). */
async function demoRobot(admin: string, buildingId: number, floorId: number, name: string, model: KnownRobotModel) {
  const serialNo = `${name.replace(/[^A-Za-z]/g, '').slice(0, 6)}-${stamp()}`.slice(0, 24).toUpperCase();
  const created = await createRobot(admin, {
    serialNo,
    name: `${name} ${serialNo.slice(-4)}`,
    model,
    version: '',
    hardwareRevision: '',
    buildingId,
    floorId,
    groupId: null,
    status: 1,
    longTermRecordingAutoStart: false,
    videoMode: 'medium',
    notes: '',
  });
  return { serialNo, created, name: created.robot.name };
}

/** A simulated robot (in this process) standing at the demo floor's charger. */
async function robotAtCharger(created: CreatedRobot, floorId: number, model: KnownRobotModel): Promise<SimRobot> {
  const c = created.credentials;
  const charger = DEMO_WAYPOINTS.find((w) => w.role === 'charger')!;
  const robot = await startRobot({
    brokerUrl: c.mqttUrl,
    username: c.username,
    password: c.password,
    manufacturer: c.manufacturer,
    serialNumber: c.serialNumber,
    model,
    mapId: `floor-${floorId}`,
    start: { x: charger.x, y: charger.y, theta: charger.theta },
    battery: 90,
  });
  sims.push(robot);
  return robot;
}

/** The live state of one robot of a building, read through the API. */
const liveOf = async (token: string, buildingId: number, serialNo: string) =>
  (await api.call(robotOps.listFleet, { token, query: { buildingId } })).find((r) => r.serialNo === serialNo)!.live;

/** Signs in on the login page (demo accounts have agreed to the terms already). */
async function signIn(page: Page, account: { loginId: string; password: string }): Promise<void> {
  await page.goto('/auth/login');
  // A busy machine (video decoding in another page) may take a while to show the form.
  await page.getByTestId('login-email').waitFor({ timeout: 30_000 });
  await submitLogin(page, account.loginId, account.password);
  await page.waitForURL((url) => !url.pathname.startsWith('/auth/'));
  // The terms gate answers before the menu shows: either the pending terms or the signed-in screen.
  const agree = page.getByTestId('terms-agree');
  await agree.or(page.getByTestId('user-menu')).first().waitFor({ timeout: 30_000 });
  if (await agree.isVisible()) await agreeToTerms(page);
  await page.waitForURL((url) => url.pathname !== '/term/agreement');
}

/**
 * Pixels of one Konva layer of the map canvas close to a colour (within 24 per channel, opaque).
 * A string, because e2e/tsconfig.json has no DOM types.
 */
const countPixels = (page: Page, layer: string, rgb: readonly [number, number, number]) =>
  page.evaluate(`(({ layer, rgb }) => {
    const c = document.querySelector('[data-testid="map-canvas"] canvas[data-layer="' + layer + '"]');
    if (!c) return 0;
    const d = c.getContext('2d').getImageData(0, 0, c.width, c.height).data;
    let n = 0;
    for (let o = 0; o < d.length; o += 4)
      if (d[o + 3] > 250 && Math.abs(d[o] - rgb[0]) < 24 && Math.abs(d[o + 1] - rgb[1]) < 24 && Math.abs(d[o + 2] - rgb[2]) < 24) n++;
    return n;
  })(${JSON.stringify({ layer, rgb })})`) as Promise<number>;

/** The live layer's colour of an online robot (live-feed.tsx). */
const ROBOT_RGB = [0x12, 0xb8, 0x86] as const;

/** Saves a screenshot under e2e/.artifacts/screens and attaches it to the report. */
async function keepScreenshot(page: Page, testInfo: TestInfo, name: string): Promise<void> {
  mkdirSync(SCREENS_DIR, { recursive: true });
  await fontsReady(page);
  const file = path.join(SCREENS_DIR, `${name}.png`);
  await page.screenshot({ path: file });
  await testInfo.attach(name, { path: file, contentType: 'image/png' });
}

async function newContext(browser: Browser, lang: Lang, width: number, height: number): Promise<BrowserContext> {
  return browser.newContext({
    baseURL: baseUrl(),
    locale: lang === 'ja' ? 'ja-JP' : 'en-US',
    timezoneId: 'Asia/Tokyo',
    viewport: { width, height },
  });
}

test('1: the demo floors carry real map images, waypoints and a patrol route, and a robot stands on the map', async ({
  page,
}) => {
  test.setTimeout(90_000);
  const { admin, building, floors, floor } = await demoBuilding();
  expect(floors.map((f) => f.name).sort()).toEqual(['1F', '2F', 'B1']);
  for (const f of floors) {
    const detail = await getFloor(admin, f.id);
    expect(detail.img, `${f.name} has a map image`).toBeTruthy();
    expect(detail.resolution).toBe(DEMO_MAP_RESOLUTION);
    const map = await getFloorMap(admin, f.id);
    expect(map.document.waypoints.map((w) => w.name)).toEqual(
      expect.arrayContaining(DEMO_WAYPOINTS.map((w) => w.name)),
    );
    expect(map.document.routes.map((r) => r.name)).toContain(DEMO_PATROL_ROUTE);
  }

  const first = floor('1F');
  const { serialNo, created } = await demoRobot(admin, building.id, first.id, 'Demo map', 'pro');
  await robotAtCharger(created, first.id, 'pro');
  await expect.poll(async () => (await liveOf(admin, building.id, serialNo)).online, { timeout: 15_000 }).toBe(true);
  const at = (await liveOf(admin, building.id, serialNo)).position!;
  // Where the robot stands, the map's world is open floor (the image is drawn from the same plan).
  expect(planOccupancyAt(demoWorldPlan(`floor-${first.id}`), at.x, at.y)).toBe(OCCUPANCY.free);

  await signIn(page, DEMO.orgAdmin);
  await page.goto(`/editor/floor/${first.id}`);
  const lang = await pageLanguage(page);
  const canvas = page.getByTestId('map-canvas');
  await expect(canvas.locator('canvas[data-layer="base"]')).toHaveCount(1);
  await expect(page.getByText(T[lang].noImage)).toHaveCount(0);
  // The image's walls (black occupied cells) are drawn, and the robot on the live layer.
  await expect.poll(() => countPixels(page, 'base', [0, 0, 0]), { timeout: 15_000 }).toBeGreaterThan(500);
  await expect.poll(() => countPixels(page, 'live', ROBOT_RGB), { timeout: 15_000 }).toBeGreaterThan(20);
  await page.getByTestId('panel-tab-waypoints').click();
  await expect(page.getByTestId('waypoint-list').locator('[data-testid^="waypoint-row-"]')).toHaveCount(
    DEMO_WAYPOINTS.length,
  );
});

test('3: an uploaded map image shows in the editor at once, at the default resolution', async ({ page }) => {
  test.setTimeout(90_000);
  const s = stamp();
  const orgAdmin = { loginId: `upload-${s}@e2e.example`, password: 'Upload-Pass-2026' };
  const admin = await tokenFor(E2E_ADMIN.loginId, E2E_ADMIN.password);
  const imported = await importInitData(admin, {
    organization: { name: `E2E Upload ${s}`, type: 0, labOption: false },
    buildings: [{ name: 'Upload Building', floors: [{ name: '5F', index: 5, type: 'office' }] }],
    operators: [{ ...orgAdmin, firstName: 'Upload', lastName: 'Admin', type: 2, building: 0 }],
  });
  const buildingId = (await getBuildings(admin)).find((b) => b.organizationId === imported.organizationId)!.id;
  const floorId = (await getFloors(admin, buildingId))[0]!.id;
  expect((await getFloor(admin, floorId)).resolution).toBeNull();

  await signIn(page, orgAdmin);
  await page.goto(`/building/floor/${floorId}`);
  // The file chooser's input (Mantine FileButton): the user picks a PNG.
  await page
    .locator('input[type="file"]')
    .setInputFiles({ name: 'floor.png', mimeType: 'image/png', buffer: makePng(400, 300) });
  await expect(page.getByTestId('map-image-size')).toContainText('400');
  await expect(page.getByTestId('map-image-resolution-hint')).toBeVisible();
  const stored = await getFloor(admin, floorId);
  expect(stored.resolution).toBe(0.05);

  await page.goto(`/editor/floor/${floorId}`);
  const lang = await pageLanguage(page);
  await expect(page.getByTestId('map-canvas').locator('canvas[data-layer="base"]')).toHaveCount(1);
  await expect(page.getByTestId('status-revision')).toBeVisible();
  await expect(page.getByText(T[lang].noImage)).toHaveCount(0);
  // The image's grid lines (makePng: RGB 40, 70, 120) are on the base layer.
  await expect.poll(() => countPixels(page, 'base', [40, 70, 120]), { timeout: 15_000 }).toBeGreaterThan(200);
  const map = await api.call(mapOps.getFloorMap, { token: admin, params: { id: floorId } });
  expect(map.image).toMatchObject({ width: 400, height: 300, resolution: 0.05 });
});

test('4: a trial run on a busy robot shows the server’s reason: the robot is busy', async ({ page, consoleErrors }) => {
  test.setTimeout(90_000);
  const { admin, building, floor } = await demoBuilding();
  const second = floor('2F');
  const { serialNo, created, name } = await demoRobot(admin, building.id, second.id, 'Busy', 'pro');
  await robotAtCharger(created, second.id, 'pro');
  await expect.poll(async () => (await liveOf(admin, building.id, serialNo)).online, { timeout: 15_000 }).toBe(true);
  await expect.poll(async () => (await liveOf(admin, building.id, serialNo)).position).not.toBeNull();

  // The robot is busy: on patrol, then paused (busy until resumed or cancelled).
  const patrol = (await getFloorMap(admin, second.id)).document.routes.find((r) => r.name === DEMO_PATROL_ROUTE)!;
  const robotId = created.robot.id;
  await api.call(mapOps.trialRunRoute, {
    token: admin,
    params: { id: robotId },
    body: { floorId: second.id, routeId: patrol.id },
  });
  await expect.poll(async () => (await liveOf(admin, building.id, serialNo)).activity).toBe('driving');
  await api.call(robotOps.sendRobotCommand, { token: admin, params: { id: robotId }, body: { command: 'pause' } });
  await expect.poll(async () => (await liveOf(admin, building.id, serialNo)).activity).toBe('paused');

  // The refusal is expected: Chromium logs the 409 answer as a console error.
  consoleErrors.allowFailedResponse(`/api/robots/${robotId}/trial-run`, 409);
  await signIn(page, DEMO.orgAdmin);
  await page.goto(`/editor/floor/${second.id}`);
  const lang = await pageLanguage(page);
  await noNotifications(page);
  await page.getByRole('textbox', { name: T[lang].trialRobot, exact: true }).click();
  await page.getByRole('option', { name }).click();
  await expect(page.getByRole('textbox', { name: T[lang].trialRobot, exact: true })).toHaveValue(name);
  await page.getByRole('textbox', { name: T[lang].trialRoute, exact: true }).click();
  await page.getByRole('option', { name: DEMO_PATROL_ROUTE, exact: true }).click();
  await page.getByRole('button', { name: T[lang].trialStart }).click();
  await expect(page.locator('.mantine-Notification-root')).toContainText(T[lang].busy);
  await expect(page.locator('.mantine-Notification-root')).not.toContainText(lang === 'ja' ? '経路' : 'No path');
});

test("5: the terms and policy are template texts in ja and en, on the system administrator's screen; the audit log speaks in words", async ({
  browser,
}, testInfo) => {
  test.setTimeout(180_000);
  for (const lang of ['ja', 'en'] as const) {
    const context = await newContext(browser, lang, 1366, 860);
    try {
      const page = await context.newPage();
      await signIn(page, DEMO.sysAdmin);
      await page.goto('/system/terms');
      const form = page.getByTestId('term-form-TOS');
      await expect(form).toBeVisible({ timeout: 20_000 });
      // Each language has its own text, marked as a template for the operator's legal text.
      await expect(form.locator('textarea').nth(0)).toHaveValue(/^【ご注意：ひな形です】/);
      await expect(form.locator('textarea').nth(1)).toHaveValue(/^\[Note: this is a template\]/);
      await keepScreenshot(page, testInfo, `system-terms-${lang}-1366`);

      await page.goto('/audit-log/list');
      const table = page.getByTestId('audit-table');
      await expect(table.locator('tbody tr').first()).toBeVisible({ timeout: 20_000 });
      // Actions by their label, never their code (terms.agree, operator.create, floor-map.save...).
      expect(await table.innerText()).not.toMatch(
        /\b(terms|operator|robot|floor-map|building|organization|auth)\.[a-z]/,
      );
      await keepScreenshot(page, testInfo, `audit-log-${lang}-1366`);
    } finally {
      await context.close();
    }
  }
});

test('6: a watch-only viewer is offered no pause and cannot pause someone else’s robot', async ({ browser }) => {
  test.setTimeout(150_000);
  const { admin, building, floor } = await demoBuilding();
  const basement = floor('B1');
  const { serialNo, created } = await demoRobot(admin, building.id, basement.id, 'Watch', 'ex');
  const charger = DEMO_WAYPOINTS.find((w) => w.role === 'charger')!;
  sims.push(
    await startSimProcess([
      { created, model: 'ex', floorId: basement.id, start: { x: charger.x, y: charger.y, theta: 0 } },
    ]),
  );
  await expect.poll(async () => (await liveOf(admin, building.id, serialNo)).online, { timeout: 15_000 }).toBe(true);
  await expect.poll(async () => (await liveOf(admin, building.id, serialNo)).position).not.toBeNull();
  const patrol = (await getFloorMap(admin, basement.id)).document.routes.find((r) => r.name === DEMO_PATROL_ROUTE)!;
  const robotId = created.robot.id;
  await api.call(mapOps.trialRunRoute, {
    token: admin,
    params: { id: robotId },
    body: { floorId: basement.id, routeId: patrol.id },
  });
  await expect.poll(async () => (await liveOf(admin, building.id, serialNo)).activity).toBe('driving');

  // The area manager takes the controls on the operator screen.
  const ctlContext = await newContext(browser, 'ja', 1366, 860);
  const viewContext = await newContext(browser, 'ja', 1366, 860);
  try {
    const controller = await ctlContext.newPage();
    await signIn(controller, DEMO.manager);
    await controller.goto(`/app/tele-ope/drive/${serialNo}`);
    // The first to join may get the free controls at once; otherwise they take them.
    const role = controller.getByTestId('teleop-controller');
    const request = controller.getByTestId('teleop-request');
    await expect(
      controller.locator('[data-testid="teleop-request"], [data-testid="teleop-controller"][data-role="controller"]'),
    ).toHaveCount(1, { timeout: 30_000 });
    if (await request.isVisible()) await request.click();
    await expect(role).toHaveAttribute('data-role', 'controller', { timeout: 20_000 });

    // The general operator watches: told who operates, offered neither the controls nor pausing or
    // resuming the robot's order.
    const viewer = await viewContext.newPage();
    await signIn(viewer, DEMO.operator);
    await viewer.goto(`/app/tele-ope/drive/${serialNo}`);
    await expect(viewer.getByTestId('teleop-controller')).toContainText(T.ja.operatedBy('佐藤 花子'), {
      timeout: 20_000,
    });
    await expect(viewer.getByTestId('teleop-controller')).not.toHaveAttribute('data-role', 'controller');
    await expect(viewer.getByTestId('teleop-request')).toHaveCount(0);
    await expect(viewer.getByTestId('teleop-pause-order')).toHaveCount(0);
    await expect(viewer.getByTestId('teleop-resume-order')).toHaveCount(0);

    // Nor through the API: the server refuses the watcher's pause and resume (409 TELEOP_LOCKED).
    const viewerToken = await tokenFor(DEMO.operator.loginId, DEMO.operator.password);
    for (const command of ['pause', 'resume'] as const) {
      const res = await api.request(robotOps.sendRobotCommand, {
        token: viewerToken,
        params: { id: robotId },
        body: { command },
      });
      expect(res.ok, `${command} by a watcher`).toBe(false);
      if (!res.ok) expect(res.error.code).toBe('TELEOP_LOCKED');
    }
    // The controller still has the controls.
    await expect(role).toHaveAttribute('data-role', 'controller');
  } finally {
    await ctlContext.close();
    await viewContext.close();
  }
});

test('9: at tablet width the menu is a drawer and the editor and operator screens keep their room; screenshots at 1366 and 768 px in ja and en', async ({
  browser,
}, testInfo) => {
  test.setTimeout(420_000);
  const { admin, building, floor } = await demoBuilding();
  const first = floor('1F');
  const { serialNo } = await demoRobot(admin, building.id, first.id, 'Tablet', 'pro');

  for (const lang of ['ja', 'en'] as const) {
    for (const [width, height] of [
      [768, 1024],
      [1366, 860],
    ] as const) {
      const context = await newContext(browser, lang, width, height);
      try {
        const page = await context.newPage();
        const errors: string[] = [];
        page.on('pageerror', (e) => errors.push(e.message));
        await signIn(page, DEMO.sysAdmin);
        expect(await pageLanguage(page)).toBe(lang);
        const tablet = width < 992;
        await page.goto('/robot/control');
        const nav = page.getByRole('navigation', { name: lang === 'ja' ? 'メインナビゲーション' : 'Main navigation' });
        const burger = page.locator('header button.mantine-Burger-root');
        if (tablet) {
          // The menu is a drawer: hidden until the burger opens it, closed again by choosing an entry.
          // (Mantine slides the collapsed menu out of view rather than hiding it.)
          await expect(nav).not.toBeInViewport();
          await keepScreenshot(page, testInfo, `robot-control-${lang}-${width}`);
          await burger.click();
          await expect(nav).toBeInViewport();
          await keepScreenshot(page, testInfo, `menu-drawer-${lang}-${width}`);
          await page.getByTestId('nav-buildings').click();
          await expect(page).toHaveURL(/\/building\/list/);
          await expect(nav).not.toBeInViewport();
        } else {
          await expect(nav).toBeVisible();
          await expect(burger).toBeHidden();
          // The system section is reachable: either visible or announced by the "more below" hint.
          const system = page.getByTestId('nav-group-system');
          const inView = await system.evaluate(
            (el, h) =>
              (el as unknown as { getBoundingClientRect(): { bottom: number } }).getBoundingClientRect().bottom <= h,
            height,
          );
          if (!inView) await expect(page.getByTestId('nav-more-below')).toBeVisible();
          await keepScreenshot(page, testInfo, `robot-control-${lang}-${width}`);
        }

        // Map editor: the canvas keeps the width; on a tablet the side panel is a drawer.
        await page.goto(`/editor/floor/${first.id}`);
        const canvas = page.getByTestId('map-canvas');
        await expect(page.getByTestId('status-revision')).toBeVisible({ timeout: 20_000 });
        await expect(canvas).toBeVisible();
        const box = (await canvas.boundingBox())!;
        expect(box.width).toBeGreaterThan(width * (tablet ? 0.85 : 0.5));
        if (tablet) {
          await expect(page.getByTestId('panel-tab-properties')).toBeHidden();
          await page.getByTestId('open-side-panel').click();
          await expect(page.getByTestId('panel-tab-waypoints')).toBeVisible();
          await page.getByTestId('panel-tab-waypoints').click();
          await expect(page.getByTestId('waypoint-list')).toBeVisible();
          await keepScreenshot(page, testInfo, `editor-panel-${lang}-${width}`);
          await page.keyboard.press('Escape');
          await expect(page.getByTestId('panel-tab-waypoints')).toBeHidden();
        }
        await keepScreenshot(page, testInfo, `editor-${lang}-${width}`);

        // The basic operator screen (made for tablets) fits the width: nothing scrolls sideways.
        await page.goto(`/app/basic/${serialNo}`);
        await expect(page.getByTestId('teleop-basic')).toBeVisible();
        const overflow = await page.evaluate(
          '(document.scrollingElement.scrollWidth - document.scrollingElement.clientWidth)',
        );
        expect(overflow).toBeLessThanOrEqual(0);
        await keepScreenshot(page, testInfo, `operator-basic-${lang}-${width}`);
        expect(errors).toEqual([]);
      } finally {
        await context.close();
      }
    }
  }
});
