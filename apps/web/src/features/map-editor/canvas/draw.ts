import type { MapDocument, Waypoint } from '@portal/contract';
import { niceStep, visibleWorld } from '../model/camera';
import { edgePoints, type Rect } from '../model/geometry';
import type { Camera, SelectionItem, ToolPreview, Vec } from '../model/types';
import { colors, waypointColors } from './palette';

/**
 * Canvas drawing of the map in layer units: metres with y flipped (the layer draws (x, -y)), so the
 * stage transform alone pans and zooms. Sizes in screen pixels are divided by the zoom. Everything
 * of a kind is drawn by one function in one Konva shape, and only what the viewport shows.
 */
export interface DrawView {
  camera: Camera;
  viewport: { width: number; height: number };
}

const LABEL_MIN_ZOOM = 18;
const LABEL_MAX_COUNT = 600;

const visible = (v: DrawView, marginPx = 40): Rect => {
  const r = visibleWorld(v.camera, v.viewport);
  const m = marginPx / v.camera.zoom;
  return { x: r.x - m, y: r.y - m, width: r.width + 2 * m, height: r.height + 2 * m };
};
const within = (p: Vec, r: Rect) => p.x >= r.x && p.x <= r.x + r.width && p.y >= r.y && p.y <= r.y + r.height;

/** Metric grid whose spacing follows the zoom (a major line every 5). */
export function drawGrid(ctx: CanvasRenderingContext2D, v: DrawView): void {
  const { zoom } = v.camera;
  const step = niceStep(zoom, 24);
  const r = visible(v, 0);
  const x0 = Math.floor(r.x / step);
  const x1 = Math.ceil((r.x + r.width) / step);
  const y0 = Math.floor(r.y / step);
  const y1 = Math.ceil((r.y + r.height) / step);
  ctx.lineWidth = 1 / zoom;
  for (const major of [false, true]) {
    ctx.beginPath();
    for (let i = x0; i <= x1; i++) {
      if ((i % 5 === 0) !== major) continue;
      ctx.moveTo(i * step, -r.y);
      ctx.lineTo(i * step, -(r.y + r.height));
    }
    for (let j = y0; j <= y1; j++) {
      if ((j % 5 === 0) !== major) continue;
      ctx.moveTo(r.x, -j * step);
      ctx.lineTo(r.x + r.width, -j * step);
    }
    ctx.strokeStyle = major ? colors.gridMajor : colors.grid;
    ctx.stroke();
  }
}

export function drawAreas(ctx: CanvasRenderingContext2D, doc: MapDocument, v: DrawView, sel: Set<string>): void {
  const z = v.camera.zoom;
  for (const a of doc.noGoAreas) {
    ctx.beginPath();
    a.points.forEach((p, i) => (i === 0 ? ctx.moveTo(p.x, -p.y) : ctx.lineTo(p.x, -p.y)));
    ctx.closePath();
    ctx.fillStyle = colors.noGoFill;
    ctx.fill();
    ctx.lineWidth = (sel.has(`noGo:${a.id}`) ? 3 : 1.5) / z;
    ctx.strokeStyle = sel.has(`noGo:${a.id}`) ? colors.selection : colors.noGoStroke;
    ctx.stroke();
  }
  for (const r of doc.partialMaps) {
    ctx.fillStyle = colors.partialFill;
    ctx.fillRect(r.x, -(r.y + r.height), r.width, r.height);
    ctx.setLineDash([8 / z, 4 / z]);
    ctx.lineWidth = (sel.has(`partialMap:${r.id}`) ? 3 : 1.5) / z;
    ctx.strokeStyle = sel.has(`partialMap:${r.id}`) ? colors.selection : colors.partialStroke;
    ctx.strokeRect(r.x, -(r.y + r.height), r.width, r.height);
    ctx.setLineDash([]);
    if (z >= 8) {
      drawText(ctx, r.name, { x: r.x, y: r.y + r.height }, z, 4, 14, colors.partialStroke);
    }
  }
}

