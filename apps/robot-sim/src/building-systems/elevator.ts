import type { ElevatorCode, ElevatorRideStatus } from '@portal/contract';

/** How long things take in the simulated building (milliseconds of the simulation clock). */
export interface ElevatorTimings {
  /** Doors opening or closing. */
  doorMs: number;
  /** The car passing one floor. */
  perFloorMs: number;
  /** How long the doors are held for a robot to board or alight before the car gives up. */
  holdMs: number;
}

export const ELEVATOR_TIMINGS: ElevatorTimings = { doorMs: 2_500, perFloorMs: 2_000, holdMs: 30_000 };

/**
 * Occasional faults, each a probability per ride (0 to 1): the car that comes is full, the doors do
 * not open on the boarding floor, or the car makes an emergency stop on its way.
 */
export interface ElevatorFaults {
  carFull: number;
  doorTimeout: number;
  emergencyStop: number;
}

/** Finished rides whose status can still be read. */
const RIDES_KEPT = 500;

export const NO_FAULTS: ElevatorFaults = { carFull: 0, doorTimeout: 0, emergencyStop: 0 };

type Step =
  | { kind: 'queued' }
  | { kind: 'toPickup'; until: number }
  | { kind: 'opening'; until: number; at: 'pickup' | 'destination' }
  | { kind: 'boarding'; until: number }
  | { kind: 'closing'; until: number; then: 'move' | 'done' | 'release' }
  | { kind: 'moving'; until: number; stopAt: number | null }
  | { kind: 'alighting'; until: number }
  | { kind: 'emergency' }
  | { kind: 'final' };

interface Car {
  id: string;
  floor: number;
  ride: Ride | null;
}

interface Ride {
  id: string;
  from: number;
  to: number;
  rider: string;
  car: Car | null;
  step: Step;
  phase: ElevatorRideStatus['phase'];
  code: ElevatorCode | null;
  doorsOpen: boolean;
  /** Whether this ride's fault dice were rolled (once, when a car is assigned). */
  faults: { carFull: boolean; doorTimeout: boolean; emergencyStop: boolean } | null;
}

/**
 * A bank of elevator cars serving a set of floors, driven by a simulation clock (`tick(now)`). A ride
 * goes through the phases of spec section 4: call (a car comes to the boarding floor), boarding (doors
 * held open until the robot says it is in, or the hold runs out), movement, disembarking (doors held
 * until the robot says it is out), then done; a fault ends it as failed with its code, and an
 * emergency stop holds it in `emergency` until `clearEmergency`.
 */
export class ElevatorBank {
  private readonly cars: Car[];
  private readonly rides = new Map<string, Ride>();
  private readonly queue: Ride[] = [];
  private seq = 0;
  private now = 0;
  /** Out of service: new calls are refused with A0014. */
  outOfService = false;

  constructor(
    readonly id: string,
    /** Floor indexes served (1F=1, B1=0). */
    readonly floors: readonly number[],
    cars = 2,
    readonly timings: ElevatorTimings = ELEVATOR_TIMINGS,
    public faults: ElevatorFaults = NO_FAULTS,
    private readonly random: () => number = Math.random,
  ) {
    const ground = floors.includes(1) ? 1 : (floors[0] ?? 1);
    this.cars = Array.from({ length: cars }, (_, i) => ({ id: `${id}-${i + 1}`, floor: ground, ride: null }));
  }

  /** A call from one floor to another; answers the ride (failed at once when it cannot be served). */
  call(from: number, to: number, rider: string): ElevatorRideStatus {
    const ride: Ride = {
      id: `${this.id}-ride-${++this.seq}`,
      from,
      to,
      rider,
      car: null,
      step: { kind: 'queued' },
      phase: 'call',
      code: null,
      doorsOpen: false,
      faults: null,
    };
    this.rides.set(ride.id, ride);
    this.forget();
    if (this.outOfService) this.fail(ride, 'A0014');
    else if (!this.floors.includes(from) || !this.floors.includes(to) || from === to) this.fail(ride, 'A0017');
    else this.queue.push(ride);
    this.tick(this.now);
    return this.status(ride.id)!;
  }

  status(id: string): ElevatorRideStatus | null {
    const r = this.rides.get(id);
    if (!r) return null;
    return {
      id: r.id,
      phase: r.phase,
      code: r.code,
      car: r.car?.id ?? null,
      carFloor: r.car?.floor ?? null,
      doorsOpen: r.doorsOpen,
    };
  }

  /** The robot is in the car: the doors close and the car leaves. False when not boarding now. */
  boarded(id: string): boolean {
    const r = this.rides.get(id);
    if (!r || r.step.kind !== 'boarding') return false;
    this.close(r, 'move');
    return true;
  }

  /** The robot is out of the car: the doors close and the ride is done. False when not alighting now. */
  alighted(id: string): boolean {
    const r = this.rides.get(id);
    if (!r || r.step.kind !== 'alighting') return false;
    this.close(r, 'done');
    return true;
  }

