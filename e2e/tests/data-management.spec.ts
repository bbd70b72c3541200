import path from 'node:path';
import type { Page } from '@playwright/test';
import { buildingOps } from '@portal/contract';
import { expect, test, type ConsoleErrors } from '../support/fixtures.ts';
import {
  addIpRule,
  api,
  createBuilding,
  deleteBuilding,
  deleteIpRule,
  deleteOperator,
  getBuildings,
  getIpRestriction,
  getOrganizations,
  tokenFor,
} from '../support/api.ts';
import { makePng } from '../support/png.ts';
import { ARTIFACTS_DIR } from '../support/state.ts';
import {
  agreeToTerms,
  DEMO,
  fontsReady,
  noNotifications,
  pageLanguage,
  signIn,
  signOut,
  submitLogin,
  submitLoginAndWait,
  TEXT,
  type Lang,
} from '../support/ui.ts';

const shot = (name: string) => path.join(ARTIFACTS_DIR, `data-management-${name}.png`);
/** Unique per run and test, short enough for a building name (at most 40 characters). */
const uniqueStamp = () => `${Date.now().toString(36)}${Math.floor(Math.random() * 1e4).toString(36)}`;

/** A building of the demo organization, made through the API for the tests that only need one to exist. */
async function apiBuilding(token: string, name: string) {
  const [organization] = await getOrganizations(token);
  if (!organization) throw new Error('the organization administrator sees no organization');
  return createBuilding(token, {
    name,
    prefecture: '13', // 東京都
    city: '',
    address: '',
    postalCode: '',
    latitude: null,
    longitude: null,
    organizationId: organization.id,
    status: 1,
  });
}

/** Waits for the answer of `method` on an API path (exact, without query) while `action` runs. */
async function answerOf(page: Page, method: string, apiPath: string, action: () => Promise<void>): Promise<number> {
  const answered = page.waitForResponse(
    (res) => res.request().method() === method && new URL(res.url()).pathname === `/api${apiPath}`,
  );
  await action();
  return (await answered).status();
}

/** The second page of a test gets the same console-error check as the fixture's page. */
function watchConsole(page: Page, consoleErrors: ConsoleErrors): void {
  page.on('console', (msg) => consoleErrors.onConsole(msg));
  page.on('pageerror', (err) => consoleErrors.onPageError(err));
}

