/** Something the shared simulation timer advances. */
export interface Tickable {
  tick(now: number, timestamp: string): void;
}

/** Simulation step (real time); speedScale stretches it into simulated time. */
export const TICK_MS = 50;

/**
 * One timer for every simulated robot of the process: a fleet of 1,000 robots costs one timer
 * callback per tick, and all messages of a tick share one timestamp string.
 */
class Ticker {
  private readonly members = new Set<Tickable>();
  private timer: NodeJS.Timeout | null = null;

  add(t: Tickable): void {
    this.members.add(t);
    this.timer ??= setInterval(() => this.run(), TICK_MS);
  }

  remove(t: Tickable): void {
    this.members.delete(t);
    if (this.members.size === 0 && this.timer) {
      clearInterval(this.timer);
      this.timer = null;
    }
  }

  private run(): void {
    const now = performance.now();
    const timestamp = new Date().toISOString();
    for (const m of this.members) {
      try {
        m.tick(now, timestamp);
      } catch (err) {
        // One faulty robot must not stop the fleet.
        console.error('robot-sim tick failed', err);
      }
    }
  }
}

export const ticker = new Ticker();
