import type { CameraId, ThermalColorMap } from '@portal/contract';
import { GAUGE_PLATE_HEIGHT, GAUGE_PLATE_WIDTH, gaugeAngle, gaugeLuma } from '../gauges.ts';
import { gridFrame, WALL_THICKNESS, type World } from '../world.ts';
import { drawText } from './font.ts';
import { drawStamp, stampLayout } from './stamp.ts';
import { i420Size, i420ToRgba, rgbToU, rgbToV, rgbToY } from './yuv.ts';

/**
 * First-person camera frames of a simulated robot: a "Wolfenstein" ray caster over an occupancy
 * grid of the robot's World, written straight into an I420 buffer (BT.601 limited range), with the
 * robot name, camera id, render time and a timestamp barcode (stamp.ts) on top.
 *
 * Geometry: map frame x right, y up, theta counter-clockwise from +x. Every wall and pillar reaches
 * the ceiling (CEILING_HEIGHT). Cameras are pinholes with square pixels; pitch (and gimbal tilt)
 * shears the image vertically (the horizon row moves), eye height moves where the floor meets the
 * walls and the ceiling line (a level camera's horizon stays at mid-height, as with a real lens).
 */

export interface CameraView {
  camera: CameraId;
  /** Robot pose in metres / radians (map frame). */
  pose: { x: number; y: number; theta: number };
  world: World;
  /**
   * Gimbal angles in degrees, used by `g1` only. pan > 0 turns right (clockwise seen from above),
   * tilt > 0 looks up.
   */
  gimbal: { pan: number; tilt: number };
  /** Camera height above the floor in metres (CAMERA_SPECS has defaults per camera). */
  eyeHeight: number;
  /** Used by the `thermal` camera: colour map and the °C range mapped onto it. */
  thermal: { colorMap: ThermalColorMap; rangeMin: number; rangeMax: number };
  robotName: string;
  /** Render time, epoch ms: drawn as local time text and as the stamp barcode. */
  now: number;
  /** Small extra text (e.g. camera id and video mode). */
  label?: string;
  /** The button panels' lit buttons (buttons.ts targets): drawn amber. */
  litButtons?: readonly string[];
}

export interface CameraSpec {
  /** Horizontal field of view, degrees. */
  fov: number;
  /** Viewing direction relative to the robot's heading, degrees, counter-clockwise. */
  yaw: number;
  /** Fixed pitch, degrees, > 0 up. */
  pitch: number;
  /** Default mounting height (m) for CameraView.eyeHeight. */
  eyeHeight: number;
}

/** v1 front, v2 rear, v3 front low and wide (tilted 10° down), s1 right side, g1 gimbal, thermal. */
export const CAMERA_SPECS: Readonly<Record<CameraId, Readonly<CameraSpec>>> = {
  v1: { fov: 90, yaw: 0, pitch: 0, eyeHeight: 1.2 },
  v2: { fov: 90, yaw: 180, pitch: 0, eyeHeight: 1.2 },
  v3: { fov: 110, yaw: 0, pitch: -10, eyeHeight: 0.4 },
  s1: { fov: 90, yaw: -90, pitch: 0, eyeHeight: 1.0 },
  g1: { fov: 90, yaw: 0, pitch: 0, eyeHeight: 1.4 },
  thermal: { fov: 55, yaw: 0, pitch: 0, eyeHeight: 1.2 },
};

/** Height of walls and ceiling (m). */
export const CEILING_HEIGHT = 3;
/** Beyond this distance (m) everything is fog. */
export const MAX_VIEW_DISTANCE = 15;
/** Fog starts here (m) and grows linearly to MAX_VIEW_DISTANCE. */
const FOG_START = 4;
/** Cell size of the ray-casting grid (m). */
export const RAYCAST_RESOLUTION = 0.05;
/** Floor tiles (m); the checker fades out with distance to avoid moiré. */
const TILE = 1;
/** Wall panels (m) with a dark seam of SEAM m between them. */
const PANEL = 1.5;
const SEAM = 0.06;
/** Skirting board height (m). */
const SKIRTING = 0.12;
/** Radiators (heat sources): height range (m) and length (m). */
const RADIATOR_Z0 = 0.15;
const RADIATOR_Z1 = 0.75;
const RADIATOR_LENGTH = 1.2;

type Rgb = readonly [number, number, number];
const FOG: Rgb = [128, 130, 136];
/** Indexed by cell kind: 1 outer wall, 2 inner wall, 3 pillar. */
const WALL_COLORS: readonly Rgb[] = [
  [0, 0, 0],
  [205, 192, 168],
  [168, 186, 208],
  [226, 170, 40],
];
const SKIRTING_COLOR: Rgb = [62, 58, 54];
const RADIATOR_COLOR: Rgb = [236, 236, 230];
const CEILING_COLOR: Rgb = [214, 214, 220];
const FLOOR_A: Rgb = [132, 124, 112];
const FLOOR_B: Rgb = [98, 94, 88];

