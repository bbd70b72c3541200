/**
 * Frame timing for `npm run bench:editor`: a script injected into the page records every
 * requestAnimationFrame timestamp (a frame time is the gap between two), with named marks so the
 * bench can cut the run into phases; plus percentiles. The scripts are strings because the bench's
 * tsconfig has no DOM types.
 */

/** Installs `window.__frames` (start, mark, stop) in the page; idempotent. */
export const INSTALL_FRAME_RECORDER = `(() => {
  if (window.__frames) return true;
  const rec = { times: [], marks: [], running: false };
  const tick = (t) => {
    if (!rec.running) return;
    rec.times.push(t);
    requestAnimationFrame(tick);
  };
  window.__frames = {
    start() { rec.times = []; rec.marks = []; rec.running = true; requestAnimationFrame(tick); },
    mark(name) { rec.marks.push({ name, at: performance.now() }); },
    stop() { rec.running = false; return { times: rec.times, marks: rec.marks }; },
  };
  return true;
})()`;

export interface FrameRecord {
  times: number[];
  marks: Array<{ name: string; at: number }>;
}

export interface FrameStats {
  frames: number;
  p50: number;
  p95: number;
  p99: number;
  max: number;
  mean: number;
  /** Frames longer than 16.7 ms (a missed 60 Hz vsync). */
  over16: number;
  /** Frames per second over the span. */
  fps: number;
}

/** Nearest-rank percentile of sorted values. */
export const percentile = (sorted: readonly number[], p: number): number =>
  sorted.length === 0
    ? NaN
    : sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))]!;

/** Frame times (ms) of the frames that began in [from, to). */
export function frameTimes(rec: FrameRecord, from = -Infinity, to = Infinity): number[] {
  const out: number[] = [];
  for (let i = 1; i < rec.times.length; i++) {
    const t0 = rec.times[i - 1]!;
    if (t0 >= from && t0 < to) out.push(rec.times[i]! - t0);
  }
  return out;
}

export function stats(times: readonly number[]): FrameStats {
  const sorted = [...times].sort((a, b) => a - b);
  const span = times.reduce((s, t) => s + t, 0);
  return {
    frames: times.length,
    p50: percentile(sorted, 50),
    p95: percentile(sorted, 95),
    p99: percentile(sorted, 99),
    max: sorted.at(-1) ?? NaN,
    mean: times.length ? span / times.length : NaN,
    over16: times.filter((t) => t > 1000 / 60 + 0.5).length,
    fps: span > 0 ? (times.length * 1000) / span : 0,
  };
}

/** The phases of a record: each mark to the next (the last to the end). */
export function phases(rec: FrameRecord): Array<{ name: string; times: number[] }> {
  return rec.marks.map((m, i) => ({
    name: m.name,
    times: frameTimes(rec, m.at, rec.marks[i + 1]?.at ?? Infinity),
  }));
}

/**
 * Konva's layers of the editor's stage (window.Konva is the library's global): 0 image and grid,
 * 1 the map document, 2 the live robots. `what` hides or shows one part for an ablation run, so the
 * bench can tell which part of the drawing costs the frame time (nothing in the editor changes).
 */
export const setPartVisible = (what: 'image' | 'grid' | 'document' | 'live', visible: boolean): string => `(() => {
  const stage = window.Konva && window.Konva.stages[0];
  if (!stage) return false;
  const layer = (n) => stage.getLayers().find((l) => l.name() === n);
  const [base, doc, live] = [layer('base'), layer('document'), layer('live')];
  const node = ${JSON.stringify(what)} === 'image' ? base.findOne('Image')
    : ${JSON.stringify(what)} === 'grid' ? base.getChildren((n) => n.getClassName() === 'Shape')[0]
    : ${JSON.stringify(what)} === 'document' ? doc : live;
  if (!node) return false;
  node.visible(${visible});
  stage.batchDraw();
  return true;
})()`;

/**
 * Wraps each layer's draw (Konva Layer.drawScene) to time it, and the canvas calls that rasterize
 * (drawImage, stroke, fill, strokeText, fillText) to time and count them. Only for the diagnosis run:
 * the wrappers cost a little themselves. Answers per-frame sums through `window.__drawTimes.take()`.
 */
export const INSTALL_DRAW_TIMERS = `(() => {
  if (window.__drawTimes) return true;
  const stage = window.Konva && window.Konva.stages[0];
  if (!stage) return false;
  const acc = { layers: [0, 0, 0], calls: {}, draws: [0, 0, 0] };
  // Slots: 0 base (image and grid), 1 document, 2 live; other layers (overlay) are not timed.
  const slot = { base: 0, document: 1, live: 2 };
  stage.getLayers().forEach((layer) => {
    const i = slot[layer.name()];
    if (i === undefined) return;
    const orig = layer.drawScene.bind(layer);
    layer.drawScene = (...args) => {
      const t = performance.now();
      const r = orig(...args);
      acc.layers[i] += performance.now() - t;
      acc.draws[i] += 1;
      return r;
    };
  });
  const proto = CanvasRenderingContext2D.prototype;
  for (const name of ['drawImage', 'stroke', 'fill', 'strokeText', 'fillText', 'arc', 'lineTo', 'moveTo']) {
    const orig = proto[name];
    const timed = !['arc', 'lineTo', 'moveTo'].includes(name);
    proto[name] = function (...args) {
      const c = acc.calls[name] || (acc.calls[name] = { n: 0, ms: 0 });
      c.n++;
      if (!timed) return orig.apply(this, args);
      const t = performance.now();
      const r = orig.apply(this, args);
      c.ms += performance.now() - t;
      return r;
    };
  }
  window.__drawTimes = {
    take() {
      const out = JSON.parse(JSON.stringify(acc));
      acc.layers = [0, 0, 0]; acc.draws = [0, 0, 0]; acc.calls = {};
      return out;
    },
  };
  return true;
})()`;

export interface DrawTimes {
  layers: [number, number, number];
  draws: [number, number, number];
  calls: Record<string, { n: number; ms: number }>;
}
