import path from 'node:path';
import { expect, test } from '../support/fixtures.ts';
import { ARTIFACTS_DIR } from '../support/state.ts';
import { DEMO, fontsReady, submitLogin, TEXT, type Lang } from '../support/ui.ts';

const shot = (name: string) => path.join(ARTIFACTS_DIR, name);

test('the language switch changes the texts before and after signing in', async ({ page }) => {
  const languageSwitch = page.getByTestId('language-switch');
  const expectLanguage = async (lang: Lang) => {
    await expect(page.locator('html')).toHaveAttribute('lang', lang);
    await expect(languageSwitch).toHaveValue(lang);
  };

  // The browser prefers Japanese (playwright.config.ts: locale ja-JP).
  await page.goto('/auth/login');
  await expectLanguage('ja');
  await expect(page.getByRole('heading', { name: TEXT.ja.loginTitle })).toBeVisible();

  await languageSwitch.selectOption('en');
  await expectLanguage('en');
  await expect(page.getByRole('heading', { name: TEXT.en.loginTitle })).toBeVisible();
  await expect(page.getByText(TEXT.ja.loginTitle, { exact: true })).toHaveCount(0);
  await fontsReady(page);
  await page.screenshot({ path: shot('login-en.png'), fullPage: true });

  await languageSwitch.selectOption('ja');
  await expectLanguage('ja');
  await expect(page.getByRole('heading', { name: TEXT.ja.loginTitle })).toBeVisible();
  await fontsReady(page);
  await page.screenshot({ path: shot('login-ja.png'), fullPage: true });

  // The area manager has no language saved, so the choice made before signing in stays.
  await languageSwitch.selectOption('en');
  await submitLogin(page, DEMO.manager.loginId, DEMO.manager.password);
  await expect(page).toHaveURL((url) => url.pathname === '/robot/control');
  const nav = page.getByTestId('nav-robotControl');
  // The "Logged in" notice covers the header's controls; the screenshots should show them.
  await expect(page.locator('.mantine-Notification-root')).toHaveCount(0);
  await expect(nav).toHaveText(TEXT.en.navRobotControl);
  await expect(page.getByRole('navigation', { name: TEXT.en.navLabel })).toBeVisible();
  await fontsReady(page);
  await page.screenshot({ path: shot('shell-en.png'), fullPage: true });

  // Signed in, the choice is also saved on the account.
  const saved = page.waitForResponse(
    (res) => res.url().endsWith('/api/my/language') && res.request().method() === 'PUT',
  );
  await languageSwitch.selectOption('ja');
  expect((await saved).status()).toBe(204);
  await expectLanguage('ja');
  await expect(nav).toHaveText(TEXT.ja.navRobotControl);
  await expect(page.getByRole('navigation', { name: TEXT.ja.navLabel })).toBeVisible();
  await fontsReady(page);
  await page.screenshot({ path: shot('shell-ja.png'), fullPage: true });
});