/** Pseudo temperatures (°C) of the thermal camera. */
const T_AMBIENT = 20;
const T_PILLAR = 31;
const T_RADIATOR = 52;

// ---------------------------------------------------------------- scene (cached per World)

interface Scene {
  originX: number;
  originY: number;
  width: number;
  height: number;
  /** 0 free, 1 outer wall, 2 inner wall, 3 pillar (row 0 at the bottom). */
  cells: Uint8Array;
  /** Radiator footprints, 4 numbers each (x0, y0, x1, y1), slightly larger than the wall faces. */
  heat: Float64Array;
}

const scenes = new WeakMap<World, Scene>();

/** FNV-1a + mulberry32: deterministic pseudo-random numbers from a string. */
function seeded(seed: string): () => number {
  let h = 0x811c9dc5;
  for (let i = 0; i < seed.length; i++) {
    h ^= seed.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  let a = h >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * Radiators on the walls, derived from the map id: about every second wall piece at least 2.5 m
 * long gets one (and at least two walls do, the longest ones first when chance gave fewer).
 */
function radiators(world: World): number[] {
  const rand = seeded(`heat:${world.mapId}`);
  const long = world.walls
    .map((w) => ({ w, len: Math.max(w.x1 - w.x0, w.y1 - w.y0) }))
    .filter((e) => e.len >= 2.5)
    .sort((a, b) => b.len - a.len);
  const chosen = long.filter(() => rand() < 0.5);
  for (const e of long) if (chosen.length < 2 && !chosen.includes(e)) chosen.push(e);
  const out: number[] = [];
  const m = 0.12; // reaches past the face: hit points sit on grid cell borders
  for (const { w, len } of chosen) {
    const at = 0.3 + rand() * (len - RADIATOR_LENGTH - 0.6);
    if (w.x1 - w.x0 >= w.y1 - w.y0) out.push(w.x0 + at, w.y0 - m, w.x0 + at + RADIATOR_LENGTH, w.y1 + m);
    else out.push(w.x0 - m, w.y0 + at, w.x1 + m, w.y0 + at + RADIATOR_LENGTH);
  }
  return out;
}

function sceneOf(world: World): Scene {
  const cached = scenes.get(world);
  if (cached) return cached;
  const res = RAYCAST_RESOLUTION;
  const { originX, originY, width, height } = gridFrame(world, res);
  const cells = new Uint8Array(width * height);
  const eps = 1e-9;
  const b = world.bounds;
  const near = WALL_THICKNESS / 2;
  const paint = (r: { x0: number; y0: number; x1: number; y1: number }, kind: number): void => {
    const ix0 = Math.max(0, Math.floor((r.x0 - originX) / res + eps));
    const ix1 = Math.min(width - 1, Math.ceil((r.x1 - originX) / res - eps) - 1);
    const iy0 = Math.max(0, Math.floor((r.y0 - originY) / res + eps));
    const iy1 = Math.min(height - 1, Math.ceil((r.y1 - originY) / res - eps) - 1);
    for (let iy = iy0; iy <= iy1; iy++) cells.fill(kind, iy * width + ix0, iy * width + ix1 + 1);
  };
  const outer = (r: { x0: number; y0: number; x1: number; y1: number }): boolean =>
    r.x0 <= b.x0 + near || r.y0 <= b.y0 + near || r.x1 >= b.x1 - near || r.y1 >= b.y1 - near;
  for (const w of world.walls) if (outer(w)) paint(w, 1);
  for (const w of world.walls) if (!outer(w)) paint(w, 2);
  for (const p of world.pillars) paint(p, 3);
  const scene: Scene = { originX, originY, width, height, cells, heat: new Float64Array(radiators(world)) };
  scenes.set(world, scene);
  return scene;
}

// ---------------------------------------------------------------- thermal colour maps

type Stops = ReadonlyArray<readonly [number, number, number, number]>;

/**
 * The colour maps (position 0..1, r, g, b):
 * - `normal`: "ironbow", black → indigo → purple → red → orange → yellow → white.
 * - `mono`: white-hot grayscale.
 * - `ir`: rainbow, dark blue → blue → cyan → green → yellow → red → white (high-contrast IR palette).
 */
const COLOR_MAP_STOPS: Record<ThermalColorMap, Stops> = {
  normal: [
    [0, 0, 0, 0],
    [0.15, 32, 0, 96],
    [0.35, 130, 0, 150],
    [0.55, 220, 40, 60],
    [0.75, 250, 150, 0],
    [0.9, 255, 230, 60],
    [1, 255, 255, 255],
  ],
  mono: [
    [0, 0, 0, 0],
    [1, 255, 255, 255],
  ],
  ir: [
    [0, 0, 0, 80],
    [0.17, 0, 0, 255],
    [0.33, 0, 220, 255],
    [0.5, 0, 220, 0],
    [0.67, 255, 240, 0],
    [0.83, 255, 0, 0],
    [1, 255, 255, 255],
  ],
};

interface Lut {
  y: Uint8Array;
  u: Uint8Array;
  v: Uint8Array;
}
const luts = new Map<ThermalColorMap, Lut>();

/** The 256-entry YUV lookup table of a colour map. */
function lutOf(map: ThermalColorMap): Lut {
  let lut = luts.get(map);
  if (lut) return lut;
  const stops = COLOR_MAP_STOPS[map] ?? COLOR_MAP_STOPS.normal;
  lut = { y: new Uint8Array(256), u: new Uint8Array(256), v: new Uint8Array(256) };
  for (let i = 0; i < 256; i++) {
    const t = i / 255;
    let s = 1;
    while (s < stops.length - 1 && stops[s]![0] < t) s++;
    const [t0, r0, g0, b0] = stops[s - 1]!;
    const [t1, r1, g1, b1] = stops[s]!;
    const f = t1 > t0 ? Math.min(1, Math.max(0, (t - t0) / (t1 - t0))) : 0;
    const r = r0 + (r1 - r0) * f;
    const g = g0 + (g1 - g0) * f;
    const b = b0 + (b1 - b0) * f;
    lut.y[i] = rgbToY(r, g, b);
    lut.u[i] = rgbToU(r, g, b);
    lut.v[i] = rgbToV(r, g, b);
  }
  luts.set(map, lut);
  return lut;
}

// ---------------------------------------------------------------- text

const pad2 = (n: number): string => String(n).padStart(2, '0');

/** Local time as YYYY-MM-DD HH:MM:SS.mmm. */
export function formatLocalTime(epochMs: number): string {
  const d = new Date(epochMs);
  if (Number.isNaN(d.getTime())) return '-------- --:--:--.---';
  return (
    `${d.getFullYear()}-${pad2(d.getMonth() + 1)}-${pad2(d.getDate())} ` +
    `${pad2(d.getHours())}:${pad2(d.getMinutes())}:${pad2(d.getSeconds())}.${String(d.getMilliseconds()).padStart(3, '0')}`
  );
}

// ---------------------------------------------------------------- renderer

const clamp01 = (v: number): number => (v < 0 ? 0 : v > 1 ? 1 : v);
const fogOf = (d: number): number => clamp01((d - FOG_START) / (MAX_VIEW_DISTANCE - FOG_START));
/** Light falloff with distance. */
const lightOf = (d: number): number => 1 / (1 + 0.05 * d);

/**
 * Renders camera frames of one size into a reused I420 buffer. Not thread-safe, not re-entrant; one
 * renderer per video track (or per size).
 */
export class FrameRenderer {
  readonly width: number;
  readonly height: number;
  /** The frame: Y (width × height), then U and V (width/2 × height/2). */
  private readonly frame: Uint8ClampedArray;
  private readonly yPlane: Uint8Array;
  private readonly uPlane: Uint8Array;
  private readonly vPlane: Uint8Array;
  // Per column.
  private readonly topRow: Int32Array;
  private readonly botRow: Int32Array;
  private readonly bandTop: Int32Array;
  private readonly bandBot: Int32Array;
  private readonly wallY: Uint8Array;
  private readonly wallU: Uint8Array;
  private readonly wallV: Uint8Array;
  private readonly bandY: Uint8Array;
  private readonly bandU: Uint8Array;
  private readonly bandV: Uint8Array;
  /** Per column: the wall's perpendicular distance (m), Infinity when nothing is hit. */
  private readonly depth: Float64Array;
  // Per row.
  private readonly rowDist: Float64Array;
  private readonly rowYA: Uint8Array;
  private readonly rowYB: Uint8Array;
  private readonly rowU: Uint8Array;
  private readonly rowV: Uint8Array;
  /** Per field of view: tangent offset of each column's ray, ray length factor, focal length. */
  private readonly optics = new Map<number, { k: Float64Array; len: Float64Array; focal: number }>();
  /** Scratch colour. */
  private readonly rgb = new Float64Array(3);

  constructor(width: number, height: number) {
    if (!Number.isInteger(width) || !Number.isInteger(height) || width < 16 || height < 16) {
      throw new RangeError(`frame size ${width}x${height}: integers of at least 16 expected`);
    }
    if (width % 2 || height % 2 || width > 8192 || height > 8192) {
      throw new RangeError(`frame size ${width}x${height}: even sizes up to 8192 expected (I420)`);
    }
    this.width = width;
    this.height = height;
    this.frame = new Uint8ClampedArray(i420Size(width, height));
    const buf = this.frame.buffer;
    const cs = (width >> 1) * (height >> 1);
    this.yPlane = new Uint8Array(buf, 0, width * height);
    this.uPlane = new Uint8Array(buf, width * height, cs);
    this.vPlane = new Uint8Array(buf, width * height + cs, cs);
    this.topRow = new Int32Array(width);
    this.botRow = new Int32Array(width);
    this.bandTop = new Int32Array(width);
    this.bandBot = new Int32Array(width);
    this.wallY = new Uint8Array(width);
    this.wallU = new Uint8Array(width);
    this.wallV = new Uint8Array(width);
    this.bandY = new Uint8Array(width);
    this.bandU = new Uint8Array(width);
    this.bandV = new Uint8Array(width);
    this.depth = new Float64Array(width);
    this.rowDist = new Float64Array(height);
    this.rowYA = new Uint8Array(height);
    this.rowYB = new Uint8Array(height);
    this.rowU = new Uint8Array(height);
    this.rowV = new Uint8Array(height);
  }

  /**
   * Renders one frame and returns the I420 buffer (width × height × 1.5 bytes, the same buffer every
   * call: hand it on, e.g. to RTCVideoSource.onFrame which copies, before the next render).
   */
  render(view: CameraView): Uint8ClampedArray {
    this.scene(view);
    this.overlay(view);
    return this.frame;
  }

  /** Renders one frame as RGBA (a new buffer, width × height × 4 bytes), e.g. for a photo (encodePng). */
  renderRgba(view: CameraView): Uint8ClampedArray {
    return i420ToRgba(this.render(view), this.width, this.height);
  }

  private opticsOf(fovDeg: number): { k: Float64Array; len: Float64Array; focal: number } {
    let o = this.optics.get(fovDeg);
    if (o) return o;
    const w = this.width;
    const focal = w / 2 / Math.tan((fovDeg * Math.PI) / 360);
    const k = new Float64Array(w);
    const len = new Float64Array(w);
    for (let c = 0; c < w; c++) {
      k[c] = (c + 0.5 - w / 2) / focal;
      len[c] = Math.sqrt(1 + k[c]! * k[c]!);
    }
    o = { k, len, focal };
    this.optics.set(fovDeg, o);
    return o;
  }

  /** A lit and fogged colour into this.rgb (base may be this.rgb itself). */
  private shade(base: ArrayLike<number>, light: number, fog: number): void {
    const keep = 1 - fog;
    this.rgb[0] = base[0]! * light * keep + FOG[0] * fog;
    this.rgb[1] = base[1]! * light * keep + FOG[1] * fog;
    this.rgb[2] = base[2]! * light * keep + FOG[2] * fog;
  }

  private scene(view: CameraView): void {
    const W = this.width;
    const H = this.height;
    const spec = CAMERA_SPECS[view.camera] ?? CAMERA_SPECS.v1;
    const thermal = view.camera === 'thermal';
    const isGimbal = view.camera === 'g1';
    const { k, len, focal } = this.opticsOf(spec.fov);
    const pan = isGimbal ? view.gimbal.pan || 0 : 0;
    const tilt = isGimbal ? view.gimbal.tilt || 0 : 0;
    const heading = (view.pose.theta || 0) + ((spec.yaw - pan) * Math.PI) / 180;
    const pitch = Math.max(-80, Math.min(80, spec.pitch + tilt));
    const horizon = H / 2 + focal * Math.tan((pitch * Math.PI) / 180);
    const eye = Math.max(0.05, Math.min(CEILING_HEIGHT - 0.05, Number.isFinite(view.eyeHeight) ? view.eyeHeight : 1.2));
    const px = Number.isFinite(view.pose.x) ? view.pose.x : 0;
    const py = Number.isFinite(view.pose.y) ? view.pose.y : 0;
    const fx = Math.cos(heading);
    const fy = Math.sin(heading);
    // Right-hand direction of the camera (the image's +x).
    const rx = fy;
    const ry = -fx;

    const lut = thermal ? lutOf(view.thermal.colorMap) : null;
    const finite = Number.isFinite(view.thermal.rangeMin) && Number.isFinite(view.thermal.rangeMax);
    const tMin = finite ? view.thermal.rangeMin : 15;
    const span = (finite ? view.thermal.rangeMax : 45) - tMin;
    const tScale = 255 / (Math.abs(span) < 1e-6 ? 1e-6 : span);
    const tIndex = (t: number): number => {
      const i = Math.round((t - tMin) * tScale);
      return i < 0 ? 0 : i > 255 ? 255 : i;
    };

    const split = Math.max(0, Math.min(H, Math.ceil(horizon - 0.5)));
    const rowAt = (v: number): number => {
      const r = Math.ceil(v - 0.5);
      return r < 0 ? 0 : r > H ? H : r;
    };

    // ---- per column: ray cast
    const sc = sceneOf(view.world);
    const res = RAYCAST_RESOLUTION;
    const gw = sc.width;
    const gh = sc.height;
    const cells = sc.cells;
    const heat = sc.heat;
    const gx = (px - sc.originX) / res;
    const gy = (py - sc.originY) / res;
    const inside = gx >= 0 && gy >= 0 && gx < gw && gy < gh;
    const startX = Math.floor(gx);
    const startY = Math.floor(gy);
    const maxT = MAX_VIEW_DISTANCE / res;
    const rgb = this.rgb;
    // Extents over all columns, for the fast paths of the pixel loops.
    let minTop = H;
    let maxTop = 0;
    let minBot = H;
    let maxBot = 0;
    let bandMin = H;
    let bandMax = 0;
    for (let c = 0; c < W; c++) {
      const rdx = fx + k[c]! * rx;
      const rdy = fy + k[c]! * ry;
      let hit = 0;
      let side = 0;
      let t = 0;
      if (inside) {
        let mx = startX;
        let my = startY;
        hit = cells[my * gw + mx]!;
        if (hit === 0) {
          const ddx = rdx === 0 ? 1e30 : Math.abs(1 / rdx);
          const ddy = rdy === 0 ? 1e30 : Math.abs(1 / rdy);
          const sx = rdx < 0 ? -1 : 1;
          const sy = rdy < 0 ? -1 : 1;
          let sdx = rdx < 0 ? (gx - mx) * ddx : (mx + 1 - gx) * ddx;
          let sdy = rdy < 0 ? (gy - my) * ddy : (my + 1 - gy) * ddy;
          const lim = maxT / len[c]!;
          for (;;) {
            if (sdx < sdy) {
              t = sdx;
              if (t > lim) break;
              sdx += ddx;
              mx += sx;
              side = 0;
              if (mx < 0 || mx >= gw) break;
            } else {
              t = sdy;
              if (t > lim) break;
              sdy += ddy;
              my += sy;
              side = 1;
              if (my < 0 || my >= gh) break;
            }
            hit = cells[my * gw + mx]!;
            if (hit !== 0) break;
          }
        }
      }
      if (hit === 0) {
        // Nothing within MAX_VIEW_DISTANCE: ceiling and floor meet at the horizon.
        this.topRow[c] = split;
        this.botRow[c] = split;
        this.bandTop[c] = 0;
        this.bandBot[c] = 0;
        this.depth[c] = Infinity;
        if (split < minTop) minTop = split;
        if (split > maxTop) maxTop = split;
        if (split < minBot) minBot = split;
        if (split > maxBot) maxBot = split;
        continue;
      }
      const perp = Math.max(0.02, t * res);
      this.depth[c] = perp;
      const dist = perp * len[c]!;
      const scaleY = focal / perp;
      const wt = rowAt(horizon - (CEILING_HEIGHT - eye) * scaleY);
      const wb = rowAt(horizon + eye * scaleY);
      this.topRow[c] = wt;
      this.botRow[c] = wb;
      if (wt < minTop) minTop = wt;
      if (wt > maxTop) maxTop = wt;
      if (wb < minBot) minBot = wb;
      if (wb > maxBot) maxBot = wb;
      // Where the ray meets the wall (m), and the coordinate along the wall face.
      const hx = px + perp * rdx;
      const hy = py + perp * rdy;
      const along = side === 0 ? hy : hx;
      let radiator = false;
      if (hit !== 3) {
        for (let i = 0; i < heat.length; i += 4) {
          if (hx >= heat[i]! && hy >= heat[i + 1]! && hx <= heat[i + 2]! && hy <= heat[i + 3]!) {
            radiator = true;
            break;
          }
        }
      }
      const z0 = radiator ? RADIATOR_Z0 : 0;
      const z1 = radiator ? RADIATOR_Z1 : SKIRTING;
      this.bandTop[c] = rowAt(horizon + (eye - z1) * scaleY);
      this.bandBot[c] = rowAt(horizon + (eye - z0) * scaleY);
      if (this.bandTop[c]! < this.bandBot[c]!) {
        if (this.bandTop[c]! < bandMin) bandMin = this.bandTop[c]!;
        if (this.bandBot[c]! > bandMax) bandMax = this.bandBot[c]!;
      }
      const fog = fogOf(dist);
      if (lut) {
        const tw = hit === 3 ? T_PILLAR : T_AMBIENT - 1.5 + 6 * Math.exp(-dist / 3.5) + (side === 0 ? 0.4 : -0.4);
        const iw = tIndex(tw + (T_AMBIENT - tw) * fog);
        this.wallY[c] = lut.y[iw]!;
        this.wallU[c] = lut.u[iw]!;
        this.wallV[c] = lut.v[iw]!;
        const tb = radiator ? T_RADIATOR : tw;
        const ib = tIndex(tb + (T_AMBIENT - tb) * fog);
        this.bandY[c] = lut.y[ib]!;
        this.bandU[c] = lut.u[ib]!;
        this.bandV[c] = lut.v[ib]!;
      } else {
        let light = lightOf(dist) * (side === 0 ? 1 : 0.8);
        const seamPos = along / PANEL - Math.floor(along / PANEL);
        if (seamPos * PANEL < SEAM && dist < 10) light *= 0.65 + 0.035 * dist;
        this.shade(WALL_COLORS[hit] ?? WALL_COLORS[2]!, light, fog);
        this.wallY[c] = rgbToY(rgb[0]!, rgb[1]!, rgb[2]!);
        this.wallU[c] = rgbToU(rgb[0]!, rgb[1]!, rgb[2]!);
        this.wallV[c] = rgbToV(rgb[0]!, rgb[1]!, rgb[2]!);
        this.shade(radiator ? RADIATOR_COLOR : SKIRTING_COLOR, lightOf(dist) * (side === 0 ? 1 : 0.85), fog);
        this.bandY[c] = rgbToY(rgb[0]!, rgb[1]!, rgb[2]!);
        this.bandU[c] = rgbToU(rgb[0]!, rgb[1]!, rgb[2]!);
        this.bandV[c] = rgbToV(rgb[0]!, rgb[1]!, rgb[2]!);
      }
    }

    // ---- per row: ceiling (above the horizon) and floor (below) colours and distances
    for (let r = 0; r < H; r++) {
      const dy = r + 0.5 - horizon;
      let ya: number;
      let yb: number;
      let u: number;
      let v: number;
      if (r < split) {
        const d = Math.min(1e6, (focal * (CEILING_HEIGHT - eye)) / Math.max(1e-9, -dy));
        this.rowDist[r] = d;
        const fog = fogOf(d);
        if (lut) {
          const i = tIndex(T_AMBIENT + (2.5 + 1.5 * Math.exp(-d / 4)) * (1 - fog));
          ya = yb = lut.y[i]!;
          u = lut.u[i]!;
          v = lut.v[i]!;
        } else {
          this.shade(CEILING_COLOR, lightOf(d), fog);
          ya = yb = rgbToY(rgb[0]!, rgb[1]!, rgb[2]!);
          u = rgbToU(rgb[0]!, rgb[1]!, rgb[2]!);
          v = rgbToV(rgb[0]!, rgb[1]!, rgb[2]!);
        }
      } else {
        const d = Math.min(1e6, (focal * eye) / Math.max(1e-9, dy));
        this.rowDist[r] = d;
        const fog = fogOf(d);
        if (lut) {
          const i = tIndex(T_AMBIENT + (-0.5 + 3 * Math.exp(-d / 2.5)) * (1 - fog));
          ya = yb = lut.y[i]!;
          u = lut.u[i]!;
          v = lut.v[i]!;
        } else {
          // The checker fades out from 3 m to 9 m (no moiré far away).
          const contrast = clamp01(1 - (d - 3) / 6);
          const light = lightOf(d);
          for (let j = 0; j < 3; j++) {
            const mid = (FLOOR_A[j]! + FLOOR_B[j]!) / 2;
            rgb[j] = mid + (FLOOR_A[j]! - mid) * contrast;
          }
          this.shade(rgb, light, fog);
          ya = rgbToY(rgb[0]!, rgb[1]!, rgb[2]!);
          for (let j = 0; j < 3; j++) {
            const mid = (FLOOR_A[j]! + FLOOR_B[j]!) / 2;
            rgb[j] = mid + (FLOOR_B[j]! - mid) * contrast;
          }
          this.shade(rgb, light, fog);
          yb = rgbToY(rgb[0]!, rgb[1]!, rgb[2]!);
          u = rgbToU(rgb[0]!, rgb[1]!, rgb[2]!);
          v = rgbToV(rgb[0]!, rgb[1]!, rgb[2]!);
        }
      }
      this.rowYA[r] = ya;
      this.rowYB[r] = yb;
      this.rowU[r] = u;
      this.rowV[r] = v;
    }

    // ---- luma, row by row
    const Y = this.yPlane;
    const top = this.topRow;
    const bot = this.botRow;
    const bt = this.bandTop;
    const bb = this.bandBot;
    const wy = this.wallY;
    const by = this.bandY;
    /** Row r is wall in every column, without a band. */
    const allWall = (r: number): boolean => r >= maxTop && r < minBot && (r < bandMin || r >= bandMax);
    for (let r = 0; r < split; r++) {
      const o = r * W;
      const ceil = this.rowYA[r]!;
      if (r < minTop) {
        Y.fill(ceil, o, o + W);
        continue;
      }
      if (allWall(r)) {
        Y.set(wy, o);
        continue;
      }
      for (let c = 0; c < W; c++) {
        if (r < top[c]!) Y[o + c] = ceil;
        else Y[o + c] = r >= bt[c]! && r < bb[c]! ? by[c]! : wy[c]!;
      }
    }
    const OFF = 1 << 20; // keeps tile coordinates positive for `| 0`
    for (let r = split; r < H; r++) {
      const o = r * W;
      const fa = this.rowYA[r]!;
      const fb = this.rowYB[r]!;
      if (allWall(r)) {
        Y.set(wy, o);
        continue;
      }
      if (fa === fb && r >= maxBot) {
        Y.fill(fa, o, o + W);
        continue;
      }
      if (fa === fb) {
        for (let c = 0; c < W; c++) {
          if (r >= bot[c]!) Y[o + c] = fa;
          else Y[o + c] = r >= bt[c]! && r < bb[c]! ? by[c]! : wy[c]!;
        }
        continue;
      }
      // Floor point under column c: pose + d·(forward + k[c]·right), in tiles.
      const d = this.rowDist[r]!;
      const ax = (px + d * fx) / TILE + OFF;
      const ay = (py + d * fy) / TILE + OFF;
      const bx = (d * rx) / TILE;
      const byy = (d * ry) / TILE;
      for (let c = 0; c < W; c++) {
        if (r >= bot[c]!) {
          const kc = k[c]!;
          Y[o + c] = (((ax + kc * bx) | 0) ^ ((ay + kc * byy) | 0)) & 1 ? fb : fa;
        } else {
          Y[o + c] = r >= bt[c]! && r < bb[c]! ? by[c]! : wy[c]!;
        }
      }
    }

    // ---- chroma (each sample takes the class of the top-left pixel of its 2×2 block)
    const U = this.uPlane;
    const V = this.vPlane;
    const cw = W >> 1;
    const ch = H >> 1;
    const wu = this.wallU;
    const wv = this.wallV;
    const bu = this.bandU;
    const bv = this.bandV;
    for (let cr = 0; cr < ch; cr++) {
      const r = cr * 2;
      const o = cr * cw;
      const ru = this.rowU[r]!;
      const rv = this.rowV[r]!;
      const upper = r < split;
      if (upper ? r < minTop : r >= maxBot) {
        U.fill(ru, o, o + cw);
        V.fill(rv, o, o + cw);
        continue;
      }
      for (let cc = 0; cc < cw; cc++) {
        const c = cc * 2;
        const open = upper ? r < top[c]! : r >= bot[c]!;
        if (open) {
          U[o + cc] = ru;
          V[o + cc] = rv;
        } else if (r >= bt[c]! && r < bb[c]!) {
          U[o + cc] = bu[c]!;
          V[o + cc] = bv[c]!;
        } else {
          U[o + cc] = wu[c]!;
          V[o + cc] = wv[c]!;
        }
      }
    }

    if (!thermal && view.world.gauges?.length) {
      this.gauges(view.world, { px, py, eye, fx, fy, rx, ry, k, focal, horizon });
    }
    if (!thermal && view.world.panels?.length) {
      this.panels(view.world, { px, py, eye, fx, fy, rx, ry, k, focal, horizon }, view.litButtons ?? []);
    }
  }

  /**
   * Draws the world's button panels (buttons.ts) over the scene like the gauges: a grey plate with
   * white buttons, lit ones amber, where the column's ray meets the plate before its wall.
   */
  private panels(
    world: World,
    cam: {
      px: number;
      py: number;
      eye: number;
      fx: number;
      fy: number;
      rx: number;
      ry: number;
      k: Float64Array;
      focal: number;
      horizon: number;
    },
    lit: readonly string[],
  ): void {
    const W = this.width;
    const H = this.height;
    const Y = this.yPlane;
    const U = this.uPlane;
    const V = this.vPlane;
    const cw = W >> 1;
    const { px, py, eye, fx, fy, rx, ry, k, focal, horizon } = cam;
    const amber = { y: rgbToY(255, 176, 0), u: rgbToU(255, 176, 0), v: rgbToV(255, 176, 0) };
    for (const panel of world.panels ?? []) {
      const nx = Math.cos(panel.facing);
      const ny = Math.sin(panel.facing);
      const front = nx * (px - panel.x) + ny * (py - panel.y);
      if (front <= 0.01 || Math.hypot(px - panel.x, py - panel.y) > MAX_VIEW_DISTANCE) continue;
      const ax = -ny;
      const ay = nx;
      const num = nx * (panel.x - px) + ny * (panel.y - py);
      for (let c = 0; c < W; c++) {
        const dx = fx + k[c]! * rx;
        const dy = fy + k[c]! * ry;
        const den = nx * dx + ny * dy;
        if (den >= -1e-9) continue;
        const p = num / den;
        if (p <= 0.02 || p > this.depth[c]! + 0.05) continue;
        const u = ax * (px + p * dx - panel.x) + ay * (py + p * dy - panel.y);
        if (Math.abs(u) > panel.width / 2) continue;
        const scale = focal / p;
        const r0 = Math.max(0, Math.floor(horizon - (panel.z + panel.height / 2 - eye) * scale));
        const r1 = Math.min(H - 1, Math.ceil(horizon - (panel.z - panel.height / 2 - eye) * scale));
        const light = lightOf(p * Math.hypot(dx, dy));
        for (let r = r0; r <= r1; r++) {
          const z = eye - ((r + 0.5 - horizon) * p) / focal;
          if (Math.abs(z - panel.z) > panel.height / 2) continue;
          const b = panel.buttons.find((x) => Math.abs(u - x.s) <= x.size / 2 && Math.abs(z - x.z) <= x.size / 2);
          const on = b !== undefined && lit.includes(b.target);
          const l = b ? 235 : 120;
          Y[r * W + c] = on ? amber.y : rgbToY(l * light, l * light, l * light);
          if (!(r & 1) && !(c & 1)) {
            const o = (r >> 1) * cw + (c >> 1);
            U[o] = on ? amber.u : 128;
            V[o] = on ? amber.v : 128;
          }
        }
      }
    }
  }

  /**
   * Draws the world's gauges (gauges.ts) over the scene: each plate is a vertical rectangle; a pixel
   * shows it where its ray meets the plate before the column's wall (plates sit on wall faces).
   */
  private gauges(
    world: World,
    cam: {
      px: number;
      py: number;
      eye: number;
      fx: number;
      fy: number;
      rx: number;
      ry: number;
      k: Float64Array;
      focal: number;
      horizon: number;
    },
  ): void {
    const W = this.width;
    const H = this.height;
    const Y = this.yPlane;
    const U = this.uPlane;
    const V = this.vPlane;
    const cw = W >> 1;
    const { px, py, eye, fx, fy, rx, ry, k, focal, horizon } = cam;
    for (const g of world.gauges ?? []) {
      const nx = Math.cos(g.facing);
      const ny = Math.sin(g.facing);
      // Seen from the front only, within view distance.
      const front = nx * (px - g.x) + ny * (py - g.y);
      if (front <= 0.01 || Math.hypot(px - g.x, py - g.y) > MAX_VIEW_DISTANCE) continue;
      // The plate's right seen from the front.
      const ax = -ny;
      const ay = nx;
      const a = (gaugeAngle(g, g.value) * Math.PI) / 180;
      const cosA = Math.cos(a);
      const sinA = Math.sin(a);
      const num = nx * (g.x - px) + ny * (g.y - py);
      for (let c = 0; c < W; c++) {
        const dx = fx + k[c]! * rx;
        const dy = fy + k[c]! * ry;
        const den = nx * dx + ny * dy;
        if (den >= -1e-9) continue;
        const p = num / den;
        if (p <= 0.02 || p > this.depth[c]! + 0.05) continue;
        const u = ax * (px + p * dx - g.x) + ay * (py + p * dy - g.y);
        if (Math.abs(u) > GAUGE_PLATE_WIDTH / 2) continue;
        // Rows where the plate's height range projects.
        const scale = focal / p;
        const r0 = Math.max(0, Math.floor(horizon - (g.z + GAUGE_PLATE_HEIGHT / 2 - eye) * scale));
        const r1 = Math.min(H - 1, Math.ceil(horizon - (g.z - GAUGE_PLATE_HEIGHT / 2 - eye) * scale));
        const light = lightOf(p * Math.hypot(dx, dy));
        for (let r = r0; r <= r1; r++) {
          const v = eye - ((r + 0.5 - horizon) * p) / focal - g.z;
          const l = gaugeLuma(g, u, v, cosA, sinA);
          if (l < 0) continue;
          Y[r * W + c] = rgbToY(l * light, l * light, l * light);
          if (!(r & 1) && !(c & 1)) {
            const o = (r >> 1) * cw + (c >> 1);
            U[o] = 128;
            V[o] = 128;
          }
        }
      }
    }
  }

  private overlay(view: CameraView): void {
    const W = this.width;
    const H = this.height;
    const Y = this.yPlane;
    const U = this.uPlane;
    const V = this.vPlane;
    const layout = stampLayout(W, H);
    const margin = Math.max(4, layout.block);
    const scale = Math.max(1, Math.round(H / 240));
    const lines: Array<[string, number]> = [
      [`${view.robotName}  ${view.camera}`, scale],
      [formatLocalTime(view.now), scale],
    ];
    if (view.label) lines.push([view.label, Math.max(1, Math.round(scale / 2))]);
    // Text boxes stacked under the stamp, left-aligned with it.
    let boxY = (layout.block > 0 ? layout.box.y + layout.box.height : 0) + Math.round(margin / 2);
    for (const [text, s] of lines) {
      const pad = 2 * s;
      const box = drawText(Y, W, H, margin + pad, boxY + pad, text, { scale: s, pad, u: U, v: V });
      boxY = box.y + box.height + scale;
    }
    drawStamp(Y, W, H, view.now, U, V);
  }
}