test('an organization administrator sets up a building with an IP allow-list, a floor and an operator', async ({
  page,
  consoleErrors,
}) => {
  test.setTimeout(120_000);
  // The last login, from an address the allow-list no longer admits, is refused with 403 on purpose.
  consoleErrors.allowFailedResponse('/api/operators/login', 403);

  const stamp = uniqueStamp();
  const buildingName = `E2E Building ${stamp}`;
  const operator = {
    loginId: `dm-operator-${stamp}@e2e.example`,
    password: `Field-Op-${stamp.slice(0, 6)}!2026`,
    lastName: 'Kimura',
    firstName: 'Aoi',
  };
  const adminToken = await tokenFor(DEMO.orgAdmin.loginId, DEMO.orgAdmin.password);

  await signIn(page, DEMO.orgAdmin);
  const text = TEXT[await pageLanguage(page)];

  // 1. The building, through /building/create.
  await page.goto('/building/create');
  await page.getByLabel(text.buildingName).fill(buildingName);
  expect(await answerOf(page, 'POST', '/buildings', () => page.getByTestId('building-save').click())).toBe(201);
  await expect(page).toHaveURL((url) => /^\/building\/\d+$/.test(url.pathname));
  const buildingId = Number(new URL(page.url()).pathname.split('/').pop());
  await expect(page.getByRole('heading', { level: 1, name: buildingName })).toBeVisible();

  // 2. Security settings: allow 127.0.0.1 (where this browser connects from), then switch the restriction on.
  await page.getByTestId('tab-security').click();
  await expect(page).toHaveURL((url) => url.searchParams.get('tab') === 'security');
  await page.getByTestId('ip-address').fill('127.0.0.1');
  expect(
    await answerOf(page, 'POST', `/buildings/${buildingId}/ip-rules`, () => page.getByTestId('ip-add').click()),
  ).toBe(201);
  await expect(page.getByTestId('ip-rules')).toContainText('127.0.0.1');
  await expect(page.getByText(text.ipOnList, { exact: true })).toBeVisible();
  const ipSwitch = page.getByRole('switch', { name: text.ipSwitch });
  await expect(ipSwitch).not.toBeChecked();
  // Not check(): the switch follows the server's answer, so it turns on only after the request.
  await ipSwitch.click();
  // Our address is on the list, so no lock-out confirmation is expected; should one appear, confirm it.
  const confirm = page.getByTestId('confirm-button');
  await expect(page.getByText(text.ipEnabled).or(confirm)).toBeVisible();
  if (await confirm.isVisible()) await confirm.click();
  await expect(page.getByText(text.ipEnabled)).toBeVisible();
  await expect(ipSwitch).toBeChecked();
  const restriction = await getIpRestriction(adminToken, buildingId);
  expect(restriction.enabled).toBe(true);
  expect(restriction.rules.map((r) => r.address)).toEqual(['127.0.0.1']);
  expect(restriction.clientIpAllowed).toBe(true);

  // 3. Floor B1 with a map image uploaded through the file input.
  await page.getByTestId('tab-floors').click();
  await page.getByTestId('floor-add').click();
  await expect(page).toHaveURL((url) => url.pathname === `/building/${buildingId}/floor/create`);
  await page.getByTestId('floor-name').fill('B1');
  await page.getByTestId('floor-number').selectOption({ label: 'B1' });
  expect(
    await answerOf(page, 'POST', `/buildings/${buildingId}/floors`, () => page.getByTestId('floor-save').click()),
  ).toBe(201);
  await expect(page).toHaveURL((url) => /^\/building\/floor\/\d+$/.test(url.pathname));
  const floorId = Number(new URL(page.url()).pathname.split('/').pop());
  const png = makePng(320, 200);
  const uploaded = await answerOf(page, 'PUT', `/floors/${floorId}/map-image`, () =>
    page.locator('input[type="file"]').setInputFiles({ name: 'b1-map.png', mimeType: 'image/png', buffer: png }),
  );
  expect(uploaded).toBe(200);
  const preview = page.getByTestId('map-image-preview');
  await expect(preview).toBeVisible();
  // The browser really decoded the image (not a broken-image icon): its natural size is the PNG's.
  await expect
    .poll(() =>
      preview.evaluate((img: { complete: boolean; naturalWidth: number }) => img.complete && img.naturalWidth),
    )
    .toBe(320);
  await expect(page.getByTestId('map-image-size')).toHaveText(text.mapImageSize(320, 200));

  // 4. A general operator of that building, through /operator/create.
  await page.goto('/operator/list');
  await page.getByTestId('operator-create').click();
  await expect(page).toHaveURL((url) => url.pathname === '/operator/create');
  await page.getByTestId('op-login-id').fill(operator.loginId);
  await page.getByTestId('op-last-name').fill(operator.lastName);
  await page.getByTestId('op-first-name').fill(operator.firstName);
  await page.getByTestId('op-password').fill(operator.password);
  await page.getByTestId('op-type').selectOption('0');
  await page.getByTestId('op-building').selectOption({ label: buildingName });
  expect(await answerOf(page, 'POST', '/operators', () => page.getByTestId('operator-save').click())).toBe(201);
  await expect(page).toHaveURL((url) => /^\/operator\/\d+$/.test(url.pathname));
  const operatorId = Number(new URL(page.url()).pathname.split('/').pop());

  // 5. The operator signs in (agreeing to the terms first) and sees only that building.
  await noNotifications(page);
  await signOut(page);
  await submitLogin(page, operator.loginId, operator.password);
  await expect(page).toHaveURL((url) => url.pathname === '/term/agreement');
  await agreeToTerms(page);
  // The administrator's last page is not carried over to the next user: they land on robot control.
  await expect(page).toHaveURL((url) => url.pathname === '/robot/control');
  const opText = TEXT[await pageLanguage(page)];
  await expect(page.getByRole('button', { name: opText.locationButton(buildingName) })).toBeVisible();
  // The new building has no robots yet: robot control says so.
  await expect(page.getByTestId('robots-empty')).toBeVisible();
  // A general operator cannot switch: the dialog only names the building.
  await noNotifications(page);
  await page.getByTestId('location-button').click();
  await expect(page.getByTestId('location-readonly')).toHaveText(buildingName);
  await expect(page.getByRole('dialog').getByRole('radio')).toHaveCount(0);
  await page.keyboard.press('Escape');
  await expect(page.getByTestId('location-readonly')).toHaveCount(0);

  const operatorToken = await tokenFor(operator.loginId, operator.password);
  const visible = await getBuildings(operatorToken);
  expect(visible.map((b) => ({ id: b.id, name: b.name }))).toEqual([{ id: buildingId, name: buildingName }]);

  // 6. The allow-list is enforced: once it no longer admits 127.0.0.1, the operator is refused.
  await signOut(page);
  const other = await addIpRule(adminToken, buildingId, '10.0.0.0/8', 'Another network');
  const local = restriction.rules.find((r) => r.address === '127.0.0.1');
  if (!local) throw new Error('the 127.0.0.1 rule is gone');
  await deleteIpRule(adminToken, local.id);
  const now = await getIpRestriction(adminToken, buildingId);
  expect(now).toMatchObject({ enabled: true, clientIpAllowed: false });
  expect(now.rules.map((r) => r.id)).toEqual([other.id]);

  // A session from before is refused on its next request too (the check runs on every request).
  const refused = await api.request(buildingOps.listBuildings, { token: operatorToken });
  expect(refused.status).toBe(403);
  expect(!refused.ok && refused.error.code).toBe('IP_NOT_ALLOWED');

  const loginText = TEXT[await pageLanguage(page)];
  expect(await submitLoginAndWait(page, operator.loginId, operator.password)).toBe(403);
  await expect(page.getByTestId('login-error')).toHaveText(loginText.ipNotAllowed);
  await expect(page).toHaveURL((url) => url.pathname === '/auth/login');

  // Leave the demo organization as it was.
  await deleteOperator(adminToken, operatorId);
  await deleteBuilding(adminToken, buildingId);
});

