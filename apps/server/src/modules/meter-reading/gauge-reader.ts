import jsQR from 'jsqr';
import { decodePngRgba } from '../../lib/png.ts';

/**
 * The built-in reader's image work (run on the image worker, lib/image-worker.ts): find the QR code
 * next to an analog gauge, then the dial relative to it, and read the needle's angle.
 *
 * The layout (docs/meter-reading.md; the simulator's gauges follow it), in units of the QR symbol's
 * side S: the dial's centre lies 1.75 S left of the symbol's centre at the same height, its radius is
 * 0.75 S; the needle turns clockwise from 225° (the scale's minimum, lower left) to -45° (maximum,
 * lower right), angles counter-clockwise from the symbol's right.
 */
export const DIAL_OFFSET = -1.75;
export const DIAL_RADIUS = 0.75;
export const START_ANGLE = 225;
export const SWEEP = 270;

export interface GaugeScale {
  min: number;
  max: number;
}

export type GaugeImageResult =
  | { ok: true; qr: string; value: number; angle: number }
  | { ok: false; code: 'MARKER_NOT_FOUND' | 'READ_FAILED'; qr?: string; message: string };

type Pt = { x: number; y: number };

/** The homography mapping the unit square (0,0),(1,0),(1,1),(0,1) onto four points (row-major 3×3). */
export function squareToQuad(p0: Pt, p1: Pt, p2: Pt, p3: Pt): number[] {
  const dx1 = p1.x - p2.x;
  const dx2 = p3.x - p2.x;
  const dy1 = p1.y - p2.y;
  const dy2 = p3.y - p2.y;
  const sx = p0.x - p1.x + p2.x - p3.x;
  const sy = p0.y - p1.y + p2.y - p3.y;
  const den = dx1 * dy2 - dx2 * dy1;
  const g = (sx * dy2 - dx2 * sy) / den;
  const h = (dx1 * sy - sx * dy1) / den;
  return [
    p1.x - p0.x + g * p1.x,
    p3.x - p0.x + h * p3.x,
    p0.x,
    p1.y - p0.y + g * p1.y,
    p3.y - p0.y + h * p3.y,
    p0.y,
    g,
    h,
    1,
  ];
}

function apply(m: number[], u: number, v: number): Pt {
  const w = m[6]! * u + m[7]! * v + m[8]!;
  return { x: (m[0]! * u + m[1]! * v + m[2]!) / w, y: (m[3]! * u + m[4]! * v + m[5]!) / w };
}

/** Reads a gauge from a PNG photo; `expectedQr` (when given) must be what the QR code says. */
export function readGaugePng(png: Uint8Array, expectedQr: string | null, scale: GaugeScale): GaugeImageResult {
  let img: ReturnType<typeof decodePngRgba>;
  try {
    img = decodePngRgba(png);
  } catch (err) {
    return { ok: false, code: 'READ_FAILED', message: `photo not readable: ${(err as Error).message}` };
  }
  return readGaugeRgba(img.data, img.width, img.height, expectedQr, scale);
}

export function readGaugeRgba(
  rgba: Uint8ClampedArray,
  width: number,
  height: number,
  expectedQr: string | null,
  scale: GaugeScale,
): GaugeImageResult {
  const code = jsQR(rgba, width, height, { inversionAttempts: 'dontInvert' });
  if (!code || !code.data) return { ok: false, code: 'MARKER_NOT_FOUND', message: 'no QR code in the photo' };
  const qr = code.data;
  if (expectedQr && qr !== expectedQr) {
    return { ok: false, code: 'MARKER_NOT_FOUND', qr, message: `QR code ${qr} is not the check item's ${expectedQr}` };
  }
  const l = code.location;
  const m = squareToQuad(l.topLeftCorner, l.topRightCorner, l.bottomRightCorner, l.bottomLeftCorner);
  // Symbol-local coordinates: x right, y down, the symbol spans 0..1.
  const cx = 0.5 + DIAL_OFFSET;
  const cy = 0.5;
  const lumaAt = (u: number, v: number): number => {
    const p = apply(m, u, v);
    const x = Math.round(p.x);
    const y = Math.round(p.y);
    if (x < 0 || y < 0 || x >= width || y >= height) return -1;
    const o = (y * width + x) * 4;
    return (rgba[o]! * 299 + rgba[o + 1]! * 587 + rgba[o + 2]! * 114) / 1000;
  };
  const STEPS = 1440;
  const dark = new Float64Array(STEPS);
  for (let s = 0; s < STEPS; s++) {
    const a = (s * 2 * Math.PI) / STEPS;
    const cos = Math.cos(a);
    const sin = Math.sin(a);
    let sum = 0;
    let n = 0;
    for (let r = 0.2; r <= 0.7; r += 0.025) {
      const l = lumaAt(cx + DIAL_RADIUS * r * cos, cy - DIAL_RADIUS * r * sin);
      if (l < 0) continue;
      sum += l;
      n++;
    }
    if (n < 10) return { ok: false, code: 'READ_FAILED', qr, message: 'the dial is not in the photo' };
    dark[s] = 255 - sum / n;
  }
  let best = 0;
  for (let s = 1; s < STEPS; s++) if (dark[s]! > dark[best]!) best = s;
  const sorted = Array.from(dark).sort((a, b) => a - b);
  const median = sorted[STEPS >> 1]!;
  if (dark[best]! - median < 40) return { ok: false, code: 'READ_FAILED', qr, message: 'no needle found on the dial' };
  // Weighted centre of the needle's dark peak (±4°).
  let wsum = 0;
  let asum = 0;
  for (let d = -16; d <= 16; d++) {
    const s = (best + d + STEPS) % STEPS;
    const w = Math.max(0, dark[s]! - median);
    wsum += w;
    asum += w * (best + d);
  }
  const angle = (((asum / wsum) * 360) / STEPS + 360) % 360;
  let sweep = (((START_ANGLE - angle) % 360) + 360) % 360;
  if (sweep > SWEEP) sweep = sweep < (SWEEP + 360) / 2 ? SWEEP : 0;
  const value = scale.min + ((scale.max - scale.min) * sweep) / SWEEP;
  return { ok: true, qr, value, angle: angle > 180 ? angle - 360 : angle };
}
