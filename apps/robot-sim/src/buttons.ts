import type { ElevatorBank } from './building-systems/elevator.ts';
import type { SecurityDoor } from './building-systems/security-door.ts';

/**
 * Button panels of the simulated world (apps/robot-sim/README.md "Button panels and the arm"): an elevator
 * hall panel (call up, call down), a car panel (one button per floor) and a door opener, each a plate
 * on a wall with square buttons standing out of it. The depth camera (depth.ts) shows them; the arm
 * presses them (`pressButton`), and a pressed button lights and makes the building respond through
 * the building-systems simulators (elevator.ts, security-door.ts) when the robot is tied to them.
 */

/** What a button does. `car-{n}`: the car goes to floor index n (1F = 1, B1 = 0). */
export type ButtonTarget = 'hall-up' | 'hall-down' | 'door-open' | `car-${number}`;

export interface PanelButton {
  /** Unique in its world; the press answers it (`pressed {target}`). */
  readonly target: ButtonTarget;
  /** Drawn next to the button in the depth image (A-Z, 0-9). */
  readonly label: string;
  /** Offset along the wall (m, > 0 to the right as seen facing the panel) from the panel's centre. */
  readonly s: number;
  /** Centre height above the floor (m). */
  readonly z: number;
  /** Side of the square button (m). */
  readonly size: number;
}

export interface ButtonPanel {
  readonly id: string;
  readonly kind: 'hall' | 'car' | 'door';
  /** Centre of the plate on the wall's face (m, map frame). */
  readonly x: number;
  readonly y: number;
  /** The plate's outward normal (radians; a multiple of π/2: walls are axis-aligned). */
  readonly facing: number;
  /** Plate size (m): width along the wall, height; centre height. */
  readonly width: number;
  readonly height: number;
  readonly z: number;
  readonly buttons: readonly PanelButton[];
}

/** Thickness of a plate, and how far a button stands out of its plate (m). */
export const PLATE_DEPTH = 0.02;
export const BUTTON_DEPTH = 0.015;
/** Side of a call or floor button (m); the door opener is larger. */
export const BUTTON_SIZE = 0.05;
export const DOOR_BUTTON_SIZE = 0.09;
/** Floor indexes of the demo car panel (B1, 1F, 2F, 3F). */
export const DEMO_CAR_FLOORS = [0, 1, 2, 3] as const;

/** A floor index as the car panel labels it: 0 -> B1, 1 -> 1F, 2 -> 2F... */
export function floorLabel(index: number): string {
  return index <= 0 ? `B${1 - index}` : `${index}F`;
}

/**
 * The demo world's panels, on every map: on the south outer wall's inner face (y = -1.8), facing
 * north, at x = 12 (hall), 14 (car) and 16 (door opener), east of the gauges of floor-1.
 */
export function demoButtonPanels(_mapId: string): ButtonPanel[] {
  const y = -1.8;
  const facing = Math.PI / 2;
  return [
    {
      id: 'hall',
      kind: 'hall',
      x: 12,
      y,
      facing,
      width: 0.12,
      height: 0.26,
      z: 1.15,
      buttons: [
        { target: 'hall-up', label: 'UP', s: 0, z: 1.22, size: BUTTON_SIZE },
        { target: 'hall-down', label: 'DN', s: 0, z: 1.08, size: BUTTON_SIZE },
      ],
    },
    {
      id: 'car',
      kind: 'car',
      x: 14,
      y,
      facing,
      width: 0.22,
      height: 0.3,
      z: 1.15,
      buttons: DEMO_CAR_FLOORS.map((f, i) => ({
        target: `car-${f}` as const,
        label: floorLabel(f),
        s: i % 2 === 0 ? -0.05 : 0.05,
        z: i < 2 ? 1.08 : 1.22,
        size: BUTTON_SIZE,
      })),
    },
    {
      id: 'door',
      kind: 'door',
      x: 16,
      y,
      facing,
      width: 0.16,
      height: 0.16,
      z: 1.15,
      buttons: [{ target: 'door-open', label: 'OPEN', s: 0, z: 1.15, size: DOOR_BUTTON_SIZE }],
    },
  ];
}