test('a duplicate organization name is refused under the name field and creates nothing', async ({
  page,
  consoleErrors,
}) => {
  // The server answers the duplicate with 409 DUPLICATE on purpose.
  consoleErrors.allowFailedResponse('/api/organizations', 409);
  const adminToken = await tokenFor(DEMO.sysAdmin.loginId, DEMO.sysAdmin.password);
  const before = await getOrganizations(adminToken);
  expect(before.filter((o) => o.name.toLowerCase() === 'demo facilities co.').map((o) => o.name)).toEqual([
    'Demo Facilities Co.',
  ]);

  await signIn(page, DEMO.sysAdmin);
  const text = TEXT[await pageLanguage(page)];
  await page.goto('/organization/create');
  const name = page.getByTestId('org-name');
  await name.fill('demo facilities co.');
  expect(await answerOf(page, 'POST', '/organizations', () => page.getByTestId('organization-save').click())).toBe(409);

  await expect(name).toHaveAttribute('aria-invalid', 'true');
  await expect(name).toHaveAccessibleDescription(text.orgDuplicateName);
  await expect(name).toHaveValue('demo facilities co.');
  await expect(page).toHaveURL((url) => url.pathname === '/organization/create');

  const after = await getOrganizations(adminToken);
  expect(after.length).toBe(before.length);
  expect(after.map((o) => o.id).sort()).toEqual(before.map((o) => o.id).sort());
});

