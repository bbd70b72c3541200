import type { Page } from '@playwright/test';
import { commandOps } from '@portal/contract';
import { expect, test } from '../support/fixtures.ts';
import { api, tokenFor } from '../support/api.ts';
import { agreeToTerms, DEMO, keepScreen, signIn, signOut, useLanguage } from '../support/ui.ts';

/** Texts of the command screens (apps/web/src/locales/{ja,en}/commands.ts), read as an operator does. */
const TEXT = {
  ja: {
    listTitle: 'コマンドリスト',
    readOnlyTitle: 'コマンドリスト（閲覧のみ）',
    readOnly: 'コマンドの登録・更新・削除は、組織の管理者にお問い合わせください。',
    valid: '定義は正しい形式です。',
    detection: '検知距離は0.5〜5mの範囲で指定してください',
  },
  en: {
    listTitle: 'Command lists',
    readOnlyTitle: 'Command lists (view only)',
    readOnly: 'To register, update or delete commands, ask your organization administrator.',
    valid: 'The definition is valid.',
    detection: 'The detection distance must be between 0.5 and 5 m',
  },
} as const;

/** Signs in, agreeing to the terms when they are pending. */
async function signInAs(page: Page, account: { loginId: string; password: string }) {
  await signIn(page, account);
  if (new URL(page.url()).pathname === '/term/agreement') await agreeToTerms(page);
  await page.waitForURL((url) => url.pathname === '/robot/control');
}

test('an organization administrator creates a command through the screen; operators get the read-only view (ja and en)', async ({
  page,
}) => {
  test.setTimeout(120_000);
  const name = `E2E patrol ${Date.now().toString(36)}`;
  await signInAs(page, DEMO.orgAdmin);
  await useLanguage(page, 'ja');

  // The menu leads to the library; create from there.
  await page.getByRole('link', { name: TEXT.ja.listTitle }).first().click();
  await expect(page).toHaveURL((url) => url.pathname === '/command/list');
  await page.getByTestId('command-create').click();
  await expect(page).toHaveURL((url) => url.pathname === '/command/create');

  await page.getByTestId('command-name').fill(name);
  await page.getByTestId('command-description').fill('ロビーを巡回して写真を撮影します');
  await page.getByTestId('command-category').selectOption('100');
  // Published: the organization's operators see it (read-only).
  await page.getByTestId('command-scope').selectOption('0');
  const models = page.getByTestId('command-models');
  await models.fill('temi');
  await models.press('Enter');
  await page.getByTestId('command-param-add').click();
  await page.getByTestId('command-param-0-name').fill('volume');
  await page.getByTestId('command-param-0-type').selectOption('number');
  await page.getByTestId('command-param-0-preset').fill('40');
  const definition = page.getByTestId('command-definition');
  // A rule the contract checks is shown under the text while typing.
  await definition.fill(
    JSON.stringify({
      version: 1,
      steps: [{ kind: 'wait', id: 'w1', seconds: 30, detectPerson: { camera: 'v1', distanceM: 9 } }],
    }),
  );
  await expect(page.getByTestId('command-definition-problems')).toContainText(TEXT.ja.detection);
  await definition.fill(
    JSON.stringify({
      version: 1,
      steps: [
        { kind: 'speak', id: 's1', text: '巡回を開始します', language: 'ja' },
        { kind: 'takePhoto', id: 's2', camera: 'v1', resolution: '1080p', saveAsTaskImage: false },
        { kind: 'returnToCharger', id: 's3' },
      ],
    }),
  );
  await page.getByTestId('command-definition-format').click();
  await expect(page.getByTestId('command-definition-valid')).toHaveText(TEXT.ja.valid);
  await keepScreen(page, 'command-create-ja');

  await page.getByTestId('command-save').click();
  await expect(page).toHaveURL((url) => /^\/command\/\d+$/.test(url.pathname));
  const id = Number(new URL(page.url()).pathname.split('/').pop());
  await expect(page.getByTestId('command-title')).toHaveText(name);
  await keepScreen(page, 'command-detail-ja');

  await page.goto(`/command/list?q=${encodeURIComponent(name)}`);
  await expect(page.getByTestId(`command-row-${id}`)).toContainText('警備');
  await keepScreen(page, 'command-list-ja');

  await useLanguage(page, 'en');
  await page.goto(`/command/${id}`);
  await expect(page.getByTestId('command-definition-valid')).toHaveText(TEXT.en.valid);
  await keepScreen(page, 'command-detail-en');
  await page.goto(`/command/list?q=${encodeURIComponent(name)}`);
  await expect(page.getByTestId(`command-row-${id}`)).toContainText('Security');
  await keepScreen(page, 'command-list-en');
  await page.goto(`/command/usage/${id}`);
  await expect(page.getByTestId('usage-empty')).toBeVisible();
  await useLanguage(page, 'ja');
  await signOut(page);

  // A general operator opening the list lands on the read-only view with the notice (spec section 6).
  await signInAs(page, DEMO.operator);
  for (const lang of ['ja', 'en'] as const) {
    await useLanguage(page, lang);
    await page.goto(`/command/list?q=${encodeURIComponent(name)}`);
    await expect(page).toHaveURL((url) => url.pathname === '/command/list/read-only');
    await expect(page.getByTestId('command-read-only')).toHaveText(TEXT[lang].readOnly);
    await expect(page.getByRole('heading', { level: 1, name: TEXT[lang].readOnlyTitle })).toBeVisible();
    await expect(page.getByTestId('command-create')).toHaveCount(0);
    await expect(page.getByTestId(`command-row-${id}`)).toContainText(lang === 'ja' ? '公開' : 'Publish');
    await keepScreen(page, `command-read-only-${lang}`);
  }
  await useLanguage(page, 'ja');

  const token = await tokenFor(DEMO.orgAdmin.loginId, DEMO.orgAdmin.password);
  await api.call(commandOps.deleteCommand, { token, params: { id } });
});
