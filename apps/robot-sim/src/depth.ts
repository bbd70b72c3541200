import { BUTTON_DEPTH, PLATE_DEPTH, type ButtonPanel, type ButtonTarget, type PanelButton } from './buttons.ts';
import { drawText, measureText } from './video/font.ts';
import { encodePng } from './video/png.ts';
import type { World } from './world.ts';

/**
 * The depth camera (apps/robot-sim/README.md "Button panels and the arm"): a pinhole camera at the robot's
 * centre and eye height looking where the robot faces, DEPTH_WIDTH × DEPTH_HEIGHT pixels, focal
 * length DEPTH_FOCAL pixels, principal point at the image centre. The image is grey-scale, near =
 * bright (DEPTH_MIN_RANGE white, DEPTH_MAX_RANGE and beyond black), with what a person needs to aim
 * drawn in: panel and button outlines, the buttons' labels, lit buttons in amber.
 *
 * A pixel (u, v) is the ray through the pixel's centre: direction forward + right·(u + 0.5 − cx)/f −
 * up·(v + 0.5 − cy)/f; its depth is the distance along the forward axis to the first surface.
 */

export const DEPTH_WIDTH = 640;
export const DEPTH_HEIGHT = 480;
export const DEPTH_FOCAL = 525;
export const DEPTH_MIN_RANGE = 0.2;
export const DEPTH_MAX_RANGE = 6;
/** Height of walls and ceiling (m). */
export const CEILING_HEIGHT = 2.6;
/** The camera name of depth stills on the photo topic. */
export const DEPTH_CAMERA = 'depth';

export interface DepthView {
  pose: { x: number; y: number; theta: number };
  /** Camera height above the floor (m). */
  eyeHeight: number;
  world: World;
  /** Whether a button is lit (drawn amber). */
  isLit?: (target: ButtonTarget) => boolean;
}

/** What a pixel's ray meets first. */
export interface DepthHit {
  /** Distance along the forward axis (m). */
  depth: number;
  /** The 3D point (m, map frame; z above the floor). */
  point: { x: number; y: number; z: number };
  /** The button whose box the ray meets, if any. */
  button: PanelButton | null;
}

interface Box {
  x0: number;
  y0: number;
  z0: number;
  x1: number;
  y1: number;
  z1: number;
  /** 1 wall or pillar, 2.. a panel's plate, 1000.. a button. */
  id: number;
  button: PanelButton | null;
}

/** The panel's boxes: its plate and its buttons (axis-aligned: the panel faces along an axis). */
function panelBoxes(p: ButtonPanel, plateId: number, buttonId: number): Box[] {
  const nx = Math.round(Math.cos(p.facing));
  const ny = Math.round(Math.sin(p.facing));
  // Right as seen facing the panel.
  const rx = -ny;
  const ry = nx;
  const box = (s: number, halfW: number, z: number, halfH: number, d0: number, d1: number, id: number) => {
    const ax = p.x + rx * (s - halfW) + nx * d0;
    const bx = p.x + rx * (s + halfW) + nx * d1;
    const ay = p.y + ry * (s - halfW) + ny * d0;
    const by = p.y + ry * (s + halfW) + ny * d1;
    return {
      x0: Math.min(ax, bx),
      x1: Math.max(ax, bx),
      y0: Math.min(ay, by),
      y1: Math.max(ay, by),
      z0: z - halfH,
      z1: z + halfH,
      id,
    };
  };
  const out: Box[] = [{ ...box(0, p.width / 2, p.z, p.height / 2, -0.01, PLATE_DEPTH, plateId), button: null }];
  p.buttons.forEach((b, i) =>
    out.push({
      ...box(b.s, b.size / 2, b.z, b.size / 2, PLATE_DEPTH - 0.001, PLATE_DEPTH + BUTTON_DEPTH, buttonId + i),
      button: b,
    }),
  );
  return out;
}

function boxesOf(world: World): Box[] {
  const boxes: Box[] = [];
  for (const r of [...world.walls, ...world.pillars]) {
    boxes.push({ x0: r.x0, y0: r.y0, z0: 0, x1: r.x1, y1: r.y1, z1: CEILING_HEIGHT, id: 1, button: null });
  }
  (world.panels ?? []).forEach((p, i) => boxes.push(...panelBoxes(p, 2 + i, 1000 + i * 100)));
  return boxes;
}

