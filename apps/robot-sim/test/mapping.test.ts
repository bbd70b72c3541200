import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  MAPPING_RESOLUTION,
  mappingMessageSchema,
  OCCUPANCY,
  stateSchema,
  type MappingMessage,
  type VdaState,
} from '@portal/contract';
import {
  createWorld,
  generateWorld,
  MAPPING_PUBLISH_MS,
  rasterize,
  SCAN_MAX_GAP_MS,
  SENSOR_RANGE,
  startRobot,
  worldFor,
  type RobotOptions,
  type SimRobot,
  type World,
} from '../src/index.ts';
import { advanceUntil, flush, header, lineOrder, manualTime, Master, startBroker, type Received } from './helpers.ts';

let broker: { url: string; close: () => Promise<void> };
let master: Master;
const robots: SimRobot[] = [];
let serialNo = 0;

beforeAll(async () => {
  broker = await startBroker();
  master = await Master.connect(broker.url);
});

afterAll(async () => {
  await master.close();
  await broker.close();
});

afterEach(async () => {
  await Promise.all(robots.splice(0).map((r) => r.stop()));
});

async function robot(opts: Partial<RobotOptions> = {}): Promise<SimRobot> {
  const r = await startRobot({
    brokerUrl: broker.url,
    username: 'robot',
    password: 'secret',
    manufacturer: 'sim',
    serialNumber: `M${++serialNo}`,
    model: 'pro',
    mapId: 'floor-1',
    speedScale: 10,
    visualizationHz: 0,
    ...opts,
  });
  robots.push(r);
  return r;
}

type Param = { key: string; value: string | number | boolean };
let actionNo = 0;
/** Sends one instant action (with parameters) and returns its actionId. */
async function act(r: SimRobot, actionType: string, params: Param[] = []): Promise<string> {
  const actionId = `${actionType}-${++actionNo}`;
  await master.send('sim', r.serialNumber, 'instantActions', {
    ...header(r.serialNumber),
    actions: [{ actionType, actionId, blockingType: 'NONE', actionParameters: params }],
  });
  return actionId;
}

const statusOf = (s: VdaState, actionId: string) => s.actionStates.find((a) => a.actionId === actionId);

/** The first state message of a robot (past or future) that satisfies the predicate. */
const stateWhere = async (r: SimRobot, pred: (s: VdaState) => boolean): Promise<VdaState> =>
  (
    await master.waitFor(
      (m) => m.kind === 'state' && m.topic.includes(`/${r.serialNumber}/`) && pred(m.msg as VdaState),
    )
  ).msg as VdaState;

/** The state message answering an instant action (the robot publishes it at once). */
const answered = (r: SimRobot, actionId: string) => stateWhere(r, (s) => statusOf(s, actionId) !== undefined);

/** Mapping messages of a robot received from index `from` on. */
const mappingFrom = (r: SimRobot, from = 0): Received[] =>
  master.received
    .slice(from)
    .filter((m) => m.kind === 'mapping' && m.topic === `uagv/v2/sim/${r.serialNumber}/mapping`);

/** The next mapping message of a robot (after index `from`) that matches. */
function nextMapping(r: SimRobot, from: number, pred: (m: MappingMessage) => boolean = () => true, timeoutMs = 10_000) {
  return master
    .waitFor(
      (m) =>
        master.received.indexOf(m) >= from &&
        m.kind === 'mapping' &&
        m.topic === `uagv/v2/sim/${r.serialNumber}/mapping` &&
        pred(m.msg as MappingMessage),
      timeoutMs,
    )
    .then((m) => mappingMessageSchema.parse(m.msg));
}

const decode = (m: MappingMessage): Uint8Array => new Uint8Array(Buffer.from(m.cells, 'base64'));
const countKnown = (cells: Uint8Array): number => cells.reduce((n, c) => n + (c === OCCUPANCY.unknown ? 0 : 1), 0);
/** Index of the cell containing map point (x, y). */
const cellAt = (m: MappingMessage, x: number, y: number): number =>
  Math.floor((y - m.originY) / m.resolution) * m.width + Math.floor((x - m.originX) / m.resolution);

