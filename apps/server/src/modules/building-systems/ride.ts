import type {
  DoorPassRequest,
  DoorPassStatus,
  ElevatorCallRequest,
  ElevatorCode,
  ElevatorPhase,
  ElevatorRideStatus,
  SecurityCode,
  SecurityPhase,
} from '@portal/contract';
import { BuildingSystemError, type BuildingSystemsAdapter } from './adapter.ts';

export interface WaitOptions {
  /** Between two status reads (default 250 ms). */
  pollMs?: number;
  /** Cancels the ride or passage (a cancelled flow, a stopping server): it is cancelled at the building too. */
  signal?: AbortSignal;
}

export interface RideOptions extends WaitOptions {
  /** For a car to come (default 3 minutes): then A0003. */
  callTimeoutMs?: number;
  /** For the car to reach the destination, emergency stops included (default 10 minutes): then A0009. */
  movementTimeoutMs?: number;
}

export interface RideHooks {
  /** The phase the ride is in now, as it changes (for the run's record and the operator's screen). */
  onPhase?(phase: ElevatorPhase | 'done', status: ElevatorRideStatus | null): void;
  /** The car is open on the boarding floor: drive the robot in; resolves once it is in the car. */
  board(status: ElevatorRideStatus): Promise<void>;
  /** The car is open on the destination floor: the robot is on that floor now; drive it out. */
  alight(status: ElevatorRideStatus): Promise<void>;
}

const sleep = (ms: number, signal?: AbortSignal) =>
  new Promise<void>((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason as Error);
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', abort);
      resolve();
    }, ms);
    const abort = () => {
      clearTimeout(timer);
      reject(signal!.reason as Error);
    };
    signal?.addEventListener('abort', abort, { once: true });
  });

/**
 * Rides the building's elevator from one floor to another, through the phases of spec section 4:
 * prep, call (wait for a car), boarding (the robot drives in), movement (emergency on an emergency
 * stop, waited out), disembarking (the robot drives out), done. Answers the final status; throws a
 * `BuildingSystemError` with the section 8 code when the ride fails. Whatever ends it early (a fault,
 * the robot failing to board, an abort) cancels the ride at the building, so no car is left waiting.
 */
export async function rideElevator(
  adapter: BuildingSystemsAdapter,
  req: ElevatorCallRequest,
  hooks: RideHooks,
  opts: RideOptions = {},
): Promise<ElevatorRideStatus> {
  const pollMs = opts.pollMs ?? 250;
  const phase = (p: ElevatorPhase | 'done', s: ElevatorRideStatus | null) => hooks.onPhase?.(p, s);
  const fail = (code: ElevatorCode, message: string) => new BuildingSystemError(code, message);

  phase('prep', null);
  let status = await adapter.callElevator(req);
  let finished = false;
  try {
    phase('call', status);
    /** Reads the status until `done(status)`; a failed ride throws its code, `timeoutCode` after `ms`. */
    const waitUntil = async (done: (s: ElevatorRideStatus) => boolean, ms: number, timeoutCode: ElevatorCode) => {
      const end = Date.now() + ms;
      let shown = status.phase;
      for (;;) {
        if (status.phase === 'failed') throw fail(status.code ?? 'A0002', `the ride failed (${status.code})`);
        if (done(status)) return;
        if (status.phase !== shown && status.phase !== 'done') {
          shown = status.phase;
          phase(status.phase, status);
        }
        if (Date.now() > end) throw fail(timeoutCode, `no ${timeoutCode} progress within ${ms} ms`);
        await sleep(pollMs, opts.signal);
        status = await adapter.rideStatus(status.id);
      }
    };

    await waitUntil((s) => s.phase === 'boarding', opts.callTimeoutMs ?? 180_000, 'A0003');
    phase('boarding', status);
    await hooks.board(status);
    if (!(await adapter.boarded(status.id))) {
      status = await adapter.rideStatus(status.id);
      throw fail(status.code === 'A0006' ? 'A0006' : 'A0007', 'the doors closed before the robot had boarded');
    }
    status = await adapter.rideStatus(status.id);
    await waitUntil((s) => s.phase === 'disembarking', opts.movementTimeoutMs ?? 600_000, 'A0009');
    if (status.carFloor !== req.to) throw fail('A0010', `the car stopped at floor ${status.carFloor}`);
    phase('disembarking', status);
    await hooks.alight(status);
    if (!(await adapter.alighted(status.id))) throw fail('A0012', 'the doors closed before the robot was out');
    status = await adapter.rideStatus(status.id);
    await waitUntil((s) => s.phase === 'done', opts.callTimeoutMs ?? 180_000, 'A0012');
    finished = true;
    phase('done', status);
    return status;
  } finally {
    if (!finished) await adapter.cancelRide(status.id).catch(() => undefined);
  }
}

export interface PassOptions extends WaitOptions {
  /** For the door to open (default 60 s): then S0023. */
  unlockTimeoutMs?: number;
}

export interface PassHooks {
  onPhase?(phase: SecurityPhase | 'done', status: DoorPassStatus | null): void;
  /** The door is open: drive the robot through; resolves once it is through. */
  pass(status: DoorPassStatus): Promise<void>;
}

/**
 * Passes a security door through the phases of spec section 4: prep, waiting (the request is checked
 * and the lock releases), unlock (open: the robot drives through), passage (it closes and locks),
 * done. A refusal ends in failure, a door that does not open in timeout; both throw the code.
 */
export async function passSecurityDoor(
  adapter: BuildingSystemsAdapter,
  req: DoorPassRequest,
  hooks: PassHooks,
  opts: PassOptions = {},
): Promise<DoorPassStatus> {
  const pollMs = opts.pollMs ?? 250;
  const phase = (p: SecurityPhase | 'done', s: DoorPassStatus | null) => hooks.onPhase?.(p, s);
  const failed = (s: DoorPassStatus) => s.phase === 'failure' || s.phase === 'timeout';
  const fail = (code: SecurityCode, message: string) => new BuildingSystemError(code, message);

  phase('prep', null);
  let status = await adapter.requestDoor(req);
  let finished = false;
  try {
    const waitUntil = async (done: (s: DoorPassStatus) => boolean, ms: number, timeoutCode: SecurityCode) => {
      const end = Date.now() + ms;
      for (;;) {
        if (failed(status)) {
          phase(status.phase, status);
          throw fail(status.code ?? 'S2201', `the passage ended in ${status.phase} (${status.code})`);
        }
        if (done(status)) return;
        if (Date.now() > end) throw fail(timeoutCode, `the door did not open within ${ms} ms`);
        await sleep(pollMs, opts.signal);
        status = await adapter.passStatus(status.id);
      }
    };
    phase('waiting', status);
    await waitUntil((s) => s.phase === 'unlock' && s.open, opts.unlockTimeoutMs ?? 60_000, 'S0023');
    phase('unlock', status);
    await hooks.pass(status);
    if (!(await adapter.passed(status.id))) throw fail('S2302', 'the door closed while the robot was passing');
    phase('passage', status);
    status = await adapter.passStatus(status.id);
    await waitUntil((s) => s.phase === 'done', opts.unlockTimeoutMs ?? 60_000, 'S2401');
    finished = true;
    phase('done', status);
    return status;
  } finally {
    if (!finished) await adapter.cancelPass(status.id).catch(() => undefined);
  }
}
