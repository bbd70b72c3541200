import { expect, test } from '../support/fixtures.ts';
import { adminOps } from '@portal/contract';
import { api, tokenFor } from '../support/api.ts';
import { DEMO, pageLanguage, signIn, TEXT } from '../support/ui.ts';

test.describe('a general operator', () => {
  test('is sent to login from the console and refused the system pages', async ({ page }) => {
    await signIn(page, DEMO.operator);
    const lang = await pageLanguage(page);

    // The console is for administrators: everyone else goes to login, keeping the target.
    await page.goto('/console/SIM-001');
    await expect(page).toHaveURL((url) => url.pathname === '/auth/login');
    expect(new URL(page.url()).searchParams.get('redirect')).toBe('/console/SIM-001');
    await expect(page.getByTestId('login-form')).toBeVisible();

    await page.goto('/auth/init-data');
    await expect(page.getByTestId('forbidden')).toHaveText(TEXT[lang].initDataForbidden);

    await page.goto('/system/deliveries');
    await expect(page.getByTestId('forbidden')).toHaveText(TEXT[lang].forbidden);
  });

  test('gets 403 from the delivery log API', async () => {
    const token = await tokenFor(DEMO.operator.loginId, DEMO.operator.password);
    const res = await api.request(adminOps.listDeliveries, { token, query: { page: 1, perPage: 20 } });
    expect(res.status).toBe(403);
    expect(!res.ok && res.error.code).toBe('FORBIDDEN');
  });
});
