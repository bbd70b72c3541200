import { decodePngRows } from '../../lib/png.ts';

/**
 * The start-position check of schedules (docs/api-schedules.md "Start position"): a photo taken at
 * the flow's start position when the entry was saved (the reference) against the photo the robot
 * takes at the due time. Pure functions; the decoding runs on the image worker (lib/image-worker.ts).
 *
 * 1. Each PNG is decoded and turned into a small grayscale grid (GRID_W × GRID_H cells, each the
 *    average of the pixels it covers) of the image below its top sixth (OVERLAY_TOP: where cameras,
 *    the simulator's too, burn the time as text and barcode): detail smaller than a cell fades.
 * 2. High pass: each cell minus the mean of the cells around it (HIGH_PASS_RADIUS). What every view
 *    of a corridor shares (bright ceiling, darker floor, fog far away) goes; walls, doors, pillars
 *    and seams, which differ from place to place, stay.
 * 3. Each grid is normalized by its mean and standard deviation: a brighter or darker scene, or one
 *    of more or less contrast, gives the same grid (lighting).
 * 4. The score is the best normalized cross-correlation (Pearson's r over the overlapping cells) of
 *    the two grids shifted against each other by up to MAX_SHIFT cells each way: a robot a few
 *    centimetres or degrees off sees the same scene slightly shifted (pose).
 * The check passes when the score reaches START_POSITION_THRESHOLD (chosen from measurements with
 * the simulator's rendered views; see the doc).
 */
export const GRID_W = 64;
export const GRID_H = 40;
/** The top of the image left out (a sixth of its height): cameras burn their time stamp there. */
export const OVERLAY_TOP = 1 / 6;
/** Radius (cells) of the local mean taken away from each cell (the scene's broad shading goes). */
export const HIGH_PASS_RADIUS = 4;
export const MAX_SHIFT = 4;
export const START_POSITION_THRESHOLD = 0.7;

export interface GrayGrid {
  width: number;
  height: number;
  /** Row-major cell values, 0–255. */
  cells: Float32Array;
}

/**
 * A PNG (8-bit gray, gray+alpha, RGB, RGBA or palette; not interlaced) as a grayscale grid of
 * `gw` × `gh` cells (area average; alpha ignored). Throws on anything else (JPEG is not decoded).
 */
export function pngToGrayGrid(png: Uint8Array, gw = GRID_W, gh = GRID_H, skipTop = OVERLAY_TOP): GrayGrid {
  const sums = new Float64Array(gw * gh);
  const counts = new Float64Array(gw * gh);
  let top = 0;
  let rows = 1;
  let cellOfX = new Int32Array(0);
  const cellWidth = new Float64Array(gw);
  decodePngRows(png, (y, row, { width, height, colorType, channels, palette }) => {
    if (y === 0) {
      top = Math.floor(height * skipTop);
      rows = height - top;
      cellOfX = new Int32Array(width);
      for (let x = 0; x < width; x++) {
        cellOfX[x] = Math.min(gw - 1, Math.floor((x * gw) / width));
        cellWidth[cellOfX[x]!]! += 1;
      }
    }
    if (y < top) return;
    const cy = Math.min(gh - 1, Math.floor(((y - top) * gh) / rows)) * gw;
    if (colorType === 3) {
      for (let x = 0; x < width; x++) {
        const k = row[x]! * 3;
        sums[cy + cellOfX[x]!]! += 0.299 * palette![k]! + 0.587 * palette![k + 1]! + 0.114 * palette![k + 2]!;
      }
    } else if (channels >= 3) {
      for (let x = 0, p = 0; x < width; x++, p += channels)
        sums[cy + cellOfX[x]!]! += 0.299 * row[p]! + 0.587 * row[p + 1]! + 0.114 * row[p + 2]!;
    } else {
      for (let x = 0, p = 0; x < width; x++, p += channels) sums[cy + cellOfX[x]!]! += row[p]!;
    }
    for (let c = 0; c < gw; c++) counts[cy + c]! += cellWidth[c]!;
  });
  const cells = new Float32Array(gw * gh);
  for (let i = 0; i < cells.length; i++) cells[i] = counts[i]! > 0 ? sums[i]! / counts[i]! : 0;
  return { width: gw, height: gh, cells };
}

/** Each cell minus the mean of the (2·radius+1)² cells around it (clipped at the edges). */
export function highPass(g: GrayGrid, radius = HIGH_PASS_RADIUS): GrayGrid {
  const { width: w, height: h, cells } = g;
  // Summed-area table: each box mean in constant time.
  const sat = new Float64Array((w + 1) * (h + 1));
  for (let y = 0; y < h; y++) {
    let rowSum = 0;
    for (let x = 0; x < w; x++) {
      rowSum += cells[y * w + x]!;
      sat[(y + 1) * (w + 1) + x + 1] = sat[y * (w + 1) + x + 1]! + rowSum;
    }
  }
  const out = new Float32Array(w * h);
  for (let y = 0; y < h; y++) {
    const y0 = Math.max(0, y - radius);
    const y1 = Math.min(h, y + radius + 1);
    for (let x = 0; x < w; x++) {
      const x0 = Math.max(0, x - radius);
      const x1 = Math.min(w, x + radius + 1);
      const sum = sat[y1 * (w + 1) + x1]! - sat[y0 * (w + 1) + x1]! - sat[y1 * (w + 1) + x0]! + sat[y0 * (w + 1) + x0]!;
      out[y * w + x] = cells[y * w + x]! - sum / ((y1 - y0) * (x1 - x0));
    }
  }
  return { width: w, height: h, cells: out };
}