function arrowHead(ctx: CanvasRenderingContext2D, at: Vec, angle: number, size: number): void {
  // Layer y is flipped, so the angle is negated.
  const a = -angle;
  ctx.moveTo(at.x + Math.cos(a) * size, -at.y + Math.sin(a) * size);
  ctx.lineTo(at.x + Math.cos(a + 2.5) * size, -at.y + Math.sin(a + 2.5) * size);
  ctx.lineTo(at.x + Math.cos(a - 2.5) * size, -at.y + Math.sin(a - 2.5) * size);
  ctx.closePath();
}

export function drawEdges(
  ctx: CanvasRenderingContext2D,
  doc: MapDocument,
  byId: ReadonlyMap<number, Waypoint>,
  v: DrawView,
  sel: Set<string>,
): void {
  const z = v.camera.zoom;
  const r = visible(v);
  // Batched by style: normal, slow (dashed); the selected ones again on top.
  for (const slow of [false, true]) {
    ctx.beginPath();
    const heads: Array<[Vec, number]> = [];
    for (const e of doc.edges) {
      if ((e.speed === 'slow') !== slow) continue;
      const pts = edgePoints(e, byId);
      if (!pts) continue;
      const a = pts[0]!;
      const b = pts.at(-1)!;
      if (!within(a, r) && !within(b, r) && pts.length === 2 && !crosses(a, b, r)) continue;
      pts.forEach((p, i) => (i === 0 ? ctx.moveTo(p.x, -p.y) : ctx.lineTo(p.x, -p.y)));
      if (e.oneWay) {
        const mid = Math.floor((pts.length - 1) / 2);
        const p = pts[mid]!;
        const q = pts[mid + 1]!;
        heads.push([{ x: (p.x + q.x) / 2, y: (p.y + q.y) / 2 }, Math.atan2(q.y - p.y, q.x - p.x)]);
      }
    }
    ctx.strokeStyle = slow ? colors.edgeSlow : colors.edge;
    ctx.lineWidth = 2 / z;
    ctx.setLineDash(slow ? [6 / z, 4 / z] : []);
    ctx.stroke();
    ctx.setLineDash([]);
    if (heads.length) {
      ctx.beginPath();
      for (const [at, angle] of heads) arrowHead(ctx, at, angle, 7 / z);
      ctx.fillStyle = slow ? colors.edgeSlow : colors.edge;
      ctx.fill();
    }
  }
  const selected = doc.edges.filter((e) => sel.has(`edge:${e.id}`));
  if (selected.length) {
    ctx.beginPath();
    for (const e of selected) {
      const pts = edgePoints(e, byId);
      pts?.forEach((p, i) => (i === 0 ? ctx.moveTo(p.x, -p.y) : ctx.lineTo(p.x, -p.y)));
    }
    ctx.strokeStyle = colors.selection;
    ctx.lineWidth = 5 / z;
    ctx.globalAlpha = 0.7;
    ctx.stroke();
    ctx.globalAlpha = 1;
  }
}

/** Whether the segment a–b may pass through r (bounding-box test; cheap and conservative). */
const crosses = (a: Vec, b: Vec, r: Rect) =>
  Math.max(a.x, b.x) >= r.x &&
  Math.min(a.x, b.x) <= r.x + r.width &&
  Math.max(a.y, b.y) >= r.y &&
  Math.min(a.y, b.y) <= r.y + r.height;

/** A selected route: a thick band through its waypoints in order. */
export function drawRoute(
  ctx: CanvasRenderingContext2D,
  waypointIds: readonly number[],
  byId: ReadonlyMap<number, Waypoint>,
  z: number,
): void {
  ctx.beginPath();
  let first = true;
  for (const id of waypointIds) {
    const w = byId.get(id);
    if (!w) continue;
    if (first) ctx.moveTo(w.x, -w.y);
    else ctx.lineTo(w.x, -w.y);
    first = false;
  }
  ctx.strokeStyle = colors.route;
  ctx.lineWidth = 10 / z;
  ctx.lineJoin = 'round';
  ctx.lineCap = 'round';
  ctx.stroke();
}

