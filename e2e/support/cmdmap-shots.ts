/**
 * Screenshots of the command mapping screens (docs/api-command-mappings.md): a server on free ports
 * with an empty data directory, one simulated robot and the web build of WEB_DIST; a common set and a
 * mode 10 mapping of the robot's building made through the API; Chromium on the list, the form and
 * the basic controller (after a mapped button ran), in ja and en.
 *
 *   WEB_DIST=... node --import tsx e2e/support/cmdmap-shots.ts OUT_DIR   (after a web build)
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
    DATA_DIR: mkdtempSync(path.join(tmpdir(), 'cmshots-')),
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
  let robots: Array<{ id: number; serialNo: string; buildingId: number }> = [];
  for (let i = 0; i < 60 && robots.length === 0; i++) {
    robots = await call<typeof robots>('GET', '/robots', token);
    if (robots.length === 0) await sleep(500);
  }
  const robot = robots[0]!;
  const row = (label: string, key: string | null, gamepadButton: number | null, command: unknown, screen = true) => ({
    label,
    screen,
    key,
    gamepadButton,
    command,
  });
  await call('POST', '/command-mappings', token, {
    name: '共通ライト / Common lights',
    buildingId: robot.buildingId,
    mode: 110,
    memo: '',
    status: 1,
    definition: {
      version: 1,
      entries: [
        row('Ring light', 'KeyL', 2, { kind: 'action', action: { type: 'setRingLight', on: true } }),
        row('Patrol lamp', 'KeyK', null, { kind: 'action', action: { type: 'setPatrolLamp', on: true } }),
      ],
    },
  });
  const own = await call<{ id: number }>('POST', '/command-mappings', token, {
    name: '受付モード / Reception',
    buildingId: robot.buildingId,
    mode: 10,
    memo: 'Front desk, weekday mornings',
    status: 1,
    definition: {
      version: 1,
      entries: [
        row('Greet', 'KeyG', 0, {
          kind: 'action',
          action: { type: 'speak', text: 'いらっしゃいませ', language: 'ja' },
        }),
        row('Photo', 'KeyP', null, { kind: 'action', action: { type: 'takePhoto', camera: 'v1' } }),
        row('Look left', 'KeyJ', 4, { kind: 'action', action: { type: 'gimbalJog', pan: 20, tilt: 0 } }),
        row('Hold patrol', 'KeyH', 3, { kind: 'order', command: 'pause' }, false),
      ],
    },
  });

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
        await page.screenshot({ path: path.join(out, `cmdmap-${name}-${lang}.png`), fullPage: true });
      };
      await page.goto('/command-mapping/list');
      await page.getByTestId(`command-mapping-link-${own.id}`).waitFor({ timeout: 60_000 });
      await shot('list');
      await page.goto(`/command-mapping/${own.id}`);
      await page.getByTestId('cm-row-0-label').waitFor({ timeout: 60_000 });
      await shot('form');
      await page.goto(`/app/basic/${robot.serialNo}`);
      const greet = page.getByTestId('mapped-Greet');
      await greet.waitFor({ timeout: 60_000 });
      for (let i = 0; i < 60 && (await greet.isDisabled()); i++) await sleep(500);
      await greet.click();
      await page.getByTestId('mapped-last').waitFor({ timeout: 30_000 });
      await sleep(1500);
      await shot('basic');
      await page.close();
    }
  } finally {
    await browser.close();
  }
} finally {
  server.kill('SIGTERM');
}
