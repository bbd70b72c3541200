import { OCCUPANCY, type ActionState, type MappingMessage, type MappingState } from '@portal/contract';
import type { Header } from './messages.ts';
import { gridFrame, rasterize, type Raster, type World } from './world.ts';

/** Sensor of a mapping robot: a 360° scanner. */
export const SENSOR_RANGE = 8; // m
export const SENSOR_RAYS = 360; // one per degree
/** Scans happen when the robot moved this far or turned this much since the last one... */
export const SCAN_MIN_MOVE = 0.2; // m
export const SCAN_MIN_TURN = (10 * Math.PI) / 180; // rad
/** ...or, while it moves less, this long after the last one (real time). */
export const SCAN_MAX_GAP_MS = 500;
/** Growing grids go out at most this often (real time). */
export const MAPPING_PUBLISH_MS = 2000;
export const MIN_RESOLUTION = 0.01;
export const MAX_GRID_CELLS = 4000;

const COS = new Float64Array(SENSOR_RAYS);
const SIN = new Float64Array(SENSOR_RAYS);
for (let k = 0; k < SENSOR_RAYS; k++) {
  COS[k] = Math.cos((2 * Math.PI * k) / SENSOR_RAYS);
  SIN[k] = Math.sin((2 * Math.PI * k) / SENSOR_RAYS);
}

/** Why a grid at this resolution cannot be built for the world; null when it can. */
export function resolutionProblem(world: World, resolution: number): string | null {
  if (!Number.isFinite(resolution) || resolution < MIN_RESOLUTION || resolution > 1) {
    return `resolution must be a number from ${MIN_RESOLUTION} to 1 (m per cell)`;
  }
  const f = gridFrame(world, resolution);
  if (f.width > MAX_GRID_CELLS || f.height > MAX_GRID_CELLS) {
    return `the grid would be ${f.width} × ${f.height} cells (at most ${MAX_GRID_CELLS} × ${MAX_GRID_CELLS})`;
  }
  return null;
}

/**
 * One robot's map being built: an occupancy grid over the world's extent, all unknown at first, that
 * ray casts from the robot's pose reveal (free up to the first occupied cell, nothing behind it).
 */
export class MappingSession {
  state: Extract<MappingState, 'RECORDING' | 'PAUSED'> = 'RECORDING';
  readonly grid: Uint8Array;
  knownCells = 0;
  /** The grid changed since the last message. */
  changed = false;
  private readonly truth: Raster;
  private lastScan: { x: number; y: number; theta: number; at: number } | null = null;
  private lastPublishAt = -Infinity;

  constructor(
    readonly mapId: string,
    world: World,
    resolution: number,
    /** The startMapping action's state: RUNNING while the session lasts. */
    readonly actionState: ActionState,
  ) {
    this.truth = rasterize(world, resolution);
    this.grid = new Uint8Array(this.truth.width * this.truth.height).fill(OCCUPANCY.unknown);
  }

  get resolution(): number {
    return this.truth.resolution;
  }

  /** Scans if the robot moved or turned enough (or enough time passed); true if it scanned. */
  maybeScan(x: number, y: number, theta: number, now: number): boolean {
    const last = this.lastScan;
    if (last) {
      const moved = Math.hypot(x - last.x, y - last.y);
      let turned = Math.abs(theta - last.theta) % (2 * Math.PI);
      if (turned > Math.PI) turned = 2 * Math.PI - turned;
      const due =
        moved >= SCAN_MIN_MOVE ||
        turned >= SCAN_MIN_TURN ||
        ((moved > 0 || turned > 0) && now - last.at >= SCAN_MAX_GAP_MS);
      if (!due) return false;
    }
    this.lastScan = { x, y, theta, at: now };
    this.scan(x, y);
    return true;
  }

  /** Casts the rays from (x, y) and marks what they cross with the ground truth. */
  scan(x: number, y: number): void {
    const { resolution, originX, originY, width, height, cells: truth } = this.truth;
    const grid = this.grid;
    const steps = Math.ceil(SENSOR_RANGE / resolution);
    // In cell units: one step per cell length.
    const px = (x - originX) / resolution;
    const py = (y - originY) / resolution;
    // Constants as locals: the loop runs ~58,000 times per scan at 0.05 m.
    const UNKNOWN = OCCUPANCY.unknown;
    const OCCUPIED = OCCUPANCY.occupied;
    const cos = COS;
    const sin = SIN;
    const rays = SENSOR_RAYS;
    let known = 0;
    for (let k = 0; k < rays; k++) {
      const cx = cos[k]!;
      const cy = sin[k]!;
      let last = -1;
      let fx = px;
      let fy = py;
      for (let s = 0; s <= steps; s++, fx += cx, fy += cy) {
        if (fx < 0 || fy < 0 || fx >= width || fy >= height) break;
        const i = (fy | 0) * width + (fx | 0);
        if (i === last) continue;
        last = i;
        const t = truth[i]!;
        if (grid[i] === UNKNOWN) {
          grid[i] = t;
          known++;
        }
        if (t === OCCUPIED) break;
      }
    }
    if (known > 0) {
      this.knownCells += known;
      this.changed = true;
    }
  }

  /** A growth message is due: the grid changed and the last message is old enough. */
  due(now: number): boolean {
    return this.changed && now - this.lastPublishAt >= MAPPING_PUBLISH_MS;
  }

  /** The `mapping` message (marks the grid as sent). */
  message(h: Header, state: MappingState, now: number): MappingMessage {
    this.changed = false;
    this.lastPublishAt = now;
    const t = this.truth;
    return {
      ...h,
      mapId: this.mapId,
      state,
      resolution: t.resolution,
      originX: t.originX,
      originY: t.originY,
      width: t.width,
      height: t.height,
      cells: Buffer.from(this.grid.buffer, this.grid.byteOffset, this.grid.byteLength).toString('base64'),
    };
  }
}
