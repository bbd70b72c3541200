import { startRobot, type SimRobot } from '@portal/robot-sim';
import { expect, test } from '../support/fixtures.ts';
import { robotTenant } from '../support/tenant.ts';
import { agreeToTerms, pageLanguage, submitLogin } from '../support/ui.ts';

/** Robot messages as the control list shows them (apps/web/src/locales/{ja,en}/robots.ts). */
const EMERGENCY_STOP = { ja: '非常停止ボタンが押されています', en: 'Emergency stop button pressed' } as const;

let robot: SimRobot | null = null;
test.afterEach(async () => {
  await robot?.stop();
  robot = null;
});

test('a simulated robot shows live on robot control: battery, status and an emergency stop', async ({ page }) => {
  // A tenant of its own: an organization with one building, floor, operator and robot.
  const { operator, floorId, serialNo, created } = await robotTenant('Fleet', 'pro');
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
  });

  // The operator lands on robot control and sees the robot online.
  await page.goto('/auth/login');
  await submitLogin(page, operator.loginId, operator.password);
  await expect(page).toHaveURL((url) => url.pathname === '/term/agreement');
  await agreeToTerms(page);
  await expect(page).toHaveURL((url) => url.pathname === '/robot/control');
  const lang = await pageLanguage(page);
  const card = page.getByTestId(`robot-card-${serialNo}`);
  await expect(card.getByTestId('robot-status')).toHaveAttribute('data-status', 'available');
  await expect(card.getByTestId('robot-battery')).toContainText('90');

  // Battery and status change without a reload.
  robot.setBattery(57);
  await expect(card.getByTestId('robot-battery')).toContainText('57');
  robot.injectFault('hardwareError');
  await expect(card.getByTestId('robot-status')).toHaveAttribute('data-status', 'repair');
  robot.clearFault('hardwareError');
  await expect(card.getByTestId('robot-status')).toHaveAttribute('data-status', 'available');

  // An emergency stop pressed on the robot shows within 2 s.
  robot.injectFault('emergencyStop');
  await expect(card.getByTestId('robot-issues')).toContainText(EMERGENCY_STOP[lang], { timeout: 2_000 });

  // A dropped connection shows the robot offline (the broker's last will), still without a reload.
  await robot.disconnect({ graceful: false });
  await expect(card.getByTestId('robot-status')).toHaveAttribute('data-status', 'offline');
});