function shapePath(ctx: CanvasRenderingContext2D, w: Waypoint, s: number): void {
  const x = w.x;
  const y = -w.y;
  switch (w.type) {
    case 0:
      ctx.rect(x - s, y - s, 2 * s, 2 * s);
      break;
    case 2:
      ctx.moveTo(x, y - s * 1.3);
      ctx.lineTo(x + s * 1.3, y);
      ctx.lineTo(x, y + s * 1.3);
      ctx.lineTo(x - s * 1.3, y);
      ctx.closePath();
      break;
    case 3:
      ctx.moveTo(x, y - s * 1.3);
      ctx.lineTo(x + s * 1.2, y + s * 0.9);
      ctx.lineTo(x - s * 1.2, y + s * 0.9);
      ctx.closePath();
      break;
    default:
      ctx.moveTo(x + s, y);
      ctx.arc(x, y, s, 0, Math.PI * 2);
  }
}

/** All waypoints: one path per type (shape and colour), direction ticks, selection rings, labels. */
export function drawWaypoints(ctx: CanvasRenderingContext2D, doc: MapDocument, v: DrawView, sel: Set<string>): void {
  const z = v.camera.zoom;
  const r = visible(v);
  const s = 6 / z;
  const shown = doc.waypoints.filter((w) => within(w, r));
  const byType = new Map<number, Waypoint[]>();
  for (const w of shown) (byType.get(w.type) ?? byType.set(w.type, []).get(w.type)!).push(w);
  // Direction ticks under the shapes.
  ctx.beginPath();
  for (const w of shown) {
    ctx.moveTo(w.x, -w.y);
    ctx.lineTo(w.x + Math.cos(w.theta) * s * 2.6, -(w.y + Math.sin(w.theta) * s * 2.6));
  }
  ctx.strokeStyle = colors.label;
  ctx.lineWidth = 2 / z;
  ctx.stroke();
  ctx.beginPath();
  for (const w of shown)
    arrowHead(ctx, { x: w.x + Math.cos(w.theta) * s * 2.6, y: w.y + Math.sin(w.theta) * s * 2.6 }, w.theta, 4 / z);
  ctx.fillStyle = colors.label;
  ctx.fill();
  for (const [type, list] of byType) {
    ctx.beginPath();
    for (const w of list) shapePath(ctx, w, s);
    ctx.globalAlpha = type === 99 ? 0.4 : 1;
    ctx.fillStyle = waypointColors[type as Waypoint['type']];
    ctx.fill();
    ctx.lineWidth = 1.5 / z;
    ctx.strokeStyle = '#ffffff';
    ctx.stroke();
    if (type === 10) {
      ctx.beginPath();
      for (const w of list) {
        ctx.moveTo(w.x + s * 0.4, -w.y);
        ctx.arc(w.x, -w.y, s * 0.4, 0, Math.PI * 2);
      }
      ctx.fillStyle = '#ffffff';
      ctx.fill();
    }
  }
  ctx.globalAlpha = 1;
  const selected = shown.filter((w) => sel.has(`waypoint:${w.id}`));
  if (selected.length) {
    ctx.beginPath();
    for (const w of selected) {
      ctx.moveTo(w.x + s * 1.9, -w.y);
      ctx.arc(w.x, -w.y, s * 1.9, 0, Math.PI * 2);
    }
    ctx.strokeStyle = colors.selection;
    ctx.lineWidth = 3 / z;
    ctx.stroke();
  }
  if (z >= LABEL_MIN_ZOOM && shown.length <= LABEL_MAX_COUNT) {
    for (const w of shown) drawText(ctx, w.name, w, z, 9, 12, colors.label, w.type === 99 ? 0.5 : 1);
  }
}

