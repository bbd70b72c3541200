import {
  controlInputSchema,
  DEADMAN_MS,
  SLOW_SPEED_FACTOR,
  type ControlInput,
  type TeleopRole,
} from '@portal/contract';

/** What the controller drives: the robot core's manual drive. */
export interface DriveTarget {
  teleopDrive(cmd: { vx: number; wz: number; scale: number } | null): void;
  /** Why manual driving is refused now, or null. */
  manualBlock(): string | null;
}

export interface ControllerStatus {
  /** The session whose input drives the robot, or null. */
  controller: string | null;
  /** The robot stopped because control input stopped (or its channel closed) and was not driven since. */
  deadmanStopped: boolean;
}

/** Receipt latencies kept for the benchmark (ms, newest last). */
const LATENCY_SAMPLES = 20_000;

/**
 * The robot side of teleoperation control, independent of the transport: one controlling session at
 * a time (the portal assigns roles), control inputs from it drive the robot, and the dead-man stops
 * the robot when its input stops for DEADMAN_MS or its channel closes. `check()` runs every tick.
 */
export class TeleopController {
  private controllerId: string | null = null;
  private lastInputAt: number | null = null;
  private lastSeq = -1;
  /** Space was pressed: zero until an input without `stop` and with non-zero axes. */
  private stopLatched = false;
  private deadman = false;
  private readonly listeners = new Set<(s: ControllerStatus) => void>();
  /** Control-input receipt latencies (receipt time − sender time, ms): the benchmark reads them. */
  readonly latencies: number[] = [];

  constructor(
    private readonly target: DriveTarget,
    private readonly opts: { deadmanMs?: number; now?: () => number } = {},
  ) {}

  private now(): number {
    return this.opts.now ? this.opts.now() : performance.timeOrigin + performance.now();
  }

  onStatus(listener: (s: ControllerStatus) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  status(): ControllerStatus {
    return { controller: this.controllerId, deadmanStopped: this.deadman };
  }

  private emit(): void {
    const s = this.status();
    for (const l of this.listeners) l(s);
  }

  /** A session opened (offer) or changed role. A new controller starts from standstill. */
  setRole(sessionId: string, role: TeleopRole): void {
    if (role === 'controller' && this.controllerId !== sessionId) {
      // The portal hands the controls over: whatever the previous controller was doing stops.
      this.controllerId = sessionId;
      this.halt(false);
      this.deadman = false; // the new controller has not lost anything yet
      this.lastInputAt = null;
      this.lastSeq = -1;
      this.stopLatched = false;
      this.emit();
    } else if (role === 'viewer' && this.controllerId === sessionId) {
      this.controllerId = null;
      this.halt(false);
      this.emit();
    }
  }

  /** A session ended (browser left, channel dropped): a controller's robot stops at once. */
  close(sessionId: string): void {
    if (this.controllerId === sessionId) {
      this.controllerId = null;
      this.halt(this.lastInputAt !== null);
      this.emit();
    }
  }

  /** The control channel of a session closed while the session lives on: dead-man stop. */
  channelClosed(sessionId: string): void {
    if (this.controllerId !== sessionId) return;
    this.halt(true);
    this.lastInputAt = null;
    this.emit();
  }

  /** One control message (raw JSON text from the control channel). Invalid or stale ones are ignored. */
  input(sessionId: string, raw: string): void {
    const receivedAt = this.now();
    if (sessionId !== this.controllerId) return; // a watcher's input never drives
    let json: unknown;
    try {
      json = JSON.parse(raw);
    } catch {
      return;
    }
    const parsed = controlInputSchema.safeParse(json);
    if (!parsed.success) return;
    this.apply(parsed.data, receivedAt);
  }

  private apply(input: ControlInput, receivedAt: number): void {
    // Unordered channel: an older message arriving late must not undo a newer one.
    if (input.seq <= this.lastSeq) return;
    this.lastSeq = input.seq;
    this.latencies.push(receivedAt - input.t);
    if (this.latencies.length > LATENCY_SAMPLES) this.latencies.splice(0, this.latencies.length - LATENCY_SAMPLES);
    this.lastInputAt = receivedAt;
    const moving = input.vx !== 0 || input.wz !== 0;
    if (input.stop) this.stopLatched = true;
    else if (moving) this.stopLatched = false;
    const wasDeadman = this.deadman;
    if (this.stopLatched) {
      // Space: the robot stops at once (no braking ramp) and holds.
      this.target.teleopDrive(null);
    } else {
      this.target.teleopDrive({ vx: input.vx, wz: input.wz, scale: input.speed === 'slow' ? SLOW_SPEED_FACTOR : 1 });
      if (moving) this.deadman = false;
    }
    if (wasDeadman !== this.deadman) this.emit();
  }

  /** Every tick: the dead-man. */
  check(): void {
    if (this.controllerId === null || this.lastInputAt === null) return;
    if (this.now() - this.lastInputAt > (this.opts.deadmanMs ?? DEADMAN_MS)) {
      this.lastInputAt = null;
      this.halt(true);
      this.emit();
    }
  }

  private halt(deadman: boolean): void {
    this.target.teleopDrive(null);
    if (deadman) this.deadman = true;
  }
}
