/**
 * `npm run bench:teleop`: teleoperation latency over the real WebRTC path on this machine's loopback.
 *
 * Starts its own server (temporary DATA_DIR, free ports, the built web app, no demo data, no
 * simulated robots), registers one robot (model ex) and runs it in this process with teleoperation on
 * (`webrtcTeleop()`: libwebrtc, frames rendered on a worker thread), once per video setting measured:
 * `medium` (720p, 8 fps, 1 Mbps: the robots' default) and `highest` (Full-HD, 12 fps, 4 Mbps). The system Chromium signs in as a general operator of the robot's building and
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
 * Options (environment): TELEOP_DURATION_S (measured seconds per setting, default 20), TELEOP_VIDEO
 * (comma-separated video settings, default `medium,highest`).
 *
 * Everything started is stopped by PID at the end, on errors and on Ctrl-C; the process ends through
 * process.exit (the native WebRTC module must not run Node's own teardown: docs/decisions/0005).
 */
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { chromium, type Page } from '@playwright/test';
import { robotOps, VIDEO_MODE_SPECS, VIDEO_MODES, type CreatedRobot, type VideoMode } from '@portal/contract';
import { startRobot, worldFor, type SimRobot } from '@portal/robot-sim';
import { webrtcTeleop } from '@portal/robot-sim/teleop';
import { decodeStamp } from '@portal/robot-sim/video';
import { CHROMIUM_ARGS as BASE_CHROMIUM_ARGS, seedBuilding, signIn, sleep } from './lib/browser.ts';
import { round, writeResults, type Figure } from './lib/results.ts';
import {
  BenchError,
  ROOT,
  benchApi,
  freePort,
  rememberTempDir,
  serverLog,
  startServer,
  stopAll,
  waitForHealth,
} from './lib/fleet-server.ts';

const ADMIN = { loginId: 'bench-admin@example.com', loginPw: 'Bench-Pass-2024!' };
const OPERATOR = { loginId: 'teleop-operator@bench.example', password: 'Teleop-Bench-2026' };
const DURATION_S = Number(process.env.TELEOP_DURATION_S ?? 20);
const VIDEOS = (process.env.TELEOP_VIDEO ?? 'medium,highest').split(',').map((v) => v.trim()) as VideoMode[];
const CHROMIUM_ARGS = [...BASE_CHROMIUM_ARGS, '--autoplay-policy=no-user-gesture-required'];

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

async function seed(base: string): Promise<{ created: CreatedRobot; floorId: number; token: string }> {
  const { token, buildingId, floorId } = await seedBuilding(
    base,
    ADMIN,
    { organization: 'Bench Teleop Org', building: 'Bench Teleop Building' },
    [{ ...OPERATOR, firstName: 'Bench', lastName: 'Operator', type: 0 }],
  );
  const created = await benchApi(base).call(robotOps.createRobot, {
    token,
    body: {
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
      videoMode: 'medium',
      notes: '',
    },
  });
  return { created, floorId, token };
}

/** The robot's registered video setting (robot settings), which the operator screen starts with. */
async function registerVideo(base: string, token: string, robotId: number, mode: VideoMode): Promise<void> {
  const api = benchApi(base);
  const r = await api.call(robotOps.getRobot, { token, params: { id: robotId } });
  const body = {
    serialNo: r.serialNo,
    name: r.name,
    model: r.model,
    version: r.version,
    hardwareRevision: r.hardwareRevision,
    buildingId: r.buildingId,
    floorId: r.floorId,
    groupId: r.groupId,
    status: r.status,
    longTermRecordingAutoStart: r.longTermRecordingAutoStart,
    videoMode: mode,
    notes: r.notes,
    updatedAt: r.updatedAt,
  };
  await api.call(robotOps.updateRobot, { token, params: { id: robotId }, body });
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
      // Only the top band holds the stamp (3 blocks of height / 45): read just that.
      const band = Math.min(h, Math.ceil(h / 12));
      if (canvas.width !== w || canvas.height !== band) { canvas.width = w; canvas.height = band; }
      ctx.drawImage(video, 0, 0, w, band, 0, 0, w, band);
      const stamp = decode(ctx.getImageData(0, 0, w, band).data, w, h);
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
  for (const v of VIDEOS) {
    if (!VIDEO_MODES.includes(v)) throw new BenchError(`TELEOP_VIDEO: ${v} is not one of ${VIDEO_MODES.join(', ')}`);
  }
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

  const { created, floorId, token } = await seed(base);
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
    await signIn(page, base, OPERATOR);
    for (const mode of VIDEOS) {
      await registerVideo(base, token, created.robot.id, mode);
      figures.push(...(await measure(page, base, created, floorId, mode)));
    }
    if (pageErrors.length > 0) console.log(`\npage errors: ${pageErrors.join('; ')}`);
    writeResults('teleop', figures);
  } finally {
    await browser.close();
  }
}

