import { OCCUPANCY } from '@portal/contract';
import type { ModelSpec } from './models.ts';
import type { World } from './world.ts';

export interface Pose {
  x: number;
  y: number;
  theta: number;
}

const ARRIVE_EPS = 0.005; // m
const HEADING_TOL = 0.02; // rad: closer than this, the robot drives instead of turning in place
/** Manual driving stops this far (m) in front of the robot's outline when a wall is ahead. */
const MANUAL_SAFETY_MARGIN = 0.15;

export const round3 = (v: number): number => Math.round(v * 1000) / 1000;
export const round4 = (v: number): number => Math.round(v * 10000) / 10000;
/** Angle into (-π, π]. */
export const wrap = (a: number): number => {
  let r = a % (2 * Math.PI);
  if (r > Math.PI) r -= 2 * Math.PI;
  else if (r <= -Math.PI) r += 2 * Math.PI;
  return r;
};

/**
 * Pose and motion of one robot within its model's limits (simulated time): turning in place, a
 * trapezoid speed profile to a point, and manual driving that stops short of walls.
 */
export class Kinematics {
  x: number;
  y: number;
  theta: number;
  mapId: string;
  mapIdJson: string;
  v = 0;
  omega = 0;
  driving = false;
  /** Distance driven since the battery last took it (m). */
  distance = 0;

  /** `changed` runs when something the state reports changes (driving). */
  constructor(
    private readonly spec: ModelSpec,
    start: Pose,
    mapId: string,
    private readonly changed: () => void,
  ) {
    this.x = start.x;
    this.y = start.y;
    this.theta = wrap(start.theta);
    this.mapId = mapId;
    this.mapIdJson = JSON.stringify(mapId);
  }

  /** The distance driven since the last call (the battery drains by it). */
  takeDistance(): number {
    const d = this.distance;
    this.distance = 0;
    return d;
  }

  setDriving(d: boolean): void {
    if (d !== this.driving) {
      this.driving = d;
      this.changed();
    }
  }

  stop(): void {
    this.v = 0;
    this.omega = 0;
    this.setDriving(false);
  }

  setMap(mapId: string): void {
    this.mapId = mapId;
    this.mapIdJson = JSON.stringify(mapId);
  }

  /** Turns in place; true once the heading is reached. */
  turnToward(heading: number, dt: number): boolean {
    const diff = wrap(heading - this.theta);
    const max = this.spec.angularSpeedMax * dt;
    this.v = 0;
    if (Math.abs(diff) <= max) {
      this.theta = wrap(heading);
      this.omega = diff / dt;
      this.setDriving(true);
      return true;
    }
    const step = Math.sign(diff) * max;
    this.theta = wrap(this.theta + step);
    this.omega = step / dt;
    this.setDriving(true);
    return false;
  }

  /**
   * One step toward a point on the current map: turns first when standing, then accelerates,
   * cruises and brakes so as to stop on it. true when the point is reached (the robot stands on it).
   */
  driveToward(p: { x: number; y: number }, maxSpeed: number | undefined, speedFactor: number, dt: number): boolean {
    const dx = p.x - this.x;
    const dy = p.y - this.y;
    const d = Math.hypot(dx, dy);
    if (d <= ARRIVE_EPS) return true;
    const heading = Math.atan2(dy, dx);
    if (this.v === 0 && Math.abs(wrap(heading - this.theta)) > HEADING_TOL) {
      this.turnToward(heading, dt);
      return false;
    }
    this.theta = heading;
    this.omega = 0;
    const s = this.spec;
    let vmax = s.speedMax;
    if (maxSpeed !== undefined && maxSpeed > 0) vmax = Math.min(vmax, maxSpeed);
    vmax *= speedFactor;
    // Trapezoid profile: accelerate, cruise, brake so as to stop on the node.
    const vBrake = Math.sqrt(2 * s.decelerationMax * d);
    const vNew = Math.max(Math.min(vmax, this.v + s.accelerationMax * dt, vBrake), Math.min(s.speedMin, vmax));
    const ds = ((this.v + vNew) / 2) * dt;
    this.distance += Math.min(ds, d);
    if (ds >= d) {
      this.x = p.x;
      this.y = p.y;
      return true;
    }
    this.x += (dx / d) * ds;
    this.y += (dy / d) * ds;
    this.v = vNew;
    this.setDriving(true);
    return false;
  }

  /** Free space ahead: the robot's front edge plus the margin does not reach a wall. */
  private clearAhead(world: World, x: number, y: number, heading: number): boolean {
    const reach = this.spec.length / 2 + MANUAL_SAFETY_MARGIN;
    const half = this.spec.width / 2;
    const c = Math.cos(heading);
    const s = Math.sin(heading);
    for (const side of [-1, -0.5, 0, 0.5, 1]) {
      const px = x + c * reach - s * half * side;
      const py = y + s * reach + c * half * side;
      if (world.occupancyAt(px, py) === OCCUPANCY.occupied) return false;
    }
    return true;
  }

  /**
   * One step of manual driving (m/s, rad/s): accelerates or brakes toward the command within the
   * model's limits and stops short of a wall. true when a wall stopped it.
   */
  stepManual(cmd: { v: number; omega: number }, speedFactor: number, world: World, dt: number): boolean {
    const s = this.spec;
    const target = cmd.v * speedFactor;
    const dv = target - this.v;
    const limit = (Math.sign(dv) === Math.sign(this.v) || this.v === 0 ? s.accelerationMax : s.decelerationMax) * dt;
    let v = Math.abs(dv) <= limit ? target : this.v + Math.sign(dv) * limit;
    const omega = cmd.omega;
    const heading = wrap(this.theta + omega * dt);
    let blocked = false;
    if (v !== 0) {
      const dir = v > 0 ? heading : wrap(heading + Math.PI);
      // Standing inside a wall of the synthetic plan (a start point the plan does not know): let it out.
      const inside = world.occupancyAt(this.x, this.y) === OCCUPANCY.occupied;
      const nx = this.x + Math.cos(heading) * v * dt;
      const ny = this.y + Math.sin(heading) * v * dt;
      if (!inside && !this.clearAhead(world, nx, ny, dir)) {
        blocked = true;
        v = 0;
      } else {
        this.distance += Math.abs(v * dt);
        this.x = nx;
        this.y = ny;
      }
    }
    this.theta = heading;
    this.v = v;
    this.omega = omega;
    this.setDriving(v !== 0 || omega !== 0);
    return blocked;
  }
}
