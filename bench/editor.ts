/**
 * `npm run bench:editor`: frame times of the floor map editor while panning and zooming a large map.
 *
 * Starts its own server (temporary DATA_DIR, free ports, the built web app, no demo data, no
 * simulated robots), creates an organization with one floor, uploads a generated 4000 × 4000 px floor
 * plan at 0.05 m/px (200 m × 200 m) and saves a map document of 2,000 waypoints and 3,000 edges
 * (plus routes, no-go areas, partial maps) through PUT /api/floors/:id/map. Then, in the system
 * Chromium (1440 × 900), signs in as the organization's administrator, opens /editor/floor/{id},
 * waits until the image and the map are drawn, and drives a scripted 10 s sequence of mouse-drag pans
 * and wheel zooms while the page records every requestAnimationFrame timestamp. Chrome's own
 * Performance metrics give the main thread's busy time.
 *
 * Goal: p95 frame time under 16.7 ms (60 Hz). Headless Chromium with --disable-gpu draws canvases
 * and composites in software, so the figures are a pessimistic bound for a desktop browser with a GPU.
 *
 * When the goal is missed, diagnosis runs: the same pan with one part of the drawing hidden at a time
 * (the image, the grid, the map document: through Konva's API, nothing in the editor changes), and
 * one instrumented run that times each layer's draw and the rasterizing canvas calls.
 *
 * Everything started is stopped by PID at the end, on errors and on Ctrl-C.
 */
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { chromium, type Page } from '@playwright/test';
import { floorOps, mapOps, type MapDocument } from '@portal/contract';
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
import { CHROMIUM_ARGS, seedBuilding, signIn, sleep } from './lib/browser.ts';
import { makeFloorPlanPng, makeMapDocument, type ImageFrame } from './lib/editor-map.ts';
import {
  INSTALL_DRAW_TIMERS,
  INSTALL_FRAME_RECORDER,
  phases,
  setPartVisible,
  stats,
  frameTimes,
  type DrawTimes,
  type FrameRecord,
  type FrameStats,
} from './lib/editor-frames.ts';

const ADMIN = { loginId: 'bench-admin@example.com', loginPw: 'Bench-Pass-2024!' };
const EDITOR = { loginId: 'bench-editor@example.com', password: 'Bench-Editor-2026' };
const FRAME: ImageFrame = { width: 4000, height: 4000, resolution: 0.05, originX: 0, originY: 0 };
const WAYPOINTS = 2000;
const EDGES = 3000;
const VIEWPORT = { width: 1440, height: 900 };
const GOAL_MS = 1000 / 60;
/**
 * rAF timestamps are vsync times; a frame on time at 60 Hz measures 16.6–16.8 ms, so the goal check
 * allows 0.5 ms of timestamp jitter (a late frame is at least 33 ms).
 */
const JITTER_MS = 0.5;
const onTime = (ms: number) => ms <= GOAL_MS + JITTER_MS;
/** Each phase of the scripted sequence (4 phases: 10 s). */
const PHASE_MS = 2500;
const DIAGNOSIS_MS = 3000;

const fmt = (v: number) => round(v).toString();

let stopping = false;
async function shutdown(code: number) {
  if (stopping) return;
  stopping = true;
  await stopAll();
  process.exit(code);
}
process.on('SIGINT', () => void shutdown(130));
process.on('SIGTERM', () => void shutdown(143));

// ---------------------------------------------------------------- server and data

