import type { Page } from '@playwright/test';
import {
  checkItemOps,
  floorMapId,
  flowOps,
  flowRunOps,
  organizationOps,
  reportOps,
  robotOps,
  thresholdOps,
  type Floor,
  type ReportDetailView,
} from '@portal/contract';
import { expect as baseExpect, test } from '../support/fixtures.ts';
import { api, createRobot, getBuildings, getFloors, tokenFor } from '../support/api.ts';
import { startSimProcess, type SimProcess } from '../support/sim-process.ts';
import { receivedMails } from '../support/smtp.ts';
import { baseUrl, readState } from '../support/state.ts';
import { agreeToTerms, DEMO, keepScreen, signIn, useLanguage, type Lang } from '../support/ui.ts';

/**
 * Issue 17 "Done when": a simulated gauge set out of range is read by a flow run, and the breach is
 * seen in the threshold log, in the report and in a mail the local SMTP server received
 * (global-setup runs it and gives the server its SMTP_URL). The threshold rule, the check item and
 * the flow are made on their screens; the email target (not the point here) through the API.
 *
 * The simulator's gauges stand on the demo world's floor-1 (docs/meter-reading.md): G1 (QR code
 * `GAUGE-1`, scale 0..100) is read from (2, -0.79) facing -90°.
 */

const DEMO_BUILDING = 'Demo Tower';
const GAUGE = { mapId: 'floor-1', id: 'G1', qr: 'GAUGE-1', x: 2, y: -0.79, z: 1.2, directionDeg: -90 } as const;
/** Out of the rule's 20..80. */
const OUT_OF_RANGE = 93;
/** What the built-in reader may be off by on simulator photos (±2 % of the scale). */
const READ_TOLERANCE = 2;

/** Texts read as an operator does (apps/web/src/locales/{ja,en}/...). */
const TEXT = {
  ja: {
    start: '開始',
    done: '完了',
    valid: '問題はありません。保存できます。',
    meterReading: 'メーター読み取り',
    abnormal: '異常',
  },
  en: {
    start: 'Start',
    done: 'Done',
    valid: 'No problems: the flow can be saved.',
    meterReading: 'Meter reading',
    abnormal: 'Abnormal',
  },
} as const;

/** A number as the web app shows it (lib/format.ts formatNumber). */
const shown = (value: number, lang: Lang) => new Intl.NumberFormat(lang === 'ja' ? 'ja-JP' : 'en-US').format(value);

/** The flow run and the reading take a while on a busy machine: conditions get 30 s, never fixed times. */
const expect = baseExpect.configure({ timeout: 30_000 });
test.use({ actionTimeout: 30_000, navigationTimeout: 60_000 });

let sim: SimProcess | null = null;
const cleanups: Array<() => Promise<unknown>> = [];
test.afterEach(async () => {
  if (sim) await sim.setGauge(GAUGE.mapId, GAUGE.id, 50).catch(() => undefined);
  await sim?.stop();
  sim = null;
  for (const clean of cleanups.splice(0).reverse()) await clean().catch(() => undefined);
});

/** The id at the end of the page's path (`/threshold/12` -> 12). */
const idInUrl = (page: Page) => Number(new URL(page.url()).pathname.split('/').pop());

