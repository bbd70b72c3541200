import type { MapDocument, MapEdge, NoGoArea, PartialMap, Waypoint } from '@portal/contract';
import type { Vec } from './types';

export const dist = (a: Vec, b: Vec): number => Math.hypot(a.x - b.x, a.y - b.y);

/** Distance from p to the segment a–b. */
export function distToSegment(p: Vec, a: Vec, b: Vec): number {
  const dx = b.x - a.x;
  const dy = b.y - a.y;
  const len2 = dx * dx + dy * dy;
  const t = len2 === 0 ? 0 : Math.max(0, Math.min(1, ((p.x - a.x) * dx + (p.y - a.y) * dy) / len2));
  return Math.hypot(p.x - (a.x + t * dx), p.y - (a.y + t * dy));
}

export function pointInPolygon(p: Vec, poly: readonly Vec[]): boolean {
  let inside = false;
  for (let i = 0, j = poly.length - 1; i < poly.length; j = i++) {
    const a = poly[i]!;
    const b = poly[j]!;
    if (a.y > p.y !== b.y > p.y && p.x < ((b.x - a.x) * (p.y - a.y)) / (b.y - a.y) + a.x) inside = !inside;
  }
  return inside;
}

export interface Rect {
  x: number;
  y: number;
  width: number;
  height: number;
}

/** The axis-aligned rectangle spanned by two corners (x, y = its bottom-left in map metres). */
export const rectFrom = (a: Vec, b: Vec): Rect => ({
  x: Math.min(a.x, b.x),
  y: Math.min(a.y, b.y),
  width: Math.abs(a.x - b.x),
  height: Math.abs(a.y - b.y),
});

export const inRect = (p: Vec, r: Rect): boolean =>
  p.x >= r.x && p.x <= r.x + r.width && p.y >= r.y && p.y <= r.y + r.height;

/** The nearest waypoint within `tolerance` metres (drawn last = on top wins ties). */
export function hitWaypoint(doc: MapDocument, p: Vec, tolerance: number): Waypoint | null {
  let best: Waypoint | null = null;
  let bestD = tolerance;
  for (const w of doc.waypoints) {
    const d = dist(w, p);
    if (d <= bestD) {
      best = w;
      bestD = d;
    }
  }
  return best;
}

/** The points an edge is drawn through: its recorded path, else straight between its waypoints. */
export function edgePoints(e: MapEdge, byId: ReadonlyMap<number, Waypoint>): Vec[] | null {
  const a = byId.get(e.from);
  const b = byId.get(e.to);
  if (!a || !b) return null;
  return e.path && e.path.length >= 2 ? e.path : [a, b];
}

export function hitEdge(
  doc: MapDocument,
  p: Vec,
  tolerance: number,
  byId: ReadonlyMap<number, Waypoint> = waypointIndex(doc),
): MapEdge | null {
  let best: MapEdge | null = null;
  let bestD = tolerance;
  for (const e of doc.edges) {
    const pts = edgePoints(e, byId);
    if (!pts) continue;
    for (let i = 1; i < pts.length; i++) {
      const d = distToSegment(p, pts[i - 1]!, pts[i]!);
      if (d <= bestD) {
        best = e;
        bestD = d;
      }
    }
  }
  return best;
}

export const hitNoGo = (doc: MapDocument, p: Vec): NoGoArea | null =>
  doc.noGoAreas.findLast((a) => pointInPolygon(p, a.points)) ?? null;

export const hitPartialMap = (doc: MapDocument, p: Vec): PartialMap | null =>
  doc.partialMaps.findLast((r) => inRect(p, r)) ?? null;

export const waypointIndex = (doc: MapDocument): Map<number, Waypoint> => new Map(doc.waypoints.map((w) => [w.id, w]));

/** Angle in [-π, π] from a to b, in map coordinates (y up). */
export const angleTo = (a: Vec, b: Vec): number => Math.atan2(b.y - a.y, b.x - a.x);

/** Bounds of everything in a document, or null when it is empty. */
export function documentBounds(doc: MapDocument): Rect | null {
  const pts: Vec[] = [...doc.waypoints];
  for (const a of doc.noGoAreas) pts.push(...a.points);
  for (const r of doc.partialMaps) pts.push(r, { x: r.x + r.width, y: r.y + r.height });
  if (pts.length === 0) return null;
  let x0 = Infinity;
  let y0 = Infinity;
  let x1 = -Infinity;
  let y1 = -Infinity;
  for (const p of pts) {
    x0 = Math.min(x0, p.x);
    y0 = Math.min(y0, p.y);
    x1 = Math.max(x1, p.x);
    y1 = Math.max(y1, p.y);
  }
  return { x: x0, y: y0, width: x1 - x0, height: y1 - y0 };
}
