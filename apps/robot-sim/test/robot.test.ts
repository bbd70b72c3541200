import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { connectionSchema, factsheetSchema, stateSchema, visualizationSchema, type VdaState } from '@portal/contract';
import { startFleet, startRobot, type RobotOptions, type SimRobot } from '../src/index.ts';
import { advanceUntil, header, instant, lineOrder, manualTime, Master, startBroker } from './helpers.ts';

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
    serialNumber: `T${++serialNo}`,
    model: 'pro',
    mapId: 'floor-1',
    speedScale: 10,
    visualizationHz: 5,
    ...opts,
  });
  robots.push(r);
  return r;
}

const from = (r: SimRobot, kind: string) => (m: { topic: string; kind: string }) =>
  m.kind === kind && m.topic.includes(`/${r.serialNumber}/`);
const stateOf = (r: SimRobot, pred: (s: VdaState) => boolean) => (m: { topic: string; kind: string; msg: unknown }) =>
  from(r, 'state')(m) && pred(m.msg as VdaState);

describe('connection', () => {
  it('announces itself: connection ONLINE (retained), factsheet, state, visualization', async () => {
    const r = await robot({ model: 'mini', start: { x: 1, y: 2, theta: 0 } });
    expect(r.connected).toBe(true);
    const conn = await master.waitFor(from(r, 'connection'));
    expect(conn.msg).toMatchObject({ connectionState: 'ONLINE', serialNumber: r.serialNumber, version: '2.1.0' });
    expect(connectionSchema.safeParse(conn.msg).success).toBe(true);

    const fs = await master.waitFor(from(r, 'factsheet'));
    expect(factsheetSchema.safeParse(fs.msg).success).toBe(true);
    const f = factsheetSchema.parse(fs.msg);
    expect(f.typeSpecification.seriesName).toBe('ugo mini');
    expect(f.physicalParameters.speedMax).toBe(0.6);
    const actions = f.protocolFeatures.agvActions.map((a) => a.actionType);
    for (const t of ['startPause', 'stopPause', 'cancelOrder', 'factsheetRequest', 'stateRequest', 'mapChanged']) {
      expect(actions).toContain(t);
    }

    const st = await master.waitFor(from(r, 'state'));
    expect(stateSchema.safeParse(st.msg).success).toBe(true);
    expect(st.msg).toMatchObject({
      orderId: '',
      driving: false,
      agvPosition: { x: 1, y: 2, mapId: 'floor-1', positionInitialized: true },
      safetyState: { eStop: 'NONE', fieldViolation: false },
    });
    expect(String(st.msg.timestamp)).toMatch(/Z$/);

    const vis = await master.waitFor(from(r, 'visualization'));
    expect(visualizationSchema.safeParse(vis.msg).success).toBe(true);

    // A late subscriber still learns the connection state and factsheet (retained).
    const late = await Master.connect(broker.url, `uagv/v2/sim/${r.serialNumber}/+`);
    try {
      const c = await late.waitFor((m) => m.kind === 'connection');
      expect(c.retain).toBe(true);
      expect(c.msg.connectionState).toBe('ONLINE');
      await late.waitFor((m) => m.kind === 'factsheet' && m.retain);
    } finally {
      await late.close();
    }
  });

  it('a lost connection makes the broker publish the last will CONNECTIONBROKEN; reconnect is ONLINE again', async () => {
    const r = await robot();
    await master.waitFor((m) => from(r, 'connection')(m) && m.msg.connectionState === 'ONLINE');
    await r.disconnect({ graceful: false });
    expect(r.connected).toBe(false);
    const broken = await master.waitFor(
      (m) => from(r, 'connection')(m) && m.msg.connectionState === 'CONNECTIONBROKEN',
    );
    expect(connectionSchema.safeParse(broken.msg).success).toBe(true);

    const before = master.received.length;
    await r.reconnect();
    expect(r.connected).toBe(true);
    await master.waitFor(
      (m) => master.received.indexOf(m) >= before && from(r, 'connection')(m) && m.msg.connectionState === 'ONLINE',
    );
    await r.disconnect({ graceful: true });
    await master.waitFor((m) => from(r, 'connection')(m) && m.msg.connectionState === 'OFFLINE');
  });

  it('headerIds grow by one per topic', async () => {
    const r = await robot({ visualizationHz: 20 });
    await master.waitFor(() => master.received.filter(from(r, 'visualization')).length >= 4);
    const ids = master.received.filter(from(r, 'visualization')).map((m) => m.msg.headerId as number);
    expect(ids.length).toBeGreaterThan(2);
    ids.forEach((id, i) => i > 0 && expect(id).toBe(ids[i - 1]! + 1));
  });
});