/** Where a robot stands to face a panel from `distance` metres (the arm reaches it from 0.6 m). */
export function panelViewpoint(
  p: Pick<ButtonPanel, 'x' | 'y' | 'facing'>,
  distance = 0.6,
): { x: number; y: number; theta: number } {
  let theta = p.facing + Math.PI;
  if (theta > Math.PI) theta -= 2 * Math.PI;
  return { x: p.x + Math.cos(p.facing) * distance, y: p.y + Math.sin(p.facing) * distance, theta };
}

/** Which bank, door and floor a robot's panels belong to. */
interface BuildingPlace {
  /** The bank the elevator panels belong to (default 'A'), the door of the opener (default 'door-1'). */
  bank?: string;
  door?: string;
  /** The floor index the robot is on (default 1: 1F). */
  floor?: number;
}

/**
 * The building a robot's presses reach: in the same process (a `SimBuildingSystems`, or its banks
 * and doors), or over the building-systems HTTP API (`url`, docs/building-systems.md: a robot in
 * another process than `building-systems/cli.ts`, e.g. `--credentials` entries with `building`).
 */
export type ButtonBuilding =
  | (BuildingPlace & { banks: ReadonlyMap<string, ElevatorBank>; doors: ReadonlyMap<string, SecurityDoor> })
  | (BuildingPlace & { url: string; token?: string });

/** How often a lit button of a remote building asks whether its ride or passage moved on (simulated s). */
export const REMOTE_POLL_SECONDS = 1;

/** A button without a building stays lit this long after a press (simulated seconds). */
export const BUTTON_LIGHT_SECONDS = 10;

/**
 * The lit buttons of one robot's world and what a press does. A press lights the button; with a
 * building, a hall call calls a car of the bank to the robot's floor (going to the next floor up or
 * down) and stays lit until the car is there, a car button sends a car from the robot's floor to that
 * floor and stays lit until it arrives, and the door opener asks the door to unlock and stays lit until
 * it is open. Without a building a button stays lit BUTTON_LIGHT_SECONDS.
 */
export class ButtonBoard {
  private readonly lit = new Map<ButtonTarget, { left: number; still: (() => boolean) | null }>();

  constructor(private readonly building: ButtonBuilding | null = null) {}

  /** The response of the building to a press (a ride or passage id), or null without one. */
  press(target: ButtonTarget, rider: string): string | null {
    let still: (() => boolean) | null = null;
    let response: string | null = null;
    const b = this.building;
    if (b && 'url' in b) {
      this.lit.set(target, { left: Infinity, still: this.pressRemote(b, target, rider) });
      return null;
    }
    if (b) {
      const floor = b.floor ?? 1;
      if (target === 'door-open') {
        const door = b.doors.get(b.door ?? 'door-1');
        if (door) {
          const pass = door.request(rider);
          response = pass.id;
          still = () => door.status(pass.id)?.phase === 'waiting';
        }
      } else {
        const bank = b.banks.get(b.bank ?? 'A');
        if (bank) {
          let to: number | undefined;
          if (target === 'hall-up') to = bank.floors.filter((f) => f > floor).sort((x, y) => x - y)[0];
          else if (target === 'hall-down') to = bank.floors.filter((f) => f < floor).sort((x, y) => y - x)[0];
          else to = Number(target.slice(4));
          const ride = bank.call(floor, to ?? floor, rider);
          response = ride.id;
          const waiting = target.startsWith('hall') ? ['call'] : ['call', 'boarding', 'movement', 'emergency'];
          still = () => waiting.includes(bank.status(ride.id)?.phase ?? 'done');
        }
      }
    }
    this.lit.set(target, { left: still ? Infinity : BUTTON_LIGHT_SECONDS, still });
    return response;
  }

