import { OCCUPANCY } from '@portal/contract';

/**
 * The ground truth a mapping robot "sees": a synthetic floor plan per map id, made of axis-aligned
 * rectangles in metres (map frame). `worldFor('floor-3')` always builds the same plan for the same
 * map id; `RobotOptions.world` replaces it.
 */

/** An axis-aligned rectangle in metres: x0 < x1, y0 < y1. */
export interface Rect {
  x0: number;
  y0: number;
  x1: number;
  y1: number;
}

export interface World {
  readonly mapId: string;
  /** The building's extent: the outside of its outer wall. */
  readonly bounds: Rect;
  /** Outer and inner walls (door gaps are simply missing pieces). */
  readonly walls: readonly Rect[];
  readonly pillars: readonly Rect[];
  /** OCCUPANCY.occupied inside a wall or a pillar, else OCCUPANCY.free (also outside the building). */
  occupancyAt(x: number, y: number): number;
}

/** The ground truth on a grid: what a perfect sensor would report for every cell. */
export interface Raster {
  resolution: number;
  /** Map coordinates of the grid's lower-left corner (cell (0, 0) spans originX..originX+resolution). */
  originX: number;
  originY: number;
  width: number;
  height: number;
  /** width × height bytes, row 0 at the bottom: OCCUPANCY.free or OCCUPANCY.occupied. */
  cells: Uint8Array;
}

/** The grid extends this far beyond the building's bounds (m). */
export const WORLD_MARGIN = 0.5;
/** Wall thickness of the synthetic plans (m). */
export const WALL_THICKNESS = 0.2;

const inside = (r: Rect, x: number, y: number): boolean => x >= r.x0 && x <= r.x1 && y >= r.y0 && y <= r.y1;

/** A world from explicit walls and pillars (for `RobotOptions.world`). */
export function createWorld(mapId: string, bounds: Rect, walls: readonly Rect[], pillars: readonly Rect[] = []): World {
  const all = [...walls, ...pillars];
  return {
    mapId,
    bounds,
    walls,
    pillars,
    occupancyAt(x: number, y: number): number {
      for (const r of all) if (inside(r, x, y)) return OCCUPANCY.occupied;
      return OCCUPANCY.free;
    },
  };
}