describe('orders', () => {
  it('drives an order of three nodes to completion', async () => {
    const r = await robot();
    const order = lineOrder(r.serialNumber, 'o1', [
      [0, 0],
      [2, 0],
      [2, 1.5],
    ]);
    order.nodes[1]!.actions = [
      {
        actionId: 'a-wait',
        actionType: 'wait',
        blockingType: 'HARD',
        actionParameters: [{ key: 'duration', value: 1 }],
      },
      { actionId: 'a-unknown', actionType: 'danceSamba', blockingType: 'NONE' },
    ];
    await master.send('sim', r.serialNumber, 'order', order);
    const started = await master.waitFor(stateOf(r, (s) => s.orderId === 'o1'));
    expect((started.msg as VdaState).lastNodeId).toBe('n1'); // standing on the first node
    await master.waitFor(stateOf(r, (s) => s.driving));
    const done = await r.waitFor((s) => s.lastNodeId === 'n3' && s.nodeStates.length === 0 && !s.driving, 15_000);
    expect(done.edgeStates).toEqual([]);
    expect(done.lastNodeSequenceId).toBe(4);
    expect(done.agvPosition).toMatchObject({ x: 2, y: 1.5, mapId: 'floor-1' });
    const byId = Object.fromEntries(done.actionStates.map((a) => [a.actionId, a]));
    expect(byId['a-wait']?.actionStatus).toBe('FINISHED');
    expect(byId['a-unknown']?.actionStatus).toBe('FAILED');
    expect(byId['a-unknown']?.resultDescription).toMatch(/danceSamba/);

    // Master control saw the progress: node by node, with the traversed ones removed.
    const states = master.received.filter(from(r, 'state')).map((m) => m.msg as VdaState);
    expect(states.some((s) => s.lastNodeId === 'n2' && s.nodeStates.map((n) => n.nodeId).join() === 'n3')).toBe(true);
    expect(
      states.some((s) => s.actionStates.some((a) => a.actionId === 'a-wait' && a.actionStatus === 'RUNNING')),
    ).toBe(true);
    expect(states.every((s) => stateSchema.safeParse(s).success)).toBe(true);
    const maxVx = Math.max(...states.map((s) => s.velocity?.vx ?? 0));
    expect(maxVx).toBeLessThanOrEqual(1.0);
  });

  it('honours the edge maxSpeed', async () => {
    const r = await robot();
    await master.send(
      'sim',
      r.serialNumber,
      'order',
      lineOrder(
        r.serialNumber,
        'slow',
        [
          [0, 0],
          [3, 0],
        ],
        { maxSpeed: 0.3 },
      ),
    );
    await r.waitFor((s) => s.orderId === 'slow' && s.nodeStates.length === 0 && !s.driving, 15_000);
    const vis = master.received.filter(from(r, 'visualization')).map((m) => (m.msg.velocity as { vx: number }).vx);
    expect(Math.max(...vis)).toBeGreaterThan(0);
    expect(Math.max(...vis)).toBeLessThanOrEqual(0.3);
  });

  it('rejects an invalid order with a validationError warning', async () => {
    const r = await robot();
    const bad = {
      ...lineOrder(r.serialNumber, 'bad', [
        [0, 0],
        [1, 0],
      ]),
      nodes: [],
    };
    await master.send('sim', r.serialNumber, 'order', bad);
    const s = await r.waitFor((st) => st.errors.some((e) => e.errorType === 'validationError'));
    expect(s.errors.find((e) => e.errorType === 'validationError')?.errorLevel).toBe('WARNING');
    expect(s.orderId).toBe('');
    await r.publishRaw('order', '{not json');
    await r.waitFor((st) => st.errors.filter((e) => e.errorType === 'validationError').length === 2);
  });

  it('waits at the end of the base and continues when an update extends it', async () => {
    const { clock, ticker } = manualTime();
    const r = await robot({ ticker });
    const order = lineOrder(
      r.serialNumber,
      'hz',
      [
        [0, 0],
        [1, 0],
        [2, 0],
      ],
      { releasedNodes: 2 },
    );
    await master.send('sim', r.serialNumber, 'order', order);
    await master.waitFor(stateOf(r, (s) => s.orderId === 'hz'));
    const waiting = advanceUntil(clock, r, (s) => s.lastNodeId === 'n2' && !s.driving);
    expect(waiting.nodeStates).toEqual([
      { nodeId: 'n3', sequenceId: 4, released: false, nodePosition: { x: 2, y: 0, mapId: 'floor-1' } },
    ]);
    expect(waiting.newBaseRequest).toBe(true);
    clock.advance(3000);
    expect(r.state()).toMatchObject({ lastNodeId: 'n2', driving: false, agvPosition: { x: 1, y: 0 } });

    const update = {
      ...lineOrder(r.serialNumber, 'hz', [
        [1, 0],
        [2, 0],
      ]),
      orderUpdateId: 1,
    };
    update.nodes = update.nodes.map((n, i) => ({ ...n, nodeId: `n${i + 2}`, sequenceId: 2 + i * 2 }));
    update.edges = [{ ...update.edges[0]!, edgeId: 'e2', sequenceId: 3, startNodeId: 'n2', endNodeId: 'n3' }];
    await master.send('sim', r.serialNumber, 'order', update);
    await master.waitFor(stateOf(r, (s) => s.orderUpdateId === 1));
    const done = advanceUntil(clock, r, (s) => s.lastNodeId === 'n3' && s.nodeStates.length === 0 && !s.driving);
    expect(done.orderUpdateId).toBe(1);
  });

  it('rejects a new order while another is active unless it extends the base', async () => {
    const r = await robot();
    await master.send(
      'sim',
      r.serialNumber,
      'order',
      lineOrder(r.serialNumber, 'first', [
        [0, 0],
        [5, 0],
      ]),
    );
    await r.waitFor((s) => s.driving);
    await master.send(
      'sim',
      r.serialNumber,
      'order',
      lineOrder(r.serialNumber, 'second', [
        [0, 0],
        [1, 1],
      ]),
    );
    const s = await r.waitFor((st) => st.errors.some((e) => e.errorType === 'orderUpdateError'));
    expect(s.orderId).toBe('first');
  });
});