test('a gauge set out of range and read by a flow run: the breach in the threshold log, the report and a mail', async ({
  page,
}) => {
  test.setTimeout(300_000);
  const token = await tokenFor(DEMO.orgAdmin.loginId, DEMO.orgAdmin.password);
  const building = (await getBuildings(token)).find((b) => b.name === DEMO_BUILDING);
  expect(building, `the demo building "${DEMO_BUILDING}"`).toBeDefined();
  const buildingId = building!.id;
  const floor = (await getFloors(token, buildingId)).find((f: Floor) => floorMapId(f.id) === GAUGE.mapId);
  expect(floor, `the demo building's floor of map ${GAUGE.mapId} (where the simulator's gauges stand)`).toBeDefined();
  const floorId = floor!.id;
  const stamp = `${Date.now().toString(36)}${Math.floor(Math.random() * 1e4).toString(36)}`.toUpperCase();
  const ruleName = `Gauge range ${stamp}`;
  const itemName = `Boiler gauge ${stamp}`;
  const flowName = `Gauge round ${stamp}`.slice(0, 24);
  const mailTo = `meter-${stamp.toLowerCase()}@e2e.example`;

  // ---- a robot of this test on the gauges' floor, in its own simulator process
  const created = await createRobot(token, {
    serialNo: `METER-${stamp}`,
    name: `Meter ${stamp}`.slice(0, 30),
    model: 'pro',
    version: '',
    hardwareRevision: '',
    buildingId,
    floorId,
    groupId: null,
    status: 1,
    longTermRecordingAutoStart: false,
    videoMode: 'medium',
    notes: '',
  });
  const robotId = created.robot.id;
  cleanups.push(() => api.call(robotOps.deleteRobot, { token, params: { id: robotId } }));
  sim = await startSimProcess([{ created, model: 'pro', floorId, start: { x: 3, y: 1, theta: 0 } }]);
  await expect
    .poll(
      async () => {
        const fleet = await api.call(robotOps.listFleet, { token, query: { buildingId } });
        return fleet.find((r) => r.id === robotId)?.live.position?.mapId ?? null;
      },
      { timeout: 20_000 },
    )
    .toBe(GAUGE.mapId);

  // ---- an email target of the building that receives everything (level 0), through the API
  const target = await api.call(organizationOps.createNotifTarget, {
    token,
    params: { id: building!.organizationId },
    body: {
      type: 0,
      level: 0,
      buildingId,
      room: '',
      address: mailTo,
      botLoginId: '',
      spaceId: '',
      language: 'en',
    },
  });
  cleanups.push(() =>
    api.call(organizationOps.deleteNotifTarget, {
      token,
      params: { id: building!.organizationId, ntid: target.id },
    }),
  );

  await signIn(page, DEMO.orgAdmin);
  if (new URL(page.url()).pathname === '/term/agreement') await agreeToTerms(page);
  await page.waitForURL((url) => url.pathname === '/robot/control');
  await useLanguage(page, 'ja');

  // ---- the threshold rule, on its screen: a warning when the value leaves 20..80
  await page.goto('/threshold/create');
  await page.getByTestId('threshold-name').fill(ruleName);
  await page.getByTestId('threshold-level').selectOption('5');
  await page.getByTestId('threshold-condition-0-judgment').selectOption('range');
  await page.getByTestId('threshold-condition-0-min').fill('20');
  await page.getByTestId('threshold-condition-0-max').fill('80');
  await page.getByTestId('threshold-save').click();
  await expect(page).toHaveURL((url) => /^\/threshold\/\d+$/.test(url.pathname));
  const ruleId = idInUrl(page);
  cleanups.push(() => api.call(thresholdOps.deleteThresholdRule, { token, params: { id: ruleId } }));
  await expect(page.getByTestId('threshold-title')).toHaveText(ruleName);
  expect(await api.call(thresholdOps.getThresholdRule, { token, params: { id: ruleId } })).toMatchObject({
    name: ruleName,
    level: 5,
    status: 1,
    conditions: [{ judgment: 'range', min: 20, max: 80 }],
  });

  // ---- the check item, on its screen: the gauge's QR code, its scale, where the robot reads it from
  await page.goto(`/check-item/create?building=${buildingId}`);
  await page.getByTestId('check-item-name').fill(itemName);
  await page.getByTestId('check-item-status').selectOption('1');
  await page.getByTestId('check-item-floor').selectOption(String(floorId));
  await page.getByTestId('check-item-settings-open').click();
  const settings = page.getByRole('dialog');
  await settings.getByTestId('check-item-meter-type').selectOption('analog');
  await settings.getByTestId('check-item-reading-service').selectOption('builtin');
  await settings.getByTestId('check-item-qr').fill(GAUGE.qr);
  await settings.getByTestId('check-item-settings-done').click();
  await expect(settings).toBeHidden();
  await page.getByTestId('check-item-alerting').check();
  await page.getByTestId('check-item-threshold-rule').selectOption(String(ruleId));
  await page.getByTestId('check-item-x').fill(String(GAUGE.x));
  await page.getByTestId('check-item-y').fill(String(GAUGE.y));
  await page.getByTestId('check-item-z').fill(String(GAUGE.z));
  await page.getByTestId('check-item-direction').fill(String(GAUGE.directionDeg));
  await page.getByTestId('check-item-definition').fill('{"min":0,"max":100,"unit":"kPa"}');
  await page.getByTestId('check-item-save').click();
  await expect(page).toHaveURL((url) => /^\/check-item\/\d+$/.test(url.pathname));
  const itemId = idInUrl(page);
  cleanups.push(() => api.call(checkItemOps.deleteCheckItem, { token, params: { id: itemId } }));
  await expect(page.getByTestId('check-item-heading')).toHaveText(itemName);
  const item = await api.call(checkItemOps.getCheckItem, { token, params: { id: itemId } });
  expect(item).toMatchObject({
    name: itemName,
    buildingId,
    floorId,
    type: 'meter',
    status: 1,
    meterType: 'analog',
    readingService: 'builtin',
    qrCodeNumber: GAUGE.qr,
    alerting: true,
    thresholdRuleId: ruleId,
    x: GAUGE.x,
    y: GAUGE.y,
    z: GAUGE.z,
  });
  expect(item.direction).toBeCloseTo(-Math.PI / 2, 5);

  // ---- the flow, in the builder: one meterCheck step of that item
  await page.goto('/flow/create');
  await page.getByTestId('flow-name').fill(flowName);
  await page.getByTestId('flow-form-building').selectOption(String(buildingId));
  await page.getByTestId('flow-form-floor').selectOption(String(floorId));
  await page.getByTestId('flow-palette-meterCheck').click();
  await expect(page.getByTestId('flow-step-steps.0')).toHaveAttribute('data-kind', 'meterCheck');
  // The step just added is the selected one: its form is open.
  const check = page.getByTestId('flow-step-steps.0');
  await check.getByTestId('flow-field-checkItemId').selectOption(String(itemId));
  await expect(check.getByTestId('flow-field-checkItemId')).toHaveValue(String(itemId));
  await expect(page.getByTestId('flow-builder-valid')).toHaveText(TEXT.ja.valid);
  for (const lang of ['en', 'ja'] as const) {
    await useLanguage(page, lang);
    await expect(page.getByTestId('flow-builder-valid')).toHaveText(TEXT[lang].valid);
    await keepScreen(page, `meter-builder-${lang}`);
  }
  await page.getByTestId('flow-save').click();
  await expect(page).toHaveURL((url) => /^\/flow\/\d+$/.test(url.pathname));
  const flowId = idInUrl(page);
  cleanups.push(() => api.call(flowOps.deleteFlow, { token, params: { id: flowId } }));
  const saved = await api.call(flowOps.getFlow, { token, params: { id: flowId } });
  expect(saved.definition.steps).toMatchObject([{ kind: 'meterCheck', checkItemId: itemId }]);
  const stepId = saved.definition.steps[0]!.id;

  // ---- the gauge out of range, then "Run on robot"
  await sim.setGauge(GAUGE.mapId, GAUGE.id, OUT_OF_RANGE);
  await page.getByTestId('flow-run-on-robot').click();
  const dialog = page.getByRole('dialog');
  await dialog.getByTestId('flow-run-choice').selectOption(String(robotId));
  await dialog.getByRole('button', { name: TEXT.ja.start, exact: true }).click();
  const panel = dialog.getByTestId('flow-run-panel');
  await expect(panel).toBeVisible();
  const runId = Number(await panel.getAttribute('data-run-id'));
  const status = panel.getByTestId('flow-run-status');
  await expect(status).toHaveAttribute('data-status', 'done', { timeout: 120_000 });
  await expect(status).toHaveText(TEXT.ja.done);
  await expect(panel.getByTestId(`flow-run-step-${stepId}`)).toHaveAttribute('data-result', 'done');
  expect((await api.call(flowRunOps.getFlowRun, { token, params: { id: runId } })).status).toBe('done');

  // ---- what was recorded: the report's meter detail and the threshold log line it names
  const reportsOfRobot = () =>
    api.call(reportOps.listReports, { token, query: { filter: { where: { robotId } } } as never });
  await expect.poll(async () => (await reportsOfRobot()).map((r) => r.flowRunId), { timeout: 60_000 }).toEqual([runId]);
  const reportId = (await reportsOfRobot())[0]!.id;
  const report: ReportDetailView = await api.call(reportOps.getReport, { token, params: { id: reportId } });
  const detail = report.details.find((d) => d.stepId === stepId);
  expect(detail, `the report's detail of step ${stepId}`).toBeDefined();
  expect(detail).toMatchObject({ kind: 'meterCheck', type: 2, result: 1, errorCode: null });
  const value = detail!.values.value as number;
  expect(Math.abs(value - OUT_OF_RANGE)).toBeLessThanOrEqual(READ_TOLERANCE);
  expect(detail!.values).toMatchObject({ checkItemId: itemId, checkItemName: itemName, unit: 'kPa', qr: GAUGE.qr });
  expect(detail!.photo).not.toBeNull();
  const logId = detail!.values.breachLogId as number;
  expect(logId).toBeGreaterThan(0);

  const logs = await api.call(thresholdOps.listThresholdLogs, {
    token,
    query: { filter: { where: { checkItemId: itemId } } } as never,
  });
  expect(logs).toHaveLength(1);
  expect(logs[0]).toMatchObject({
    id: logId,
    ruleId,
    ruleName,
    checkItemId: itemId,
    checkItemName: itemName,
    value,
    level: 5,
    robotId,
    condition: { judgment: 'range', min: 20, max: 80 },
  });
  expect(logs[0]!.photoUrl).not.toBeNull();
  expect(logs[0]!.notified).toContainEqual(expect.objectContaining({ channel: 'email', targetId: target.id }));

  // ---- the mail, as the local SMTP server received it: once, naming the rule, the item and the value
  const { mailDir } = readState();
  // The target receives every event of the demo building (level 0): robots of earlier tests going
  // offline mail it too, so the breach's mails are the ones counted.
  const mailsTo = () =>
    receivedMails(mailDir).filter((m) => m.to.includes(mailTo) && m.subject.includes('Threshold breached'));
  await expect.poll(() => mailsTo().length, { timeout: 60_000 }).toBe(1);
  const mail = mailsTo()[0]!;
  expect(mail.text).toContain(`${ruleName} / ${itemName} = ${value}`);
  expect(mail.text).toContain(created.robot.name);
  expect(mail.text).toContain(`${baseUrl()}/threshold/log/1`);

  // ---- the screens: the breach in the threshold log, the reading in the report
  for (const lang of ['ja', 'en'] as const) {
    await useLanguage(page, lang);
    await page.goto('/threshold/log/1');
    const row = page.getByTestId(`threshold-log-row-${logId}`);
    await expect(row).toContainText(ruleName);
    await expect(row).toContainText(itemName);
    await expect(row).toContainText(shown(value, lang));
    await expect(row.getByTestId(`threshold-log-notified-${logId}`)).toContainText(mailTo);
    await expect(row.getByTestId(`threshold-log-photo-${logId}`).locator('img')).toHaveJSProperty('complete', true);
    await keepScreen(page, `meter-threshold-log-${lang}`);

    await page.goto(`/report/${reportId}`);
    const line = page.getByTestId(`report-detail-${detail!.seq}`);
    await expect(line).toContainText(TEXT[lang].meterReading);
    await expect(line).toHaveAttribute('data-abnormal', 'true');
    await expect(page.getByTestId(`report-detail-result-${detail!.seq}`)).toContainText(TEXT[lang].abnormal);
    await expect(page.getByTestId(`report-detail-values-${detail!.seq}`)).toContainText(`${value} kPa`);
    await expect(page.getByTestId('report-photos').locator('img').first()).toHaveJSProperty('complete', true);
    await keepScreen(page, `meter-report-${lang}`);
  }
});