test('a stale building edit shows the conflict, keeps what was typed, and the first change stays', async ({
  page,
  context,
  consoleErrors,
}) => {
  const adminToken = await tokenFor(DEMO.orgAdmin.loginId, DEMO.orgAdmin.password);
  const building = await apiBuilding(adminToken, `E2E Conflict ${uniqueStamp()}`);
  // The second save is based on an old version: 409 STALE_UPDATE on purpose.
  consoleErrors.allowFailedResponse(`/api/buildings/${building.id}`, 409);

  await signIn(page, DEMO.orgAdmin);
  const text = TEXT[await pageLanguage(page)];
  const second = await context.newPage();
  watchConsole(second, consoleErrors);

  // Both pages open the same version of the building.
  for (const p of [page, second]) {
    await p.goto(`/building/${building.id}`);
    await expect(p.getByLabel(text.buildingName)).toHaveValue(building.name);
  }

  await page.getByLabel(text.buildingCity, { exact: true }).fill('千代田区');
  expect(
    await answerOf(page, 'PATCH', `/buildings/${building.id}`, () => page.getByTestId('building-save').click()),
  ).toBe(200);

  const secondCity = second.getByLabel(text.buildingCity, { exact: true });
  await secondCity.fill('港区');
  await second.getByLabel(text.buildingName).fill(`${building.name} (2)`);
  expect(
    await answerOf(second, 'PATCH', `/buildings/${building.id}`, () => second.getByTestId('building-save').click()),
  ).toBe(409);
  const conflict = second.getByRole('dialog', { name: text.conflictTitle });
  await expect(conflict).toBeVisible();
  // What was typed is kept.
  await expect(secondCity).toHaveValue('港区');
  await expect(second.getByLabel(text.buildingName)).toHaveValue(`${building.name} (2)`);

  // The stored building is the first change, not the second.
  const stored = await api.call(buildingOps.getBuilding, { token: adminToken, params: { id: building.id } });
  expect(stored).toMatchObject({ name: building.name, city: '千代田区' });

  // "Show the stored version", then a full reload, both show the first change.
  await conflict.getByRole('button', { name: text.conflictReload }).click();
  await expect(conflict).toHaveCount(0);
  await expect(secondCity).toHaveValue('千代田区');
  await second.reload();
  await expect(second.getByLabel(text.buildingName)).toHaveValue(building.name);
  await expect(second.getByLabel(text.buildingCity, { exact: true })).toHaveValue('千代田区');
  await second.close();

  await deleteBuilding(adminToken, building.id);
});

test('the security settings and the operator list in Japanese and English (screenshots)', async ({ page }) => {
  test.setTimeout(90_000);
  const adminToken = await tokenFor(DEMO.orgAdmin.loginId, DEMO.orgAdmin.password);
  const building = await apiBuilding(adminToken, `E2E Screens ${uniqueStamp()}`);
  await addIpRule(adminToken, building.id, '192.0.2.0/24', 'Head office');
  await addIpRule(adminToken, building.id, '2001:db8::/32', 'VPN');

  await signIn(page, DEMO.orgAdmin);
  const languageSwitch = page.getByTestId('language-switch');

  const useLanguage = async (lang: Lang) => {
    if ((await languageSwitch.inputValue()) !== lang) {
      // Signed in, the choice is saved on the account.
      expect(await answerOf(page, 'PUT', '/my/language', () => languageSwitch.selectOption(lang).then(() => {}))).toBe(
        204,
      );
    }
    await expect(page.locator('html')).toHaveAttribute('lang', lang);
  };
  const capture = async (lang: Lang) => {
    await useLanguage(lang);

    await page.goto(`/building/${building.id}?tab=security`);
    await expect(page.getByRole('heading', { level: 2, name: TEXT[lang].securityTitle })).toBeVisible();
    await expect(page.getByTestId('ip-rules')).toContainText('192.0.2.0/24');
    await expect(page.getByTestId('ip-lockout-warning')).toBeVisible();
    await noNotifications(page);
    await fontsReady(page);
    await page.screenshot({ path: shot(`building-security-${lang}`), fullPage: true });

    await page.goto('/operator/list');
    await expect(page.getByRole('heading', { level: 1, name: TEXT[lang].operatorsTitle })).toBeVisible();
    await expect(page.getByTestId('operator-table')).toBeVisible();
    await noNotifications(page);
    await fontsReady(page);
    await page.screenshot({ path: shot(`operator-list-${lang}`), fullPage: true });
  };

  await capture('ja');
  await capture('en');
  // Leave the account in Japanese, the browser's language, as other tests expect.
  await useLanguage('ja');

  await deleteBuilding(adminToken, building.id);
});
