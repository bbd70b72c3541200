import {
  demoWorldPlan,
  planGridFrame,
  planOccupancyAt,
  rasterizePlan,
  WALL_THICKNESS,
  WORLD_MARGIN,
  type Rect,
} from '@portal/contract';
import { demoButtonPanels, type ButtonPanel } from './buttons.ts';
import { createGauge, demoGauges, type Gauge, type GaugeSpec } from './gauges.ts';

/**
 * The ground truth a mapping robot "sees": a synthetic floor plan per map id, made of axis-aligned
 * rectangles in metres (map frame), from the contract's demo world (`demoWorldPlan`).
 * `worldFor('floor-3')` always builds the same plan for the same map id; `RobotOptions.world` replaces it.
 */

export type { Rect };

export interface World {
  readonly mapId: string;
  /** The building's extent: the outside of its outer wall. */
  readonly bounds: Rect;
  /** Outer and inner walls (door gaps are simply missing pieces). */
  readonly walls: readonly Rect[];
  readonly pillars: readonly Rect[];
  /** Analog gauges on the walls (gauges.ts): the camera renderer draws them; their values are settable. */
  readonly gauges?: Gauge[];
  /** Button panels on the walls (buttons.ts): the depth camera shows them, the arm presses them. */
  readonly panels?: readonly ButtonPanel[];
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

export { WORLD_MARGIN, WALL_THICKNESS };

/** A world from explicit walls and pillars (for `RobotOptions.world`). */
export function createWorld(
  mapId: string,
  bounds: Rect,
  walls: readonly Rect[],
  pillars: readonly Rect[] = [],
  gauges: readonly GaugeSpec[] = [],
  panels: readonly ButtonPanel[] = [],
): World {
  const plan = { walls, pillars };
  return {
    mapId,
    bounds,
    walls,
    pillars,
    gauges: gauges.map(createGauge),
    panels,
    occupancyAt(x: number, y: number): number {
      return planOccupancyAt(plan, x, y);
    },
  };
}

/** The synthetic plan of a map id (packages/contract demo-world.ts: the seed draws the demo maps from it). */
export function generateWorld(mapId: string): World {
  const plan = demoWorldPlan(mapId);
  return createWorld(mapId, plan.bounds, plan.walls, plan.pillars, demoGauges(mapId), demoButtonPanels(mapId));
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
  return planGridFrame(world, resolution);
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
  const raster: Raster = rasterizePlan(world, resolution);
  byRes.set(resolution, raster);
  return raster;
}

/**
 * Sets a gauge's value in the process's world of a map (`worldFor`): the next photo shows it. Throws
 * when the map has no such gauge.
 */
export function setGaugeValue(mapId: string, gaugeId: string, value: number): Gauge {
  const gauge = worldFor(mapId).gauges?.find((g) => g.id === gaugeId);
  if (!gauge) throw new RangeError(`no gauge ${gaugeId} on ${mapId}`);
  if (!Number.isFinite(value)) throw new RangeError(`gauge value ${value}: a finite number expected`);
  gauge.value = value;
  return gauge;
}
