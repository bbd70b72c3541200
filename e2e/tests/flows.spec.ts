import { flowOps } from '@portal/contract';
import { expect, test } from '../support/fixtures.ts';
import { api, tokenFor } from '../support/api.ts';
import { agreeToTerms, DEMO, keepScreen, signIn, useLanguage } from '../support/ui.ts';

/** Texts of the flow screens (apps/web/src/locales/{ja,en}/flows.ts), read as an operator does. */
const TEXT = {
  ja: { menu: 'フロー', valid: '定義は有効です。', outsideTask: 'タスク開始とタスク完了の間' },
  en: {
    menu: 'Flows',
    valid: 'The definition is valid.',
    outsideTask: 'Only allowed between task start and task complete',
  },
} as const;

test('an administrator creates a flow by typing its definition, then reorders two flows by drag and drop (ja and en)', async ({
  page,
}) => {
  test.setTimeout(120_000);
  const name = `E2E ${Date.now().toString(36)}`.slice(0, 24);
  await signIn(page, DEMO.orgAdmin);
  if (new URL(page.url()).pathname === '/term/agreement') await agreeToTerms(page);
  await page.waitForURL((url) => url.pathname === '/robot/control');
  await useLanguage(page, 'ja');

  await page.getByRole('link', { name: TEXT.ja.menu, exact: true }).first().click();
  await expect(page).toHaveURL((url) => url.pathname === '/flow/settings');
  await page.getByTestId('flow-create').click();
  await expect(page).toHaveURL((url) => url.pathname === '/flow/create');

  await page.getByTestId('flow-name').fill(name);
  const building = page.getByTestId('flow-form-building');
  if ((await building.inputValue()) === '') await building.selectOption({ index: 1 });
  await expect(page.getByTestId('flow-form-floor')).not.toHaveValue('');
  // The visual builder is the default view; the definition is typed in the advanced JSON view.
  await page.getByTestId('flow-tab-json').click();
  const definition = page.getByTestId('flow-definition');
  // A rule of the contract is listed at its step while typing.
  await definition.fill(
    JSON.stringify({ version: 1, steps: [{ kind: 'taskEvent', id: 'e1', level: 0, message: 'x' }] }),
  );
  await expect(page.getByTestId('flow-definition-problems')).toContainText(TEXT.ja.outsideTask);
  await definition.fill(
    JSON.stringify({
      version: 1,
      steps: [
        { kind: 'taskStart', id: 't1', name: '巡回' },
        {
          kind: 'loop',
          id: 'l1',
          count: 3,
          steps: [
            { kind: 'speak', id: 's1', text: '巡回中です', language: 'ja' },
            { kind: 'takePhoto', id: 'p1', camera: 'v1', resolution: '1080p', saveAsTaskImage: true },
          ],
        },
        { kind: 'taskComplete', id: 't2' },
        { kind: 'returnToCharger', id: 'r1' },
      ],
    }),
  );
  await page.getByTestId('flow-definition-format').click();
  await expect(page.getByTestId('flow-definition-valid')).toHaveText(TEXT.ja.valid);
  await expect(page.getByTestId('flow-outline-steps.1.steps.1')).toBeVisible();
  await keepScreen(page, 'flow-create-ja');

  await page.getByTestId('flow-save').click();
  await expect(page).toHaveURL((url) => /^\/flow\/\d+$/.test(url.pathname));
  const id = Number(new URL(page.url()).pathname.split('/').pop());
  await expect(page.getByTestId('flow-title')).toHaveText(name);

  // A second flow on the same floor, then the list in that building and floor.
  const token = await tokenFor(DEMO.orgAdmin.loginId, DEMO.orgAdmin.password);
  const first = await api.call(flowOps.getFlow, { token, params: { id } });
  const second = await api.call(flowOps.createFlow, {
    token,
    body: {
      name: `${name.slice(0, 20)} 2`,
      description: '',
      buildingId: first.buildingId,
      floorId: first.floorId,
      flowGroupId: null,
      enabled: true,
      definition: { version: 1, steps: [{ kind: 'returnToCharger', id: 'r1' }] },
    },
  });
  await page.goto(`/flow/settings?buildingId=${first.buildingId}&floorId=${first.floorId}`);
  await page.getByTestId(`flow-row-${second.id}`).dragTo(page.getByTestId(`flow-row-${id}`));
  await expect
    .poll(async () => {
      const flows = await api.call(flowOps.listFlows, {
        token,
        query: {
          filter: {
            where: { and: [{ buildingId: first.buildingId }, { floorId: first.floorId }] },
            order: 'displayOrder ASC',
          },
        },
      });
      const ids = flows.map((f) => f.id);
      return ids.indexOf(second.id) < ids.indexOf(id);
    })
    .toBe(true);
  await keepScreen(page, 'flow-settings-ja');

  await useLanguage(page, 'en');
  await page.goto(`/flow/${id}`);
  await page.getByTestId('flow-tab-json').click();
  await expect(page.getByTestId('flow-definition-valid')).toHaveText(TEXT.en.valid);
  await keepScreen(page, 'flow-detail-en');
  await page.goto(`/flow/settings?buildingId=${first.buildingId}&floorId=${first.floorId}`);
  await expect(page.getByTestId(`flow-row-${id}`)).toBeVisible();
  await keepScreen(page, 'flow-settings-en');

  await api.call(flowOps.deleteFlow, { token, params: { id: second.id } });
  await api.call(flowOps.deleteFlow, { token, params: { id } });
  await useLanguage(page, 'ja');
});
