import { LOW_BATTERY_PERCENT } from '@portal/contract';

// Battery constants (simulated time).
const CHARGER_RADIUS = 0.3; // m
const DRAIN_DRIVE_PER_M = 1 / 60; // %/m: about 1 %/min at 1 m/s
const DRAIN_TURN_PER_S = 0.5 / 60; // %/s
const DRAIN_IDLE_PER_S = 0.1 / 60; // %/s
const CHARGE_PER_S = 5 / 60; // %/s: about 5 %/min

/** Level the lowBattery fault sets; clearing it restores the level before (or this when that was low). */
const LOW_FAULT_LEVEL = 15;
const CLEARED_FAULT_LEVEL = 80;

/** Standing within 0.3 m of a charge point. */
export function onCharger(chargers: ReadonlyArray<{ x: number; y: number }>, x: number, y: number): boolean {
  for (const c of chargers) {
    if (Math.hypot(c.x - x, c.y - y) <= CHARGER_RADIUS) return true;
  }
  return false;
}

/** The battery: exact level, the rounded level the state reports, charging, the lowBattery fault. */
export class Battery {
  level: number;
  reported: number;
  charging = false;
  private beforeLowFault: number | null = null;

  /** `changed` runs when something the state reports changes. */
  constructor(
    percent: number,
    private readonly changed: () => void,
  ) {
    this.level = Math.min(100, Math.max(0, percent));
    this.reported = Math.round(this.level);
  }

  get empty(): boolean {
    return this.reported <= 0;
  }

  get low(): boolean {
    return this.reported < LOW_BATTERY_PERCENT;
  }

  /** One step of `dt` simulated seconds: charging, or draining by distance driven, turning or idling. */
  step(dt: number, m: { charging: boolean; distance: number; turning: boolean }): void {
    if (dt <= 0) return;
    this.setCharging(m.charging);
    let delta: number;
    if (m.charging) delta = CHARGE_PER_S * dt;
    else if (m.distance > 0) delta = -DRAIN_DRIVE_PER_M * m.distance - DRAIN_IDLE_PER_S * dt;
    else if (m.turning) delta = -DRAIN_TURN_PER_S * dt;
    else delta = -DRAIN_IDLE_PER_S * dt;
    this.setLevel(this.level + delta);
  }

  setCharging(charging: boolean): void {
    if (charging !== this.charging) {
      this.charging = charging;
      this.changed();
    }
  }

  setLevel(level: number): void {
    this.level = Math.min(100, Math.max(0, level));
    const reported = Math.round(this.level);
    if (reported !== this.reported) {
      this.reported = reported;
      this.changed();
    }
  }

  /** The lowBattery fault: the level drops to 15 %, remembering the one before. */
  injectLowFault(): void {
    this.beforeLowFault ??= this.level;
    this.setLevel(LOW_FAULT_LEVEL);
  }

  clearLowFault(): void {
    const before = this.beforeLowFault;
    this.beforeLowFault = null;
    this.setLevel(before !== null && before >= LOW_BATTERY_PERCENT ? before : CLEARED_FAULT_LEVEL);
  }
}
