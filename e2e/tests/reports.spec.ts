import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { Download, Page } from '@playwright/test';
import {
  EXPORT_COLUMNS,
  floorMapId,
  flowOps,
  flowRunOps,
  operatorOps,
  reportOps,
  robotOps,
  type Floor,
  type FlowDefinition,
  type MapDocument,
  type ReportDetailView,
} from '@portal/contract';
import { expect as baseExpect, test } from '../support/fixtures.ts';
import { api, createRobot, deleteOperator, getBuildings, getFloorMap, getFloors, tokenFor } from '../support/api.ts';
import { decodeCsv, isUtf8, parseCsv } from '../support/csv.ts';
import { startSimProcess, type SimProcess } from '../support/sim-process.ts';
import { agreeToTerms, DEMO, keepScreen, signIn, useLanguage } from '../support/ui.ts';
import { readZip, rowValues, sheetRows, sheetsOf, type ZipParts } from '../support/xlsx.ts';

/**
 * Issue 16 "Done when": a flow with photos runs on a simulated robot; its report is opened (photos in
 * the viewer, the path), and a CSV in Shift_JIS and an Excel export with a template are downloaded
 * and opened: columns, Japanese text, the template's other sheets intact. The robot is this test's
 * own, in its own simulator process; the flow is seeded through the API (not the subject here).
 */

const DEMO_BUILDING = 'Demo Tower';
const TEMPLATE_FILE = path.join(import.meta.dirname, '..', 'fixtures', 'export-template.xlsx');
/** The task event's text: Japanese, every character in Shift_JIS. */
const EVENT_MESSAGE = '異常なし：消火器と非常口を確認しました';

/** The header row of an export made in Japanese (apps/server/src/modules/report-exports/export-texts.ts). */
const CSV_HEADER_JA: Record<(typeof EXPORT_COLUMNS)[number], string> = {
  reportId: 'レポートID',
  reportType: 'レポート種別',
  buildingName: 'ビル',
  floorName: 'フロア',
  robotName: 'ロボット',
  robotSerial: 'シリアル番号',
  flowName: 'フロー',
  caller: '実行元',
  reportStartedAt: '開始日時',
  reportEndedAt: '終了日時',
  reportResult: 'レポート結果',
  seq: '連番',
  detailType: '明細種別',
  stepKind: 'ステップ',
  detailResult: '明細結果',
  detailStartedAt: '明細開始日時',
  detailEndedAt: '明細終了日時',
  errorCode: 'エラーコード',
  message: 'メッセージ',
  values: '値',
  photo: '写真',
};

/** Texts of the report screens (apps/web/src/locales/{ja,en}/reports.ts), read as an operator does. */
const TEXT = {
  ja: {
    complete: '完了',
    closeViewer: '閉じる',
    done: '完了',
    exportTitle: 'レポートのエクスポート',
    exportForbidden: 'エクスポート権限がありません。',
    photoTitle: (n: number, total: number) => `写真 ${n} / ${total}`,
  },
  en: {
    complete: 'Complete',
    closeViewer: 'Close',
    done: 'Done',
    exportTitle: 'Export reports',
    exportForbidden: 'Insufficient export permission.',
    photoTitle: (n: number, total: number) => `Photo ${n} of ${total}`,
  },
} as const;

/** A loaded machine may take seconds per page: conditions get 30 s (waited for, never fixed times). */
const expect = baseExpect.configure({ timeout: 30_000 });
test.use({ actionTimeout: 30_000, navigationTimeout: 60_000 });

let sim: SimProcess | null = null;
const cleanups: Array<() => Promise<unknown>> = [];
test.afterEach(async () => {
  for (const clean of cleanups.splice(0).reverse()) await clean().catch(() => undefined);
  await sim?.stop();
  sim = null;
});

const waypointNamed = (doc: MapDocument, name: string) => {
  const w = doc.waypoints.find((x) => x.name === name);
  if (!w) throw new Error(`the demo map has no waypoint "${name}"`);
  return w;
};