  /** Cancels a ride that is not over (A0018); its car is free again. */
  cancel(id: string): boolean {
    const r = this.rides.get(id);
    if (!r || r.phase === 'done' || r.phase === 'failed') return false;
    this.fail(r, 'A0018');
    return true;
  }

  /** The building clears an emergency stop: the car goes on to the destination. */
  clearEmergency(id: string): boolean {
    const r = this.rides.get(id);
    if (!r || r.step.kind !== 'emergency' || !r.car) return false;
    r.phase = 'movement';
    r.step = { kind: 'moving', until: this.now + this.travel(r.car.floor, r.to), stopAt: null };
    return true;
  }

  /** Advances the bank to `now` (milliseconds of the simulation clock). */
  tick(now: number): void {
    this.now = now;
    this.dispatch();
    for (const r of this.rides.values()) this.advance(r);
  }

  /** Keeps the answers of the last finished rides only (the map's order is the call order). */
  private forget(): void {
    for (const [id, r] of this.rides) {
      if (this.rides.size <= RIDES_KEPT) break;
      if (r.step.kind === 'final') this.rides.delete(id);
    }
  }

  private travel(a: number, b: number): number {
    return Math.abs(a - b) * this.timings.perFloorMs;
  }

  private dispatch(): void {
    while (this.queue.length > 0) {
      const ride = this.queue[0]!;
      if (ride.phase === 'failed') {
        this.queue.shift();
        continue;
      }
      const free = this.cars
        .filter((c) => c.ride === null)
        .sort((a, b) => Math.abs(a.floor - ride.from) - Math.abs(b.floor - ride.from))[0];
      if (!free) return;
      this.queue.shift();
      free.ride = ride;
      ride.car = free;
      ride.faults = {
        carFull: this.random() < this.faults.carFull,
        doorTimeout: this.random() < this.faults.doorTimeout,
        emergencyStop: this.random() < this.faults.emergencyStop,
      };
      ride.step = { kind: 'toPickup', until: this.now + this.travel(free.floor, ride.from) };
    }
  }

  private advance(r: Ride): void {
    const car = r.car;
    const s = r.step;
    if (!car || !('until' in s) || this.now < s.until) return;
    switch (s.kind) {
      case 'toPickup':
        car.floor = r.from;
        if (r.faults?.doorTimeout) return this.fail(r, 'A0005');
        r.step = { kind: 'opening', until: this.now + this.timings.doorMs, at: 'pickup' };
        return;
      case 'opening':
        r.doorsOpen = true;
        if (s.at === 'pickup') {
          // A full car opens, shows it is full, and leaves without the robot.
          if (r.faults?.carFull) {
            r.code = 'A0004';
            r.phase = 'failed';
            this.close(r, 'release');
            return;
          }
          r.phase = 'boarding';
          r.step = { kind: 'boarding', until: this.now + this.timings.holdMs };
        } else {
          r.phase = 'disembarking';
          r.step = { kind: 'alighting', until: this.now + this.timings.holdMs };
        }
        return;
      case 'boarding':
        // Held open long enough: the doors close without the robot.
        r.code = 'A0006';
        r.phase = 'failed';
        this.close(r, 'release');
        return;
      case 'alighting':
        r.code = 'A0012';
        r.phase = 'failed';
        this.close(r, 'release');
        return;
      case 'closing':
        r.doorsOpen = false;
        if (s.then === 'move') {
          r.phase = 'movement';
          const whole = this.travel(car.floor, r.to);
          // An emergency stop halfway (rounded down to a floor).
          const stopAt = r.faults?.emergencyStop ? car.floor + Math.trunc((r.to - car.floor) / 2) : null;
          r.step = {
            kind: 'moving',
            until: this.now + (stopAt === null ? whole : this.travel(car.floor, stopAt)),
            stopAt,
          };
        } else {
          if (s.then === 'done') r.phase = 'done';
          this.release(r);
        }
        return;
      case 'moving':
        if (s.stopAt !== null) {
          car.floor = s.stopAt;
          r.faults!.emergencyStop = false;
          r.phase = 'emergency';
          r.code = 'A0013';
          r.step = { kind: 'emergency' };
          return;
        }
        car.floor = r.to;
        r.code = null;
        r.step = { kind: 'opening', until: this.now + this.timings.doorMs, at: 'destination' };
        return;
    }
  }

  private close(r: Ride, then: 'move' | 'done' | 'release'): void {
    r.step = { kind: 'closing', until: this.now + this.timings.doorMs, then };
  }

  private release(r: Ride): void {
    if (r.car) r.car.ride = null;
    r.doorsOpen = false;
    r.step = { kind: 'final' };
    this.dispatch();
  }

  private fail(r: Ride, code: ElevatorCode): void {
    r.phase = 'failed';
    r.code = code;
    r.doorsOpen = false;
    this.release(r);
  }
}
