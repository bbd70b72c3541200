import { OCCUPANCY } from './mapping.ts';

/**
 * The demo world as plain data: the synthetic floor plan of a map id, made of axis-aligned
 * rectangles in metres (map frame). The simulator's robots "see" it when mapping (apps/robot-sim
 * world.ts) and the server's demo seed draws the demo floors' map images from it, so simulated
 * robots stand where the map says. `demoWorldPlan('floor-3')` always builds the same plan for the
 * same map id.
 */

/** An axis-aligned rectangle in metres: x0 < x1, y0 < y1. */
export interface Rect {
  x0: number;
  y0: number;
  x1: number;
  y1: number;
}

export interface WorldPlan {
  /** The building's extent: the outside of its outer wall. */
  bounds: Rect;
  /** Outer and inner walls (door gaps are simply missing pieces). */
  walls: readonly Rect[];
  pillars: readonly Rect[];
}

/** The grid extends this far beyond the building's bounds (m). */
export const WORLD_MARGIN = 0.5;
/** Wall thickness of the synthetic plans (m). */
export const WALL_THICKNESS = 0.2;

/** The grid of a plan: resolution, the map position of cell (0, 0)'s lower-left corner, size in cells. */
export interface GridFrame {
  resolution: number;
  originX: number;
  originY: number;
  width: number;
  height: number;
}

const inside = (r: Rect, x: number, y: number): boolean => x >= r.x0 && x <= r.x1 && y >= r.y0 && y <= r.y1;

/** OCCUPANCY.occupied inside a wall or a pillar, else OCCUPANCY.free (also outside the building). */
export function planOccupancyAt(plan: Pick<WorldPlan, 'walls' | 'pillars'>, x: number, y: number): number {
  for (const r of plan.walls) if (inside(r, x, y)) return OCCUPANCY.occupied;
  for (const r of plan.pillars) if (inside(r, x, y)) return OCCUPANCY.occupied;
  return OCCUPANCY.free;
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
export function demoWorldPlan(mapId: string): WorldPlan {
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
  return { bounds: b, walls, pillars };
}

/** The grid frame covering a plan (its bounds plus WORLD_MARGIN) at a resolution. */
export function planGridFrame(plan: Pick<WorldPlan, 'bounds'>, resolution: number): GridFrame {
  const { bounds } = plan;
  const originX = bounds.x0 - WORLD_MARGIN;
  const originY = bounds.y0 - WORLD_MARGIN;
  const width = Math.ceil((bounds.x1 + WORLD_MARGIN - originX) / resolution - 1e-6);
  const height = Math.ceil((bounds.y1 + WORLD_MARGIN - originY) / resolution - 1e-6);
  return { resolution, originX, originY, width, height };
}

/**
 * The plan on a grid: width × height bytes, row 0 at the bottom, OCCUPANCY.free or
 * OCCUPANCY.occupied. A cell is occupied when a wall or pillar covers any part of it, so thin walls
 * stay solid at any resolution.
 */
export function rasterizePlan(
  plan: Pick<WorldPlan, 'bounds' | 'walls' | 'pillars'>,
  resolution: number,
): GridFrame & { cells: Uint8Array } {
  const frame = planGridFrame(plan, resolution);
  const { originX, originY, width, height } = frame;
  const cells = new Uint8Array(width * height).fill(OCCUPANCY.free);
  const eps = 1e-9;
  for (const r of [...plan.walls, ...plan.pillars]) {
    const ix0 = Math.max(0, Math.floor((r.x0 - originX) / resolution + eps));
    const ix1 = Math.min(width - 1, Math.ceil((r.x1 - originX) / resolution - eps) - 1);
    const iy0 = Math.max(0, Math.floor((r.y0 - originY) / resolution + eps));
    const iy1 = Math.min(height - 1, Math.ceil((r.y1 - originY) / resolution - eps) - 1);
    for (let iy = iy0; iy <= iy1; iy++) cells.fill(OCCUPANCY.occupied, iy * width + ix0, iy * width + ix1 + 1);
  }
  return { ...frame, cells };
}

/** Metres per pixel of the demo floors' map images (the common ROS map resolution). */
export const DEMO_MAP_RESOLUTION = 0.05;

/** What a demo waypoint is for: the simulator's fleet sends robots along the patrol points. */
export type DemoWaypointRole = 'charger' | 'standby' | 'patrol';

/**
 * The demo floors' waypoints, in the open hall of every plan (below the corridor wall at y ≥ 11,
 * left of the partition at x ≥ 24, between the pillars at x ≈ 3, 9, 15, 21 and y ≈ 7–8.4): a
 * charger where the first simulated robot starts, a standby point, and a patrol loop whose straight
 * legs pass between the pillars. Same for every demo floor.
 */
export const DEMO_WAYPOINTS: ReadonlyArray<{
  name: string;
  role: DemoWaypointRole;
  x: number;
  y: number;
  theta: number;
}> = [
  { name: 'Charger', role: 'charger', x: 1, y: 1, theta: 0 },
  { name: 'Standby', role: 'standby', x: 3, y: 1, theta: 0 },
  { name: 'Patrol 1', role: 'patrol', x: 6, y: 3, theta: 0 },
  { name: 'Patrol 2', role: 'patrol', x: 18, y: 3, theta: Math.PI / 2 },
  { name: 'Patrol 3', role: 'patrol', x: 18, y: 10, theta: Math.PI },
  { name: 'Patrol 4', role: 'patrol', x: 12, y: 10, theta: Math.PI },
  { name: 'Patrol 5', role: 'patrol', x: 6, y: 10, theta: -Math.PI / 2 },
];

/** The demo floors' patrol route's name. */
export const DEMO_PATROL_ROUTE = 'Patrol';