/** The bytes of a download the page started. */
const bytesOf = async (download: Download) => readFileSync((await download.path())!);

/** Starts an export in the open dialog and downloads its file once done (progress seen on the way). */
async function exportThroughDialog(
  page: Page,
  choice: { format: 'csv' | 'xlsx'; encoding: 'utf-8' | 'shift-jis'; templateId?: number },
): Promise<{ name: string; bytes: Buffer }> {
  await page.getByTestId('report-export').click();
  const dialog = page.getByRole('dialog', { name: TEXT.ja.exportTitle });
  await expect(dialog).toBeVisible();
  await dialog.getByTestId('export-format').selectOption(choice.format);
  await dialog.getByTestId('export-encoding').selectOption(choice.encoding);
  if (choice.templateId !== undefined) {
    const template = dialog.getByTestId('export-template');
    await expect(template.locator(`option[value="${choice.templateId}"]`)).toBeAttached();
    await template.selectOption(String(choice.templateId));
  }
  await dialog.getByTestId('export-start').click();
  await expect(dialog.getByTestId('export-progress')).toBeVisible();
  await expect(dialog.getByTestId('export-done')).toBeVisible({ timeout: 60_000 });
  const downloaded = page.waitForEvent('download');
  await dialog.getByTestId('export-download').click();
  const download = await downloaded;
  return { name: download.suggestedFilename(), bytes: await bytesOf(download) };
}

/** The parts of the template a filled export must keep byte for byte: the Summary sheet, its drawing and chart. */
function keptParts(parts: ZipParts): Map<string, Buffer> {
  const summary = sheetsOf(parts).find((s) => s.name === 'Summary')!;
  const rels = summary.path.replace(/([^/]+)$/, '_rels/$1.rels');
  const names = [
    summary.path,
    rels,
    'xl/drawings/drawing1.xml',
    'xl/drawings/_rels/drawing1.xml.rels',
    'xl/charts/chart1.xml',
  ];
  return new Map(names.map((n) => [n, parts.get(n) ?? Buffer.alloc(0)]));
}

