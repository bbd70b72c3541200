import { mkdirSync } from 'node:fs';
import path from 'node:path';
import type { Browser, Locator, Page, TestInfo } from '@playwright/test';
import { DEMO_PATROL_ROUTE, DEMO_WAYPOINTS, mapOps, robotOps } from '@portal/contract';
import { expect, test } from '../support/fixtures.ts';
import { api, createRobot, getBuildings, getFloorMap, getFloors, tokenFor } from '../support/api.ts';
import { startSimProcess, type SimProcess } from '../support/sim-process.ts';
import { ARTIFACTS_DIR, E2E_ADMIN, baseUrl } from '../support/state.ts';
import { DEMO, fontsReady, pageLanguage, submitLogin, type Lang } from '../support/ui.ts';

/**
 * The operator screens on a tablet (issue 12 item 9): the basic controller (/app/basic, made for a
 * tablet) and the remote-operation screen (/app/tele-ope) at 768x1024 (portrait) and 1024x768
 * (landscape) in ja and en scroll nowhere sideways, keep the drive pad, the stop button, the pause
 * button, the camera switch and talking in view as touch targets of at least 44 px, and no banner
 * covers the battery and order box. Screenshots at 1366, 1024 and 768 px go to e2e/.artifacts/screens.
 */

const SCREENS_DIR = path.join(ARTIFACTS_DIR, 'screens');
/** The smallest touch target (WCAG 2.5.5, Apple's and Google's guides). */
const TOUCH_PX = 44;
const SIZES = [
  [768, 1024],
  [1024, 768],
  [1366, 860],
] as const;

let sim: SimProcess | null = null;
test.afterEach(async () => {
  await sim?.stop();
  sim = null;
});

/** A robot of the demo building on its 1F, simulated with video, and its patrol on the floor's route. */
async function patrollingRobot() {
  const admin = await tokenFor(E2E_ADMIN.loginId, E2E_ADMIN.password);
  const building = (await getBuildings(admin)).find((b) => b.name === 'Demo Tower')!;
  expect(building, 'the demo building is seeded').toBeTruthy();
  const floor = (await getFloors(admin, building.id)).find((f) => f.name === '1F')!;
  const stamp = `${Date.now().toString(36)}${Math.floor(Math.random() * 1e4).toString(36)}`;
  const serialNo = `TAB-${stamp}`.slice(0, 24).toUpperCase();
  const created = await createRobot(admin, {
    serialNo,
    name: `Tablet ${serialNo.slice(-4)}`,
    model: 'pro',
    version: '',
    hardwareRevision: '',
    buildingId: building.id,
    floorId: floor.id,
    groupId: null,
    status: 1,
    longTermRecordingAutoStart: false,
    videoMode: 'medium',
    notes: '',
  });
  const charger = DEMO_WAYPOINTS.find((w) => w.role === 'charger')!;
  sim = await startSimProcess([
    { created, model: 'pro', floorId: floor.id, start: { x: charger.x, y: charger.y, theta: 0 } },
  ]);
  const live = async () =>
    (await api.call(robotOps.listFleet, { token: admin, query: { buildingId: building.id } })).find(
      (r) => r.serialNo === serialNo,
    )!.live;
  await expect.poll(async () => (await live()).online, { timeout: 15_000 }).toBe(true);
  await expect.poll(async () => (await live()).position).not.toBeNull();
  const patrol = (await getFloorMap(admin, floor.id)).document.routes.find((r) => r.name === DEMO_PATROL_ROUTE)!;
  const robotId = created.robot.id;
  /**
   * The robot holds a paused patrol (a steady state: the screens offer to resume it). Commands by
   * the API may be refused while a screen still holds the controls: the poll tries again.
   */
  const pausedPatrol = async () => {
    await expect
      .poll(
        async () => {
          const now = await live();
          if (now.activity === 'paused' && now.orderId !== null) return true;
          if (now.activity === 'driving' && now.orderId !== null) {
            await api.request(robotOps.sendRobotCommand, {
              token: admin,
              params: { id: robotId },
              body: { command: 'pause' },
            });
          } else {
            if (now.orderId !== null)
              await api.request(robotOps.sendRobotCommand, {
                token: admin,
                params: { id: robotId },
                body: { command: 'cancel' },
              });
            await api.request(mapOps.trialRunRoute, {
              token: admin,
              params: { id: robotId },
              body: { floorId: floor.id, routeId: patrol.id },
            });
          }
          return false;
        },
        { timeout: 30_000, intervals: [500, 1_000] },
      )
      .toBe(true);
  };
  return { serialNo, live, pausedPatrol };
}

/** Signs in on the login page (the demo accounts have agreed to the terms). */
async function signIn(page: Page, account: { loginId: string; password: string }): Promise<void> {
  await page.goto('/auth/login');
  await page.getByTestId('login-email').waitFor({ timeout: 30_000 });
  await submitLogin(page, account.loginId, account.password);
  await page.waitForURL((url) => !url.pathname.startsWith('/auth/'));
  await page.getByTestId('user-menu').waitFor({ timeout: 30_000 });
}