/** Camera frame: origin, forward, right (unit, horizontal). */
function frame(view: DepthView) {
  const { x, y, theta } = view.pose;
  return {
    ox: x,
    oy: y,
    oz: view.eyeHeight,
    fx: Math.cos(theta),
    fy: Math.sin(theta),
    rx: Math.sin(theta),
    ry: -Math.cos(theta),
  };
}

/** The ray's parameter at its first surface (the forward component of the direction is 1: t is the depth). */
function cast(
  boxes: readonly Box[],
  ox: number,
  oy: number,
  oz: number,
  dx: number,
  dy: number,
  dz: number,
): { t: number; box: Box | null } {
  let best = Infinity;
  let hit: Box | null = null;
  if (dz < 0) best = -oz / dz;
  else if (dz > 0) best = (CEILING_HEIGHT - oz) / dz;
  const ix = 1 / dx;
  const iy = 1 / dy;
  const iz = 1 / dz;
  for (const b of boxes) {
    let t0 = (b.x0 - ox) * ix;
    let t1 = (b.x1 - ox) * ix;
    let tmin = Math.min(t0, t1);
    let tmax = Math.max(t0, t1);
    t0 = (b.y0 - oy) * iy;
    t1 = (b.y1 - oy) * iy;
    tmin = Math.max(tmin, Math.min(t0, t1));
    tmax = Math.min(tmax, Math.max(t0, t1));
    t0 = (b.z0 - oz) * iz;
    t1 = (b.z1 - oz) * iz;
    tmin = Math.max(tmin, Math.min(t0, t1));
    tmax = Math.min(tmax, Math.max(t0, t1));
    if (tmax >= Math.max(tmin, 0) && tmin > 0 && tmin < best) {
      best = tmin;
      hit = b;
    }
  }
  return { t: best, box: hit };
}

/** Boxes that can be seen from the camera (within the range, in the horizontal field of view). */
function near(boxes: readonly Box[], ox: number, oy: number): Box[] {
  const r = DEPTH_MAX_RANGE + 1;
  return boxes.filter((b) => b.x1 > ox - r && b.x0 < ox + r && b.y1 > oy - r && b.y0 < oy + r);
}

/** The ray through pixel (u, v) (pixel units, may be fractional: the pixel's centre is u + 0.5). */
function ray(view: DepthView, u: number, v: number) {
  const c = frame(view);
  const a = (u - DEPTH_WIDTH / 2) / DEPTH_FOCAL;
  const e = -(v - DEPTH_HEIGHT / 2) / DEPTH_FOCAL;
  return { ...c, dx: c.fx + c.rx * a, dy: c.fy + c.ry * a, dz: e };
}

/** What the pixel (u, v) shows: the 3D point at its depth and the button there, or null beyond the range. */
export function depthAt(view: DepthView, u: number, v: number): DepthHit | null {
  const r = ray(view, Math.floor(u) + 0.5, Math.floor(v) + 0.5);
  const { t, box } = cast(near(boxesOf(view.world), r.ox, r.oy), r.ox, r.oy, r.oz, r.dx, r.dy, r.dz);
  if (!(t <= DEPTH_MAX_RANGE)) return null;
  return {
    depth: t,
    point: { x: r.ox + r.dx * t, y: r.oy + r.dy * t, z: r.oz + r.dz * t },
    button: box?.button ?? null,
  };
}

/** The pixel a 3D point projects to (null behind the camera or outside the image). */
export function projectPoint(view: DepthView, x: number, y: number, z: number): { u: number; v: number } | null {
  const c = frame(view);
  const px = x - c.ox;
  const py = y - c.oy;
  const depth = px * c.fx + py * c.fy;
  if (depth <= 0.01) return null;
  const u = DEPTH_WIDTH / 2 + (DEPTH_FOCAL * (px * c.rx + py * c.ry)) / depth;
  const v = DEPTH_HEIGHT / 2 - (DEPTH_FOCAL * (z - c.oz)) / depth;
  if (u < 0 || v < 0 || u >= DEPTH_WIDTH || v >= DEPTH_HEIGHT) return null;
  return { u, v };
}

