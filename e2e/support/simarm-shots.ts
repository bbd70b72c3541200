/**
 * Screenshots of the arm's button press on the operator screen (apps/robot-sim/README.md "Button panels and
 * the arm"): a server on free ports with an empty data directory, a simulated ugo Pro standing before
 * the demo world's elevator hall panel (tied to an in-process elevator bank), and Chromium pressing
 * on the depth image: before, after a hit and after a miss, in ja and en.
 *
 *   node --import tsx e2e/support/simarm-shots.ts OUT_DIR   (after `npm run build:web`)
 */
import { spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { chromium } from '@playwright/test';
import { buttonPixel, demoButtonPanels, ElevatorBank, panelViewpoint, startRobot, worldFor } from '@portal/robot-sim';

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
    DATA_DIR: mkdtempSync(path.join(tmpdir(), 'simarm-')),
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
const stops: Array<() => Promise<unknown>> = [async () => server.kill('SIGTERM')];
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
  const call = async (method: string, url: string, token: string | null, body?: unknown) => {
    const res = await fetch(`${base}/api${url}`, {
      method,
      headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const json = (await res.json()) as Record<string, unknown>;
    if (!res.ok) throw new Error(`${method} ${url}: ${res.status} ${JSON.stringify(json)}`);
    return json as Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
  };
  const admin = (await call('POST', '/operators/login', null, {
    loginId: 'orgadmin@demo.example',
    loginPw: 'Demo-OrgAdmin-2026',
  })) as { token: string };
  const buildings = (await call('GET', '/buildings', admin.token)) as unknown as
    Array<{ id: number; name: string }> | { items: Array<{ id: number; name: string }> };
  const building = (Array.isArray(buildings) ? buildings : buildings.items).find((b) => b.name === 'Demo Tower')!;
  const floors = (await call('GET', `/buildings/${building.id}/floors`, admin.token)) as unknown as
    Array<{ id: number }> | { items: Array<{ id: number }> };
  const floorId = (Array.isArray(floors) ? floors : floors.items)[0]!.id;
  const created = await call('POST', '/robots', admin.token, {
    serialNo: 'ARM-DEMO-1',
    name: 'Arm demo',
    model: 'pro',
    version: '',
    hardwareRevision: '',
    buildingId: building.id,
    floorId,
    groupId: null,
    status: 1,
    longTermRecordingAutoStart: false,
    videoMode: 'medium',
    notes: '',
  });
  const c = created.credentials as Record<string, string>;
  const mapId = `floor-${floorId}`;
  const pose = panelViewpoint(demoButtonPanels(mapId).find((p) => p.id === 'hall')!);
  const bank = new ElevatorBank('A', [0, 1, 2, 3], 1);
  let clock = 0;
  const sim = await startRobot({
    brokerUrl: c.mqttUrl!,
    username: c.username!,
    password: c.password!,
    manufacturer: c.manufacturer!,
    serialNumber: c.serialNumber!,
    model: 'pro',
    mapId,
    start: pose,
    building: { banks: new Map([['A', bank]]), doors: new Map(), floor: 1 },
  });
  stops.unshift(() => sim.stop());
  const up = buttonPixel({ pose, eyeHeight: 1.2, world: worldFor(mapId) }, 'hall-up')!;

  const browser = await chromium.launch({
    executablePath: '/usr/bin/chromium',
    args: ['--headless', '--no-sandbox', '--disable-gpu'],
  });
  stops.unshift(() => browser.close());
  for (const lang of ['ja', 'en'] as const) {
    const page = await browser.newPage({
      viewport: { width: 1280, height: 900 },
      locale: lang === 'ja' ? 'ja-JP' : 'en-US',
      baseURL: base,
    });
    await page.goto('/auth/login');
    await page.getByTestId('login-email').fill('operator@demo.example');
    await page.getByTestId('login-password').fill('Demo-Operator-2026');
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
    await page.goto(`/app/tele-ope/drive/${c.serialNumber}`);
    await page.getByRole('tab', { name: lang === 'ja' ? 'アーム' : 'Arm' }).click({ timeout: 60_000 });
    const panel = page.getByTestId('depth-press');
    await panel.locator('img').waitFor({ timeout: 60_000 });
    await page.evaluate('document.fonts.ready.then(() => true)');
    await panel.screenshot({ path: path.join(out, `simarm-before-${lang}.png`) });

    const area = page.getByTestId('depth-image-area');
    const box = (await area.boundingBox())!;
    const at = (u: number, v: number) => ({ x: ((u + 0.5) * box.width) / 640, y: ((v + 0.5) * box.height) / 480 });
    const text = {
      ja: { hit: '押しました: エレベーター呼び出し（上）', miss: 'そこに押せるものはありません' },
      en: { hit: 'Pressed: Elevator call (up)', miss: 'Nothing to press there' },
    }[lang];
    await area.click({ position: at(up.u, up.v) });
    await panel.getByText(text.hit).waitFor({ timeout: 60_000 });
    // The image after the press shows the lit button (amber): wait for the refreshed image.
    await page.waitForTimeout(4000);
    await panel.screenshot({ path: path.join(out, `simarm-hit-${lang}.png`) });

    await area.click({ position: at(up.u + 160, up.v + 40) });
    await panel.getByText(text.miss).waitFor({ timeout: 60_000 });
    await panel.screenshot({ path: path.join(out, `simarm-miss-${lang}.png`) });
    console.log(`${lang}: ride ${JSON.stringify(bank.status(`A-ride-${lang === 'ja' ? 1 : 2}`))}`);
    // The car comes (its doors open on 1F): the light goes out before the next language's "before".
    bank.tick((clock += 600_000));
    bank.tick((clock += 600_000));
    await page.waitForTimeout(500);
    await page.close();
  }
} finally {
  for (const s of stops) await s().catch(() => undefined);
}