/** FNV-1a of the map id seeds mulberry32: the same map id, the same plan. */
function rng(seed: string): () => number {
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

const r2 = (v: number): number => Math.round(v * 100) / 100;

/** A wall along x at height y from x0 to x1, without the gaps [start, start + width]. */
function hWall(y: number, x0: number, x1: number, gaps: Array<[number, number]>): Rect[] {
  const out: Rect[] = [];
  let from = x0;
  for (const [g, w] of [...gaps].sort((a, b) => a[0] - b[0])) {
    if (g > from) out.push({ x0: from, y0: y, x1: g, y1: y + WALL_THICKNESS });
    from = g + w;
  }
  if (x1 > from) out.push({ x0: from, y0: y, x1, y1: y + WALL_THICKNESS });
  return out;
}

/** A wall along y at x from y0 to y1, without the gaps [start, start + width]. */
function vWall(x: number, y0: number, y1: number, gaps: Array<[number, number]>): Rect[] {
  return hWall(x, y0, y1, gaps).map((r) => ({ x0: r.y0, y0: r.x0, x1: r.y1, y1: r.x1 }));
}

/**
 * The synthetic plan of a map id: a 40 m × 30 m building from (-2, -2) to (38, 28) (outer wall 0.2 m
 * thick), an open hall at the bottom (where the simulator's robots start, from (0, 0) or (1, 1))
 * with a row of pillars at y ≈ 7–8 and a partition wall at x ≈ 24–28 with a door; a corridor wall
 * along x at y ≈ 11–14 with three 1.2 m doors; two room walls along y above it, each with a 1 m door.
 * The random positions come from the map id.
 */
export function generateWorld(mapId: string): World {
  const rand = rng(mapId);
  const between = (a: number, b: number): number => r2(a + rand() * (b - a));
  const T = WALL_THICKNESS;
  const b: Rect = { x0: -2, y0: -2, x1: 38, y1: 28 };
  const walls: Rect[] = [
    { x0: b.x0, y0: b.y0, x1: b.x1, y1: b.y0 + T },
    { x0: b.x0, y0: b.y1 - T, x1: b.x1, y1: b.y1 },
    { x0: b.x0, y0: b.y0, x1: b.x0 + T, y1: b.y1 },
    { x0: b.x1 - T, y0: b.y0, x1: b.x1, y1: b.y1 },
  ];
  const corridorY = between(11, 14);
  walls.push(
    ...hWall(corridorY, b.x0 + T, b.x1 - T, [
      [between(2, 9), 1.2],
      [between(14, 21), 1.2],
      [between(29, 35), 1.2],
    ]),
  );
  const top = corridorY + T;
  for (const x of [between(9, 13), between(21, 25)]) {
    walls.push(...vWall(x, top, b.y1 - T, [[between(top + 2, b.y1 - 3), 1]]));
  }
  walls.push(...vWall(between(24, 28), b.y0 + T, corridorY, [[between(1, corridorY - 3), 1.2]]));
  const pillarY = between(7, 8);
  const pillars: Rect[] = [];
  for (let i = 0; i < 4; i++) {
    const x = r2(3 + i * 6 + rand() - 0.5);
    pillars.push({ x0: x, y0: pillarY, x1: r2(x + 0.4), y1: r2(pillarY + 0.4) });
  }
  return createWorld(mapId, b, walls, pillars);
}

const worlds = new Map<string, World>();

/** The synthetic plan of a map id (built once per process). */
export function worldFor(mapId: string): World {
  let w = worlds.get(mapId);
  if (!w) {
    w = generateWorld(mapId);
    worlds.set(mapId, w);
  }
  return w;
}

/** The grid frame covering a world (its bounds plus WORLD_MARGIN) at a resolution. */
export function gridFrame(
  world: World,
  resolution: number,
): Pick<Raster, 'resolution' | 'originX' | 'originY' | 'width' | 'height'> {
  const { bounds } = world;
  const originX = bounds.x0 - WORLD_MARGIN;
  const originY = bounds.y0 - WORLD_MARGIN;
  const width = Math.ceil((bounds.x1 + WORLD_MARGIN - originX) / resolution - 1e-6);
  const height = Math.ceil((bounds.y1 + WORLD_MARGIN - originY) / resolution - 1e-6);
  return { resolution, originX, originY, width, height };
}

const rasters = new WeakMap<World, Map<number, Raster>>();

/**
 * The world on a grid (cached per world and resolution, shared by every robot mapping it). A cell
 * is occupied when a wall or pillar covers any part of it, so thin walls stay solid at any
 * resolution.
 */
export function rasterize(world: World, resolution: number): Raster {
  let byRes = rasters.get(world);
  if (!byRes) {
    byRes = new Map();
    rasters.set(world, byRes);
  }
  const cached = byRes.get(resolution);
  if (cached) return cached;
  const frame = gridFrame(world, resolution);
  const { originX, originY, width, height } = frame;
  const cells = new Uint8Array(width * height).fill(OCCUPANCY.free);
  const eps = 1e-9;
  for (const r of [...world.walls, ...world.pillars]) {
    const ix0 = Math.max(0, Math.floor((r.x0 - originX) / resolution + eps));
    const ix1 = Math.min(width - 1, Math.ceil((r.x1 - originX) / resolution - eps) - 1);
    const iy0 = Math.max(0, Math.floor((r.y0 - originY) / resolution + eps));
    const iy1 = Math.min(height - 1, Math.ceil((r.y1 - originY) / resolution - eps) - 1);
    for (let iy = iy0; iy <= iy1; iy++) cells.fill(OCCUPANCY.occupied, iy * width + ix0, iy * width + ix1 + 1);
  }
  const raster: Raster = { ...frame, cells };
  byRes.set(resolution, raster);
  return raster;
}