/** The pixel (integer) of a button's centre as the view sees it, or null when it is not in the image. */
export function buttonPixel(view: DepthView, target: ButtonTarget): { u: number; v: number } | null {
  for (const p of view.world.panels ?? []) {
    const b = p.buttons.find((x) => x.target === target);
    if (!b) continue;
    const nx = Math.round(Math.cos(p.facing));
    const ny = Math.round(Math.sin(p.facing));
    const out = PLATE_DEPTH + BUTTON_DEPTH;
    const at = projectPoint(view, p.x - ny * b.s + nx * out, p.y + nx * b.s + ny * out, b.z);
    return at && { u: Math.floor(at.u), v: Math.floor(at.v) };
  }
  return null;
}

const grey = (t: number): number =>
  t > DEPTH_MAX_RANGE
    ? 0
    : Math.round(255 * Math.min(1, Math.max(0, 1 - (t - DEPTH_MIN_RANGE) / (DEPTH_MAX_RANGE - DEPTH_MIN_RANGE))));

/** The depth image as RGBA (DEPTH_WIDTH × DEPTH_HEIGHT). */
export function renderDepthRgba(view: DepthView): Uint8ClampedArray {
  const W = DEPTH_WIDTH;
  const H = DEPTH_HEIGHT;
  const all = boxesOf(view.world);
  const c = frame(view);
  const boxes = near(all, c.ox, c.oy);
  const luma = new Uint8ClampedArray(W * H);
  const ids = new Int32Array(W * H);
  const buttonOf = new Map<number, PanelButton>();
  for (let v = 0; v < H; v++) {
    const dz = -(v + 0.5 - H / 2) / DEPTH_FOCAL;
    for (let u = 0; u < W; u++) {
      const a = (u + 0.5 - W / 2) / DEPTH_FOCAL;
      const { t, box } = cast(boxes, c.ox, c.oy, c.oz, c.fx + c.rx * a, c.fy + c.ry * a, dz);
      const i = v * W + u;
      let g = grey(t);
      const id = box?.id ?? 0;
      ids[i] = id;
      if (id >= 1000) {
        g = Math.min(255, g + 50);
        buttonOf.set(id, box!.button!);
      } else if (id >= 2) g = Math.max(0, g - 30);
      luma[i] = g;
    }
  }
  // Outlines where a panel or button meets something else.
  for (let v = 0; v < H - 1; v++) {
    for (let u = 0; u < W - 1; u++) {
      const i = v * W + u;
      const id = ids[i]!;
      const right = ids[i + 1]!;
      const below = ids[i + W]!;
      if ((id >= 2 || right >= 2 || below >= 2) && (id !== right || id !== below)) luma[i] = 16;
    }
  }
  // Labels to the right of the buttons.
  for (const p of view.world.panels ?? []) {
    const nx = Math.round(Math.cos(p.facing));
    const ny = Math.round(Math.sin(p.facing));
    for (const b of p.buttons) {
      const s = b.s + b.size / 2 + 0.008;
      const at = projectPoint(
        view,
        p.x - ny * s + nx * (PLATE_DEPTH + BUTTON_DEPTH),
        p.y + nx * s + ny * (PLATE_DEPTH + BUTTON_DEPTH),
        b.z,
      );
      if (!at) continue;
      const scale = 2;
      const size = measureText(b.label, scale);
      drawText(luma, W, H, at.u, at.v - size.height / 2, b.label, { scale, fg: 255, bg: 0, pad: 2 });
    }
  }
  const rgba = new Uint8ClampedArray(W * H * 4);
  const lit = new Set<number>();
  if (view.isLit) for (const [id, b] of buttonOf) if (view.isLit(b.target)) lit.add(id);
  for (let i = 0, p = 0; i < W * H; i++, p += 4) {
    const g = luma[i]!;
    if (lit.has(ids[i]!) && g > 16) {
      rgba[p] = 255;
      rgba[p + 1] = 150 + Math.round(g * 0.2);
      rgba[p + 2] = 0;
    } else {
      rgba[p] = g;
      rgba[p + 1] = g;
      rgba[p + 2] = g;
    }
    rgba[p + 3] = 255;
  }
  return rgba;
}

/** The depth image as PNG. */
export function captureDepth(view: DepthView): { png: Buffer; width: number; height: number } {
  return { png: encodePng(DEPTH_WIDTH, DEPTH_HEIGHT, renderDepthRgba(view)), width: DEPTH_WIDTH, height: DEPTH_HEIGHT };
}