test('a flow with photos runs on a simulated robot; its report shows the photos and path; CSV (Shift_JIS) and Excel (template) exports are downloaded and opened', async ({
  page,
}) => {
  test.setTimeout(420_000);
  const token = await tokenFor(DEMO.orgAdmin.loginId, DEMO.orgAdmin.password);
  const building = (await getBuildings(token)).find((b) => b.name === DEMO_BUILDING);
  expect(building, `the demo building "${DEMO_BUILDING}"`).toBeDefined();
  const buildingId = building!.id;
  const floor = (await getFloors(token, buildingId)).sort((a: Floor, b: Floor) => a.index - b.index)[0]!;
  const map = (await getFloorMap(token, floor.id)).document;
  const standby = waypointNamed(map, 'Standby');
  const stops = map.waypoints.filter((w) => w.id !== standby.id).slice(0, 2);
  expect(stops).toHaveLength(2);

  // ---- seeded through the API: the robot in its simulator, the flow, the run
  const stamp = `${Date.now().toString(36)}${Math.floor(Math.random() * 1e4).toString(36)}`.toUpperCase();
  const robotName = `巡回ロボ ${stamp}`.slice(0, 30);
  const created = await createRobot(token, {
    serialNo: `REPORT-${stamp}`,
    name: robotName,
    model: 'pro',
    version: '',
    hardwareRevision: '',
    buildingId,
    floorId: floor.id,
    groupId: null,
    status: 1,
    longTermRecordingAutoStart: false,
    videoMode: 'medium',
    notes: '',
  });
  const robotId = created.robot.id;
  cleanups.push(() => api.call(robotOps.deleteRobot, { token, params: { id: robotId } }));
  sim = await startSimProcess([
    { created, model: 'pro', floorId: floor.id, start: { x: standby.x, y: standby.y, theta: standby.theta } },
  ]);
  await expect
    .poll(
      async () =>
        (await api.call(robotOps.listFleet, { token, query: { buildingId } })).find((r) => r.id === robotId)!.live
          .position?.mapId ?? null,
      { timeout: 20_000 },
    )
    .toBe(floorMapId(floor.id));

  const flowName = `点検巡回 ${stamp}`.slice(0, 24);
  const definition: FlowDefinition = {
    version: 1,
    steps: [
      { kind: 'taskStart', id: 'task', name: '夜間点検' },
      { kind: 'moveToWaypoint', id: 'move1', waypointId: stops[0]!.id },
      { kind: 'takePhoto', id: 'photo1', camera: 'v1', resolution: '720p', saveAsTaskImage: true },
      { kind: 'moveToWaypoint', id: 'move2', waypointId: stops[1]!.id },
      { kind: 'takePhoto', id: 'photo2', camera: 'v1', resolution: '720p', saveAsTaskImage: true },
      { kind: 'taskEvent', id: 'event', level: 0, message: EVENT_MESSAGE },
      { kind: 'taskComplete', id: 'done' },
    ],
  };
  const flow = await api.call(flowOps.createFlow, {
    token,
    body: {
      name: flowName,
      description: '',
      buildingId,
      floorId: floor.id,
      flowGroupId: null,
      enabled: true,
      definition: definition as never,
    },
  });
  cleanups.push(() => api.call(flowOps.deleteFlow, { token, params: { id: flow.id } }));
  const run = await api.call(flowRunOps.startFlowRun, { token, params: { id: flow.id }, body: { robotId } });
  await expect
    .poll(async () => (await api.call(flowRunOps.getFlowRun, { token, params: { id: run.id } })).status, {
      timeout: 180_000,
      intervals: [1_000],
    })
    .toBe('done');

  // The report the run made: one detail per step, two photos, the path.
  const reports = async () =>
    api.call(reportOps.listReports, { token, query: { filter: { where: { robotId } } } as never });
  await expect.poll(async () => (await reports()).map((r) => r.flowRunId)).toEqual([run.id]);
  const reportId = (await reports())[0]!.id;
  const report: ReportDetailView = await api.call(reportOps.getReport, { token, params: { id: reportId } });
  expect(report).toMatchObject({
    flowName,
    robotName,
    result: 10,
    photoCount: 2,
    detailCount: definition.steps.length,
  });
  expect(report.details.map((d) => d.stepId)).toEqual(definition.steps.map((s) => s.id));

  // ---- the screens
  await signIn(page, DEMO.orgAdmin);
  if (new URL(page.url()).pathname === '/term/agreement') await agreeToTerms(page);
  await page.waitForURL((url) => url.pathname === '/robot/control');
  await useLanguage(page, 'ja');

  await page.goto(`/report/list/1?building=${buildingId}&robot=${robotId}`);
  const row = page.getByTestId(`report-row-${reportId}`);
  await expect(page.getByTestId('report-table').locator('tbody tr')).toHaveCount(1);
  await expect(row).toContainText(flowName);
  await expect(row).toContainText(TEXT.ja.complete);
  await row.getByTestId(`report-link-${reportId}`).click();
  await expect(page).toHaveURL((url) => url.pathname === `/report/${reportId}`);

  // The report: the timeline with the task event's text, two photos, the path with where they were taken.
  const timeline = page.getByTestId('report-timeline');
  await expect(timeline.locator('tbody tr')).toHaveCount(definition.steps.length);
  await expect(timeline).toContainText(EVENT_MESSAGE);
  await expect(page.getByTestId('report-photos').locator('img')).toHaveCount(2);
  const track = page.getByTestId(`track-map-${floor.id}`);
  await expect(track.getByTestId('track-path')).toBeVisible();
  await expect(track.getByTestId('photo-marker-1')).toBeVisible();
  await expect(track.getByTestId('photo-marker-2')).toBeVisible();

  // The photos in the viewer: the first, the next, back to the previous; each one shown.
  const viewer = page.getByTestId('photo-viewer');
  const photoShown = async (n: number) => {
    await expect(viewer.locator('.mantine-Modal-title')).toHaveText(TEXT.ja.photoTitle(n, 2));
    await expect
      .poll(() =>
        viewer
          .getByTestId('photo-viewer-image')
          .evaluate((e) => (e as unknown as { naturalWidth: number }).naturalWidth),
      )
      .toBeGreaterThan(0);
  };
  await page.getByTestId('report-photo-1').click();
  await photoShown(1);
  await viewer.getByTestId('photo-next').click();
  await photoShown(2);
  await viewer.getByTestId('photo-previous').click();
  await photoShown(1);
  await viewer.getByRole('button', { name: TEXT.ja.closeViewer }).click();
  await expect(viewer).toBeHidden();

  for (const lang of ['ja', 'en'] as const) {
    await useLanguage(page, lang);
    await expect(page.getByTestId('report-detail')).toContainText(TEXT[lang].complete);
    await expect(page.getByTestId('report-photos').locator('img').nth(1)).toHaveJSProperty('complete', true);
    await keepScreen(page, `report-detail-${lang}`);
  }
  await useLanguage(page, 'ja');

  // ---- CSV in Shift_JIS, through the list's export dialog (filtered to this robot)
  await page.goto(`/report/list/1?building=${buildingId}&robot=${robotId}`);
  const csv = await exportThroughDialog(page, { format: 'csv', encoding: 'shift-jis' });
  expect(csv.name).toMatch(/\.csv$/);
  expect(isUtf8(csv.bytes), 'Shift_JIS bytes, not UTF-8').toBe(false);
  const { text } = decodeCsv(csv.bytes, 'shift-jis');
  const rows = parseCsv(text);
  expect(rows[0]).toEqual(EXPORT_COLUMNS.map((c) => CSV_HEADER_JA[c]));
  expect(rows.slice(1)).toHaveLength(definition.steps.length);
  const col = (key: (typeof EXPORT_COLUMNS)[number]) => EXPORT_COLUMNS.indexOf(key);
  for (const r of rows.slice(1)) {
    expect(r[col('flowName')]).toBe(flowName);
    expect(r[col('robotName')]).toBe(robotName);
  }
  expect(rows.slice(1).map((r) => r[col('seq')])).toEqual(definition.steps.map((_, i) => String(i + 1)));
  expect(rows.slice(1).map((r) => r[col('stepKind')])).toEqual(definition.steps.map((s) => s.kind));
  const photoRows = rows.slice(1).filter((r) => r[col('detailType')] === '撮影');
  expect(photoRows.map((r) => r[col('stepKind')])).toEqual(['takePhoto', 'takePhoto']);
  for (const r of photoRows) expect(r[col('photo')]).not.toBe('');
  expect(rows.slice(1).find((r) => r[col('detailType')] === 'タスクイベント')?.[col('message')]).toBe(EVENT_MESSAGE);

  // ---- the template, uploaded on its screen
  await page.goto('/report/export-template/create');
  const templateName = `月次報告 ${stamp}`.slice(0, 64);
  await page.getByTestId('template-name').fill(templateName);
  await page.getByTestId('template-file').setInputFiles(TEMPLATE_FILE);
  await page.getByTestId('template-save').click();
  await expect(page).toHaveURL((url) => url.pathname.startsWith('/report/export-template/list/'));
  await expect(page.getByText(templateName)).toBeVisible();
  const template = (await api.call(reportOps.listExportTemplates, { token, query: {} })).find(
    (t) => t.name === templateName,
  )!;
  cleanups.push(() => api.call(reportOps.deleteExportTemplate, { token, params: { id: template.id } }));

  // ---- Excel with the template
  await page.goto(`/report/list/1?building=${buildingId}&robot=${robotId}`);
  const xlsx = await exportThroughDialog(page, { format: 'xlsx', encoding: 'shift-jis', templateId: template.id });
  expect(xlsx.name).toMatch(/\.xlsx$/);
  const original = readZip(readFileSync(TEMPLATE_FILE));
  const book = readZip(xlsx.bytes);
  expect(sheetsOf(book).map((s) => s.name)).toEqual(['Summary', 'RawData']);
  // RawData: the CSV's header and rows, cell for cell (empty cells at a row's end are left out).
  const raw = [...sheetRows(book, 'RawData').values()].map(rowValues);
  expect(raw.map((r) => [...r, ...Array<string>(Math.max(0, EXPORT_COLUMNS.length - r.length)).fill('')])).toEqual(
    rows,
  );
  expect(raw.find((r) => r[col('stepKind')] === 'taskEvent')?.[col('message')]).toBe(EVENT_MESSAGE);
  // The Summary sheet (texts, formulas), its drawing and chart: as the customer made them.
  expect(sheetRows(book, 'Summary')).toEqual(sheetRows(original, 'Summary'));
  for (const [name, bytes] of keptParts(original))
    expect(book.get(name)?.equals(bytes), `${name} kept byte for byte`).toBe(true);

  // ---- the export history lists both
  await page.goto('/report/export-history/1');
  const history = page.getByTestId('export-history-table');
  const line = (fileName: string) => history.locator('tbody tr').filter({ hasText: fileName });
  for (const [file, words] of [
    [csv.name, ['CSV', 'Shift_JIS']],
    [xlsx.name, ['Excel (.xlsx)', 'Shift_JIS', templateName]],
  ] as const) {
    await expect(line(file)).toHaveCount(1);
    for (const w of [...words, TEXT.ja.done]) await expect(line(file)).toContainText(w);
    // The row count, a cell of its own.
    await expect(
      line(file)
        .locator('td')
        .filter({ hasText: new RegExp(`^${definition.steps.length}$`) }),
    ).toHaveCount(1);
  }
  await keepScreen(page, 'report-export-history-ja');
});

