/**
 * `npm run bench:teleop`: teleoperation latency over the real WebRTC path on this machine's loopback.
 *
 * Starts its own server (temporary DATA_DIR, free ports, the built web app, no demo data, no
 * simulated robots), registers one robot (model ex, video setting `highest`: Full-HD at 12 fps) and
 * runs it in this process with teleoperation on (`webrtcTeleop()`: libwebrtc, frames rendered on a
 * worker thread). The system Chromium signs in as a general operator of the robot's building and
 * opens the operator screen `/app/tele-ope/drive/{serialNo}`; the screen signals through the server,
 * connects peer to peer and, as the controller, sends a control input every 50 ms.
 *
 * - Control: input to robot receipt. Each control message carries the browser's send time
 *   (`performance.timeOrigin + performance.now()`); the robot notes its receipt time the same way
 *   when the unordered data channel delivers it (TeleopController.latencies). One machine, one clock.
 * - Video glass-to-glass: the simulator draws the render time into every frame as a CRC-checked
 *   barcode; in the page, `requestVideoFrameCallback` gives each decoded frame's expected display
 *   time, the frame is copied to a canvas and the barcode read back (`decodeStamp`, the same code the
 *   simulator's tests use). Latency = expected display time − render time: render, VP8 encode,
 *   packetizing, network, jitter buffer, decode and compositor scheduling.
 *
 * Goals (the issue): control p99 < 30 ms; video glass-to-glass p95 < 150 ms.
 * Options (environment): TELEOP_DURATION_S (measured seconds, default 30), TELEOP_VIDEO (video
 * setting, default highest).
 *
 * Everything started is stopped by PID at the end, on errors and on Ctrl-C; the process ends through
 * process.exit (the native WebRTC module must not run Node's own teardown: docs/decisions/0005).
 */
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { chromium, type Page } from '@playwright/test';
import { VIDEO_MODES, type CreatedRobot, type VideoMode } from '@portal/contract';
import { startRobot, worldFor, type SimRobot } from '@portal/robot-sim';
import { webrtcTeleop } from '@portal/robot-sim/teleop';
import { decodeStamp } from '@portal/robot-sim/video';
import { round, writeResults, type Figure } from './lib/results.ts';
import {
  BenchError,
  ROOT,
  expectCall,
  freePort,
  rememberTempDir,
  serverLog,
  startServer,
  stopAll,
  waitForHealth,
} from './lib/fleet-server.ts';

const ADMIN = { loginId: 'bench-admin@example.com', loginPw: 'Bench-Pass-2024!' };
const OPERATOR = { loginId: 'teleop-operator@bench.example', password: 'Teleop-Bench-2026' };
const DURATION_S = Number(process.env.TELEOP_DURATION_S ?? 30);
const VIDEO = (process.env.TELEOP_VIDEO ?? 'highest') as VideoMode;
const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
  '--autoplay-policy=no-user-gesture-required',
];

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
let stopping = false;
let robot: SimRobot | null = null;
async function shutdown(code: number) {
  if (stopping) return;
  stopping = true;
  await robot?.stop().catch(() => undefined);
  await stopAll();
  process.exit(code);
}
process.on('SIGINT', () => void shutdown(130));
process.on('SIGTERM', () => void shutdown(143));

function pct(sorted: number[], p: number): number {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))]!;
}
const summary = (values: number[]) => {
  const s = [...values].sort((a, b) => a - b);
  return { n: s.length, p50: pct(s, 50), p95: pct(s, 95), p99: pct(s, 99), max: s.at(-1) ?? NaN };
};
const fmt = (v: number) => String(round(v));

async function seed(base: string): Promise<{ created: CreatedRobot; floorId: number }> {
  const { token } = await expectCall<{ token: string }>(base, 'POST', '/api/operators/login', 200, {
    loginId: ADMIN.loginId,
    loginPw: ADMIN.loginPw,
  });
  const imported = await expectCall<{ organizationId: number }>(
    base,
    'POST',
    '/api/init-data',
    201,
    {
      organization: { name: 'Bench Teleop Org', type: 0, labOption: false },
      buildings: [{ name: 'Bench Teleop Building', floors: [{ name: '1F', index: 1, type: 'office' }] }],
      operators: [{ ...OPERATOR, firstName: 'Bench', lastName: 'Operator', type: 0, building: 0 }],
    },
    token,
  );
  const buildings = await expectCall<Array<{ id: number; organizationId: number }>>(
    base,
    'GET',
    `/api/buildings?filter=${encodeURIComponent('{"limit":1000}')}`,
    200,
    undefined,
    token,
  );
  const buildingId = buildings.find((b) => b.organizationId === imported.organizationId)!.id;
  const floors = await expectCall<Array<{ id: number }>>(
    base,
    'GET',
    `/api/buildings/${buildingId}/floors`,
    200,
    undefined,
    token,
  );
  const floorId = floors[0]!.id;
  const created = await expectCall<CreatedRobot>(
    base,
    'POST',
    '/api/robots',
    201,
    {
      serialNo: 'BENCH-TELEOP-1',
      name: 'Bench teleop robot',
      model: 'ex',
      version: '',
      hardwareRevision: '',
      buildingId,
      floorId,
      groupId: null,
      status: 1,
      longTermRecordingAutoStart: false,
      videoMode: VIDEO,
      notes: '',
    },
    token,
  );
  return { created, floorId };
}