async function seed(base: string): Promise<{ floorId: number; doc: MapDocument }> {
  const { token, floorId } = await seedBuilding(
    base,
    ADMIN,
    { organization: 'Bench Editor Org', building: 'Bench Warehouse' },
    [{ ...EDITOR, firstName: 'Bench', lastName: 'Editor', type: 2 }],
  );
  const api = benchApi(base);
  const floor = await api.call(floorOps.getFloor, { token, params: { id: floorId } });
  await api.call(floorOps.updateFloor, {
    token,
    params: { id: floorId },
    body: {
      name: floor.name,
      type: floor.type,
      index: floor.index,
      resolution: FRAME.resolution,
      originX: FRAME.originX,
      originY: FRAME.originY,
      updatedAt: floor.updatedAt,
    },
  });

  const t0 = performance.now();
  const png = makeFloorPlanPng(FRAME.width, FRAME.height);
  console.log(
    `floor image: ${FRAME.width} × ${FRAME.height} px PNG, ${(png.length / 1024).toFixed(0)} KB (made in ${(performance.now() - t0).toFixed(0)} ms)`,
  );
  const form = new FormData();
  form.append('file', new Blob([new Uint8Array(png)], { type: 'image/png' }), 'floor.png');
  await api.call(floorOps.uploadFloorMapImage, { token, params: { id: floorId }, body: form });

  const doc = makeMapDocument(FRAME, WAYPOINTS, EDGES);
  const saved = await api.call(mapOps.saveFloorMap, {
    token,
    params: { id: floorId },
    body: { baseRevision: 0, document: doc, note: 'bench:editor' },
  });
  console.log(
    `map document: revision ${saved.revision}, ${doc.waypoints.length} waypoints, ${doc.edges.length} edges, ` +
      `${doc.routes.length} routes, ${doc.noGoAreas.length} no-go areas, ${doc.partialMaps.length} partial maps ` +
      `(${(JSON.stringify(doc).length / 1024).toFixed(0)} KB JSON)`,
  );
  return { floorId, doc };
}

// ---------------------------------------------------------------- the browser

/** Waits until the stage shows the image (layer 0 has the Konva Image) and the document is drawn. */
async function waitDrawn(page: Page): Promise<number> {
  const t0 = performance.now();
  await page.waitForFunction(
    `(() => {
      const stage = window.Konva && window.Konva.stages[0];
      if (!stage) return false;
      const [base, doc] = ['base', 'document'].map((n) => stage.getLayers().find((l) => l.name() === n));
      if (!base || !doc || !base.findOne('Image')) return false;
      const c = doc.getCanvas()._canvas;
      const d = c.getContext('2d').getImageData(0, 0, c.width, c.height).data;
      for (let i = 3; i < d.length; i += 4 * 97) if (d[i] > 0) return true;
      return false;
    })()`,
    undefined,
    { timeout: 60_000, polling: 200 },
  );
  return performance.now() - t0;
}

/** Waits two animation frames (the page has drawn whatever was pending). */
const settle = async (page: Page) => {
  await page.evaluate('new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(() => r(true))))');
  await sleep(300);
};

interface Box {
  x: number;
  y: number;
  width: number;
  height: number;
}

/** A drag in circles of `radius` px around the canvas centre for `ms`, one move per ~8 ms (a 125 Hz mouse). */
async function pan(page: Page, box: Box, ms: number, radius = 220, turnsPerSecond = 0.6): Promise<void> {
  const cx = box.x + box.width / 2;
  const cy = box.y + box.height / 2;
  await page.mouse.move(cx + radius, cy);
  await page.mouse.down();
  const t0 = performance.now();
  for (let now = t0; now - t0 < ms; now = performance.now()) {
    const a = ((now - t0) / 1000) * turnsPerSecond * 2 * Math.PI;
    await page.mouse.move(cx + radius * Math.cos(a), cy + radius * Math.sin(a) * 0.7);
    const wait = 8 - (performance.now() - now);
    if (wait > 0) await sleep(wait);
  }
  await page.mouse.up();
}

/**
 * Wheel zooms for `ms`: in (out when not `firstIn`) for `inSteps` notches of `delta` at one point, then out as many at
 * another, and so on (one notch per ~16 ms, like a smooth trackpad zoom).
 */
