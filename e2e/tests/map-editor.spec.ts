import { mkdirSync } from 'node:fs';
import path from 'node:path';
import type { Locator, Page } from '@playwright/test';
import { startRobot, type SimRobot } from '@portal/robot-sim';
import { expect, test } from '../support/fixtures.ts';
import {
  createRobot,
  getBuildings,
  getFloorMap,
  getFloors,
  importInitData,
  setFloorFrame,
  tokenFor,
  uploadFloorImage,
} from '../support/api.ts';
import { makePng } from '../support/png.ts';
import { ARTIFACTS_DIR, E2E_ADMIN } from '../support/state.ts';
import { agreeToTerms, fontsReady, noNotifications, pageLanguage, submitLogin, type Lang } from '../support/ui.ts';

/**
 * The floor map editor in Chromium against the real server: waypoints and edges drawn with the
 * mouse, undo and redo from the keyboard, a route from the selection, save, reload, and a trial run
 * of a simulated robot that the live layer shows driving the route.
 *
 * The map is a canvas, so the test reads it as a user sees it: where to click comes from the cursor
 * coordinates the status bar shows, and what is drawn from the canvas pixels (Konva draws one canvas
 * per layer, named in data-layer: base (image and grid), overlay (a robot's map being made),
 * document (the map document), live (the robots)).
 */

/** Texts of apps/web/src/locales/{ja,en}/map-editor.ts the test clicks. */
const TRIAL_START = { ja: '試走を開始', en: 'Start trial run' } as const;

/** The floor image: 400 × 300 px at 5 cm per pixel, its bottom-left pixel at (-2 m, -1 m). */
const IMAGE = { width: 400, height: 300, resolution: 0.05, originX: -2, originY: -1 } as const;
/** Where the three waypoints go (metres, map frame): A → B → C, an L of 7 m + 6 m. */
const PLAN = [
  { x: 1, y: 2 },
  { x: 8, y: 2 },
  { x: 8, y: 8 },
] as const;
/** The live layer's colour of an online robot (live-feed.tsx). */
const ROBOT_RGB = [0x12, 0xb8, 0x86] as const;

type Vec = { x: number; y: number };

let robot: SimRobot | null = null;
test.afterEach(async () => {
  await robot?.stop();
  robot = null;
});

/**
 * Reads one Konva layer's canvas in the page. `alpha`: the highest alpha within `r` CSS pixels of
 * (x, y). `robot`: the centre of the robot marker (pixels of the robot colour whose neighbours 4 px
 * away are that colour too: the disc, not the thin glyphs of its label), null when none is drawn.
 * A string, because e2e/tsconfig.json has no DOM types.
 */
const CANVAS_PROBE = `(({ layer, mode, x, y, r, rgb }) => {
  const c = document.querySelector('[data-testid="map-canvas"] canvas[data-layer="' + layer + '"]');
  if (!c) return null;
  const k = c.width / c.getBoundingClientRect().width;
  const data = c.getContext('2d').getImageData(0, 0, c.width, c.height).data;
  const W = c.width, H = c.height;
  if (mode === 'alpha') {
    let best = 0;
    const x0 = Math.max(0, Math.round((x - r) * k)), x1 = Math.min(W - 1, Math.round((x + r) * k));
    const y0 = Math.max(0, Math.round((y - r) * k)), y1 = Math.min(H - 1, Math.round((y + r) * k));
    for (let j = y0; j <= y1; j++) for (let i = x0; i <= x1; i++) best = Math.max(best, data[(j * W + i) * 4 + 3]);
    return best;
  }
  const is = (i, j) => {
    if (i < 0 || j < 0 || i >= W || j >= H) return false;
    const o = (j * W + i) * 4;
    return data[o + 3] > 250 && Math.abs(data[o] - rgb[0]) < 8 && Math.abs(data[o + 1] - rgb[1]) < 8 && Math.abs(data[o + 2] - rgb[2]) < 8;
  };
  const d = Math.round(4 * k);
  let sx = 0, sy = 0, n = 0;
  for (let j = 0; j < H; j++) for (let i = 0; i < W; i++) {
    if (is(i, j) && is(i - d, j) && is(i + d, j) && is(i, j - d) && is(i, j + d)) { sx += i; sy += j; n++; }
  }
  return n === 0 ? null : { x: sx / n / k, y: sy / n / k };
})`;