/** Screen-sized text next to a map point (with a halo so it reads over the image). */
function drawText(
  ctx: CanvasRenderingContext2D,
  text: string,
  at: Vec,
  z: number,
  offsetPx: number,
  sizePx: number,
  color: string,
  alpha = 1,
): void {
  ctx.save();
  ctx.translate(at.x, -at.y);
  ctx.scale(1 / z, 1 / z);
  ctx.globalAlpha = alpha;
  ctx.font = `${sizePx}px system-ui, sans-serif`;
  ctx.lineWidth = 3;
  ctx.strokeStyle = colors.labelHalo;
  ctx.strokeText(text, offsetPx, -offsetPx);
  ctx.fillStyle = color;
  ctx.fillText(text, offsetPx, -offsetPx);
  ctx.restore();
}

export function drawPreview(ctx: CanvasRenderingContext2D, p: ToolPreview | null, z: number): void {
  if (!p) return;
  ctx.strokeStyle = colors.preview;
  ctx.fillStyle = 'rgba(247, 103, 7, 0.12)';
  ctx.lineWidth = 2 / z;
  ctx.setLineDash([6 / z, 4 / z]);
  ctx.beginPath();
  if (p.kind === 'edge') {
    ctx.moveTo(p.from.x, -p.from.y);
    ctx.lineTo(p.to.x, -p.to.y);
    ctx.stroke();
  } else if (p.kind === 'polygon') {
    const pts = p.cursor ? [...p.points, p.cursor] : p.points;
    pts.forEach((q, i) => (i === 0 ? ctx.moveTo(q.x, -q.y) : ctx.lineTo(q.x, -q.y)));
    if (pts.length > 2) ctx.closePath();
    ctx.fill();
    ctx.stroke();
    ctx.setLineDash([]);
    ctx.beginPath();
    for (const q of p.points) {
      ctx.moveTo(q.x + 4 / z, -q.y);
      ctx.arc(q.x, -q.y, 4 / z, 0, Math.PI * 2);
    }
    ctx.fillStyle = colors.preview;
    ctx.fill();
  } else {
    const x = Math.min(p.a.x, p.b.x);
    const y = Math.max(p.a.y, p.b.y);
    ctx.rect(x, -y, Math.abs(p.a.x - p.b.x), Math.abs(p.a.y - p.b.y));
    ctx.fill();
    ctx.stroke();
  }
  ctx.setLineDash([]);
}

export const selectionKeys = (selection: readonly SelectionItem[]): Set<string> =>
  new Set(selection.map((s) => `${s.kind}:${s.id}`));

export interface RobotMark {
  id: number;
  name: string;
  x: number;
  y: number;
  theta: number;
  color: string;
}

export function drawRobots(ctx: CanvasRenderingContext2D, robots: readonly RobotMark[], z: number): void {
  const s = 9 / z;
  for (const r of robots) {
    ctx.beginPath();
    const a = -r.theta;
    ctx.moveTo(r.x + Math.cos(a) * s * 1.8, -r.y + Math.sin(a) * s * 1.8);
    ctx.lineTo(r.x + Math.cos(a + 2.4) * s, -r.y + Math.sin(a + 2.4) * s);
    ctx.lineTo(r.x + Math.cos(a - 2.4) * s, -r.y + Math.sin(a - 2.4) * s);
    ctx.closePath();
    ctx.fillStyle = r.color;
    ctx.fill();
    ctx.beginPath();
    ctx.arc(r.x, -r.y, s, 0, Math.PI * 2);
    ctx.fill();
    ctx.lineWidth = 2 / z;
    ctx.strokeStyle = colors.robotStroke;
    ctx.stroke();
    drawText(ctx, r.name, r, z, 12, 13, r.color);
  }
}