async function zoom(page: Page, box: Box, ms: number, inSteps = 30, delta = 60, firstIn = true): Promise<void> {
  const anchors = [
    { x: 0.3, y: 0.35 },
    { x: 0.7, y: 0.6 },
    { x: 0.5, y: 0.5 },
    { x: 0.25, y: 0.7 },
  ];
  const t0 = performance.now();
  let step = 0;
  while (performance.now() - t0 < ms) {
    const cycle = Math.floor(step / inSteps);
    const a = anchors[cycle % anchors.length]!;
    await page.mouse.move(box.x + box.width * a.x, box.y + box.height * a.y);
    const dir = (cycle % 2 === 0) === firstIn ? -1 : 1; // negative deltaY zooms in
    const t = performance.now();
    await page.mouse.wheel(0, dir * delta);
    step++;
    const wait = 16 - (performance.now() - t);
    if (wait > 0) await sleep(wait);
  }
}

/** The zoom the status bar shows ("Zoom 3.3 px/m" or its Japanese form). */
async function shownZoom(page: Page): Promise<number> {
  const text = (await page.getByTestId('editor-status').textContent()) ?? '';
  const m = /(\d+(?:\.\d+)?)\s*px\/m/.exec(text);
  return m ? Number(m[1]) : NaN;
}

async function fit(page: Page) {
  await page.getByTestId('fit').click();
  await settle(page);
}

/** Records frames while `drive` runs; answers the record. */
async function record(page: Page, drive: (mark: (name: string) => Promise<void>) => Promise<void>) {
  await page.evaluate(INSTALL_FRAME_RECORDER);
  await page.evaluate('window.__frames.start()');
  await drive((name) => page.evaluate(`window.__frames.mark(${JSON.stringify(name)})`) as Promise<void>);
  await settle(page);
  return (await page.evaluate('window.__frames.stop()')) as FrameRecord;
}

const line = (label: string, s: FrameStats) =>
  `${label.padEnd(34)} frames ${String(s.frames).padStart(4)}  p50 ${fmt(s.p50).padStart(6)}  p95 ${fmt(s.p95).padStart(6)}  ` +
  `p99 ${fmt(s.p99).padStart(6)}  max ${fmt(s.max).padStart(6)} ms  (${fmt(s.fps)} fps, ${s.over16} over 16.7 ms)`;

// ---------------------------------------------------------------- main