const probe = (page: Page, args: Record<string, unknown>) =>
  page.evaluate(`${CANVAS_PROBE}(${JSON.stringify({ x: 0, y: 0, r: 0, rgb: ROBOT_RGB, ...args })})`);

/** Highest alpha of the map layer (the document) around a screen point of the canvas. */
const mapInk = (page: Page, at: Vec, r = 2) =>
  probe(page, { layer: 'document', mode: 'alpha', x: at.x, y: at.y, r }) as Promise<number>;

/** The robot marker's centre on the live layer (canvas pixels), or null. */
const robotOnScreen = (page: Page) => probe(page, { layer: 'live', mode: 'robot' }) as Promise<Vec | null>;

const dist = (a: Vec, b: Vec) => Math.hypot(a.x - b.x, a.y - b.y);
const mid = (a: Vec, b: Vec): Vec => ({ x: (a.x + b.x) / 2, y: (a.y + b.y) / 2 });

/** Distance from p to the segment a–b. */
function toSegment(p: Vec, a: Vec, b: Vec): number {
  const dx = b.x - a.x;
  const dy = b.y - a.y;
  const t = Math.max(0, Math.min(1, ((p.x - a.x) * dx + (p.y - a.y) * dy) / (dx * dx + dy * dy || 1)));
  return dist(p, { x: a.x + t * dx, y: a.y + t * dy });
}

/** The map position the status bar shows for the cursor ("x 1.00 m, y 2.00 m" in either language). */
async function cursorWorld(page: Page): Promise<Vec | null> {
  const text = (await page.getByTestId('cursor-coordinates').textContent()) ?? '';
  const nums = text.match(/-?\d+\.\d+/g);
  return nums && nums.length >= 2 ? { x: Number(nums[0]), y: Number(nums[1]) } : null;
}

/**
 * The screen ↔ map transform of the canvas as the editor shows it: the cursor is put at two points
 * and the status bar read. Answers screen positions (canvas pixels) of map points.
 */
async function measureView(page: Page, canvas: Locator): Promise<{ toScreen: (p: Vec) => Vec; zoom: number }> {
  const box = (await canvas.boundingBox())!;
  const samples: Array<{ screen: Vec; world: Vec }> = [];
  for (const screen of [
    { x: 40, y: 40 },
    { x: Math.floor(box.width) - 40, y: Math.floor(box.height) - 40 },
  ]) {
    const before = await cursorWorld(page);
    await page.mouse.move(box.x + screen.x, box.y + screen.y);
    let world: Vec | null = null;
    await expect
      .poll(async () => {
        world = await cursorWorld(page);
        return world !== null && (before === null || world.x !== before.x || world.y !== before.y);
      })
      .toBe(true);
    samples.push({ screen, world: world! });
  }
  const [a, b] = samples as [(typeof samples)[0], (typeof samples)[0]];
  const zoom = (b.screen.x - a.screen.x) / (b.world.x - a.world.x);
  const zoomY = (b.screen.y - a.screen.y) / (a.world.y - b.world.y);
  expect(Math.abs(zoom - zoomY) / zoom, 'the map is not stretched').toBeLessThan(0.01);
  // Whole pixels: what a mouse click delivers.
  const toScreen = (p: Vec): Vec => ({
    x: Math.round(a.screen.x + (p.x - a.world.x) * zoom),
    y: Math.round(a.screen.y + (a.world.y - p.y) * zoom),
  });
  return { toScreen, zoom };
}

