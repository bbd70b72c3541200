/**
 * Screenshots of the work plan screens (docs/api-work-plans.md): a server on free ports with an
 * empty data directory and the web build of WEB_DIST; an organization administrator's work plan
 * made from the shipped elevator template; Chromium on the settings list, the template form and the
 * work plan editor, and the operator screen's work plan panel of a simulated robot (a run open with
 * its first step confirmed), in ja and en.
 *
 *   WEB_DIST=... node --import tsx e2e/support/workplan-shots.ts OUT_DIR   (after a web build)
 */
import { spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { chromium } from '@playwright/test';
import { startRobot } from '@portal/robot-sim';

const ROOT = path.resolve(import.meta.dirname, '../..');
const out = path.resolve(process.argv[2] ?? '/work/notes/screens');

const freePort = () =>
  new Promise<number>((resolve) => {
    const s = createServer();
    s.listen(0, '127.0.0.1', () => {
      const a = s.address();
      s.close(() => resolve(typeof a === 'object' && a ? a.port : 0));
    });
  });
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

const port = await freePort();
const mqttPort = await freePort();
const base = `http://127.0.0.1:${port}`;
const server = spawn(process.execPath, ['--import', 'tsx', 'apps/server/src/main.ts'], {
  cwd: ROOT,
  env: {
    ...process.env,
    HOST: '127.0.0.1',
    PORT: String(port),
    DATA_DIR: mkdtempSync(path.join(tmpdir(), 'wpshots-')),
    MQTT_PORT: String(mqttPort),
    LOG_LEVEL: 'warn',
    SIMULATED_ROBOTS: '0',
    SIMULATED_BUILDING_SYSTEMS: '0',
    DATABASE_URL: '',
    MQTT_URL: '',
    PUBLIC_URL: base,
  },
  stdio: ['ignore', 'inherit', 'inherit'],
});
try {
  for (let i = 0; ; i++) {
    const ok = await fetch(`${base}/api/health`).then(
      (r) => r.ok,
      () => false,
    );
    if (ok) break;
    if (i > 240) throw new Error('server did not start');
    await sleep(500);
  }
  const call = async <T>(method: string, url: string, token: string | null, body?: unknown): Promise<T> => {
    const res = await fetch(`${base}/api${url}`, {
      method,
      headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const json = (await res.json()) as T;
    if (!res.ok) throw new Error(`${method} ${url}: ${res.status} ${JSON.stringify(json)}`);
    return json;
  };
  const { token } = await call<{ token: string }>('POST', '/operators/login', null, {
    loginId: 'orgadmin@demo.example',
    loginPw: 'Demo-OrgAdmin-2026',
  });
  const buildings = await call<Array<{ id: number; name: string }>>('GET', '/buildings', token);
  const building = buildings.find((b) => b.name === 'Demo Tower') ?? buildings[0]!;
  const floors = await call<Array<{ id: number; name: string }>>('GET', `/buildings/${building.id}/floors`, token);
  const floor = floors.find((f) => f.name === '1F') ?? floors[0]!;
  const map = await call<{ document: { waypoints: Array<{ id: number }> } }>('GET', `/floors/${floor.id}/map`, token);
  type Tpl = { id: number; builtinKey: string | null; definition: { steps: Array<{ main: Record<string, unknown> }> } };
  const templates = await call<Tpl[]>('GET', '/work-plan-templates', token);
  const elevator = templates.find((x) => x.builtinKey === 'elevatorRide')!;
  const definition = structuredClone(elevator.definition);
  for (const s of definition.steps)
    if (s.main.kind === 'moveToWaypoint') s.main.waypointId = map.document.waypoints[0]!.id;
  const plan = await call<{ id: number }>('POST', '/work-plans', token, {
    name: 'エレベーターで3階へ / Lift to 3F',
    description: 'Ride to 3F with the right arm',
    buildingId: building.id,
    floorId: floor.id,
    icon: 'elevator',
    type: 0,
    status: 1,
    templateId: elevator.id,
    definition,
  });

  const created = await call<{ robot: { id: number; serialNo: string }; credentials: Record<string, string> }>(
    'POST',
    '/robots',
    token,
    {
      serialNo: 'WP-DEMO-1',
      name: 'Work plan demo',
      model: 'pro',
      version: '',
      hardwareRevision: '',
      buildingId: building.id,
      floorId: floor.id,
      groupId: null,
      status: 1,
      longTermRecordingAutoStart: false,
      videoMode: 'medium',
      notes: '',
    },
  );
  const c = created.credentials;
  const sim = await startRobot({
    brokerUrl: c.mqttUrl!,
    username: c.username!,
    password: c.password!,
    manufacturer: c.manufacturer!,
    serialNumber: c.serialNumber!,
    model: 'pro',
    mapId: `floor-${floor.id}`,
    start: { x: 0, y: 0, theta: 0 },
  });
  const run = await call<{ id: number }>('POST', '/work-plan-runs', token, {
    workPlanId: plan.id,
    robotId: created.robot.id,
  });
  await call('POST', `/work-plan-runs/${run.id}/steps`, token, { stepId: 'toHall' });

  const browser = await chromium.launch({
    executablePath: '/usr/bin/chromium',
    args: ['--headless', '--no-sandbox', '--disable-gpu'],
  });
  try {
    for (const lang of ['ja', 'en'] as const) {
      const page = await browser.newPage({
        viewport: { width: 1280, height: 1000 },
        locale: lang === 'ja' ? 'ja-JP' : 'en-US',
        baseURL: base,
      });
      await page.goto('/auth/login');
      await page.getByTestId('login-email').fill('orgadmin@demo.example');
      await page.getByTestId('login-password').fill('Demo-OrgAdmin-2026');
      await page.getByTestId('login-submit').click();
      await page.waitForURL((u) => !u.pathname.startsWith('/auth/'), { timeout: 60_000 });
      if (page.url().includes('terms')) {
        const agree = page.getByTestId('terms-agree');
        await page.getByTestId('terms-scroll').hover();
        for (let i = 0; i < 30 && (await agree.isDisabled()); i++) await page.mouse.wheel(0, 2000);
        await agree.click();
      }
      const sw = page.getByTestId('language-switch');
      if ((await sw.inputValue()) !== lang) await sw.selectOption(lang);
      const shot = async (name: string) => {
        await page.evaluate('document.fonts.ready.then(() => true)');
        await sleep(500);
        await page.screenshot({ path: path.join(out, `workplan-${name}-${lang}.png`), fullPage: true });
      };
      await page.goto('/workplan/settings');
      await page.getByTestId(`wp-link-${plan.id}`).waitFor({ timeout: 60_000 });
      await shot('settings');
      await page.goto('/workplan/settings?tab=templates');
      await page.getByTestId(`wp-template-link-${elevator.id}`).waitFor({ timeout: 60_000 });
      await shot('templates');
      await page.goto('/workplan/create-template');
      await page.getByTestId('wp-template-name').fill(lang === 'ja' ? '裏口ドア通過' : 'Back door pass');
      await page.getByTestId('wp-step-add').click();
      await page.getByTestId('wp-step-0-type').selectOption('pressLeft');
      await page.getByTestId('wp-step-0-target').fill(lang === 'ja' ? '開扉ボタン' : 'door opener');
      await page.getByTestId('wp-step-0-aux-add').click();
      await page.getByTestId('wp-step-0-aux-add-speak').click();
      await shot('template-form');
      await page.goto(`/workplan/${plan.id}`);
      await page.getByTestId('wp-step-1-target').waitFor({ timeout: 60_000 });
      await shot('editor');
      await page.goto(`/app/tele-ope/watch/${created.robot.serialNo}`);
      await page.getByTestId('teleop-workplan').click({ timeout: 60_000 });
      await page.getByTestId('wp-run-panel').waitFor({ timeout: 60_000 });
      await shot('operator-panel');
      await page.close();
    }
  } finally {
    await browser.close();
    await sim.stop();
  }
} finally {
  server.kill('SIGTERM');
}
