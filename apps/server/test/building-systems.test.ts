import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startBuildingSystems, type SimBuildingSystems } from '@portal/robot-sim';
import { createOutbound } from '../src/lib/outbound.ts';
import { BuildingSystemError } from '../src/modules/building-systems/adapter.ts';
import { httpBuildingSystems } from '../src/modules/building-systems/http-adapter.ts';
import { buildingSystemsFor } from '../src/modules/building-systems/registry.ts';
import { passSecurityDoor, rideElevator } from '../src/modules/building-systems/ride.ts';
import { createTestApp, type TestApp } from './helpers.ts';

/**
 * The elevator and door adapter against the simulated building's controller over real HTTP: the
 * phases of a ride and a passage, the codes of its faults, and the ride cancelled at the building
 * whenever the portal gives up on it.
 */
// Phases last long enough for a 10 ms poll to see each one even on a loaded machine.
const FAST = { doorMs: 60, perFloorMs: 200, holdMs: 5_000 };
const FAST_DOOR = { unlockMs: 60, passMs: 2_000, lockMs: 60 };
// The simulated controller listens on loopback: admitted as an on-premise host would be.
const outbound = createOutbound({ allow: ['127.0.0.1'], protocols: ['http:', 'https:'], timeoutMs: 2_000 });

let sys: SimBuildingSystems | null = null;
const start = async (extra: Partial<Parameters<typeof startBuildingSystems>[0]> = {}) => {
  sys = await startBuildingSystems({
    banks: [{ id: 'main', floors: [1, 2, 3, 4], cars: 1 }],
    doors: ['gate-1'],
    elevatorTimings: FAST,
    doorTimings: FAST_DOOR,
    ...extra,
  });
  return httpBuildingSystems({ baseUrl: sys.url, outbound });
};
afterEach(async () => {
  await sys?.close();
  sys = null;
});

const codeOf = async (p: Promise<unknown>) => {
  try {
    await p;
  } catch (err) {
    if (err instanceof BuildingSystemError) return err.code;
    throw err;
  }
  return null;
};

describe('elevator rides', () => {
  it('goes through prep, call, boarding, movement, disembarking and done, moving the robot at the right moments', async () => {
    const adapter = await start();
    const events: string[] = [];
    const done = await rideElevator(
      adapter,
      { bank: 'main', from: 1, to: 3, rider: 'ugo-1' },
      {
        onPhase: (p) => events.push(p),
        board: async (s) => {
          events.push(`board@${s.carFloor}:${s.doorsOpen}`);
        },
        alight: async (s) => {
          events.push(`alight@${s.carFloor}:${s.doorsOpen}`);
        },
      },
      { pollMs: 10 },
    );
    expect(done).toMatchObject({ phase: 'done', code: null, carFloor: 3 });
    expect(events).toEqual([
      'prep',
      'call',
      'boarding',
      'board@1:true',
      'movement',
      'disembarking',
      'alight@3:true',
      'done',
    ]);
  });

  it('waits out an emergency stop (phase emergency) until the building clears it', async () => {
    // A long way to the stop, so the movement before it is seen however loaded the machine is.
    const adapter = await start({
      elevatorTimings: { ...FAST, perFloorMs: 500 },
      elevatorFaults: { carFull: 0, doorTimeout: 0, emergencyStop: 1 },
    });
    const bank = sys!.banks.get('main')!;
    const events: string[] = [];
    await rideElevator(
      adapter,
      { bank: 'main', from: 1, to: 4, rider: 'ugo-1' },
      {
        onPhase: (p, s) => {
          events.push(p);
          // The building clears the stop once the portal has seen it.
          if (p === 'emergency') expect(bank.clearEmergency(s!.id)).toBe(true);
        },
        board: async () => undefined,
        alight: async () => undefined,
      },
      { pollMs: 10 },
    );
    expect(events).toEqual(['prep', 'call', 'boarding', 'movement', 'emergency', 'movement', 'disembarking', 'done']);
  });

  it('fails with the code of the fault and leaves no car waiting', async () => {
    let adapter = await start({ elevatorFaults: { carFull: 1, doorTimeout: 0, emergencyStop: 0 } });
    const noMove = { board: async () => undefined, alight: async () => undefined };
    expect(
      await codeOf(rideElevator(adapter, { bank: 'main', from: 1, to: 2, rider: 'r' }, noMove, { pollMs: 10 })),
    ).toBe('A0004');
    await sys!.close();

    adapter = await start({ elevatorFaults: { carFull: 0, doorTimeout: 1, emergencyStop: 0 } });
    expect(
      await codeOf(rideElevator(adapter, { bank: 'main', from: 2, to: 1, rider: 'r' }, noMove, { pollMs: 10 })),
    ).toBe('A0005');
    // A floor the bank does not serve.
    expect(
      await codeOf(rideElevator(adapter, { bank: 'main', from: 1, to: 9, rider: 'r' }, noMove, { pollMs: 10 })),
    ).toBe('A0017');
    await sys!.close();

    // The robot cannot get in: the ride is cancelled at the building (A0018 there), the car is free for the next.
    adapter = await start();
    const failing = {
      board: async () => {
        throw new Error('robot blocked');
      },
      alight: async () => undefined,
    };
    await expect(
      rideElevator(adapter, { bank: 'main', from: 1, to: 2, rider: 'r' }, failing, { pollMs: 10 }),
    ).rejects.toThrow('robot blocked');
    expect(sys!.banks.get('main')!.status('main-ride-1')).toMatchObject({ phase: 'failed', code: 'A0018' });
    const next = await rideElevator(adapter, { bank: 'main', from: 1, to: 2, rider: 'r' }, noMove, { pollMs: 10 });
    expect(next.phase).toBe('done');
  });

  it('cancels the ride at the building when the run is aborted', async () => {
    const adapter = await start({ elevatorTimings: { ...FAST, perFloorMs: 5_000 } });
    const abort = new AbortController();
    const ride = rideElevator(
      adapter,
      { bank: 'main', from: 4, to: 1, rider: 'r' },
      { board: async () => undefined, alight: async () => undefined },
      { pollMs: 10, signal: abort.signal },
    );
    await new Promise((r) => setTimeout(r, 50));
    abort.abort(new Error('flow cancelled'));
    await expect(ride).rejects.toThrow('flow cancelled');
    expect(sys!.banks.get('main')!.status('main-ride-1')).toMatchObject({ phase: 'failed', code: 'A0018' });
  });

  it('says A0001 when the system cannot be reached, A0019 when it is lost during the ride', async () => {
    const adapter = await start();
    const url = sys!.url;
    await sys!.close();
    sys = null;
    const noMove = { board: async () => undefined, alight: async () => undefined };
    expect(await codeOf(rideElevator(adapter, { bank: 'main', from: 1, to: 2, rider: 'r' }, noMove))).toBe('A0001');
    // Loopback without the allow-list: refused before any connection (the outbound address rules).
    const strict = httpBuildingSystems({ baseUrl: url, outbound: createOutbound({ protocols: ['http:'] }) });
    expect(await codeOf(strict.callElevator({ bank: 'main', from: 1, to: 2, rider: 'r' }))).toBe('A0001');

    const live = await start();
    const lost = rideElevator(
      live,
      { bank: 'main', from: 1, to: 2, rider: 'r' },
      {
        board: async () => {
          await sys!.close();
          sys = null;
        },
        alight: async () => undefined,
      },
      { pollMs: 10 },
    );
    expect(await codeOf(lost)).toBe('A0019');
  });
});