test('map editor: waypoints and edges by mouse, undo/redo, save, reload, and a trial run on screen', async ({
  page,
}) => {
  test.setTimeout(120_000);

  // ---- a tenant of its own: organization, building, floor with an image, an organization admin
  const stamp = `${Date.now().toString(36)}${Math.floor(Math.random() * 1e4).toString(36)}`;
  const orgAdmin = { loginId: `mapedit-${stamp}@e2e.example`, password: 'MapEdit-Pass-2026' };
  const admin = await tokenFor(E2E_ADMIN.loginId, E2E_ADMIN.password);
  const imported = await importInitData(admin, {
    organization: { name: `E2E Map editor ${stamp}`, type: 0, labOption: false },
    buildings: [{ name: 'Map Building', floors: [{ name: '3F', index: 3, type: 'office' }] }],
    operators: [{ ...orgAdmin, firstName: 'Map', lastName: 'Editor', type: 2, building: 0 }],
  });
  const buildingId = (await getBuildings(admin)).find((b) => b.organizationId === imported.organizationId)!.id;
  const floorId = (await getFloors(admin, buildingId))[0]!.id;
  await setFloorFrame(admin, floorId, {
    resolution: IMAGE.resolution,
    originX: IMAGE.originX,
    originY: IMAGE.originY,
  });
  const uploaded = await uploadFloorImage(admin, floorId, makePng(IMAGE.width, IMAGE.height));
  expect([uploaded.imgWidth, uploaded.imgHeight]).toEqual([IMAGE.width, IMAGE.height]);
  const empty = await getFloorMap(admin, floorId);
  expect(empty.revision).toBe(0);
  expect(empty.image).toMatchObject({ width: IMAGE.width, resolution: IMAGE.resolution, originX: IMAGE.originX });

  // ---- sign in as the organization admin and open the editor
  await page.goto('/auth/login');
  await submitLogin(page, orgAdmin.loginId, orgAdmin.password);
  // A new operator agrees to the terms first.
  await expect(page).toHaveURL((url) => url.pathname === '/term/agreement');
  await agreeToTerms(page);
  await expect(page).toHaveURL((url) => url.pathname !== '/term/agreement');
  await page.goto(`/editor/floor/${floorId}`);
  const canvas = page.getByTestId('map-canvas');
  await expect(canvas.locator('canvas[data-layer="document"]')).toHaveCount(1);
  await expect(canvas.locator('canvas[data-layer="live"]')).toHaveCount(1);
  await expect(page.getByTestId('status-revision')).toBeVisible();
  await fontsReady(page);
  await noNotifications(page);
  // Fit once the layout is final, then learn where map points are on screen.
  await page.getByTestId('fit').click();
  let view = await measureView(page, canvas);
  // The whole 20 m × 15 m image fits, so the waypoints are far apart on screen.
  expect(view.zoom).toBeGreaterThan(15);
  let [A, B, C] = PLAN.map((p) => view.toScreen(p)) as [Vec, Vec, Vec];
  const tolerance = 2 / view.zoom; // metres: a click lands on a whole pixel

  // ---- three waypoints by mouse
  await page.getByTestId('tool-waypoint').click();
  await expect(page.getByTestId('tool-waypoint')).toHaveAttribute('aria-pressed', 'true');
  for (const at of [A, B, C]) await canvas.click({ position: at });
  for (const at of [A, B, C]) await expect.poll(() => mapInk(page, at)).toBeGreaterThan(200);
  await page.getByTestId('panel-tab-waypoints').click();
  await expect(page.getByTestId('waypoint-list').locator('[data-testid^="waypoint-row-"]')).toHaveCount(3);

  // ---- two edges with the edge tool: A–B and B–C (click one waypoint, then the other)
  await page.getByTestId('tool-edge').click();
  const abMid = mid(A, B);
  const bcMid = mid(B, C);
  expect(await mapInk(page, abMid)).toBe(0);
  await canvas.click({ position: A });
  await canvas.click({ position: B });
  await expect.poll(() => mapInk(page, abMid)).toBeGreaterThan(100);
  await canvas.click({ position: B });
  await canvas.click({ position: C });
  await expect.poll(() => mapInk(page, bcMid)).toBeGreaterThan(100);
  await page.getByTestId('panel-tab-properties').click();
  await expect(page.getByTestId('edge-properties')).toBeVisible();
  await expect(page.getByTestId('save-map')).toBeEnabled();

  // ---- undo from the keyboard: edge B–C, edge A–B, then waypoint C go; redo brings them back
  await canvas.focus();
  await page.keyboard.press('Control+z');
  await expect.poll(() => mapInk(page, bcMid)).toBe(0);
  await expect(page.getByTestId('edge-properties')).toHaveCount(0);
  expect(await mapInk(page, abMid)).toBeGreaterThan(100);
  await page.keyboard.press('Control+z');
  await expect.poll(() => mapInk(page, abMid)).toBe(0);
  await page.keyboard.press('Control+z');
  await expect.poll(() => mapInk(page, C, 8)).toBe(0);
  expect(await mapInk(page, B)).toBeGreaterThan(200);
  await page.getByTestId('panel-tab-waypoints').click();
  await expect(page.getByTestId('waypoint-list').locator('[data-testid^="waypoint-row-"]')).toHaveCount(2);
  await canvas.focus();
  await page.keyboard.press('Control+Shift+z');
  await expect.poll(() => mapInk(page, C)).toBeGreaterThan(200);
  await expect(page.getByTestId('waypoint-list').locator('[data-testid^="waypoint-row-"]')).toHaveCount(3);
  await page.keyboard.press('Control+y');
  await expect.poll(() => mapInk(page, abMid)).toBeGreaterThan(100);
  await page.keyboard.press('Control+Shift+z');
  await expect.poll(() => mapInk(page, bcMid)).toBeGreaterThan(100);

  // ---- a route A → B → C from the selection (select tool: click, Shift+click in order)
  await page.getByTestId('tool-select').click();
  await canvas.click({ position: A });
  await canvas.click({ position: B, modifiers: ['Shift'] });
  await canvas.click({ position: C, modifiers: ['Shift'] });
  await page.getByTestId('panel-tab-routes').click();
  await page.getByTestId('new-route-name').fill('L route');
  await page.getByTestId('create-route').click();
  await expect(page.getByTestId('route-row-1')).toContainText('L route');

  // ---- save: revision 1 on the server, exactly what was drawn
  const saved = page.waitForResponse(
    (res) => res.url().endsWith(`/api/floors/${floorId}/map`) && res.request().method() === 'PUT',
  );
  await page.getByTestId('save-map').click();
  expect((await saved).status()).toBe(200);
  await expect(page.getByTestId('save-map')).toBeDisabled();
  const map = await getFloorMap(admin, floorId);
  expect(map.revision).toBe(1);
  const wps = map.document.waypoints;
  expect(wps.map((w) => w.id)).toEqual([1, 2, 3]);
  wps.forEach((w, i) => {
    expect(Math.abs(w.x - PLAN[i]!.x), `waypoint ${w.id} x`).toBeLessThan(tolerance);
    expect(Math.abs(w.y - PLAN[i]!.y), `waypoint ${w.id} y`).toBeLessThan(tolerance);
  });
  expect(map.document.edges.map((e) => [e.from, e.to])).toEqual([
    [1, 2],
    [2, 3],
  ]);
  expect(map.document.routes).toEqual([{ id: 1, name: 'L route', waypointIds: [1, 2, 3], recorded: null }]);

  // ---- reload: the side panel and the canvas show the saved map
  await noNotifications(page);
  await page.reload();
  await expect(canvas.locator('canvas[data-layer="document"]')).toHaveCount(1);
  await expect(canvas.locator('canvas[data-layer="live"]')).toHaveCount(1);
  await expect(page.getByTestId('draft-notice')).toHaveCount(0);
  await page.getByTestId('panel-tab-waypoints').click();
  const rows = page.getByTestId('waypoint-list').locator('[data-testid^="waypoint-row-"]');
  await expect(rows).toHaveCount(3);
  for (const w of wps) await expect(page.getByTestId(`waypoint-row-${w.id}`)).toContainText(w.name);
  await page.getByTestId('fit').click();
  view = await measureView(page, canvas);
  [A, B, C] = wps.map((w) => view.toScreen(w)) as [Vec, Vec, Vec];
  for (const at of [A, B, C, mid(A, B), mid(B, C)]) await expect.poll(() => mapInk(page, at)).toBeGreaterThan(100);

  // ---- a simulated robot on this floor, standing at A
  const serialNo = `MAP-${stamp}`.slice(0, 24).toUpperCase();
  const robotName = 'Trial bot';
  const created = await createRobot(admin, {
    serialNo,
    name: robotName,
    model: 'pro',
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
  const c = created.credentials;
  robot = await startRobot({
    brokerUrl: c.mqttUrl,
    username: c.username,
    password: c.password,
    manufacturer: c.manufacturer,
    serialNumber: c.serialNumber,
    model: 'pro',
    mapId: `floor-${floorId}`,
    start: { x: wps[0]!.x, y: wps[0]!.y, theta: 0 },
    battery: 90,
    speedScale: 3,
  });
  // The live layer draws it on A.
  await expect.poll(async () => dist((await robotOnScreen(page)) ?? { x: -1e3, y: -1e3 }, A)).toBeLessThan(6);

  // ---- the trial run, started from the editor
  await page.getByTestId('panel-tab-routes').click();
  await page.getByTestId('route-row-1').getByRole('button').first().click();
  const trial = page.getByTestId('trial-run');
  // Mantine selects: a visible input each (robot, route), next to a hidden one with the value.
  const selects = trial.locator('input:not([type="hidden"])');
  await selects.first().click();
  await page.getByRole('option', { name: robotName }).click();
  await expect(selects.first()).toHaveValue(robotName);
  await expect(selects.nth(1)).toHaveValue('L route');
  const lang: Lang = await pageLanguage(page);
  const started = page.waitForResponse(
    (res) => res.url().endsWith(`/api/robots/${created.robot.id}/trial-run`) && res.request().method() === 'POST',
  );
  await trial.getByRole('button', { name: TRIAL_START[lang] }).click();
  const answer = await started;
  expect(answer.status()).toBe(202);
  const order = (await answer.json()) as { orderId: string; waypointIds: number[] };
  expect(order.waypointIds).toEqual([1, 2, 3]);

  // On screen: the marker leaves A, stays on the L A–B–C, passes B and stops on C.
  const seen: Vec[] = [];
  await expect
    .poll(
      async () => {
        const at = await robotOnScreen(page);
        if (at) seen.push(at);
        return at ? dist(at, C) : Infinity;
      },
      { timeout: 30_000, intervals: [100] },
    )
    .toBeLessThan(6);
  const offRoute = seen.filter((p) => Math.min(toSegment(p, A, B), toSegment(p, B, C)) > 8);
  expect(offRoute, 'marker positions off the route').toEqual([]);
  expect(
    seen.some((p) => dist(p, A) > 20 && dist(p, C) > 20),
    'seen on the way',
  ).toBe(true);
  expect(
    seen.some((p) => dist(p, B) < 12),
    'seen at B',
  ).toBe(true);
  // Progress along A → B → C (screen pixels of the path) never goes back by more than the jitter.
  const progress = seen.map((p) => (toSegment(p, A, B) <= toSegment(p, B, C) ? dist(p, A) : dist(A, B) + dist(p, B)));
  const backwards = progress.filter((v, i) => i > 0 && v < progress[i - 1]! - 4);
  expect(backwards, 'the marker went back along the route').toEqual([]);

  // The simulator agrees: the order is done and the robot stands on C.
  const done = await robot.waitFor(
    (s) => s.orderId === order.orderId && !s.driving && s.nodeStates.length === 0,
    15_000,
  );
  expect(done.lastNodeId).toBe('wp-3');
  const end = robot.position();
  expect(Math.hypot(end.x - wps[2]!.x, end.y - wps[2]!.y)).toBeLessThan(0.05);

  // ---- screenshots in both languages
  const shots = path.join(ARTIFACTS_DIR, 'shots');
  mkdirSync(shots, { recursive: true });
  await noNotifications(page);
  await page.screenshot({ path: path.join(shots, `editor-e2e-${lang}.png`) });
  const other: Lang = lang === 'ja' ? 'en' : 'ja';
  await page.getByTestId('language-switch').selectOption(other);
  await expect(page.locator('html')).toHaveAttribute('lang', other);
  await expect(trial.getByRole('button', { name: TRIAL_START[other] })).toBeVisible();
  await fontsReady(page);
  await noNotifications(page);
  await expect.poll(async () => dist((await robotOnScreen(page)) ?? { x: -1e3, y: -1e3 }, C)).toBeLessThan(6);
  await page.screenshot({ path: path.join(shots, `editor-e2e-${other}.png`) });
});
