import { expect, test } from '../support/fixtures.ts';
import { DEMO, submitLogin } from '../support/ui.ts';

test('signing in from a protected page returns to that page', async ({ page }) => {
  await page.goto('/my/devices');

  await expect(page).toHaveURL((url) => url.pathname === '/auth/login');
  expect(new URL(page.url()).searchParams.get('redirect')).toBe('/my/devices');
  await expect(page.getByTestId('login-form')).toBeVisible();

  await submitLogin(page, DEMO.operator.loginId, DEMO.operator.password);

  await expect(page).toHaveURL((url) => url.pathname === '/my/devices');
  await expect(page.getByTestId('user-menu')).toBeVisible();
});
