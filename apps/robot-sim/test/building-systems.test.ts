import { afterEach, describe, expect, it } from 'vitest';
import { doorPassStatusSchema, elevatorRideStatusSchema, type ElevatorRideStatus } from '@portal/contract';
import {
  ElevatorBank,
  ManualClock,
  SecurityDoor,
  startBuildingSystems,
  type ElevatorTimings,
  type SimBuildingSystems,
} from '../src/index.ts';

const T: ElevatorTimings = { doorMs: 2_000, perFloorMs: 1_000, holdMs: 10_000 };

/** Steps a bank's clock by 100 ms until `done` holds (or fails after `max` ms), answering the time taken. */
function runUntil(tick: (now: number) => void, done: () => boolean, start: number, max = 120_000): number {
  let now = start;
  while (!done()) {
    now += 100;
    if (now - start > max) throw new Error('not reached in time');
    tick(now);
  }
  return now;
}

describe('elevator bank', () => {
  it('rides from one floor to another through call, boarding, movement and disembarking, in realistic time', () => {
    // One car waiting on 1F; the robot calls it from 3F to 5F.
    const bank = new ElevatorBank('A', [0, 1, 2, 3, 4, 5], 1, T);
    const ride = bank.call(3, 5, 'robot-1');
    expect(ride).toMatchObject({ phase: 'call', code: null, doorsOpen: false });
    const seen: ElevatorRideStatus['phase'][] = ['call'];
    const watch = (now: number) => {
      bank.tick(now);
      const p = bank.status(ride.id)!.phase;
      if (seen.at(-1) !== p) seen.push(p);
    };
    // Two floors up (2 s) and the doors open (2 s): boarding, doors open, the car on 3F.
    let now = runUntil(watch, () => bank.status(ride.id)!.phase === 'boarding', 0);
    expect(now).toBe(4_000);
    expect(bank.status(ride.id)).toMatchObject({ carFloor: 3, doorsOpen: true });
    // Alighting is refused while boarding; boarding is accepted once.
    expect(bank.alighted(ride.id)).toBe(false);
    expect(bank.boarded(ride.id)).toBe(true);
    expect(bank.boarded(ride.id)).toBe(false);
    // Doors close (2 s), two floors (2 s), doors open (2 s).
    const boardedAt = now;
    now = runUntil(watch, () => bank.status(ride.id)!.phase === 'disembarking', now);
    expect(now - boardedAt).toBe(6_000);
    expect(bank.status(ride.id)).toMatchObject({ carFloor: 5, doorsOpen: true });
    expect(bank.alighted(ride.id)).toBe(true);
    runUntil(watch, () => bank.status(ride.id)!.phase === 'done', now);
    expect(seen).toEqual(['call', 'boarding', 'movement', 'disembarking', 'done']);
    expect(bank.status(ride.id)).toMatchObject({ code: null, doorsOpen: false });
  });

  it('gives up a robot that does not board in time (A0006), and serves the next call with the freed car', () => {
    const bank = new ElevatorBank('A', [1, 2], 1, T);
    const first = bank.call(1, 2, 'robot-1');
    const second = bank.call(1, 2, 'robot-2');
    // The second waits for the only car.
    runUntil(
      (n) => bank.tick(n),
      () => bank.status(first.id)!.phase === 'boarding',
      0,
    );
    expect(bank.status(second.id)).toMatchObject({ phase: 'call', car: null });
    const now = runUntil(
      (n) => bank.tick(n),
      () => bank.status(first.id)!.phase === 'failed',
      0,
    );
    expect(bank.status(first.id)!.code).toBe('A0006');
    runUntil(
      (n) => bank.tick(n),
      () => bank.status(second.id)!.phase === 'boarding',
      now,
    );
    expect(bank.status(second.id)!.car).toBe('A-1');
  });

  it('refuses floors it does not serve (A0017) and calls while out of service (A0014)', () => {
    const bank = new ElevatorBank('A', [1, 2, 3], 1, T);
    expect(bank.call(1, 9, 'r')).toMatchObject({ phase: 'failed', code: 'A0017' });
    expect(bank.call(2, 2, 'r')).toMatchObject({ phase: 'failed', code: 'A0017' });
    bank.outOfService = true;
    expect(bank.call(1, 3, 'r')).toMatchObject({ phase: 'failed', code: 'A0014' });
  });

  it('faults: a full car (A0004), doors that do not open (A0005), an emergency stop held until cleared (A0013)', () => {
    const full = new ElevatorBank('F', [1, 2], 1, T, { carFull: 1, doorTimeout: 0, emergencyStop: 0 });
    const r1 = full.call(1, 2, 'r');
    runUntil(
      (n) => full.tick(n),
      () => full.status(r1.id)!.phase === 'failed',
      0,
    );
    expect(full.status(r1.id)!.code).toBe('A0004');
    expect(full.boarded(r1.id)).toBe(false);

    const stuck = new ElevatorBank('D', [1, 2], 1, T, { carFull: 0, doorTimeout: 1, emergencyStop: 0 });
    const r2 = stuck.call(2, 1, 'r');
    runUntil(
      (n) => stuck.tick(n),
      () => stuck.status(r2.id)!.phase === 'failed',
      0,
    );
    expect(stuck.status(r2.id)).toMatchObject({ code: 'A0005', doorsOpen: false });

    const emergency = new ElevatorBank('E', [1, 2, 3, 4, 5], 1, T, { carFull: 0, doorTimeout: 0, emergencyStop: 1 });
    const r3 = emergency.call(1, 5, 'r');
    let now = runUntil(
      (n) => emergency.tick(n),
      () => emergency.status(r3.id)!.phase === 'boarding',
      0,
    );
    emergency.boarded(r3.id);
    now = runUntil(
      (n) => emergency.tick(n),
      () => emergency.status(r3.id)!.phase === 'emergency',
      now,
    );
    expect(emergency.status(r3.id)).toMatchObject({ code: 'A0013', carFloor: 3, doorsOpen: false });
    // It stays there until the building clears it.
    for (let i = 0; i < 100; i++) emergency.tick((now += 1_000));
    expect(emergency.status(r3.id)!.phase).toBe('emergency');
    expect(emergency.clearEmergency(r3.id)).toBe(true);
    runUntil(
      (n) => emergency.tick(n),
      () => emergency.status(r3.id)!.phase === 'disembarking',
      now,
    );
    expect(emergency.status(r3.id)).toMatchObject({ code: null, carFloor: 5 });
  });

  it('cancels a ride (A0018) and frees its car', () => {
    const bank = new ElevatorBank('A', [1, 2], 1, T);
    const r = bank.call(2, 1, 'r');
    expect(bank.cancel(r.id)).toBe(true);
    expect(bank.status(r.id)).toMatchObject({ phase: 'failed', code: 'A0018' });
    expect(bank.cancel(r.id)).toBe(false);
    const next = bank.call(2, 1, 'r');
    runUntil(
      (n) => bank.tick(n),
      () => bank.status(next.id)!.phase === 'boarding',
      0,
    );
  });
});