async function main() {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'portal-bench-editor-'));
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

  const { floorId } = await seed(base);

  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: CHROMIUM_ARGS,
  });
  console.log(`chromium: ${browser.version()} (headless, --disable-gpu: canvas and compositing in software)`);
  const figures: Figure[] = [];
  try {
    const context = await browser.newContext({ viewport: VIEWPORT, locale: 'en-US' });
    const page = await context.newPage();
    const pageErrors: string[] = [];
    page.on('pageerror', (e) => pageErrors.push(e.message));
    await signIn(page, base, EDITOR);

    const t0 = performance.now();
    await page.goto(`${base}/editor/floor/${floorId}`);
    const drawnMs = await waitDrawn(page);
    const openMs = performance.now() - t0;
    await page.evaluate('document.fonts.ready.then(() => true)');
    await page.getByTestId('tool-pan').click();
    await fit(page);
    const canvasBox = (await page.getByTestId('map-canvas').boundingBox())!;
    const fitZoom = await shownZoom(page);
    console.log(
      `editor open: ${fmt(openMs)} ms to drawn (image and document); canvas ${Math.round(canvasBox.width)} × ` +
        `${Math.round(canvasBox.height)} px at fit zoom ${fitZoom} px/m` +
        ` (waitDrawn ${fmt(drawnMs)} ms)`,
    );

    // ---- the measured run: 10 s of pans and zooms
    const cdp = await context.newCDPSession(page);
    await cdp.send('Performance.enable');
    const metric = async () => {
      const { metrics } = (await cdp.send('Performance.getMetrics')) as {
        metrics: Array<{ name: string; value: number }>;
      };
      return Object.fromEntries(metrics.map((m) => [m.name, m.value]));
    };
    const before = await metric();
    const wall0 = performance.now();
    const rec = await record(page, async (mark) => {
      await mark('pan at fit zoom');
      await pan(page, canvasBox, PHASE_MS);
      await mark('wheel zoom in and out');
      await zoom(page, canvasBox, PHASE_MS);
      await mark('pan zoomed in');
      // From wherever the zoom cycles left it: zoom in around the centre first (part of this phase).
      await page.mouse.move(canvasBox.x + canvasBox.width / 2, canvasBox.y + canvasBox.height / 2);
      for (let i = 0; i < 12; i++) {
        await page.mouse.wheel(0, -80);
        await sleep(16);
      }
      await pan(page, canvasBox, PHASE_MS - 12 * 20, 260);
      await mark('zoom out to fit and pan');
      await zoom(page, canvasBox, PHASE_MS / 2, 20, 80, false);
      await pan(page, canvasBox, PHASE_MS / 2);
    });
    const wallMs = performance.now() - wall0;
    const after = await metric();
    const all = stats(frameTimes(rec, rec.marks[0]!.at));
    console.log(`\nFrame times (requestAnimationFrame gaps), ${fmt(wallMs / 1000)} s of input:`);
    for (const p of phases(rec)) console.log(line(p.name, stats(p.times)));
    console.log(line('ALL', all));
    const met = onTime(all.p95);
    console.log(
      `\ngoal: p95 under 16.7 ms (+${JITTER_MS} ms rAF jitter) — ${met ? 'PASS' : 'MISS'} (p95 ${fmt(all.p95)} ms)`,
    );
    const seconds = after.Timestamp! - before.Timestamp! || wallMs / 1000;
    const busy = (k: string) => ((after[k]! - before[k]!) / seconds) * 100;
    console.log(
      `main thread (Chrome Performance metrics): tasks ${fmt(busy('TaskDuration'))} % of the time, script ` +
        `${fmt(busy('ScriptDuration'))} %, layout ${fmt(busy('LayoutDuration'))} %, style ${fmt(busy('RecalcStyleDuration'))} %`,
    );

    figures.push(
      { name: 'frames counted', value: all.frames, unit: 'frames' },
      { name: 'frame time p50', value: all.p50, unit: 'ms' },
      { name: 'frame time p95', value: all.p95, unit: 'ms', goal: 'p95 < 16.7 ms', met },
      { name: 'frame time p99', value: all.p99, unit: 'ms' },
      { name: 'frame time max', value: all.max, unit: 'ms' },
      { name: 'frames over 16.7 ms', value: all.over16, unit: 'frames' },
      { name: 'frame rate', value: all.fps, unit: 'fps' },
      { name: 'main thread busy (tasks)', value: busy('TaskDuration'), unit: '%' },
      { name: 'main thread script', value: busy('ScriptDuration'), unit: '%' },
      { name: 'editor open to drawn', value: openMs, unit: 'ms' },
    );
    for (const p of phases(rec)) {
      const s = stats(p.times);
      for (const [column, value] of [
        ['frames', s.frames],
        ['p50 ms', s.p50],
        ['p95 ms', s.p95],
        ['p99 ms', s.p99],
        ['max ms', s.max],
      ] as const) {
        figures.push({
          name: `${p.name} ${column}`,
          value,
          unit: column === 'frames' ? 'frames' : 'ms',
          row: p.name,
          column,
          ...(column === 'p95 ms' ? { goal: '< 16.7 ms', met: onTime(value) } : {}),
        });
      }
    }

    // ---- diagnosis: what costs the frame time (always run: the figures explain the result either way)
    console.log(`\nDiagnosis: ${DIAGNOSIS_MS / 1000} s pans at fit zoom (all of the map in view) with parts hidden:`);
    const variants: Array<{ name: string; hide: Array<'image' | 'grid' | 'document'> }> = [
      { name: 'everything drawn', hide: [] },
      { name: 'without the image', hide: ['image'] },
      { name: 'without the grid', hide: ['grid'] },
      { name: 'without the document', hide: ['document'] },
      { name: 'image only (no grid, no document)', hide: ['grid', 'document'] },
      { name: 'nothing drawn (no image/grid/doc)', hide: ['image', 'grid', 'document'] },
    ];
    for (const v of variants) {
      await fit(page);
      for (const part of v.hide) await page.evaluate(setPartVisible(part, false));
      const r = await record(page, async (mark) => {
        await mark(v.name);
        await pan(page, canvasBox, DIAGNOSIS_MS);
      });
      for (const part of v.hide) await page.evaluate(setPartVisible(part, true));
      const s = stats(frameTimes(r, r.marks[0]!.at));
      console.log(line(v.name, s));
      figures.push(
        { name: `diagnosis: ${v.name} p50`, value: s.p50, unit: 'ms', row: `diag: ${v.name}`, column: 'p50 ms' },
        { name: `diagnosis: ${v.name} p95`, value: s.p95, unit: 'ms', row: `diag: ${v.name}`, column: 'p95 ms' },
        {
          name: `diagnosis: ${v.name} frames`,
          value: s.frames,
          unit: 'frames',
          row: `diag: ${v.name}`,
          column: 'frames',
        },
      );
    }

    // ---- instrumented run: time in each layer's draw and in the canvas calls, per drawn frame
    for (const where of ['fit zoom', 'zoomed in']) {
      await fit(page);
      if (where === 'zoomed in') {
        await page.mouse.move(canvasBox.x + canvasBox.width / 2, canvasBox.y + canvasBox.height / 2);
        for (let i = 0; i < 12; i++) await page.mouse.wheel(0, -80);
        await settle(page);
      }
      if (!(await page.evaluate(INSTALL_DRAW_TIMERS))) throw new BenchError('could not instrument the Konva stage');
      await page.evaluate('window.__drawTimes.take()');
      const r = await record(page, async (mark) => {
        await mark('instrumented');
        await pan(page, canvasBox, DIAGNOSIS_MS);
      });
      const d = (await page.evaluate('window.__drawTimes.take()')) as DrawTimes;
      const frames = Math.max(1, d.draws[1]);
      const z = await shownZoom(page);
      console.log(
        `\nInstrumented pan at ${where} (${z} px/m; ${d.draws[1]} redraws in ${stats(frameTimes(r, r.marks[0]!.at)).frames} frames), ms per redraw:`,
      );
      console.log(
        `  layer draw (JS + canvas calls): image+grid ${fmt(d.layers[0] / frames)}, document ${fmt(d.layers[1] / frames)}, live ${fmt(d.layers[2] / frames)}`,
      );
      const calls = Object.entries(d.calls)
        .sort((a, b) => b[1].ms - a[1].ms)
        .map(([k, c]) => `${k} ×${Math.round(c.n / frames)}${c.ms > 0 ? ` ${fmt(c.ms / frames)} ms` : ''}`);
      console.log(`  canvas calls per redraw: ${calls.join(', ')}`);
      figures.push(
        { name: `instrumented ${where}: image+grid layer draw`, value: d.layers[0] / frames, unit: 'ms/redraw' },
        { name: `instrumented ${where}: document layer draw`, value: d.layers[1] / frames, unit: 'ms/redraw' },
        {
          name: `instrumented ${where}: drawImage`,
          value: (d.calls.drawImage?.ms ?? 0) / frames,
          unit: 'ms/redraw',
        },
        { name: `instrumented ${where}: stroke`, value: (d.calls.stroke?.ms ?? 0) / frames, unit: 'ms/redraw' },
        { name: `instrumented ${where}: fill`, value: (d.calls.fill?.ms ?? 0) / frames, unit: 'ms/redraw' },
      );
    }
    if (pageErrors.length > 0) console.log(`\npage errors: ${pageErrors.join('; ')}`);
    writeResults('editor', figures);
  } finally {
    await browser.close();
  }
}

try {
  await main();
  await shutdown(0);
} catch (err) {
  console.error(err instanceof BenchError ? `bench:editor: ${err.message}` : err);
  if (serverLog.length > 0) console.error(`server output (last lines):\n${serverLog.slice(-30).join('\n')}`);
  await shutdown(1);
}