describe('instant actions', () => {
  it('pauses and resumes', async () => {
    const { clock, ticker } = manualTime();
    const r = await robot({ ticker });
    await master.send(
      'sim',
      r.serialNumber,
      'order',
      lineOrder(r.serialNumber, 'p', [
        [0, 0],
        [4, 0],
      ]),
    );
    await master.waitFor(stateOf(r, (s) => s.orderId === 'p'));
    advanceUntil(clock, r, (s) => s.driving && (s.agvPosition?.x ?? 0) > 0.2);
    await master.send(
      'sim',
      r.serialNumber,
      'instantActions',
      instant(r.serialNumber, [{ actionType: 'startPause', actionId: 'ip1' }]),
    );
    const paused = (await master.waitFor(stateOf(r, (s) => s.actionStates.some((a) => a.actionId === 'ip1'))))
      .msg as VdaState;
    expect(paused).toMatchObject({ paused: true, driving: false });
    expect(paused.actionStates.find((a) => a.actionId === 'ip1')?.actionStatus).toBe('FINISHED');
    const x = r.position().x;
    clock.advance(3000);
    expect(r.position().x).toBe(x);
    await master.send(
      'sim',
      r.serialNumber,
      'instantActions',
      instant(r.serialNumber, [{ actionType: 'stopPause', actionId: 'ip2' }]),
    );
    await master.waitFor(stateOf(r, (s) => s.actionStates.some((a) => a.actionId === 'ip2')));
    advanceUntil(clock, r, (s) => s.paused === false && s.driving);
    advanceUntil(clock, r, (s) => s.lastNodeId === 'n2' && s.nodeStates.length === 0 && !s.driving);
  });

  it('cancels the order; a cancel without an order FAILS', async () => {
    const { clock, ticker } = manualTime();
    const r = await robot({ ticker });
    await master.send(
      'sim',
      r.serialNumber,
      'order',
      lineOrder(r.serialNumber, 'c', [
        [0, 0],
        [5, 0],
        [5, 5],
      ]),
    );
    await master.waitFor(stateOf(r, (s) => s.orderId === 'c'));
    advanceUntil(clock, r, (s) => s.driving && (s.agvPosition?.x ?? 0) > 1.5);
    await master.send(
      'sim',
      r.serialNumber,
      'instantActions',
      instant(r.serialNumber, [{ actionType: 'cancelOrder', actionId: 'ic1' }]),
    );
    const cancelled = (await master.waitFor(stateOf(r, (s) => s.actionStates.some((a) => a.actionId === 'ic1'))))
      .msg as VdaState;
    expect(cancelled.actionStates.find((a) => a.actionId === 'ic1')?.actionStatus).toBe('FINISHED');
    expect(cancelled.nodeStates).toEqual([]);
    expect(cancelled.edgeStates).toEqual([]);
    expect(cancelled.driving).toBe(false);
    expect(cancelled.orderId).toBe('c');
    const x = r.position().x;
    clock.advance(2000);
    expect(r.position().x).toBe(x);

    // Stopped mid-edge: like a standard robot, it refuses an order whose first node is not where it
    // stands (noRouteError), and accepts one that starts there (within allowedDeviationXY).
    expect(x).toBeGreaterThan(0.6);
    await master.send(
      'sim',
      r.serialNumber,
      'order',
      lineOrder(r.serialNumber, 'from-origin', [
        [0, 0],
        [0, 2],
      ]),
    );
    const refused = (await master.waitFor(stateOf(r, (s) => s.errors.some((e) => e.errorType === 'noRouteError'))))
      .msg as VdaState;
    expect(refused.orderId).toBe('c');
    expect(refused.errors.find((e) => e.errorType === 'noRouteError')?.errorReferences).toContainEqual({
      referenceKey: 'orderId',
      referenceValue: 'from-origin',
    });
    const here = lineOrder(r.serialNumber, 'from-here', [
      [x + 0.3, 0],
      [x + 0.3, 2],
    ]);
    here.nodes[0]!.nodePosition = { ...here.nodes[0]!.nodePosition, allowedDeviationXY: 0.4 } as never;
    await master.send('sim', r.serialNumber, 'order', here);
    await master.waitFor(stateOf(r, (s) => s.orderId === 'from-here' && s.lastNodeId === 'n1'));
    await master.send(
      'sim',
      r.serialNumber,
      'instantActions',
      instant(r.serialNumber, [{ actionType: 'cancelOrder', actionId: 'ic1b' }]),
    );
    await master.waitFor(stateOf(r, (s) => s.actionStates.some((a) => a.actionId === 'ic1b')));

    await master.send(
      'sim',
      r.serialNumber,
      'instantActions',
      instant(r.serialNumber, [{ actionType: 'cancelOrder', actionId: 'ic2' }]),
    );
    const failed = (await master.waitFor(stateOf(r, (s) => s.actionStates.some((a) => a.actionId === 'ic2'))))
      .msg as VdaState;
    expect(failed.actionStates.find((a) => a.actionId === 'ic2')?.actionStatus).toBe('FAILED');
    expect(failed.errors.some((e) => e.errorType === 'noOrderToCancel')).toBe(true);
  });

  it('understands the 2.0 field actionName and answers factsheetRequest', async () => {
    const r = await robot({ version: '2.0.0', model: 'ex' });
    const before = master.received.filter(from(r, 'factsheet')).length;
    await master.send('sim', r.serialNumber, 'instantActions', {
      ...header(r.serialNumber, '2.0.0'),
      actions: [
        { actionName: 'factsheetRequest', actionId: 'f1', blockingType: 'NONE' },
        { actionName: 'selfDestruct', actionId: 'f2', blockingType: 'NONE' },
      ],
    });
    const s = await r.waitFor((st) => st.actionStates.some((a) => a.actionId === 'f2'));
    expect(s.version).toBe('2.0.0');
    expect(s.actionStates.find((a) => a.actionId === 'f1')?.actionStatus).toBe('FINISHED');
    expect(s.actionStates.find((a) => a.actionId === 'f2')?.actionStatus).toBe('FAILED');
    await master.waitFor(
      (m) => from(r, 'factsheet')(m) && master.received.filter(from(r, 'factsheet')).length > before,
    );
    const fs = master.received.filter(from(r, 'factsheet')).pop()!;
    expect(fs.msg).toMatchObject({ version: '2.0.0', typeSpecification: { seriesName: 'ugo Ex' } });
  });
});