async function signIn(page: Page, base: string): Promise<void> {
  await page.goto(`${base}/auth/login`);
  await page.getByTestId('login-email').fill(OPERATOR.loginId);
  await page.getByTestId('login-password').fill(OPERATOR.password);
  await page.getByTestId('login-submit').click();
  await page.waitForURL((url) => !url.pathname.startsWith('/auth/'), { timeout: 30_000 });
  const agree = page.getByTestId('terms-agree');
  if (await agree.isVisible().catch(() => false)) {
    await page.getByTestId('terms-scroll').hover();
    for (let i = 0; i < 40 && (await agree.isDisabled()); i++) {
      await page.mouse.wheel(0, 2000);
      await sleep(50);
    }
    await agree.click();
    await page.waitForURL((url) => url.pathname !== '/term/agreement', { timeout: 30_000 });
  }
}

/** In the page: reads the barcode of every displayed frame; `window.__g2g` collects the latencies. */
const RECORD_FRAMES = `(decodeSource) => {
  const decode = eval('(' + decodeSource + ')');
  const video = document.querySelector('[data-testid="teleop-video"]');
  const canvas = document.createElement('canvas');
  const ctx = canvas.getContext('2d', { willReadFrequently: true });
  const out = { latencies: [], frames: 0, undecoded: 0, width: 0, height: 0, recording: false };
  window.__g2g = out;
  const onFrame = (now, meta) => {
    if (out.recording) {
      out.frames++;
      const w = meta.width, h = meta.height;
      if (canvas.width !== w || canvas.height !== h) { canvas.width = w; canvas.height = h; }
      ctx.drawImage(video, 0, 0, w, h);
      const stamp = decode(ctx.getImageData(0, 0, w, h).data, w, h);
      if (stamp === null) out.undecoded++;
      else out.latencies.push(performance.timeOrigin + meta.expectedDisplayTime - stamp);
      out.width = w; out.height = h;
    }
    video.requestVideoFrameCallback(onFrame);
  };
  video.requestVideoFrameCallback(onFrame);
  return true;
}`;

