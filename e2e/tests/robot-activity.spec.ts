import { mkdirSync } from 'node:fs';
import path from 'node:path';
import type { Browser, Page } from '@playwright/test';
import { activityOps } from '@portal/contract';
import { startRobot, type SimRobot } from '@portal/robot-sim';
import { expect, test } from '../support/fixtures.ts';
import { api } from '../support/api.ts';
import { ARTIFACTS_DIR, baseUrl } from '../support/state.ts';
import { robotTenant } from '../support/tenant.ts';
import { agreeToTerms, fontsReady, submitLogin, type Lang } from '../support/ui.ts';

const SCREENS_DIR = path.join(ARTIFACTS_DIR, 'screens');

/** Texts of the activity log (apps/web/src/locales/{ja,en}/robots.ts robotActivity). */
const TEXT = {
  ja: {
    title: 'アクティビティログ',
    estop: '非常停止ボタンが押されました（駆動電源遮断）',
    broken: '接続が途切れました',
    low: 'バッテリー残量低下：15%（20%未満）',
  },
  en: {
    title: 'Activity log',
    estop: 'Emergency stop button pressed (drive power cut)',
    broken: 'Connection lost without a goodbye',
    low: 'Low battery: 15% (below 20%)',
  },
} as const;

let robot: SimRobot | null = null;
test.afterEach(async () => {
  await robot?.stop();
  robot = null;
});

/** Signs in (agreeing to the terms the first time) in a browser of that language and opens the robot's page. */
async function openLog(
  browser: Browser,
  lang: Lang,
  login: { loginId: string; password: string },
  robotId: number,
  firstTime: boolean,
) {
  const context = await browser.newContext({
    baseURL: baseUrl(),
    locale: lang === 'ja' ? 'ja-JP' : 'en-US',
    timezoneId: 'Asia/Tokyo',
    viewport: { width: 1280, height: 900 },
  });
  const page = await context.newPage();
  await page.goto('/auth/login');
  await submitLogin(page, login.loginId, login.password);
  if (firstTime) {
    await expect(page).toHaveURL((url) => url.pathname === '/term/agreement');
    await agreeToTerms(page);
  }
  await expect(page).toHaveURL((url) => url.pathname === '/robot/control');
  await page.goto(`/robot/${robotId}`);
  return { context, page };
}

async function keep(page: Page, name: string) {
  mkdirSync(SCREENS_DIR, { recursive: true });
  await fontsReady(page);
  const section = page.getByTestId('robot-activity-log');
  await section.scrollIntoViewIfNeeded();
  await section.screenshot({ path: path.join(SCREENS_DIR, `${name}.png`) });
}

test('the robot page shows what happened to a simulated robot in its activity log, in ja and en', async ({
  browser,
}) => {
  const { operator, adminToken, floorId, created } = await robotTenant('Activity', 'pro');
  const c = created.credentials;
  robot = await startRobot({
    brokerUrl: c.mqttUrl,
    username: c.username,
    password: c.password,
    manufacturer: c.manufacturer,
    serialNumber: c.serialNumber,
    model: 'pro',
    mapId: `floor-${floorId}`,
    start: { x: 2, y: 2, theta: 0 },
    battery: 90,
    reconnectPeriodMs: 200,
  });
  const sim = robot;
  const id = created.robot.id;

  /** Whether the robot's log (as the API answers it) holds an entry of this code. */
  const logged = async (code: string) =>
    (await api.call(activityOps.listRobotActivity, { token: adminToken, params: { id }, query: {} })).some(
      (e) => e.code === code,
    );
  const until = (code: string) => expect.poll(() => logged(code), { timeout: 15_000 }).toBe(true);

  // What happens to the robot: an error comes and goes, the emergency stop, low battery, a lost link.
  sim.injectFault('hardwareError');
  await until('errorRaised');
  sim.clearFault('hardwareError');
  await until('errorCleared');
  sim.injectFault('emergencyStop');
  await until('pressed');
  sim.clearFault('emergencyStop');
  await until('released');
  sim.setBattery(15);
  await until('low');
  await sim.disconnect({ graceful: false });
  await until('connectionBroken');
  await sim.reconnect();

  for (const lang of ['ja', 'en'] as const) {
    const { context, page } = await openLog(browser, lang, operator, id, lang === 'ja');
    const section = page.getByTestId('robot-activity-log');
    await expect(section.getByRole('heading', { name: TEXT[lang].title })).toBeVisible();
    const texts = section.getByTestId('activity-text');
    await expect(texts.filter({ hasText: TEXT[lang].estop })).toHaveCount(1);
    await expect(texts.filter({ hasText: TEXT[lang].low })).toHaveCount(1);
    await expect(texts.filter({ hasText: TEXT[lang].broken })).toHaveCount(1);
    await keep(page, `robot-activity-${lang}`);

    // The most severe only: the emergency stop and the low battery (alert), the hardware error (critical).
    await section.getByTestId('activity-level-filter').selectOption('2');
    await expect(section.getByTestId('activity-level')).toHaveCount(3);
    await expect(page).toHaveURL(/activityLevel=2/);
    await keep(page, `robot-activity-severe-${lang}`);
    await context.close();
  }
});