describe('security door', () => {
  const timings = { unlockMs: 1_000, passMs: 5_000, lockMs: 1_000 };

  it('unlocks, lets the robot pass and locks again; one passage at a time', () => {
    const door = new SecurityDoor('D1', timings);
    const a = door.request('robot-1');
    const b = door.request('robot-2');
    expect(a).toMatchObject({ phase: 'waiting', open: false });
    let now = runUntil(
      (n) => door.tick(n),
      () => door.status(a.id)!.phase === 'unlock',
      0,
    );
    expect(now).toBe(1_000);
    expect(door.status(a.id)!.open).toBe(true);
    expect(door.status(b.id)).toMatchObject({ phase: 'waiting', open: false });
    expect(door.passed(b.id)).toBe(false);
    expect(door.passed(a.id)).toBe(true);
    expect(door.status(a.id)!.phase).toBe('passage');
    now = runUntil(
      (n) => door.tick(n),
      () => door.status(a.id)!.phase === 'done',
      now,
    );
    runUntil(
      (n) => door.tick(n),
      () => door.status(b.id)!.phase === 'unlock',
      now,
    );
  });

  it('refused (S2201), a lock that does not release (S0023), a robot that does not pass (S2301), a broken door (S2401)', () => {
    const refusing = new SecurityDoor('D', timings, { refuse: 1, unlockTimeout: 0 });
    expect(refusing.request('r')).toMatchObject({ phase: 'failure', code: 'S2201' });

    const slow = new SecurityDoor('D', timings, { refuse: 0, unlockTimeout: 1 });
    const s = slow.request('r');
    runUntil(
      (n) => slow.tick(n),
      () => slow.status(s.id)!.phase !== 'waiting',
      0,
    );
    expect(slow.status(s.id)).toMatchObject({ phase: 'timeout', code: 'S0023' });

    const door = new SecurityDoor('D', timings);
    const p = door.request('r');
    runUntil(
      (n) => door.tick(n),
      () => door.status(p.id)!.phase === 'timeout',
      0,
    );
    expect(door.status(p.id)).toMatchObject({ code: 'S2301', open: false });

    door.broken = true;
    expect(door.request('r')).toMatchObject({ phase: 'failure', code: 'S2401' });
  });
});

