import type { Page } from '@playwright/test';
import { adminOps, authOps, buildingOps, floorOps, sessionSchema } from '@portal/contract';
import { benchApi } from './fleet-server.ts';

/** The system Chromium's flags on this machine (stack-notes.md): headless, no GPU, no background traffic. */
export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Signs in through the login page; a new operator agrees to the terms (read to the end with the wheel). */
export async function signIn(page: Page, base: string, account: { loginId: string; password: string }) {
  await page.goto(`${base}/auth/login`);
  await page.getByTestId('login-email').fill(account.loginId);
  await page.getByTestId('login-password').fill(account.password);
  await page.getByTestId('login-submit').click();
  await page.waitForURL((url) => !url.pathname.startsWith('/auth/'), { timeout: 30_000 });
  const agree = page.getByTestId('terms-agree');
  if (await agree.isVisible().catch(() => false)) {
    await page.getByTestId('terms-scroll').hover();
    for (let i = 0; i < 40 && (await agree.isDisabled()); i++) {
      await page.mouse.wheel(0, 2000);
      await sleep(50);
    }
    await agree.click();
    await page.waitForURL((url) => url.pathname !== '/term/agreement', { timeout: 30_000 });
  }
}

/**
 * A tenant of the benchmark's own: signs the system administrator in, imports an organization with
 * one building (one floor) and these operators, and answers the admin token and the ids.
 */
export async function seedBuilding(
  base: string,
  admin: { loginId: string; loginPw: string },
  names: { organization: string; building: string },
  operators: ReadonlyArray<{ loginId: string; password: string; firstName: string; lastName: string; type: 0 | 1 | 2 }>,
): Promise<{ token: string; buildingId: number; floorId: number }> {
  const api = benchApi(base);
  const { token } = sessionSchema.parse(await api.call(authOps.login, { body: admin }));
  const imported = await api.call(adminOps.importInitData, {
    token,
    body: {
      organization: { name: names.organization, type: 0, labOption: false },
      buildings: [{ name: names.building, floors: [{ name: '1F', index: 1, type: 'office' }] }],
      operators: operators.map((o) => ({ ...o, building: 0 })),
    },
  });
  const buildings = await api.call(buildingOps.listBuildings, {
    token,
    query: { filter: { where: { organizationId: imported.organizationId }, limit: 1 } },
  });
  const buildingId = buildings[0]!.id!;
  const floors = await api.call(floorOps.listFloors, { token, params: { id: buildingId } });
  return { token, buildingId, floorId: floors[0]!.id! };
}