async function main() {
  if (!VIDEO_MODES.includes(VIDEO)) throw new BenchError(`TELEOP_VIDEO must be one of ${VIDEO_MODES.join(', ')}`);
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'portal-bench-teleop-'));
  rememberTempDir(dataDir);
  const port = await freePort();
  let mqttPort = await freePort();
  while (mqttPort === port) mqttPort = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const server = startServer({
    port,
    mqttPort,
    dataDir,
    admin: ADMIN,
    env: { WEB_DIST: path.join(ROOT, 'apps/web/dist') },
  });
  console.log(`server: pid ${server.pid} on ${base} (DATA_DIR ${dataDir})`);
  await waitForHealth(base, server);
  const index = await fetch(`${base}/auth/login`);
  if (!(index.headers.get('content-type') ?? '').includes('text/html'))
    throw new BenchError('the server does not serve the web app: run `npm run build:web` first');

  const { created, floorId } = await seed(base);
  const c = created.credentials;
  const mapId = `floor-${floorId}`;
  const world = worldFor(mapId);
  robot = await startRobot({
    brokerUrl: c.mqttUrl,
    username: c.username,
    password: c.password,
    manufacturer: c.manufacturer,
    serialNumber: c.serialNumber,
    name: created.robot.name,
    model: 'ex',
    mapId,
    // The middle of the plan: walls in view.
    start: { x: (world.bounds.x0 + world.bounds.x1) / 2, y: (world.bounds.y0 + world.bounds.y1) / 2, theta: 0 },
    battery: 90,
    teleop: webrtcTeleop({ defaultVideo: VIDEO }),
  });
  console.log(`robot: ${c.serialNumber} (ex) in this process, video ${VIDEO}`);

  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: CHROMIUM_ARGS,
  });
  console.log(`chromium: ${browser.version()} (headless, --disable-gpu: video decoded and composited in software)`);
  const figures: Figure[] = [];
  try {
    const context = await browser.newContext({ viewport: { width: 1440, height: 900 }, locale: 'en-US' });
    const page = await context.newPage();
    const pageErrors: string[] = [];
    page.on('pageerror', (e) => pageErrors.push(e.message));
    await signIn(page, base);
    await page.goto(`${base}/app/tele-ope/drive/${encodeURIComponent(c.serialNumber)}`);
    const video = page.getByTestId('teleop-video');
    await video.waitFor({ state: 'visible', timeout: 30_000 });
    await page.waitForFunction(
      `(() => { const v = document.querySelector('[data-testid="teleop-video"]'); return v && v.videoWidth > 0; })()`,
      undefined,
      { timeout: 30_000 },
    );
    await page.waitForFunction(`window.__teleopDebug && window.__teleopDebug.role === 'controller'`, undefined, {
      timeout: 30_000,
    });
    // The browser asks for the registered video setting; make sure it is the one measured.
    await page.evaluate(`(${RECORD_FRAMES})(${JSON.stringify(decodeStamp.toString())})`);
    await sleep(3_000); // settle: bitrate ramp-up, first key frames
    robot.teleopController.latencies.length = 0;
    const sent0 = (await page.evaluate('window.__teleopDebug.sent')) as number;
    await page.evaluate('window.__g2g.recording = true');
    console.log(`measuring for ${DURATION_S} s...`);
    await sleep(DURATION_S * 1000);
    await page.evaluate('window.__g2g.recording = false');
    const sent = ((await page.evaluate('window.__teleopDebug.sent')) as number) - sent0;
    const g2g = (await page.evaluate('window.__g2g')) as {
      latencies: number[];
      frames: number;
      undecoded: number;
      width: number;
      height: number;
    };
    const control = summary([...robot.teleopController.latencies]);
    const video2 = summary(g2g.latencies);
    const controlMet = control.p99 < 30;
    const videoMet = video2.p95 < 150;

    console.log(`\nControl input → robot receipt (unordered data channel, ${fmt(control.n)} of ${sent} sent):`);
    console.log(
      `  p50 ${fmt(control.p50)} ms   p95 ${fmt(control.p95)} ms   p99 ${fmt(control.p99)} ms   max ${fmt(control.max)} ms`,
    );
    console.log(`  goal: p99 under 30 ms — ${controlMet ? 'PASS' : 'MISS'}`);
    console.log(
      `\nVideo glass-to-glass (render time in the frame → expected display in Chromium), ${g2g.width}×${g2g.height}:`,
    );
    console.log(
      `  frames ${g2g.frames} (${fmt(g2g.frames / DURATION_S)} fps), barcode read on ${video2.n}, unreadable ${g2g.undecoded}`,
    );
    console.log(
      `  p50 ${fmt(video2.p50)} ms   p95 ${fmt(video2.p95)} ms   p99 ${fmt(video2.p99)} ms   max ${fmt(video2.max)} ms`,
    );
    console.log(`  goal: p95 under 150 ms — ${videoMet ? 'PASS' : 'MISS'}`);
    if (pageErrors.length > 0) console.log(`\npage errors: ${pageErrors.join('; ')}`);

    figures.push(
      { name: 'control messages sent', value: sent, unit: 'messages' },
      { name: 'control messages received', value: control.n, unit: 'messages' },
      { name: 'control latency p50', value: control.p50, unit: 'ms' },
      { name: 'control latency p95', value: control.p95, unit: 'ms' },
      { name: 'control latency p99', value: control.p99, unit: 'ms', goal: 'p99 < 30 ms', met: controlMet },
      { name: 'control latency max', value: control.max, unit: 'ms' },
      { name: 'video frames displayed', value: g2g.frames, unit: 'frames' },
      { name: 'video frame rate', value: g2g.frames / DURATION_S, unit: 'fps' },
      { name: 'video frames unreadable', value: g2g.undecoded, unit: 'frames' },
      { name: 'video glass-to-glass p50', value: video2.p50, unit: 'ms' },
      { name: 'video glass-to-glass p95', value: video2.p95, unit: 'ms', goal: 'p95 < 150 ms', met: videoMet },
      { name: 'video glass-to-glass p99', value: video2.p99, unit: 'ms' },
      { name: 'video glass-to-glass max', value: video2.max, unit: 'ms' },
    );
    writeResults('teleop', figures);
  } finally {
    await browser.close();
  }
}

try {
  await main();
  await shutdown(0);
} catch (err) {
  console.error(err instanceof BenchError ? `bench:teleop: ${err.message}` : err);
  if (serverLog.length > 0) console.error(`server output (last lines):\n${serverLog.slice(-30).join('\n')}`);
  await shutdown(1);
}