async function newPage(browser: Browser, lang: Lang): Promise<Page> {
  const context = await browser.newContext({
    baseURL: baseUrl(),
    locale: lang === 'ja' ? 'ja-JP' : 'en-US',
    timezoneId: 'Asia/Tokyo',
    viewport: { width: 768, height: 1024 },
  });
  return context.newPage();
}

/** Waits until this screen holds the controls (taking the free controls if they are offered). */
async function holdControls(page: Page): Promise<void> {
  const role = page.getByTestId('teleop-controller');
  await expect(
    page.locator('[data-testid="teleop-request"], [data-testid="teleop-controller"][data-role="controller"]'),
  ).toHaveCount(1, { timeout: 30_000 });
  if (await page.getByTestId('teleop-request').isVisible()) await page.getByTestId('teleop-request').click();
  await expect(role).toHaveAttribute('data-role', 'controller', { timeout: 20_000 });
}

/** Waits until the robot's video plays (its decoded size is known). */
async function videoPlays(page: Page): Promise<void> {
  const video = page.getByTestId('teleop-video');
  await expect
    .poll(() => video.evaluate((el) => (el as unknown as { videoWidth: number }).videoWidth), { timeout: 30_000 })
    .toBeGreaterThan(0);
}

/** Page width beyond the viewport (positive: the page scrolls sideways). A string: no DOM types here. */
const sidewaysOverflow = (page: Page) =>
  page.evaluate('document.scrollingElement.scrollWidth - window.innerWidth') as Promise<number>;

/** Button labels cut off by their button (Mantine clips a label that does not fit). */
const clippedLabels = (page: Page) =>
  page.evaluate(`[...document.querySelectorAll('#main .mantine-Button-label')]
    .filter((el) => el.getClientRects().length > 0 && el.scrollWidth > el.clientWidth + 1)
    .map((el) => el.textContent)`) as Promise<string[]>;

/** The control is shown whole inside the viewport and is a touch target of at least 44 x 44 px. */
async function touchTarget(control: Locator, what: string): Promise<void> {
  await expect(control, what).toBeVisible();
  await expect(control, `${what} is in view`).toBeInViewport({ ratio: 1 });
  const box = (await control.boundingBox())!;
  expect(Math.min(box.width, box.height), `${what}: ${box.width} x ${box.height} px`).toBeGreaterThanOrEqual(
    TOUCH_PX - 0.5,
  );
}

/**
 * No banner covers the robot's box (battery, connection, running order): the topmost element at
 * the centre of the box and of its battery and order lines is the box. The box lets clicks through
 * to the video (pointer-events: none), so the test makes it hit-testable first.
 */
async function overlayUncovered(page: Page): Promise<void> {
  await page.addStyleTag({
    content:
      '[data-testid="teleop-robot-overlay"], [data-testid="teleop-robot-overlay"] * { pointer-events: auto !important; }',
  });
  for (const id of ['teleop-robot-overlay', 'teleop-battery', 'teleop-flow']) {
    const el = page.getByTestId(id);
    await expect(el).toBeInViewport({ ratio: 1 });
    const box = (await el.boundingBox())!;
    const hit = await page.evaluate(
      `(({ x, y }) => {
        const top = document.elementFromPoint(x, y);
        return !!top && !!top.closest('[data-testid="teleop-robot-overlay"]');
      })(${JSON.stringify({ x: box.x + box.width / 2, y: box.y + box.height / 2 })})`,
    );
    expect(hit, `${id} is not covered`).toBe(true);
  }
}

async function keepScreenshot(page: Page, testInfo: TestInfo, name: string): Promise<void> {
  mkdirSync(SCREENS_DIR, { recursive: true });
  await fontsReady(page);
  const file = path.join(SCREENS_DIR, `${name}.png`);
  await page.screenshot({ path: file });
  await testInfo.attach(name, { path: file, contentType: 'image/png' });
}

