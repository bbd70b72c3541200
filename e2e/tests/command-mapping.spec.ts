import { OCCUPANCY, robotFeatureOps, robotOps } from '@portal/contract';
import { worldFor } from '@portal/robot-sim';
import { expect, test } from '../support/fixtures.ts';
import { api, tokenFor } from '../support/api.ts';
import { startSimProcess, type SimProcess } from '../support/sim-process.ts';
import { robotTenant } from '../support/tenant.ts';
import { agreeToTerms, DEMO, signIn, signOut } from '../support/ui.ts';

/** A free spot of the simulator's plan of the floor to start on. */
function freeSpot(mapId: string): { x: number; y: number; theta: number } {
  const w = worldFor(mapId);
  for (let y = w.bounds.y0 + 1; y < w.bounds.y1 - 1; y += 0.5)
    for (let x = w.bounds.x0 + 1; x < w.bounds.x1 - 1; x += 0.5)
      if (w.occupancyAt(x, y) === OCCUPANCY.free) return { x, y, theta: 0 };
  throw new Error(`no free spot on ${mapId}`);
}

let sim: SimProcess | null = null;
test.afterEach(async () => {
  await sim?.stop();
  sim = null;
});

test('a command mapping made on the screen drives the basic controller of a simulated robot (button and key)', async ({
  page,
}) => {
  test.setTimeout(150_000);
  const { operator, buildingId, floorId, serialNo, created } = await robotTenant('CmdMap', 'pro');
  sim = await startSimProcess([{ created, model: 'pro', floorId, start: freeSpot(`floor-${floorId}`) }]);
  const opToken = await tokenFor(operator.loginId, operator.password);
  await expect
    .poll(
      async () =>
        (await api.call(robotOps.listFleet, { token: opToken, query: { buildingId } })).find(
          (r) => r.serialNo === serialNo,
        )?.live.online,
      { timeout: 20_000 },
    )
    .toBe(true);

  // A system administrator maps "Photo" (on screen and on key P) in mode 10 of the robot's building.
  await signIn(page, DEMO.sysAdmin);
  if (new URL(page.url()).pathname === '/term/agreement') await agreeToTerms(page);
  await page.waitForURL((url) => url.pathname === '/robot/control');
  await page.goto('/command-mapping/create');
  await page.getByTestId('command-mapping-name').fill(`E2E mapping ${Date.now().toString(36)}`);
  await page.getByTestId('command-mapping-building').selectOption(String(buildingId));
  await page.getByTestId('command-mapping-mode').selectOption('10');
  await page.getByTestId('cm-row-0-label').fill('Photo');
  await page.getByTestId('cm-row-0-command').selectOption('takePhoto');
  await page.getByTestId('cm-row-0-key').selectOption('KeyP');
  await page.getByTestId('command-mapping-save').click();
  await page.waitForURL((url) => /^\/command-mapping\/\d+$/.test(url.pathname));
  await signOut(page);

  // The building's operator sees it on the basic controller and runs it.
  await signIn(page, operator);
  await expect(page).toHaveURL((url) => url.pathname === '/term/agreement');
  await agreeToTerms(page);
  await expect(page).toHaveURL((url) => url.pathname === '/robot/control');
  await page.goto(`/app/basic/${serialNo}`);
  const button = page.getByTestId('mapped-Photo');
  await expect(button).toBeEnabled({ timeout: 30_000 });
  const robotId = created.robot.id;
  const photos = async () =>
    (await api.call(robotFeatureOps.listRobotPhotos, { token: opToken, params: { id: robotId }, query: { limit: 50 } }))
      .length;
  const before = await photos();
  await button.click();
  await expect(page.getByTestId('mapped-last')).toBeVisible();
  await expect.poll(photos, { timeout: 30_000 }).toBeGreaterThan(before);

  // The mapped key runs it too.
  const afterClick = await photos();
  await page.locator('body').click({ position: { x: 5, y: 5 } });
  await page.keyboard.press('p');
  await expect.poll(photos, { timeout: 30_000 }).toBeGreaterThan(afterClick);
});