describe('building systems HTTP API', () => {
  let sys: SimBuildingSystems | null = null;
  afterEach(async () => {
    await sys?.close();
    sys = null;
  });

  it('serves rides and passages over HTTP on its clock, checks the token and the requests', async () => {
    const clock = new ManualClock();
    sys = await startBuildingSystems({
      banks: [{ id: 'main', floors: [1, 2, 3], cars: 1 }],
      doors: ['gate-1'],
      elevatorTimings: T,
      doorTimings: timingsForHttp,
      token: 'secret',
      clock,
    });
    const call = async (method: string, path: string, body?: unknown, token = 'secret') => {
      const res = await fetch(`${sys!.url}${path}`, {
        method,
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
      });
      return { status: res.status, json: (await res.json()) as unknown };
    };
    expect((await call('GET', '/health', undefined, 'wrong')).status).toBe(401);
    expect((await call('GET', '/health')).json).toMatchObject({
      banks: [{ id: 'main', floors: [1, 2, 3] }],
      doors: ['gate-1'],
    });
    expect((await call('POST', '/elevator-calls', { bank: 'main', from: 1, to: 'x', rider: 'r' })).status).toBe(400);
    expect((await call('POST', '/elevator-calls', '{not json')).status).toBe(400);
    expect((await call('POST', '/elevator-calls', { bank: 'other', from: 1, to: 2, rider: 'r' })).status).toBe(404);

    const created = await call('POST', '/elevator-calls', { bank: 'main', from: 1, to: 3, rider: 'ugo-1' });
    expect(created.status).toBe(201);
    const ride = elevatorRideStatusSchema.parse(created.json);
    // Not boarding yet: the car's doors are still opening.
    expect((await call('POST', `/elevator-calls/${ride.id}/boarded`)).status).toBe(409);
    clock.advance(T.doorMs + 100);
    expect(elevatorRideStatusSchema.parse((await call('GET', `/elevator-calls/${ride.id}`)).json).phase).toBe(
      'boarding',
    );
    expect((await call('POST', `/elevator-calls/${ride.id}/boarded`)).status).toBe(200);
    clock.advance(T.doorMs + 2 * T.perFloorMs + T.doorMs + 100);
    expect(elevatorRideStatusSchema.parse((await call('GET', `/elevator-calls/${ride.id}`)).json)).toMatchObject({
      phase: 'disembarking',
      carFloor: 3,
      doorsOpen: true,
    });
    expect((await call('POST', `/elevator-calls/${ride.id}/alighted`)).status).toBe(200);
    clock.advance(T.doorMs + 100);
    expect(elevatorRideStatusSchema.parse((await call('GET', `/elevator-calls/${ride.id}`)).json).phase).toBe('done');
    expect((await call('GET', '/elevator-calls/nope')).status).toBe(404);

    const pass = doorPassStatusSchema.parse(
      (await call('POST', '/door-passes', { door: 'gate-1', rider: 'ugo-1' })).json,
    );
    clock.advance(timingsForHttp.unlockMs + 100);
    expect(doorPassStatusSchema.parse((await call('GET', `/door-passes/${pass.id}`)).json)).toMatchObject({
      phase: 'unlock',
      open: true,
    });
    expect((await call('POST', `/door-passes/${pass.id}/passed`)).status).toBe(200);
    clock.advance(timingsForHttp.lockMs + 100);
    expect(doorPassStatusSchema.parse((await call('GET', `/door-passes/${pass.id}`)).json).phase).toBe('done');
  });
});

const timingsForHttp = { unlockMs: 1_000, passMs: 5_000, lockMs: 1_000 };