for (const lang of ['ja', 'en'] as const) {
  test(`operator screens on a tablet (${lang}): nothing scrolls sideways, the controls are in view as 44 px touch targets and work, no banner covers the robot box`, async ({
    browser,
  }, testInfo) => {
    test.setTimeout(360_000);
    const { serialNo, live, pausedPatrol } = await patrollingRobot();
    const page = await newPage(browser, lang);
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    try {
      await signIn(page, DEMO.manager);
      // The account's saved language wins over the browser's (another spec saves one for this account):
      // choose the language of this run with the switch, as a user would.
      if ((await pageLanguage(page)) !== lang) {
        // At desktop width the switch is in the header; the sizes under test are set below.
        await page.setViewportSize({ width: 1280, height: 900 });
        await page.getByTestId('language-switch').selectOption(lang);
      }
      await expect(page.locator('html')).toHaveAttribute('lang', lang);

      for (const [width, height] of SIZES) {
        await page.setViewportSize({ width, height });
        const tablet = width < 1200;
        const size = `${lang} ${width}x${height}`;

        // The basic controller: video, drive pad, stop, talk and the phrases.
        await pausedPatrol();
        await page.goto(`/app/basic/${serialNo}`);
        await expect(page.getByTestId('teleop-basic')).toBeVisible();
        await holdControls(page);
        await videoPlays(page);
        // The robot's patrol is paused: the banner offers to resume it.
        await expect(page.getByTestId('teleop-resume-order')).toBeVisible({ timeout: 20_000 });
        expect(await sidewaysOverflow(page), `basic ${size} scrolls sideways`).toBeLessThanOrEqual(0);
        expect(await clippedLabels(page), `basic ${size}`).toEqual([]);
        await overlayUncovered(page);
        if (tablet) {
          await touchTarget(page.getByTestId('teleop-joystick'), `basic ${size}: drive pad`);
          await touchTarget(page.getByTestId('teleop-stop'), `basic ${size}: stop`);
          await touchTarget(page.getByTestId('teleop-resume-order'), `basic ${size}: resume`);
          await touchTarget(page.getByTestId('teleop-talk'), `basic ${size}: talk`);
          await touchTarget(page.getByTestId('teleop-release'), `basic ${size}: release`);
          await touchTarget(page.getByTestId('teleop-full-link'), `basic ${size}: full screen`);
          await touchTarget(
            page.getByRole('link', { name: lang === 'ja' ? 'ロボットの画面に戻る' : 'Back to the robot' }),
            `basic ${size}: back`,
          );
        }
        await keepScreenshot(page, testInfo, `teleop-basic-${lang}-${width}x${height}`);
        if (width === 768) {
          // A tap on resume resumes the patrol: driving is blocked now, and the banner offers to
          // pause it (in the same place); a tap on pause pauses it again.
          await page.getByTestId('teleop-resume-order').click();
          await expect.poll(async () => (await live()).activity, { timeout: 15_000 }).toBe('driving');
          await touchTarget(page.getByTestId('teleop-pause-order'), `basic ${size}: pause`);
          await overlayUncovered(page);
          await page.getByTestId('teleop-pause-order').click();
          await expect.poll(async () => (await live()).activity, { timeout: 15_000 }).toBe('paused');
          // The stop button takes a tap (it stops manual driving at once).
          await page.getByTestId('teleop-stop').click();
        }

        // The remote-operation screen: video, camera switch, drive, speech, devices, actions.
        await pausedPatrol();
        await page.goto(`/app/tele-ope/drive/${serialNo}`);
        await expect(page.getByTestId('teleop-screen')).toBeVisible();
        await holdControls(page);
        await videoPlays(page);
        await expect(page.getByTestId('teleop-resume-order')).toBeVisible({ timeout: 20_000 });
        expect(await sidewaysOverflow(page), `tele-ope ${size} scrolls sideways`).toBeLessThanOrEqual(0);
        expect(await clippedLabels(page), `tele-ope ${size}`).toEqual([]);
        await overlayUncovered(page);
        if (tablet) {
          await touchTarget(page.getByTestId('teleop-joystick'), `tele-ope ${size}: drive pad`);
          await touchTarget(page.getByTestId('teleop-stop'), `tele-ope ${size}: stop`);
          await touchTarget(page.getByTestId('teleop-resume-order'), `tele-ope ${size}: resume`);
          await touchTarget(page.getByTestId('teleop-release'), `tele-ope ${size}: release`);
          for (const camera of ['v1', 'v2', 'v3', 's1'])
            await touchTarget(page.getByTestId(`teleop-camera-${camera}`), `tele-ope ${size}: camera ${camera}`);
          const speech = page.getByRole('tab', { name: lang === 'ja' ? '音声' : 'Speech' });
          await touchTarget(speech, `tele-ope ${size}: speech tab`);
          await speech.click();
          await touchTarget(page.getByTestId('teleop-talk'), `tele-ope ${size}: talk`);
          // The drive pad stays on screen while speaking (portrait: beside the speech panel).
          if (width === 768) await expect(page.getByTestId('teleop-joystick')).toBeInViewport({ ratio: 1 });
        }
        await keepScreenshot(page, testInfo, `teleop-drive-${lang}-${width}x${height}`);
        if (width === 768) {
          // A tap on the camera switch changes the robot's camera.
          await page.getByTestId('teleop-camera-v2').click();
          await expect(page.getByTestId('teleop-camera-v2')).toHaveAttribute('aria-pressed', 'true', {
            timeout: 15_000,
          });
          await page.getByTestId('teleop-camera-v1').click();
          await expect(page.getByTestId('teleop-camera-v1')).toHaveAttribute('aria-pressed', 'true', {
            timeout: 15_000,
          });
          await page.getByTestId('teleop-resume-order').click();
          await expect.poll(async () => (await live()).activity, { timeout: 15_000 }).toBe('driving');
          await touchTarget(page.getByTestId('teleop-pause-order'), `tele-ope ${size}: pause`);
          await overlayUncovered(page);
          await page.getByTestId('teleop-pause-order').click();
          await expect.poll(async () => (await live()).activity, { timeout: 15_000 }).toBe('paused');
        }
      }
      expect(errors).toEqual([]);
    } finally {
      await page.context().close();
    }
  });
}