/** Every known cell equals the ground truth; returns the free and occupied counts. */
function expectAgreesWithTruth(m: MappingMessage, world: World): { free: number; occupied: number } {
  const truth = rasterize(world, m.resolution);
  expect([m.width, m.height, m.originX, m.originY]).toEqual([truth.width, truth.height, truth.originX, truth.originY]);
  const cells = decode(m);
  expect(cells.length).toBe(m.width * m.height);
  let free = 0;
  let occupied = 0;
  let wrong = 0;
  for (let i = 0; i < cells.length; i++) {
    const c = cells[i]!;
    if (c === OCCUPANCY.unknown) continue;
    if (c !== truth.cells[i]) wrong++;
    else if (c === OCCUPANCY.free) free++;
    else occupied++;
  }
  expect(wrong).toBe(0);
  return { free, occupied };
}

/** Known cells inside the box [x0, x1] × [y0, y1]. */
function knownIn(m: MappingMessage, x0: number, y0: number, x1: number, y1: number): number {
  const cells = decode(m);
  let n = 0;
  for (let y = y0; y <= y1; y += m.resolution) {
    for (let x = x0; x <= x1; x += m.resolution) if (cells[cellAt(m, x, y)] !== OCCUPANCY.unknown) n++;
  }
  return n;
}

describe('the ground-truth world', () => {
  it('is a deterministic floor plan per map id, inside a 40 m × 30 m outer wall', () => {
    const w = worldFor('floor-1');
    expect(worldFor('floor-1')).toBe(w);
    expect(generateWorld('floor-1')).toMatchObject({ walls: w.walls, pillars: w.pillars });
    expect(generateWorld('floor-2').walls).not.toEqual(w.walls);
    expect(w.bounds).toEqual({ x0: -2, y0: -2, x1: 38, y1: 28 });
    expect(w.walls.length).toBeGreaterThan(8);
    expect(w.pillars.length).toBeGreaterThan(0);
    // The outer wall, and open floor where the simulator's robots start.
    expect(w.occupancyAt(-1.9, 5)).toBe(OCCUPANCY.occupied);
    expect(w.occupancyAt(37.9, 5)).toBe(OCCUPANCY.occupied);
    expect(w.occupancyAt(10, -1.9)).toBe(OCCUPANCY.occupied);
    expect(w.occupancyAt(10, 27.9)).toBe(OCCUPANCY.occupied);
    for (let i = 0; i < 30; i++) {
      expect(w.occupancyAt(1 + (i % 10) * 1.5, 1 + Math.floor(i / 10) * 1.5)).toBe(OCCUPANCY.free);
    }
    expect(w.occupancyAt(0, 0)).toBe(OCCUPANCY.free);
  });

  it('rasterizes to a grid where a cell is occupied when a wall or pillar covers part of it', () => {
    const w = worldFor('floor-1');
    const r = rasterize(w, 0.1);
    expect(rasterize(w, 0.1)).toBe(r); // cached
    expect([r.originX, r.originY, r.width, r.height]).toEqual([-2.5, -2.5, 410, 310]);
    let mismatches = 0;
    for (let iy = 0; iy < r.height; iy += 2) {
      for (let ix = 0; ix < r.width; ix += 2) {
        // Sample the cell's inside on a 5 × 5 grid (edges excluded).
        let covered = false;
        for (let k = 0; k < 25 && !covered; k++) {
          const x = r.originX + (ix + 0.1 + 0.2 * (k % 5)) * 0.1;
          const y = r.originY + (iy + 0.1 + 0.2 * Math.floor(k / 5)) * 0.1;
          covered = w.occupancyAt(x, y) === OCCUPANCY.occupied;
        }
        if (covered !== (r.cells[iy * r.width + ix] === OCCUPANCY.occupied)) mismatches++;
      }
    }
    expect(mismatches).toBe(0);
    const occupied = r.cells.reduce((n, c) => n + (c === OCCUPANCY.occupied ? 1 : 0), 0);
    expect(occupied).toBeGreaterThan(4 * 400); // at least the outer wall, 2 cells thick
  });
});

