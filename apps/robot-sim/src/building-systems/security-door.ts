import type { DoorPassStatus, SecurityCode } from '@portal/contract';

export interface DoorTimings {
  /** From the unlock request to the door open (the system checks the request, the lock releases). */
  unlockMs: number;
  /** How long the door stays open for the robot to pass before it closes and locks again. */
  passMs: number;
  /** Closing and locking after the robot has passed. */
  lockMs: number;
}

export const DOOR_TIMINGS: DoorTimings = { unlockMs: 1_500, passMs: 20_000, lockMs: 2_000 };

/** Probabilities per passage: the system refuses to unlock, or the lock does not release in time. */
export interface DoorFaults {
  refuse: number;
  unlockTimeout: number;
}

export const NO_DOOR_FAULTS: DoorFaults = { refuse: 0, unlockTimeout: 0 };

/** The unlock of a door that did not release is given up after this many unlock times. */
const UNLOCK_TIMEOUT_FACTOR = 5;
const PASSES_KEPT = 500;

interface Pass {
  id: string;
  rider: string;
  phase: DoorPassStatus['phase'];
  code: SecurityCode | null;
  until: number;
  willTimeout: boolean;
}

/**
 * A security door (card-reader door, gate) driven by a simulation clock. A passage goes through the
 * phases of spec section 4: waiting (the request is checked, the lock releases), unlock (open: the
 * robot passes and says so), then done once it has locked again; refused -> failure (S2201), a lock
 * that does not release -> timeout (S0023), a robot that does not pass while open -> timeout (S2301).
 * One passage at a time: a request while another is under way waits for it.
 */
export class SecurityDoor {
  private readonly passes = new Map<string, Pass>();
  private readonly queue: Pass[] = [];
  private current: Pass | null = null;
  private seq = 0;
  private now = 0;
  /** The door reports a fault: requests fail with S2401. */
  broken = false;

  constructor(
    readonly id: string,
    readonly timings: DoorTimings = DOOR_TIMINGS,
    public faults: DoorFaults = NO_DOOR_FAULTS,
    private readonly random: () => number = Math.random,
  ) {}

  get open(): boolean {
    return this.current?.phase === 'unlock' || this.current?.phase === 'passage';
  }

  request(rider: string): DoorPassStatus {
    const pass: Pass = {
      id: `${this.id}-pass-${++this.seq}`,
      rider,
      phase: 'waiting',
      code: null,
      until: 0,
      willTimeout: false,
    };
    this.passes.set(pass.id, pass);
    for (const [id, p] of this.passes) {
      if (this.passes.size <= PASSES_KEPT) break;
      if (p.phase === 'done' || p.phase === 'failure' || p.phase === 'timeout') this.passes.delete(id);
    }
    if (this.broken) this.end(pass, 'failure', 'S2401');
    else this.queue.push(pass);
    this.tick(this.now);
    return this.status(pass.id)!;
  }

  status(id: string): DoorPassStatus | null {
    const p = this.passes.get(id);
    if (!p) return null;
    return { id: p.id, phase: p.phase, code: p.code, open: this.current === p && this.open };
  }

  /** The robot is through: the door closes and locks. False when the door is not open for it. */
  passed(id: string): boolean {
    const p = this.passes.get(id);
    if (!p || this.current !== p || p.phase !== 'unlock') return false;
    p.phase = 'passage';
    p.until = this.now + this.timings.lockMs;
    return true;
  }

  cancel(id: string): boolean {
    const p = this.passes.get(id);
    if (!p || p.phase === 'done' || p.phase === 'failure' || p.phase === 'timeout') return false;
    this.end(p, 'failure', 'S2403');
    return true;
  }

  tick(now: number): void {
    this.now = now;
    if (!this.current) this.next();
    const p = this.current;
    if (!p || now < p.until) return;
    switch (p.phase) {
      case 'waiting':
        if (p.willTimeout) return this.end(p, 'timeout', 'S0023');
        p.phase = 'unlock';
        p.until = now + this.timings.passMs;
        return;
      case 'unlock':
        return this.end(p, 'timeout', 'S2301');
      case 'passage':
        return this.end(p, 'done', null);
    }
  }

  private next(): void {
    const p = this.queue.shift();
    if (!p) return;
    if (p.phase !== 'waiting') return this.next();
    if (this.random() < this.faults.refuse) {
      this.end(p, 'failure', 'S2201');
      return this.next();
    }
    p.willTimeout = this.random() < this.faults.unlockTimeout;
    p.until = this.now + this.timings.unlockMs * (p.willTimeout ? UNLOCK_TIMEOUT_FACTOR : 1);
    this.current = p;
  }

  private end(p: Pass, phase: 'done' | 'failure' | 'timeout', code: SecurityCode | null): void {
    p.phase = phase;
    p.code = code;
    if (this.current === p) this.current = null;
    const i = this.queue.indexOf(p);
    if (i >= 0) this.queue.splice(i, 1);
  }
}
