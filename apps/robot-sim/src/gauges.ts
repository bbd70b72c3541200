import QRCode from 'qrcode';

/**
 * Analog gauges of the simulated world: a plate on a wall with a round dial (a needle over 270°) on
 * the left and a QR code (the gauge's QR code number) on the right, as a real meter with a marker next
 * to it. The camera renderer (video/render.ts) draws them; tests and benches set their values.
 *
 * The plate layout is the contract with the portal's built-in reader (docs/meter-reading.md), in units
 * of the QR symbol's side S (the symbol without its quiet zone): the dial's centre lies 1.75 S left
 * of the symbol's centre, at the same height, its radius is 0.75 S; the needle turns clockwise from
 * 225° (min, lower left) to -45° (max, lower right), angles counter-clockwise from the plate's right.
 */

/** The QR symbol's side (m). */
export const GAUGE_QR_SIDE = 0.16;
/** Dial centre relative to the QR symbol's centre, and dial radius, in QR sides. */
export const GAUGE_DIAL_OFFSET = -1.75;
export const GAUGE_DIAL_RADIUS = 0.75;
/** The plate (m): width and height, centred on the middle between dial and QR code. */
export const GAUGE_PLATE_WIDTH = 0.6;
export const GAUGE_PLATE_HEIGHT = 0.32;
/** Needle angle of the scale's minimum and the sweep to its maximum (degrees, clockwise). */
export const GAUGE_START_ANGLE = 225;
export const GAUGE_SWEEP = 270;

export interface GaugeSpec {
  id: string;
  /** Encoded in the QR code next to the dial (the check item's QR code number). */
  qr: string;
  /** Plate centre on the wall (m, map frame) and its height above the floor (m). */
  x: number;
  y: number;
  z?: number;
  /** The plate's outward normal (radians, counter-clockwise from +x): the side it is seen from. */
  facing: number;
  min?: number;
  max?: number;
  value?: number;
}

export interface Gauge {
  readonly id: string;
  readonly qr: string;
  readonly x: number;
  readonly y: number;
  readonly z: number;
  readonly facing: number;
  readonly min: number;
  readonly max: number;
  /** The needle's value (settable; clamped to min..max when drawn). */
  value: number;
  /** The QR code's modules: size × size, 1 dark (row 0 at the top). */
  readonly modules: Uint8Array;
  readonly size: number;
}

export function createGauge(spec: GaugeSpec): Gauge {
  const qr = QRCode.create(spec.qr, { errorCorrectionLevel: 'M' });
  const size = qr.modules.size;
  const modules = Uint8Array.from(qr.modules.data, (v) => (v ? 1 : 0));
  const min = spec.min ?? 0;
  const max = spec.max ?? 100;
  if (!(max > min)) throw new RangeError(`gauge ${spec.id}: max must exceed min`);
  return {
    id: spec.id,
    qr: spec.qr,
    x: spec.x,
    y: spec.y,
    z: spec.z ?? 1.2,
    facing: spec.facing,
    min,
    max,
    value: spec.value ?? min,
    modules,
    size,
  };
}

/** The needle's angle (degrees, counter-clockwise from the plate's right) for a value. */
export function gaugeAngle(g: Pick<Gauge, 'min' | 'max'>, value: number): number {
  const t = Math.min(1, Math.max(0, (value - g.min) / (g.max - g.min)));
  return GAUGE_START_ANGLE - GAUGE_SWEEP * t;
}

/** Plate coordinates (m, u right and v up seen from the front, from the plate's centre) of dial and QR. */
const QR_CENTER_U = -(GAUGE_DIAL_OFFSET * GAUGE_QR_SIDE) / 2;
const DIAL_CENTER_U = -QR_CENTER_U;
const DIAL_R = GAUGE_DIAL_RADIUS * GAUGE_QR_SIDE;

/**
 * The plate's luma and whether it is covered at plate coordinates (u, v) in metres: -1 outside the
 * plate, else 0..255 (white plate, black rim, ticks and needle, the QR code). `cosA`/`sinA` are the
 * needle's direction (precomputed per gauge and frame).
 */
export function gaugeLuma(g: Gauge, u: number, v: number, cosA: number, sinA: number): number {
  if (Math.abs(u) > GAUGE_PLATE_WIDTH / 2 || Math.abs(v) > GAUGE_PLATE_HEIGHT / 2) return -1;
  const edge = Math.min(GAUGE_PLATE_WIDTH / 2 - Math.abs(u), GAUGE_PLATE_HEIGHT / 2 - Math.abs(v));
  if (edge < 0.006) return 70; // the plate's frame
  // QR code
  const half = GAUGE_QR_SIDE / 2;
  const qu = u - QR_CENTER_U;
  if (Math.abs(qu) < half && Math.abs(v) < half) {
    const col = Math.min(g.size - 1, Math.floor(((qu + half) / GAUGE_QR_SIDE) * g.size));
    const row = Math.min(g.size - 1, Math.floor(((half - v) / GAUGE_QR_SIDE) * g.size));
    return g.modules[row * g.size + col] ? 20 : 245;
  }
  // dial
  const du = u - DIAL_CENTER_U;
  const r = Math.hypot(du, v);
  if (r > DIAL_R) return 235;
  if (r > DIAL_R * 0.94) return 25; // rim
  if (r < DIAL_R * 0.07) return 25; // hub
  // needle: within its half-width of the ray from the centre, up to 0.8 R
  const along = du * cosA + v * sinA;
  const across = Math.abs(-du * sinA + v * cosA);
  if (along > 0 && along < DIAL_R * 0.8 && across < DIAL_R * 0.035) return 15;
  // ticks every 10 % of the scale, between 0.82 R and 0.92 R
  if (r > DIAL_R * 0.82 && r < DIAL_R * 0.92) {
    let ang = (Math.atan2(v, du) * 180) / Math.PI;
    let d = GAUGE_START_ANGLE - ang;
    d = ((d % 360) + 360) % 360;
    if (d <= GAUGE_SWEEP + 1) {
      const step = GAUGE_SWEEP / 10;
      const off = Math.abs(d - Math.round(d / step) * step);
      ang = (off * Math.PI * r) / 180; // arc length (m)
      if (ang < DIAL_R * 0.025) return 40;
    }
  }
  return 250;
}

/** The demo world's gauges: floor-1 has three on its south outer wall (inner face at y = -1.8), facing north. */
export function demoGauges(mapId: string): GaugeSpec[] {
  if (mapId !== 'floor-1') return [];
  return [
    { id: 'G1', qr: 'GAUGE-1', x: 2, y: -1.79, facing: Math.PI / 2, value: 50 },
    { id: 'G2', qr: 'GAUGE-2', x: 5, y: -1.79, facing: Math.PI / 2, value: 20 },
    { id: 'G3', qr: 'GAUGE-3', x: 8, y: -1.79, facing: Math.PI / 2, value: 80 },
  ];
}

/** Where a robot stands to photograph a gauge with its front camera (`v1`) from `distance` metres. */
export function gaugeViewpoint(
  g: Pick<Gauge, 'x' | 'y' | 'facing'>,
  distance = 1,
): { x: number; y: number; theta: number } {
  const x = g.x + Math.cos(g.facing) * distance;
  const y = g.y + Math.sin(g.facing) * distance;
  let theta = g.facing + Math.PI;
  if (theta > Math.PI) theta -= 2 * Math.PI;
  return { x, y, theta };
}
