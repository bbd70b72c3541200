import { OCCUPANCY } from '@portal/contract';
import { worldFor } from '@portal/robot-sim';
import { expect, test } from '../support/fixtures.ts';
import { robotOps } from '@portal/contract';
import { api, tokenFor } from '../support/api.ts';
import { robotTenant } from '../support/tenant.ts';
import { startSimProcess, type SimProcess } from '../support/sim-process.ts';
import { agreeToTerms, submitLogin } from '../support/ui.ts';

let sim: SimProcess | null = null;
test.afterEach(async () => {
  await sim?.stop();
  sim = null;
});

/** A start pose on the simulator's synthetic plan of the floor with 3 m of free floor ahead (+x). */
function openFloor(mapId: string): { x: number; y: number; theta: number } {
  const w = worldFor(mapId);
  const free = (x: number, y: number) => w.occupancyAt(x, y) === OCCUPANCY.free;
  for (let y = w.bounds.y0 + 1; y < w.bounds.y1 - 1; y += 0.25) {
    for (let x = w.bounds.x0 + 1; x < w.bounds.x1 - 4; x += 0.25) {
      let ok = true;
      for (let dx = -0.5; dx <= 3.5 && ok; dx += 0.1) {
        for (const dy of [-0.6, 0, 0.6]) if (!free(x + dx, y + dy)) ok = false;
      }
      if (ok) return { x, y, theta: 0 };
    }
  }
  throw new Error(`no open floor on ${mapId}`);
}

test('operator screen: live video, W drives the robot, releasing stops it, closing the tab stops it', async ({
  page,
}) => {
  test.setTimeout(120_000);
  const { operator, buildingId, floorId, serialNo, created } = await robotTenant('Teleop', 'ex');
  const start = openFloor(`floor-${floorId}`);
  sim = await startSimProcess([{ created, model: 'ex', floorId, start }]);

  const opToken = await tokenFor(operator.loginId, operator.password);
  const live = async () => {
    const fleet = await api.call(robotOps.listFleet, { token: opToken, query: { buildingId } });
    return fleet.find((r) => r.serialNo === serialNo)!.live;
  };
  await expect.poll(async () => (await live()).online, { timeout: 15_000 }).toBe(true);

  await page.goto('/auth/login');
  await submitLogin(page, operator.loginId, operator.password);
  await expect(page).toHaveURL((url) => url.pathname === '/term/agreement');
  await agreeToTerms(page);
  await expect(page).toHaveURL((url) => url.pathname === '/robot/control');
  await page.goto(`/app/tele-ope/drive/${serialNo}`);

  // Video frames arrive: the element knows its size and its decoded frame count grows.
  const video = page.getByTestId('teleop-video');
  await expect(video).toBeVisible();
  const frames = () =>
    video.evaluate((el) => {
      // The e2e project has no DOM typings: the element is described by what is read of it.
      const v = el as unknown as { videoWidth: number; getVideoPlaybackQuality(): { totalVideoFrames: number } };
      return { width: v.videoWidth, frames: v.getVideoPlaybackQuality().totalVideoFrames };
    });
  await expect.poll(async () => (await frames()).width, { timeout: 20_000 }).toBeGreaterThan(0);
  const first = await frames();
  await expect.poll(async () => (await frames()).frames, { timeout: 10_000 }).toBeGreaterThan(first.frames + 5);
  await expect(page.getByTestId('teleop-state')).not.toHaveAttribute('data-state', 'connecting', { timeout: 15_000 });

  // Holding W drives the robot forward on its floor map; releasing it stops the robot.
  const before = (await live()).position!;
  await page.locator('body').click({ position: { x: 5, y: 5 } });
  await page.keyboard.down('w');
  await expect
    .poll(
      async () => {
        const p = (await live()).position!;
        return Math.hypot(p.x - before.x, p.y - before.y);
      },
      { timeout: 10_000 },
    )
    .toBeGreaterThan(0.3);
  await expect.poll(async () => (await live()).activity).toBe('driving');
  await page.keyboard.up('w');
  await expect.poll(async () => (await live()).activity, { timeout: 5_000 }).not.toBe('driving');
  // It stays where it stopped: reports the robot sends after the stop show the same position.
  const rested = await live();
  const rest = rested.position!;
  let reports = 0;
  let last = rested.lastCommunicationAt;
  await expect
    .poll(
      async () => {
        const now = await live();
        if (now.lastCommunicationAt !== last) {
          last = now.lastCommunicationAt;
          reports++;
        }
        return reports;
      },
      { timeout: 10_000 },
    )
    .toBeGreaterThanOrEqual(3);
  const still = (await live()).position!;
  expect(Math.hypot(still.x - rest.x, still.y - rest.y)).toBeLessThan(0.05);

  // Drive again and close the tab while W is held: the robot stops (how fast is bench:teleop's measure).
  await page.keyboard.down('w');
  await expect.poll(async () => (await live()).activity, { timeout: 5_000 }).toBe('driving');
  await page.close({ runBeforeUnload: true });
  await expect.poll(async () => (await live()).activity, { timeout: 15_000 }).not.toBe('driving');
});
