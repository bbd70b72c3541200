/**
 * Screenshots of two issue 17 follow-ups, in ja and en: the flow builder's path preview with a flow
 * whose only step is a meter check (the drive to the check item, numbered and named), and the check
 * item form after its place was set with a click and its direction with a drag on the floor map (the
 * x, y and direction fields follow). A server on free ports with an empty data directory (the demo
 * floors and their maps), the web build of WEB_DIST, one check item of the simulator's gauge made
 * through the API, Chromium.
 *
 *   WEB_DIST=... node --import tsx e2e/support/followup-shots.ts OUT_DIR   (after a web build)
 */
import { spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { chromium } from '@playwright/test';

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
    DATA_DIR: mkdtempSync(path.join(tmpdir(), 'followup-shots-')),
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
  const floors = await call<Array<{ id: number; name: string; index: number }>>(
    'GET',
    `/buildings/${building.id}/floors`,
    token,
  );
  const floor = [...floors].sort((a, b) => a.index - b.index)[0]!;
  // The simulator's gauge G1 on the first floor (e2e/tests/meter-alert.spec.ts): read facing -90°.
  const item = await call<{ id: number; name: string }>('POST', '/check-items', token, {
    buildingId: building.id,
    floorId: floor.id,
    name: 'Boiler gauge G1',
    type: 'meter',
    status: 1,
    meterType: 'analog',
    readingService: 'builtin',
    qrCodeNumber: 'GAUGE-1',
    taskId: '',
    deviceId: '',
    alerting: false,
    thresholdRuleId: null,
    x: 2,
    y: -0.79,
    z: 1.2,
    direction: -Math.PI / 2,
    markerType: 'qr',
    areaDetectionMarker: false,
    definition: '{"min":0,"max":100,"unit":"kPa"}',
  });

  const browser = await chromium.launch({
    executablePath: '/usr/bin/chromium',
    args: ['--headless', '--no-sandbox', '--disable-gpu'],
  });
  try {
    for (const lang of ['ja', 'en'] as const) {
      const page = await browser.newPage({
        viewport: { width: 1400, height: 1000 },
        deviceScaleFactor: 2,
        locale: lang === 'ja' ? 'ja-JP' : 'en-US',
        baseURL: base,
      });
      await page.goto('/auth/login');
      await page.getByTestId('login-email').fill('orgadmin@demo.example');
      await page.getByTestId('login-password').fill('Demo-OrgAdmin-2026');
      await page.getByTestId('login-submit').click();
      await page.waitForURL((u) => !u.pathname.startsWith('/auth/'), { timeout: 60_000 });
      if (page.url().includes('term')) {
        const agree = page.getByTestId('terms-agree');
        await page.getByTestId('terms-scroll').hover();
        for (let i = 0; i < 30 && (await agree.isDisabled()); i++) await page.mouse.wheel(0, 2000);
        await agree.click();
        await page.waitForURL((u) => !u.pathname.startsWith('/term'), { timeout: 60_000 });
      }
      const sw = page.getByTestId('language-switch');
      if ((await sw.inputValue()) !== lang) await sw.selectOption(lang);
      const settle = async () => {
        await page.evaluate('document.fonts.ready.then(() => true)');
        await sleep(500);
      };

      // 1. The flow builder: one meter check step of the item; the preview draws the drive to it.
      await page.goto('/flow/create');
      await page.getByTestId('flow-name').fill(lang === 'ja' ? 'メーター巡回' : 'Gauge round');
      await page.getByTestId('flow-form-building').selectOption(String(building.id));
      await page.getByTestId('flow-form-floor').selectOption(String(floor.id));
      await page.getByTestId('flow-palette-meterCheck').click();
      const step = page.getByTestId('flow-step-steps.0');
      await step.getByTestId('flow-field-checkItemId').selectOption(String(item.id));
      const target = page.getByTestId('flow-preview').getByTestId('flow-preview-target-1');
      await target.waitFor({ timeout: 60_000 });
      await settle();
      await page.screenshot({ path: path.join(out, `followup-preview-${lang}.png`), fullPage: true });
      await page
        .getByTestId('flow-preview')
        .screenshot({ path: path.join(out, `followup-preview-panel-${lang}.png`), scale: 'device' });

      // 2. The check item form: a click on the floor map places the item, a drag points it.
      await page.goto(`/check-item/${item.id}`);
      const map = page.getByTestId('check-item-map');
      await map.waitFor({ timeout: 60_000 });
      await page.getByTestId('check-item-marker').waitFor({ timeout: 60_000 });
      await map.scrollIntoViewIfNeeded();
      const box = (await map.boundingBox())!;
      const from = { x: box.x + box.width * 0.45, y: box.y + box.height * 0.55 };
      await page.mouse.move(from.x, from.y);
      await page.mouse.down();
      await page.mouse.move(from.x + 40, from.y - 40, { steps: 5 });
      await page.mouse.move(from.x + 80, from.y - 80, { steps: 5 });
      await page.mouse.up();
      const x = await page.getByTestId('check-item-x').inputValue();
      const direction = await page.getByTestId('check-item-direction').inputValue();
      if (x === '2' || direction === '-90') throw new Error(`the map did not set the place: x ${x}, ${direction}°`);
      console.log(`${lang}: x ${x}, y ${await page.getByTestId('check-item-y').inputValue()}, ${direction}°`);
      await page.evaluate('window.scrollTo(0, 0)');
      await settle();
      await page.screenshot({ path: path.join(out, `followup-checkitem-${lang}.png`), fullPage: true });
      await page.close();
    }
  } finally {
    await browser.close();
  }
} finally {
  server.kill('SIGTERM');
}