/** The grid minus its mean, divided by its standard deviation (a flat grid stays all zero). */
export function normalized(g: GrayGrid): Float32Array {
  const n = g.cells.length;
  let mean = 0;
  for (let i = 0; i < n; i++) mean += g.cells[i]!;
  mean /= n;
  let variance = 0;
  for (let i = 0; i < n; i++) variance += (g.cells[i]! - mean) ** 2;
  const sd = Math.sqrt(variance / n);
  const out = new Float32Array(n);
  if (sd < 1e-6) return out;
  for (let i = 0; i < n; i++) out[i] = (g.cells[i]! - mean) / sd;
  return out;
}

/** Pearson's r of `a` and `b` (grids of one size) with `b` shifted by (dx, dy) cells, over the overlap. */
function correlation(a: Float32Array, b: Float32Array, w: number, h: number, dx: number, dy: number): number {
  let n = 0;
  let sa = 0;
  let sb = 0;
  let saa = 0;
  let sbb = 0;
  let sab = 0;
  for (let y = Math.max(0, -dy); y < Math.min(h, h - dy); y++) {
    for (let x = Math.max(0, -dx); x < Math.min(w, w - dx); x++) {
      const va = a[y * w + x]!;
      const vb = b[(y + dy) * w + x + dx]!;
      n++;
      sa += va;
      sb += vb;
      saa += va * va;
      sbb += vb * vb;
      sab += va * vb;
    }
  }
  if (n === 0) return 0;
  const cov = sab - (sa * sb) / n;
  const va = saa - (sa * sa) / n;
  const vb = sbb - (sb * sb) / n;
  return va > 1e-9 && vb > 1e-9 ? cov / Math.sqrt(va * vb) : 0;
}

export interface StartPositionScore {
  /** The best correlation, −1…1 (rounded to 3 decimals). */
  score: number;
  /** The shift (cells) of the current view that gave it. */
  dx: number;
  dy: number;
}

/** The best normalized cross-correlation of two grids over shifts of up to `maxShift` cells. */
export function compareGrids(reference: GrayGrid, current: GrayGrid, maxShift = MAX_SHIFT): StartPositionScore {
  if (reference.width !== current.width || reference.height !== current.height)
    throw new Error('grids of different sizes');
  const a = normalized(highPass(reference));
  const b = normalized(highPass(current));
  let best: StartPositionScore = { score: -1, dx: 0, dy: 0 };
  for (let dy = -maxShift; dy <= maxShift; dy++) {
    for (let dx = -maxShift; dx <= maxShift; dx++) {
      const r = correlation(a, b, reference.width, reference.height, dx, dy);
      if (r > best.score) best = { score: r, dx, dy };
    }
  }
  return { ...best, score: Math.round(best.score * 1000) / 1000 };
}

/**
 * A grid as stored with a reference image: one byte a cell (the area averages rounded; a difference
 * of at most half a gray level, far below what the high pass and the correlation notice).
 */
export function gridToBytes(g: GrayGrid): Uint8Array {
  const out = new Uint8Array(g.cells.length);
  for (let i = 0; i < out.length; i++) out[i] = Math.max(0, Math.min(255, Math.round(g.cells[i]!)));
  return out;
}

/** A stored grid (`gridToBytes`) back; throws when its size is not GRID_W × GRID_H. */
export function gridFromBytes(bytes: Uint8Array): GrayGrid {
  if (bytes.length !== GRID_W * GRID_H) throw new Error(`a stored grid has ${bytes.length} cells`);
  return { width: GRID_W, height: GRID_H, cells: Float32Array.from(bytes) };
}

/** The current photo (PNG) against a reference's stored grid: the score and whether it passes. */
export function compareWithReferenceGrid(
  reference: Uint8Array,
  current: Uint8Array,
  threshold = START_POSITION_THRESHOLD,
): StartPositionScore & { pass: boolean } {
  const s = compareGrids(gridFromBytes(reference), pngToGrayGrid(current));
  return { ...s, pass: s.score >= threshold };
}

/** Compares two PNG photos (reference, current): the score and whether it passes the threshold. */
export function compareStartPhotos(
  reference: Uint8Array,
  current: Uint8Array,
  threshold = START_POSITION_THRESHOLD,
): StartPositionScore & { pass: boolean } {
  const s = compareGrids(pngToGrayGrid(reference), pngToGrayGrid(current));
  return { ...s, pass: s.score >= threshold };
}
