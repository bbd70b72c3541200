import { expect, test } from '../support/fixtures.ts';
import { latestAuthCode, latestDeliveryId, tokenFor } from '../support/api.ts';
import { DEMO, pageLanguage, submitLogin, TEXT } from '../support/ui.ts';

/** A six-digit code that differs from `code` in every position. */
const wrongCodeFor = (code: string) =>
  code
    .split('')
    .map((d) => String((Number(d) + 5) % 10))
    .join('');

test('two-step login: the mailed code signs in, a wrong one is refused', async ({ page, consoleErrors }) => {
  // The wrong code is answered 400 AUTH_CODE_MISMATCH on purpose.
  consoleErrors.allowFailedResponse('/api/operators/assertAuthCode', 400);
  const adminToken = await tokenFor(DEMO.sysAdmin.loginId, DEMO.sysAdmin.password);
  const before = await latestDeliveryId(adminToken);

  await page.goto('/auth/login');
  await submitLogin(page, DEMO.twoStep.loginId, DEMO.twoStep.password);
  await expect(page.getByTestId('auth-code-form')).toBeVisible();
  const lang = await pageLanguage(page);
  await expect(page.getByRole('heading', { name: TEXT[lang].codeTitle })).toBeVisible();

  // The code travels by mail; the delivery log (system administrators) shows what was sent.
  let code = '';
  await expect
    .poll(async () => {
      code = await latestAuthCode(adminToken, DEMO.twoStep.loginId, before).then(
        (mail) => mail.code,
        () => '',
      );
      return code;
    })
    .toMatch(/^\d{6}$/);

  await page.getByTestId('auth-code-input').fill(wrongCodeFor(code));
  await page.getByTestId('auth-code-submit').click();
  await expect(page.getByTestId('auth-code-error')).toHaveText(TEXT[lang].codeMismatch);
  await expect(page).toHaveURL((url) => url.pathname === '/auth/login');

  await page.getByTestId('auth-code-input').fill(code);
  await page.getByTestId('auth-code-submit').click();
  await expect(page).toHaveURL((url) => url.pathname === '/robot/control');
  await expect(page.getByTestId('user-menu')).toBeVisible();
});
