/** Something the simulation timer advances. */
export interface Tickable {
  tick(now: number, timestamp: string): void;
}

/** Simulation step (real time); speedScale stretches it into simulated time. */
export const TICK_MS = 50;

/** Where the tick loop gets its time and its timer: real time, or a clock a test advances by hand. */
export interface Clock {
  /** Monotonic milliseconds. */
  now(): number;
  /** The current time as an ISO string (message timestamps of a tick). */
  isoNow(): string;
  /** Calls `fn` every `ms` until the returned function is called. */
  every(ms: number, fn: () => void): () => void;
}

export const realClock: Clock = {
  now: () => performance.now(),
  isoNow: () => new Date().toISOString(),
  every(ms, fn) {
    const timer = setInterval(fn, ms);
    return () => clearInterval(timer);
  },
};

/**
 * A clock that stands still until `advance(ms)`: the timers due in that span run synchronously, in
 * order, each seeing its own time. Tests drive robots with it instead of waiting real time.
 */
export class ManualClock implements Clock {
  private t = 0;
  private readonly timers = new Set<{ period: number; next: number; fn: () => void }>();

  /** `epoch`: the wall-clock time (ms since 1970) of `now() === 0`. */
  constructor(private readonly epoch = Date.UTC(2026, 0, 1)) {}

  now(): number {
    return this.t;
  }

  isoNow(): string {
    return new Date(this.epoch + this.t).toISOString();
  }

  every(ms: number, fn: () => void): () => void {
    const timer = { period: ms, next: this.t + ms, fn };
    this.timers.add(timer);
    return () => this.timers.delete(timer);
  }

  /** Moves time forward by `ms`, running every timer that falls due on the way. */
  advance(ms: number): void {
    const end = this.t + ms;
    for (;;) {
      let due: { period: number; next: number; fn: () => void } | null = null;
      for (const timer of this.timers) if (timer.next <= end && (!due || timer.next < due.next)) due = timer;
      if (!due) break;
      this.t = due.next;
      due.next += due.period;
      due.fn();
    }
    this.t = end;
  }
}

/**
 * One timer for every simulated robot of the process: a fleet of 1,000 robots costs one timer
 * callback per tick, and all messages of a tick share one timestamp string. The clock is injected:
 * robots of a test can run on a `ManualClock` (`new Ticker(clock)` as the robot's `ticker` option).
 */
export class Ticker {
  private readonly members = new Set<Tickable>();
  private cancel: (() => void) | null = null;
  private readonly barriers = new Set<{ left: number; done: () => void }>();

  constructor(readonly clock: Clock = realClock) {}

  add(t: Tickable): void {
    this.members.add(t);
    this.cancel ??= this.clock.every(TICK_MS, () => this.run());
  }

  remove(t: Tickable): void {
    this.members.delete(t);
    if (this.members.size === 0 && this.cancel) {
      this.cancel();
      this.cancel = null;
    }
  }

  /** Resolves once `n` more ticks have run (a barrier for tests on real time). */
  ticks(n: number): Promise<void> {
    return new Promise((done) => this.barriers.add({ left: n, done }));
  }

  private run(): void {
    const now = this.clock.now();
    const timestamp = this.clock.isoNow();
    for (const m of this.members) {
      try {
        m.tick(now, timestamp);
      } catch (err) {
        // One faulty robot must not stop the fleet.
        console.error('robot-sim tick failed', err);
      }
    }
    for (const b of this.barriers) {
      if (--b.left > 0) continue;
      this.barriers.delete(b);
      b.done();
    }
  }
}

/** The process-wide ticker on real time. */
export const ticker = new Ticker();
