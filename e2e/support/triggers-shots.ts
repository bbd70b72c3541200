/**
 * Screenshots of the building screen's Triggers section (docs/api-triggers.md): a server on free
 * ports with an empty data directory, one simulated robot and the web build of WEB_DIST; a flow and
 * three triggers of the robot's building made through the API; Chromium on the list and the edit
 * dialog, in ja and en.
 *
 *   WEB_DIST=... node --import tsx e2e/support/triggers-shots.ts OUT_DIR   (after a web build)
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
    DATA_DIR: mkdtempSync(path.join(tmpdir(), 'trgshots-')),
    MQTT_PORT: String(mqttPort),
    LOG_LEVEL: 'warn',
    SIMULATED_ROBOTS: '1',
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
  let robots: Array<{ id: number; serialNo: string; buildingId: number; floorId: number }> = [];
  for (let i = 0; i < 60 && robots.length === 0; i++) {
    robots = await call<typeof robots>('GET', '/robots', token);
    if (robots.length === 0) await sleep(500);
  }
  const robot = robots[0]!;
  const flow = await call<{ id: number }>('POST', '/flows', token, {
    name: '充電器へ戻る (Return)',
    description: '',
    buildingId: robot.buildingId,
    floorId: robot.floorId,
    flowGroupId: null,
    enabled: true,
    definition: { version: 1, steps: [{ kind: 'wait', id: 'w', seconds: 1 }] },
  });
  const trigger = (name: string, over: Record<string, unknown>) =>
    call<{ id: number }>('POST', '/triggers', token, {
      buildingId: robot.buildingId,
      name,
      status: 1,
      eventType: 1,
      conditions: { version: 1, robotStatuses: ['emergencyStop'] },
      targetType: 2,
      target: { version: 1 },
      ...over,
    });
  const main = await trigger('非常停止: 別のロボットで帰還 / E-stop: return', {
    conditions: { version: 1, robotStatuses: ['emergencyStop', 'hardwareError'], robotId: robot.id },
    targetType: 0,
    target: { version: 1, flowId: flow.id, robotChoice: 'otherIdle' },
  });
  await trigger('しきい値超過: 記録 / Breach: report', { eventType: 2, conditions: { version: 1, minLevel: 5 } });
  await trigger('スケジュール失敗 / Schedule failure', { status: 0, eventType: 0, conditions: { version: 1 } });

  const browser = await chromium.launch({
    executablePath: '/usr/bin/chromium',
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--use-fake-ui-for-media-stream',
      '--use-fake-device-for-media-stream',
    ],
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
        await page.screenshot({ path: path.join(out, `triggers-${name}-${lang}.png`), fullPage: true });
      };
      await page.goto(`/building/${robot.buildingId}?tab=triggers`);
      await page.getByTestId(`trigger-row-${main.id}`).waitFor({ timeout: 60_000 });
      await shot('list');
      await page.getByTestId(`trigger-edit-${main.id}`).click();
      await page.getByTestId('trigger-name').waitFor({ timeout: 30_000 });
      await sleep(1000);
      await page.screenshot({ path: path.join(out, `triggers-form-${lang}.png`), fullPage: false });
      await page.keyboard.press('Escape');
      await page.getByTestId('trigger-create').click();
      await page.getByTestId('trigger-event-type').waitFor({ timeout: 30_000 });
      await page.getByTestId('trigger-target-type').selectOption('1');
      await sleep(800);
      await page.screenshot({ path: path.join(out, `triggers-create-${lang}.png`), fullPage: false });
      await page.close();
    }
  } finally {
    await browser.close();
  }
} finally {
  server.kill('SIGTERM');
}