describe('faults and battery', () => {
  it('an emergency stop shows in the state and stops the robot until cleared', async () => {
    const { clock, ticker } = manualTime();
    const r = await robot({ ticker });
    await master.send(
      'sim',
      r.serialNumber,
      'order',
      lineOrder(r.serialNumber, 'e', [
        [0, 0],
        [4, 0],
      ]),
    );
    await master.waitFor(stateOf(r, (s) => s.orderId === 'e'));
    advanceUntil(clock, r, (s) => s.driving && (s.agvPosition?.x ?? 0) > 0.2);
    r.injectFault('emergencyStop');
    const s = await master.waitFor(stateOf(r, (st) => st.safetyState.eStop === 'MANUAL'));
    const st = s.msg as VdaState;
    expect(st.driving).toBe(false);
    expect(st.errors).toContainEqual(expect.objectContaining({ errorType: 'emergencyStop', errorLevel: 'FATAL' }));
    const x = r.position().x;
    clock.advance(3000);
    expect(r.position().x).toBe(x);
    r.clearFault('emergencyStop');
    advanceUntil(clock, r, (x2) => x2.safetyState.eStop === 'NONE' && x2.errors.length === 0 && x2.driving);
    advanceUntil(clock, r, (x2) => x2.nodeStates.length === 0 && !x2.driving);
  });

  it('an obstacle (F0007) holds the robot; hardware and motor faults are reported', async () => {
    const r = await robot();
    await master.send(
      'sim',
      r.serialNumber,
      'order',
      lineOrder(r.serialNumber, 'ob', [
        [0, 0],
        [4, 0],
      ]),
    );
    await r.waitFor((s) => s.driving);
    r.injectFault('obstacle');
    const s = await r.waitFor((st) => !st.driving);
    expect(s.errors).toContainEqual(expect.objectContaining({ errorType: 'F0007', errorLevel: 'WARNING' }));
    expect(s.safetyState.fieldViolation).toBe(true);
    r.clearFault('obstacle');
    await r.waitFor((st) => st.driving && st.errors.length === 0);
    r.injectFault('motorTemperatureHigh');
    r.injectFault('hardwareError');
    const both = await r.waitFor((st) => st.errors.length === 2 && !st.driving);
    expect(both.errors).toContainEqual(expect.objectContaining({ errorType: 'hardwareError', errorLevel: 'FATAL' }));
    expect(both.errors).toContainEqual(
      expect.objectContaining({ errorType: 'motorTemperatureHigh', errorLevel: 'WARNING' }),
    );
    r.clearFault('hardwareError');
    r.clearFault('motorTemperatureHigh');
    await r.waitFor((st) => st.errors.length === 0);
  });

  it('low battery adds a lowBattery warning, removed when charged again', async () => {
    const r = await robot({ battery: 60 });
    r.injectFault('lowBattery');
    expect(Math.round(r.battery())).toBe(15);
    const low = await master.waitFor(stateOf(r, (s) => s.batteryState.batteryCharge === 15));
    expect((low.msg as VdaState).errors).toContainEqual(
      expect.objectContaining({ errorType: 'lowBattery', errorLevel: 'WARNING' }),
    );
    r.clearFault('lowBattery');
    const back = await r.waitFor((s) => s.batteryState.batteryCharge === 60);
    expect(back.errors).toEqual([]);
    r.setBattery(19);
    await r.waitFor((s) => s.errors.some((e) => e.errorType === 'lowBattery'));
    r.setBattery(21);
    await r.waitFor((s) => s.errors.length === 0);
  });

  it('charges on a charger while idle and drains while driving', async () => {
    const r = await robot({
      battery: 50,
      speedScale: 40,
      start: { x: 3, y: 3, theta: 0 },
      chargers: [{ x: 3.1, y: 3 }],
    });
    const charging = await r.waitFor((s) => s.batteryState.charging);
    expect(charging.batteryState.charging).toBe(true);
    await r.waitFor((s) => s.batteryState.batteryCharge >= 52, 10_000);
    // Leaving the charger with an order: no more charging, the battery drains.
    await master.send(
      'sim',
      r.serialNumber,
      'order',
      lineOrder(r.serialNumber, 'away', [
        [3, 3],
        [8, 3],
      ]),
    );
    await r.waitFor((s) => s.driving && !s.batteryState.charging);
    const level = r.battery();
    await r.waitFor((s) => s.nodeStates.length === 0 && !s.driving, 15_000);
    expect(r.battery()).toBeLessThan(level);
  });
});

describe('fleet', () => {
  it('starts and stops several robots sharing one timer', async () => {
    const fleet = await startFleet(
      [1, 2, 3].map((i) => ({
        brokerUrl: broker.url,
        username: 'u',
        password: 'p',
        manufacturer: 'sim',
        serialNumber: `F${i}`,
        model: 'mini' as const,
        mapId: `floor-${i}`,
      })),
    );
    expect(fleet.robots.map((r) => r.connected)).toEqual([true, true, true]);
    await Promise.all(fleet.robots.map((r) => master.waitFor(from(r, 'state'))));
    await fleet.stop();
    for (const r of fleet.robots) {
      await master.waitFor((m) => from(r, 'connection')(m) && m.msg.connectionState === 'OFFLINE');
    }
  });

  it('fails clearly when the broker is unreachable', async () => {
    await expect(
      startRobot({
        brokerUrl: 'mqtt://127.0.0.1:1',
        username: 'u',
        password: 'p',
        manufacturer: 'sim',
        serialNumber: 'nobody',
        model: 'pro',
        mapId: 'floor-1',
        connectTimeoutMs: 500,
      }),
    ).rejects.toThrow(/nobody/);
  });
});
