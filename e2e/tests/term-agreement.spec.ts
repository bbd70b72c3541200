import { expect, test } from '../support/fixtures.ts';
import { DEMO, submitLogin } from '../support/ui.ts';

test('pending terms must be read to the end and agreed before the portal opens', async ({ page }) => {
  await page.goto('/auth/login');
  await submitLogin(page, DEMO.terms.loginId, DEMO.terms.password);

  await expect(page).toHaveURL((url) => url.pathname === '/term/agreement');
  const scroll = page.getByTestId('terms-scroll');
  const agree = page.getByTestId('terms-agree');
  await expect(scroll).toBeVisible();
  await expect(agree).toBeDisabled();

  // The documents must overflow the box, or the check below would prove nothing.
  const overflow = await scroll.evaluate((el) => el.scrollHeight - el.clientHeight);
  expect(overflow).toBeGreaterThan(100);

  // Halfway is not enough.
  await scroll.hover();
  await page.mouse.wheel(0, overflow / 2);
  await expect.poll(() => scroll.evaluate((el) => el.scrollTop)).toBeGreaterThan(0);
  await expect(agree).toBeDisabled();

  // To the end, with the wheel as a reader would.
  for (
    let i = 0;
    i < 20 && (await scroll.evaluate((el) => el.scrollHeight - el.clientHeight - el.scrollTop)) > 1;
    i++
  ) {
    await page.mouse.wheel(0, overflow);
  }
  await expect(agree).toBeEnabled();
  await agree.click();

  await expect(page).toHaveURL((url) => url.pathname === '/robot/control');
  await expect(page.getByTestId('user-menu')).toBeVisible();
});
