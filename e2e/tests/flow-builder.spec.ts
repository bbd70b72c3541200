import type { Locator, Page } from '@playwright/test';
import { flowOps } from '@portal/contract';
import { expect, test } from '../support/fixtures.ts';
import { api, tokenFor } from '../support/api.ts';
import { agreeToTerms, DEMO, keepScreen, signIn, useLanguage } from '../support/ui.ts';

/** Texts of the builder (apps/web/src/locales/{ja,en}/flows.ts), read as an operator does. */
const TEXT = {
  ja: {
    addMove: 'ウェイポイントへ移動を追加',
    addPhoto: '写真撮影を追加',
    addSpeak: '発話を追加',
    addLoop: 'ループを追加',
    valid: '問題はありません。保存できます。',
    emptyLoop: 'ループには1つ以上のステップが必要です',
    times: '× 3 回',
  },
  en: { valid: 'No problems: the flow can be saved.', times: '× 3' },
} as const;

/** HTML5 drag and drop by mouse, with the target in the middle of the screen (no scrolling while dragging). */
async function drag(page: Page, source: Locator, target: Locator) {
  await target.evaluate((el) => el.scrollIntoView({ block: 'center' }));
  await source.dragTo(target);
}

test('an administrator builds a flow by mouse (move, photo, speech, loop) on the demo floor, saves and reopens it (ja and en)', async ({
  page,
}) => {
  test.setTimeout(120_000);
  const name = `Builder ${Date.now().toString(36)}`.slice(0, 24);
  await signIn(page, DEMO.orgAdmin);
  if (new URL(page.url()).pathname === '/term/agreement') await agreeToTerms(page);
  await page.waitForURL((url) => url.pathname === '/robot/control');
  await useLanguage(page, 'ja');

  await page.goto('/flow/create');
  await expect(page.getByTestId('flow-builder')).toBeVisible({ timeout: 30_000 });
  await page.getByTestId('flow-name').fill(name);
  const building = page.getByTestId('flow-form-building');
  if ((await building.inputValue()) === '') await building.selectOption({ index: 1 });
  await expect(page.getByTestId('flow-form-floor')).not.toHaveValue('');
  const floorId = Number(await page.getByTestId('flow-form-floor').inputValue());
  // The floor's map is drawn in the path preview (the demo floors have waypoints and a patrol route).
  await expect(page.getByTestId(`flow-preview-floor-${floorId}`).locator('svg circle').first()).toBeVisible();

  // The palette, clicked: each step goes after the one added before it.
  await page.getByRole('button', { name: TEXT.ja.addMove }).click();
  await page.getByRole('button', { name: TEXT.ja.addPhoto }).click();
  await page.getByRole('button', { name: TEXT.ja.addSpeak }).click();
  await page.getByRole('button', { name: TEXT.ja.addLoop }).click();
  await expect(page.getByTestId('flow-step-steps.3')).toContainText(TEXT.ja.emptyLoop);

  // The move's waypoint: the second of the floor's map, chosen in its form.
  await page.getByTestId('flow-step-select-steps.0').click();
  const waypoint = page.getByTestId('flow-step-steps.0').getByTestId('flow-field-waypointId');
  await waypoint.selectOption({ index: 1 });
  const waypointName = (await waypoint.locator('option:checked').textContent())!;
  await expect(page.getByTestId('flow-step-steps.0')).toContainText(waypointName);
  await expect(page.getByTestId('flow-preview-target-1')).toBeVisible();

  // The photo and the speech dragged into the loop, by mouse.
  await drag(page, page.getByTestId('flow-step-head-steps.1'), page.getByTestId('flow-drop-steps.3'));
  await expect(page.getByTestId('flow-step-steps.2.steps.0')).toHaveAttribute('data-kind', 'takePhoto');
  await drag(page, page.getByTestId('flow-step-head-steps.1'), page.getByTestId('flow-drop-steps.2'));
  await expect(page.getByTestId('flow-step-steps.1.steps.1')).toHaveAttribute('data-kind', 'speak');
  // The loop three times.
  await page.getByTestId('flow-step-select-steps.1').click();
  await page.getByTestId('flow-step-steps.1').getByTestId('flow-field-count').fill('3');
  await expect(page.getByTestId('flow-loop-count-steps.1')).toHaveText(TEXT.ja.times);
  // With the loop selected, a new move goes into it; its waypoint is clicked on the path preview.
  await page.getByRole('button', { name: TEXT.ja.addMove }).click();
  await expect(page.getByTestId('flow-step-steps.1.steps.2')).toHaveAttribute('data-kind', 'moveToWaypoint');
  const spot = page
    .locator(`[data-testid="flow-preview-floor-${floorId}"] [data-testid^="flow-preview-waypoint-"]`)
    .nth(3);
  const spotId = Number((await spot.getAttribute('data-testid'))!.split('-').pop());
  await spot.click();
  await expect(page.getByTestId('flow-preview-target-2')).toBeVisible();
  await expect(page.getByTestId('flow-builder-valid')).toHaveText(TEXT.ja.valid);
  await keepScreen(page, 'flow-builder-ja');

  await page.getByTestId('flow-save').click();
  await expect(page).toHaveURL((url) => /^\/flow\/\d+$/.test(url.pathname));
  const id = Number(new URL(page.url()).pathname.split('/').pop());
  const token = await tokenFor(DEMO.orgAdmin.loginId, DEMO.orgAdmin.password);
  const saved = await api.call(flowOps.getFlow, { token, params: { id } });
  expect(saved.definition.steps.map((s) => s.kind)).toEqual(['moveToWaypoint', 'loop']);
  const loop = saved.definition.steps[1]!;
  expect(loop.kind === 'loop' && loop.count).toBe(3);
  expect(loop.kind === 'loop' && loop.steps.map((s) => s.kind)).toEqual(['takePhoto', 'speak', 'moveToWaypoint']);
  expect(loop.kind === 'loop' && loop.steps[2]).toMatchObject({ waypointId: spotId });

  // Reopened in English: the same blocks, the JSON view in sync.
  await useLanguage(page, 'en');
  await page.goto(`/flow/${id}`);
  // The page's code and the flow load first (slow on a busy machine).
  await expect(page.getByTestId('flow-builder')).toBeVisible({ timeout: 30_000 });
  await expect(page.getByTestId('flow-step-steps.0')).toContainText(waypointName);
  await expect(page.getByTestId('flow-loop-count-steps.1')).toHaveText(TEXT.en.times);
  await expect(page.getByTestId('flow-step-steps.1.steps.0')).toHaveAttribute('data-kind', 'takePhoto');
  await expect(page.getByTestId('flow-step-steps.1.steps.1')).toHaveAttribute('data-kind', 'speak');
  await expect(page.getByTestId('flow-builder-valid')).toHaveText(TEXT.en.valid);
  await page.getByTestId('flow-step-select-steps.1.steps.0').click();
  await keepScreen(page, 'flow-builder-en');
  await page.getByTestId('flow-tab-json').click();
  const json = JSON.parse(await page.getByTestId('flow-definition').inputValue()) as unknown;
  expect(json).toEqual(saved.definition);

  await api.call(flowOps.deleteFlow, { token, params: { id } });
  await useLanguage(page, 'ja');
});