describe('map creation', () => {
  it('startMapping: mapping messages with the cells seen from the robot, matching the ground truth', async () => {
    const { clock, ticker } = manualTime();
    const r = await robot({ ticker });
    const from = master.received.length;
    const id = await act(r, 'startMapping', [{ key: 'mapId', value: 'floor-1' }]);
    const st = await answered(r, id);
    expect(statusOf(st, id)?.actionStatus).toBe('RUNNING');
    expect(stateSchema.safeParse(st).success).toBe(true);
    clock.advance(100);
    const m = await nextMapping(r, from);
    expect(m).toMatchObject({
      mapId: 'floor-1',
      state: 'RECORDING',
      resolution: MAPPING_RESOLUTION,
      serialNumber: r.serialNumber,
      manufacturer: 'sim',
      version: '2.1.0',
    });
    const raw = mappingFrom(r, from)[0]!;
    expect(raw.retain).toBe(false);
    const { free, occupied } = expectAgreesWithTruth(m, worldFor('floor-1'));
    expect(free).toBeGreaterThan(1000);
    expect(occupied).toBeGreaterThan(50);
    const cells = decode(m);
    expect(cells[cellAt(m, 0, 0)]).toBe(OCCUPANCY.free); // where it stands
    // The outer wall's face (x, y from -2 to -1.8), 1.8 m to the left and below; not its back.
    expect(cells[cellAt(m, -1.825, 0)]).toBe(OCCUPANCY.occupied);
    expect(cells[cellAt(m, 0, -1.825)]).toBe(OCCUPANCY.occupied);
    expect(cells[cellAt(m, -1.975, 0)]).toBe(OCCUPANCY.unknown);
    expect(cells[cellAt(m, 1, 0)]).toBe(OCCUPANCY.free);
    expect(cells[cellAt(m, -2.3, 0)]).toBe(OCCUPANCY.unknown); // behind the wall
    expect(cells[cellAt(m, SENSOR_RANGE + 1, 0)]).toBe(OCCUPANCY.unknown); // out of range
    expect(r.mappingState()).toMatchObject({ mapId: 'floor-1', state: 'RECORDING', resolution: MAPPING_RESOLUTION });
    expect(r.mappingState()!.knownCells).toBe(countKnown(cells));
    // Standing still, nothing new: no further message.
    clock.advance(3 * MAPPING_PUBLISH_MS);
    await flush(master, r);
    expect(mappingFrom(r, from)).toHaveLength(1);
  });

  it('driving an order reveals more, at most one message per 2 s, and states stay valid VDA 5050', async () => {
    const { clock, ticker } = manualTime();
    const r = await robot({ ticker });
    const from = master.received.length;
    const id = await act(r, 'startMapping', [
      { key: 'mapId', value: 'floor-1' },
      { key: 'resolution', value: 0.1 },
    ]);
    await answered(r, id);
    clock.advance(100);
    const first = await nextMapping(r, from);
    expect(first.resolution).toBe(0.1);
    expect(knownIn(first, 15, 0, 20, 5)).toBe(0);

    await master.send(
      'sim',
      r.serialNumber,
      'order',
      lineOrder(r.serialNumber, 'map-o1', [
        [0, 0],
        [12, 0],
        [12, 5],
      ]),
    );
    // The running startMapping survives the order's acceptance.
    const accepted = await stateWhere(r, (s) => s.orderId === 'map-o1');
    expect(statusOf(accepted, id)?.actionStatus).toBe('RUNNING');
    advanceUntil(clock, r, (s) => s.lastNodeId === 'n3' && !s.driving);
    // The last scan (the robot moved less than 0.2 m since the one before), then its message.
    clock.advance(SCAN_MAX_GAP_MS + MAPPING_PUBLISH_MS);
    const done = r.mappingState()!.knownCells;
    const last = await nextMapping(r, from, (m) => countKnown(decode(m)) === done);
    expect(countKnown(decode(last))).toBeGreaterThan(countKnown(decode(first)));
    expect(knownIn(last, 15, 0, 20, 5)).toBeGreaterThan(100);
    expectAgreesWithTruth(last, worldFor('floor-1'));

    const msgs = mappingFrom(r, from);
    expect(msgs.length).toBeGreaterThanOrEqual(2);
    // Timestamps are the robot's clock time (advanced by hand).
    const times = msgs.map((m) => Date.parse(String(m.msg.timestamp)));
    for (let i = 1; i < times.length; i++) expect(times[i]! - times[i - 1]!).toBeGreaterThanOrEqual(MAPPING_PUBLISH_MS);
    expect(msgs.map((m) => (m.msg as MappingMessage).state).every((s) => s === 'RECORDING')).toBe(true);

    const states = master.received
      .slice(from)
      .filter((m) => m.kind === 'state' && m.topic.includes(`/${r.serialNumber}/`))
      .map((m) => m.msg as VdaState);
    expect(states.some((s) => s.driving && statusOf(s, id)?.actionStatus === 'RUNNING')).toBe(true);
    for (const s of states) expect(stateSchema.safeParse(s).success).toBe(true);
  });

  it('pauseMapping stops the growth (one PAUSED message); resumeMapping resumes it; stopMapping save false cancels', async () => {
    const { clock, ticker } = manualTime();
    const r = await robot({ ticker });
    let from = master.received.length;
    const id = await act(r, 'startMapping', [
      { key: 'mapId', value: 'floor-1' },
      { key: 'resolution', value: 0.1 },
    ]);
    await answered(r, id);
    clock.advance(100);
    await nextMapping(r, from);
    from = master.received.length;
    const pauseId = await act(r, 'pauseMapping');
    const paused = await nextMapping(r, from);
    expect(paused.state).toBe('PAUSED');
    const pausedState = await answered(r, pauseId);
    expect(statusOf(pausedState, pauseId)?.actionStatus).toBe('FINISHED');
    expect(statusOf(pausedState, id)?.actionStatus).toBe('RUNNING');
    const known = r.mappingState()!.knownCells;
    expect(r.mappingState()!.state).toBe('PAUSED');

    await master.send(
      'sim',
      r.serialNumber,
      'order',
      lineOrder(r.serialNumber, 'map-o2', [
        [0, 0],
        [10, 0],
      ]),
    );
    await stateWhere(r, (s) => s.orderId === 'map-o2');
    advanceUntil(clock, r, (s) => s.lastNodeId === 'n2' && !s.driving);
    clock.advance(SCAN_MAX_GAP_MS + MAPPING_PUBLISH_MS);
    await flush(master, r);
    expect(r.mappingState()!.knownCells).toBe(known);
    expect(mappingFrom(r, from)).toHaveLength(1); // only the PAUSED one

    from = master.received.length;
    await act(r, 'resumeMapping');
    const resumed = await nextMapping(r, from);
    expect(resumed.state).toBe('RECORDING');
    await master.send(
      'sim',
      r.serialNumber,
      'order',
      lineOrder(r.serialNumber, 'map-o3', [
        [10, 0],
        [10, 4],
      ]),
    );
    await stateWhere(r, (s) => s.orderId === 'map-o3');
    advanceUntil(clock, r, (s) => s.lastNodeId === 'n2' && !s.driving);
    expect(r.mappingState()!.knownCells).toBeGreaterThan(known);

    from = master.received.length;
    await act(r, 'stopMapping', [{ key: 'save', value: false }]);
    const final = await nextMapping(r, from);
    expect(final.state).toBe('CANCELLED');
    const s = await stateWhere(r, (st) => statusOf(st, id)?.actionStatus === 'FINISHED');
    expect(stateSchema.safeParse(s).success).toBe(true);
    expect(r.mappingState()).toBeNull();
  });

  it('stopMapping save true: a final FINISHED message, startMapping FINISHED, the grid dropped', async () => {
    const { clock, ticker } = manualTime();
    const r = await robot({ start: { x: 5, y: 3, theta: 0 }, ticker });
    let from = master.received.length;
    const id = await act(r, 'startMapping', [{ key: 'mapId', value: 'floor-1' }]);
    await answered(r, id);
    clock.advance(100);
    const m = await nextMapping(r, from);
    from = master.received.length;
    const stopId = await act(r, 'stopMapping', [{ key: 'save', value: true }]);
    const final = await nextMapping(r, from);
    expect(final.state).toBe('FINISHED');
    expect(final.headerId).toBe(m.headerId + 1);
    expect(countKnown(decode(final))).toBe(countKnown(decode(m)));
    expectAgreesWithTruth(final, worldFor('floor-1'));
    const s = await stateWhere(
      r,
      (st) => statusOf(st, id)?.actionStatus === 'FINISHED' && statusOf(st, stopId)?.actionStatus === 'FINISHED',
    );
    expect(stateSchema.safeParse(s).success).toBe(true);
    expect(r.mappingState()).toBeNull();
    expect(r.mappingGrid()).toBeNull();
    clock.advance(3 * MAPPING_PUBLISH_MS);
    await flush(master, r);
    expect(mappingFrom(r, from)).toHaveLength(1);
  });

  it('fails a startMapping for another map, a bad resolution, a second start, and mapping actions while not mapping', async () => {
    const { clock, ticker } = manualTime();
    const r = await robot({ ticker });
    const from = master.received.length;
    const wrong = await act(r, 'startMapping', [{ key: 'mapId', value: 'floor-2' }]);
    const noMap = await act(r, 'startMapping');
    const badRes = await act(r, 'startMapping', [
      { key: 'mapId', value: 'floor-1' },
      { key: 'resolution', value: 5 },
    ]);
    const pause = await act(r, 'pauseMapping');
    const resume = await act(r, 'resumeMapping');
    const stop = await act(r, 'stopMapping', [{ key: 'save', value: true }]);
    const s = await answered(r, stop);
    for (const a of [wrong, noMap, badRes, pause, resume, stop]) {
      expect(statusOf(s, a)?.actionStatus, a).toBe('FAILED');
      expect(statusOf(s, a)?.resultDescription, a).toBeTruthy();
    }
    expect(statusOf(s, wrong)?.resultDescription).toContain('floor-1');
    expect(stateSchema.safeParse(s).success).toBe(true);
    expect(r.mappingState()).toBeNull();

    // One session at a time.
    const ok = await act(r, 'startMapping', [{ key: 'mapId', value: 'floor-1' }]);
    const again = await act(r, 'startMapping', [{ key: 'mapId', value: 'floor-1' }]);
    const s2 = await answered(r, again);
    expect(statusOf(s2, ok)?.actionStatus).toBe('RUNNING');
    expect(statusOf(s2, again)?.actionStatus).toBe('FAILED');
    clock.advance(3 * MAPPING_PUBLISH_MS);
    await flush(master, r);
    expect(mappingFrom(r, from).length).toBeGreaterThan(0);
    expect(mappingFrom(r, from).every((m) => (m.msg as MappingMessage).mapId === 'floor-1')).toBe(true);
  });

  it('maps a world given in the options: a small room is seen whole', async () => {
    const T = 0.2;
    const room = createWorld('floor-1', { x0: 0, y0: 0, x1: 6, y1: 4 }, [
      { x0: 0, y0: 0, x1: 6, y1: T },
      { x0: 0, y0: 4 - T, x1: 6, y1: 4 },
      { x0: 0, y0: 0, x1: T, y1: 4 },
      { x0: 6 - T, y0: 0, x1: 6, y1: 4 },
    ]);
    const r = await robot({ world: room, start: { x: 3, y: 2, theta: 0 } });
    const from = master.received.length;
    await act(r, 'startMapping', [
      { key: 'mapId', value: 'floor-1' },
      { key: 'resolution', value: 0.1 },
    ]);
    const m = await nextMapping(r, from);
    expect([m.originX, m.originY, m.width, m.height]).toEqual([-0.5, -0.5, 70, 50]);
    expectAgreesWithTruth(m, room);
    const cells = decode(m);
    // Nearly the whole floor inside the walls is free and known; the walls' faces; nothing behind.
    expect(knownIn(m, 0.25, 0.25, 5.75, 3.75)).toBeGreaterThan(0.9 * 55 * 35);
    expect(knownIn(m, -0.45, -0.45, -0.05, 4.4)).toBe(0);
    for (const [x, y] of [
      [3, 0.15],
      [3, 3.85],
      [0.15, 2],
      [5.85, 2],
    ] as const) {
      expect(cells[cellAt(m, x, y)]).toBe(OCCUPANCY.occupied);
    }
    expect(cells[cellAt(m, 3, 0.05)]).toBe(OCCUPANCY.unknown);
  });
});
