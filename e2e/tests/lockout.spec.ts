import { MAX_FAILED_LOGINS } from '@portal/contract';
import { expect, test } from '../support/fixtures.ts';
import { importInitData, tokenFor } from '../support/api.ts';
import { E2E_ADMIN } from '../support/state.ts';
import { pageLanguage, submitLoginAndWait, TEXT } from '../support/ui.ts';

test('five wrong passwords lock the account, even against the right one', async ({ page, consoleErrors }) => {
  // Wrong passwords answer 401, the locked account 403: both provoked here.
  consoleErrors.allowFailedResponse('/api/operators/login', 401, 403);

  // A fresh account, so the lock never touches the demo accounts other tests use.
  const stamp = `${Date.now()}-${Math.floor(Math.random() * 1e6)}`;
  const account = { loginId: `lockout-${stamp}@e2e.example`, password: 'Lockout-Pass-2026' };
  const adminToken = await tokenFor(E2E_ADMIN.loginId, E2E_ADMIN.password);
  const result = await importInitData(adminToken, {
    organization: { name: `E2E Lockout ${stamp}`.slice(0, 48), type: 0, labOption: false },
    buildings: [{ name: 'E2E Building', floors: [] }],
    operators: [{ ...account, firstName: 'Lock', lastName: 'Out', type: 0, building: 0 }],
  });
  expect(result.operators).toBe(1);

  await page.goto('/auth/login');
  const lang = await pageLanguage(page);
  const error = page.getByTestId('login-error');

  for (let i = 1; i <= MAX_FAILED_LOGINS; i++) {
    const status = await submitLoginAndWait(page, account.loginId, `Wrong-Pass-${i}-2026`);
    if (i < MAX_FAILED_LOGINS) {
      expect(status, `attempt ${i}`).toBe(401);
      await expect(error).toHaveText(TEXT[lang].loginFailed);
    } else {
      // The attempt that reaches the limit may already answer with the lock.
      expect([401, 403], `attempt ${i}`).toContain(status);
      await expect(error).toBeVisible();
    }
  }

  const status = await submitLoginAndWait(page, account.loginId, account.password);
  expect(status).toBe(403);
  await expect(error).toHaveText(TEXT[lang].accountLocked);
  await expect(page).toHaveURL((url) => url.pathname === '/auth/login');
});