describe('security doors', () => {
  it('goes through prep, waiting, unlock, passage and done; a refusal is a failure with S2201', async () => {
    const adapter = await start();
    const events: string[] = [];
    const done = await passSecurityDoor(
      adapter,
      { door: 'gate-1', rider: 'ugo-1' },
      {
        onPhase: (p) => events.push(p),
        pass: async (s) => {
          events.push(`pass:${s.open}`);
        },
      },
      { pollMs: 10 },
    );
    expect(done.phase).toBe('done');
    expect(events).toEqual(['prep', 'waiting', 'unlock', 'pass:true', 'passage', 'done']);
    await sys!.close();

    const refusing = await start({ doorFaults: { refuse: 1, unlockTimeout: 0 } });
    const seen: string[] = [];
    expect(
      await codeOf(
        passSecurityDoor(
          refusing,
          { door: 'gate-1', rider: 'r' },
          { onPhase: (p) => seen.push(p), pass: async () => undefined },
          { pollMs: 10 },
        ),
      ),
    ).toBe('S2201');
    expect(seen).toEqual(['prep', 'waiting', 'failure']);
  });

  it('a door that does not open in time is a timeout with S0023', async () => {
    const adapter = await start({ doorFaults: { refuse: 0, unlockTimeout: 1 } });
    const seen: string[] = [];
    expect(
      await codeOf(
        passSecurityDoor(
          adapter,
          { door: 'gate-1', rider: 'r' },
          { onPhase: (p) => seen.push(p), pass: async () => undefined },
          { pollMs: 10 },
        ),
      ),
    ).toBe('S0023');
    expect(seen.at(-1)).toBe('timeout');
  });
});

describe("a building's adapter", () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => {
    await t?.close();
  });

  it('comes from the building’s system link, and there is none without one', async () => {
    const building = await t.db.kysely
      .selectFrom('buildings')
      .select('id')
      .where('name', '=', 'Demo Tower')
      .executeTakeFirstOrThrow();
    expect(await buildingSystemsFor(t.db.kysely, building.id, outbound)).toBeNull();

    await start();
    const admin = await t.as('orgadmin@demo.example');
    const put = await t.call('PUT', `/buildings/${building.id}/links`, admin.authorization, {
      tSpiderUrl: sys!.url,
      hakaruAiLoginId: '',
    });
    expect(put.statusCode, put.body).toBe(200);
    const adapter = await buildingSystemsFor(t.db.kysely, building.id, outbound);
    expect(adapter?.name).toBe(`http ${sys!.url}`);
    const pass = await passSecurityDoor(
      adapter!,
      { door: 'gate-1', rider: 'r' },
      { pass: async () => undefined },
      { pollMs: 10 },
    );
    expect(pass.phase).toBe('done');
  });
});