test('a general operator without export permission is told so when exporting', async ({ page, consoleErrors }) => {
  test.setTimeout(180_000);
  // The refusal is this test's subject: the browser logs the 403 of the export as a console error.
  consoleErrors.allowFailedResponse('/api/report-exports', 403);
  const token = await tokenFor(DEMO.orgAdmin.loginId, DEMO.orgAdmin.password);
  const building = (await getBuildings(token)).find((b) => b.name === DEMO_BUILDING)!;
  const stamp = `${Date.now().toString(36)}${Math.floor(Math.random() * 1e4).toString(36)}`;
  const account = { loginId: `no-export-${stamp}@e2e.example`, password: 'NoExport-Pass-2026' };
  const operator = await api.call(operatorOps.createOperator, {
    token,
    body: {
      loginId: account.loginId,
      password: account.password,
      firstName: '輸出',
      lastName: '制限',
      type: 0,
      organizationId: building.organizationId,
      buildingId: building.id,
      flowEditRestricted: false,
      exportRestricted: true,
    },
  });
  cleanups.push(() => deleteOperator(token, operator.id));
  expect(operator.exportRestricted).toBe(true);

  // The server refuses the export whatever the screen does.
  const own = await tokenFor(account.loginId, account.password);
  const refused = await api.request(reportOps.createReportExport, {
    token: own,
    body: { format: 'csv', encoding: 'utf-8', templateId: null, selection: {} },
  });
  expect(refused.ok ? refused.status : refused.error.code).toBe('EXPORT_FORBIDDEN');

  // A new operator agrees to the terms first.
  await signIn(page, account);
  await expect(page).toHaveURL((url) => url.pathname === '/term/agreement');
  await agreeToTerms(page);
  await page.waitForURL((url) => url.pathname !== '/term/agreement');
  for (const lang of ['ja', 'en'] as const) {
    await useLanguage(page, lang);
    await page.goto(`/report/list/1?building=${building.id}`);
    await page.getByTestId('report-export').click();
    const dialog = page.getByRole('dialog', { name: TEXT[lang].exportTitle });
    await dialog.getByTestId('export-start').click();
    await expect(dialog.getByRole('alert')).toContainText(TEXT[lang].exportForbidden);
    await expect(dialog.getByTestId('export-progress')).toHaveCount(0);
    await keepScreen(page, `report-export-forbidden-${lang}`, { fullPage: false });
  }
});