/** One video setting: the robot starts with it, the operator screen opens, DURATION_S are measured. */
async function measure(
  page: Page,
  base: string,
  created: CreatedRobot,
  floorId: number,
  mode: VideoMode,
): Promise<Figure[]> {
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
    teleop: webrtcTeleop({ defaultVideo: mode }),
  });
  const spec = VIDEO_MODE_SPECS[mode];
  console.log(`\n=== video ${mode} (${spec.resolution}, ${spec.fps} fps, ${spec.kbps} kbps) ===`);
  try {
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
    const v = summary(g2g.latencies);
    const controlMet = control.p99 < 30;
    const videoMet = v.p95 < 150;
    console.log(`Control input → robot receipt (unordered data channel, ${fmt(control.n)} of ${sent} sent):`);
    console.log(
      `  p50 ${fmt(control.p50)} ms   p95 ${fmt(control.p95)} ms   p99 ${fmt(control.p99)} ms   max ${fmt(control.max)} ms`,
    );
    console.log(`  goal: p99 under 30 ms — ${controlMet ? 'PASS' : 'MISS'}`);
    console.log(
      `Video glass-to-glass (render time in the frame → expected display in Chromium), ${g2g.width}×${g2g.height}:`,
    );
    console.log(
      `  frames ${g2g.frames} (${fmt(g2g.frames / DURATION_S)} fps), barcode read on ${v.n}, unreadable ${g2g.undecoded}`,
    );
    console.log(`  p50 ${fmt(v.p50)} ms   p95 ${fmt(v.p95)} ms   p99 ${fmt(v.p99)} ms   max ${fmt(v.max)} ms`);
    console.log(`  goal: p95 under 150 ms — ${videoMet ? 'PASS' : 'MISS'}`);
    const row = `${mode} ${spec.resolution} ${spec.fps} fps`;
    const f = (name: string, value: number, unit: string, column: string, goal?: string, met?: boolean): Figure => ({
      name: `${mode}: ${name}`,
      value,
      unit,
      row,
      column,
      ...(goal ? { goal, met } : {}),
    });
    return [
      f('control messages received / sent', control.n / Math.max(1, sent), 'ratio', 'ctl recv/sent'),
      f('control latency p50', control.p50, 'ms', 'ctl p50 ms'),
      f('control latency p95', control.p95, 'ms', 'ctl p95 ms'),
      f('control latency p99', control.p99, 'ms', 'ctl p99 ms', 'p99 < 30 ms', controlMet),
      f('video frame rate', g2g.frames / DURATION_S, 'fps', 'video fps'),
      f('video frames unreadable', g2g.undecoded, 'frames', 'unreadable'),
      f('video glass-to-glass p50', v.p50, 'ms', 'g2g p50 ms'),
      f('video glass-to-glass p95', v.p95, 'ms', 'g2g p95 ms', 'p95 < 150 ms', videoMet),
      f('video glass-to-glass p99', v.p99, 'ms', 'g2g p99 ms'),
    ];
  } finally {
    await page.goto('about:blank');
    await robot.stop();
    robot = null;
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
