import type { MapDocument, MapImage } from '@portal/contract';
import { edgePoints, waypointIndex } from './geometry';
import type { Vec } from './types';

/**
 * Where the floor's map image is an obstacle (issue 12 item 10): its dark pixels, as in a ROS
 * occupancy map (occupied black, free white, unknown grey 205). Warnings in the editor come from it:
 * a waypoint on an occupied pixel, an edge whose line crosses occupied pixels. They are warnings, not
 * errors: the image may be out of date, and saving is never refused for them.
 */
export interface Occupancy {
  width: number;
  height: number;
  /** Metres per pixel and the map-frame position of the bottom-left pixel (the image's frame). */
  resolution: number;
  originX: number;
  originY: number;
  /** One byte per pixel, row by row from the image's top row: 1 = occupied. */
  occupied: Uint8Array;
}

/** A pixel darker than this (0–255 luminance) is an obstacle; ROS's unknown grey (205) is not. */
export const OCCUPIED_BELOW = 100;

/**
 * The occupancy of an image's RGBA pixels (canvas `getImageData`, top row first): dark and not
 * transparent is occupied.
 */
export function occupancyFromRgba(
  rgba: Uint8ClampedArray | Uint8Array,
  frame: Pick<MapImage, 'width' | 'height' | 'resolution' | 'originX' | 'originY'>,
): Occupancy {
  const n = frame.width * frame.height;
  const occupied = new Uint8Array(n);
  for (let i = 0; i < n; i++) {
    const o = i * 4;
    const luminance = 0.299 * rgba[o]! + 0.587 * rgba[o + 1]! + 0.114 * rgba[o + 2]!;
    occupied[i] = rgba[o + 3]! >= 128 && luminance < OCCUPIED_BELOW ? 1 : 0;
  }
  return {
    width: frame.width,
    height: frame.height,
    resolution: frame.resolution,
    originX: frame.originX,
    originY: frame.originY,
    occupied,
  };
}

/** The pixel (column, row from the top) under a map point, or null outside the image. */
export function pixelAt(o: Occupancy, p: Vec): { col: number; row: number } | null {
  const col = Math.floor((p.x - o.originX) / o.resolution);
  const fromBottom = Math.floor((p.y - o.originY) / o.resolution);
  const row = o.height - 1 - fromBottom;
  if (col < 0 || col >= o.width || row < 0 || row >= o.height) return null;
  return { col, row };
}

/** Whether the map point lies on an occupied pixel (outside the image: no). */
export function occupiedAt(o: Occupancy, p: Vec): boolean {
  const px = pixelAt(o, p);
  return px !== null && o.occupied[px.row * o.width + px.col] === 1;
}

/**
 * The first occupied point along the segment a→b, sampled every half pixel, or null. The pixel under
 * a waypoint end is left out (`ends`): a waypoint standing on an obstacle has its own warning, and an
 * edge leaving it is no wall crossing for that. Points of a recorded path are checked like the rest.
 */
export function segmentObstacle(
  o: Occupancy,
  a: Vec,
  b: Vec,
  ends: { start: boolean; end: boolean } = { start: true, end: true },
): Vec | null {
  const length = Math.hypot(b.x - a.x, b.y - a.y);
  const steps = Math.max(1, Math.ceil(length / (o.resolution / 2)));
  const start = ends.start ? pixelAt(o, a) : null;
  const end = ends.end ? pixelAt(o, b) : null;
  const same = (p: { col: number; row: number }, q: { col: number; row: number } | null) =>
    q !== null && p.col === q.col && p.row === q.row;
  for (let i = 0; i <= steps; i++) {
    const t = i / steps;
    const p = { x: a.x + (b.x - a.x) * t, y: a.y + (b.y - a.y) * t };
    const px = pixelAt(o, p);
    if (px === null || same(px, start) || same(px, end)) continue;
    if (o.occupied[px.row * o.width + px.col] === 1) return p;
  }
  return null;
}

export type MapWarning =
  | { kind: 'waypointOnObstacle'; waypointId: number; at: Vec }
  | { kind: 'edgeCrossesObstacle'; edgeId: number; at: Vec };

/** The document's warnings against the image's obstacles: waypoints first, then edges, by id order. */
export function mapWarnings(doc: MapDocument, o: Occupancy): MapWarning[] {
  const out: MapWarning[] = [];
  for (const w of doc.waypoints) {
    if (occupiedAt(o, w)) out.push({ kind: 'waypointOnObstacle', waypointId: w.id, at: { x: w.x, y: w.y } });
  }
  const byId = waypointIndex(doc);
  for (const e of doc.edges) {
    const pts = edgePoints(e, byId);
    if (!pts) continue;
    for (let i = 1; i < pts.length; i++) {
      const ends = { start: i === 1, end: i === pts.length - 1 };
      const hit = segmentObstacle(o, pts[i - 1]!, pts[i]!, ends);
      if (hit) {
        out.push({ kind: 'edgeCrossesObstacle', edgeId: e.id, at: hit });
        break;
      }
    }
  }
  return out;
}