  /**
   * Sends the press to the building-systems HTTP API; the light stays on while the answer is pending
   * and then while the ride or passage is still on its way (polled in `step`); a failed request
   * leaves the light on BUTTON_LIGHT_SECONDS.
   */
  private pressRemote(b: BuildingPlace & { url: string; token?: string }, target: ButtonTarget, rider: string) {
    const headers: Record<string, string> = { 'content-type': 'application/json' };
    if (b.token) headers.authorization = `Bearer ${b.token}`;
    const floor = b.floor ?? 1;
    const bankId = b.bank ?? 'A';
    const state: { path: string | null; phase: string | null; failed: boolean; left: number } = {
      path: null,
      phase: null,
      failed: false,
      left: BUTTON_LIGHT_SECONDS,
    };
    const post = async (path: string, body: unknown) => {
      const res = await fetch(`${b.url}${path}`, { method: 'POST', headers, body: JSON.stringify(body) });
      if (!res.ok) throw new Error(`${path}: ${res.status}`);
      return (await res.json()) as { id: string; phase: string };
    };
    const run = async () => {
      if (target === 'door-open') {
        const pass = await post('/door-passes', { door: b.door ?? 'door-1', rider });
        state.path = `/door-passes/${encodeURIComponent(pass.id)}`;
        state.phase = pass.phase;
        return;
      }
      let to: number | undefined;
      if (target.startsWith('hall')) {
        const health = (await (await fetch(`${b.url}/health`, { headers })).json()) as {
          banks: Array<{ id: string; floors: number[] }>;
        };
        const floors = health.banks.find((x) => x.id === bankId)?.floors ?? [];
        to =
          target === 'hall-up'
            ? floors.filter((f) => f > floor).sort((x, y) => x - y)[0]
            : floors.filter((f) => f < floor).sort((x, y) => y - x)[0];
      } else to = Number(target.slice(4));
      const ride = await post('/elevator-calls', { bank: bankId, from: floor, to: to ?? floor, rider });
      state.path = `/elevator-calls/${encodeURIComponent(ride.id)}`;
      state.phase = ride.phase;
    };
    run().catch(() => (state.failed = true));
    const waiting =
      target === 'door-open'
        ? ['waiting']
        : target.startsWith('hall')
          ? ['call']
          : ['call', 'boarding', 'movement', 'emergency'];
    this.remote.set(target, { state, headers, url: b.url, nextPoll: REMOTE_POLL_SECONDS });
    return () => (state.failed ? state.left > 0 : state.phase === null || waiting.includes(state.phase));
  }

  private readonly remote = new Map<
    ButtonTarget,
    {
      state: { path: string | null; phase: string | null; failed: boolean; left: number };
      headers: Record<string, string>;
      url: string;
      nextPoll: number;
    }
  >();

  /** The buttons lit now (the colour cameras draw them amber). */
  litTargets(): ButtonTarget[] {
    return [...this.lit.keys()].filter((t) => this.isLit(t));
  }

  isLit(target: ButtonTarget): boolean {
    const l = this.lit.get(target);
    if (!l) return false;
    if (l.still && !l.still()) {
      this.lit.delete(target);
      return false;
    }
    return l.left > 0;
  }

  /** Advances the lights without a building by `dt` simulated seconds. */
  step(dt: number): void {
    for (const [t, l] of this.lit) {
      l.left -= dt;
      if (l.left <= 0) this.lit.delete(t);
    }
    for (const [t, r] of this.remote) {
      if (!this.lit.has(t)) {
        this.remote.delete(t);
        continue;
      }
      if (r.state.failed) r.state.left -= dt;
      r.nextPoll -= dt;
      if (r.nextPoll > 0 || !r.state.path) continue;
      r.nextPoll = REMOTE_POLL_SECONDS;
      const path = r.state.path;
      fetch(`${r.url}${path}`, { headers: r.headers })
        .then(async (res) => (res.ok ? ((await res.json()) as { phase: string }) : null))
        .then((s) => {
          if (s && r.state.path === path) r.state.phase = s.phase;
        })
        .catch(() => undefined);
    }
  }
}
