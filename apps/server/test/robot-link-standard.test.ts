import mqtt from 'mqtt';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startRobot, type SimRobot } from '@portal/robot-sim';
import {
  emptyMapDocument,
  vdaTopic,
  type CreatedRobot,
  type FloorDetail,
  type VdaInstantActions,
  type VdaOrder,
  type VdaState,
} from '@portal/contract';
import { createTestApp, type TestApp, until } from './helpers.ts';

/**
 * The portal as a standard VDA 5050 robot sees it (issue 11, "Robot link, as a standard robot sees
 * it"): a robot played by a raw MQTT client that speaks only VDA 5050 (no custom action in its
 * factsheet, state every 30 s, no visualization), beside the simulator.
 */

/** A standard robot: connection, factsheet and state by hand; it records what it is sent. */
async function standardRobot(
  created: CreatedRobot,
  opts: { mapId: string; x: number; y: number; defaultStateInterval?: number },
) {
  const c = created.credentials;
  const client = await mqtt.connectAsync(c.mqttUrl, {
    protocolVersion: 4,
    username: c.username,
    password: c.password,
    clientId: `${c.manufacturer}-${c.serialNumber}`,
    reconnectPeriod: 0,
    will: {
      topic: vdaTopic(c.manufacturer, c.serialNumber, 'connection'),
      payload: Buffer.from(
        JSON.stringify({
          headerId: 0,
          timestamp: new Date().toISOString(),
          version: '2.1.0',
          manufacturer: c.manufacturer,
          serialNumber: c.serialNumber,
          connectionState: 'CONNECTIONBROKEN',
        }),
      ),
      qos: 1,
      retain: true,
    },
  });
  const instant: VdaInstantActions[] = [];
  const orders: VdaOrder[] = [];
  client.on('message', (topic, payload) => {
    const msg = JSON.parse(payload.toString('utf8')) as unknown;
    if (topic.endsWith('/order')) orders.push(msg as VdaOrder);
    else instant.push(msg as VdaInstantActions);
  });
  // Subscribe before publishing ONLINE (docs/robot-protocol.md).
  await client.subscribeAsync(
    [vdaTopic(c.manufacturer, c.serialNumber, 'order'), vdaTopic(c.manufacturer, c.serialNumber, 'instantActions')],
    { qos: 1 },
  );
  let headerId = 0;
  const header = () => ({
    headerId: headerId++,
    timestamp: new Date().toISOString(),
    version: '2.1.0',
    manufacturer: c.manufacturer,
    serialNumber: c.serialNumber,
  });
  const publish = (topic: 'connection' | 'factsheet' | 'state', message: object, retain = false) =>
    client.publishAsync(vdaTopic(c.manufacturer, c.serialNumber, topic), JSON.stringify(message), { qos: 1, retain });
  const state = (over: Partial<VdaState> = {}): VdaState => ({
    ...header(),
    orderId: '',
    orderUpdateId: 0,
    lastNodeId: '',
    lastNodeSequenceId: 0,
    driving: false,
    operatingMode: 'AUTOMATIC',
    nodeStates: [],
    edgeStates: [],
    actionStates: [],
    batteryState: { batteryCharge: 80, charging: false },
    errors: [],
    safetyState: { eStop: 'NONE', fieldViolation: false },
    agvPosition: { x: opts.x, y: opts.y, theta: 0, mapId: opts.mapId, positionInitialized: true },
    ...over,
  });
  await publish('connection', { ...header(), connectionState: 'ONLINE' }, true);
  await publish(
    'factsheet',
    {
      ...header(),
      typeSpecification: {
        seriesName: 'Standard',
        agvKinematic: 'DIFF',
        agvClass: 'CARRIER',
        maxLoadMass: 0,
        localizationTypes: ['NATURAL'],
        navigationTypes: ['AUTONOMOUS'],
      },
      physicalParameters: {
        speedMin: 0,
        speedMax: 1,
        accelerationMax: 1,
        decelerationMax: 1,
        heightMax: 1,
        width: 0.5,
        length: 0.5,
      },
      protocolLimits: {
        maxStringLens: {},
        maxArrayLens: {},
        timing: {
          minOrderInterval: 1,
          minStateInterval: 1,
          ...(opts.defaultStateInterval === undefined ? {} : { defaultStateInterval: opts.defaultStateInterval }),
        },
      },
      protocolFeatures: {
        optionalParameters: [],
        agvActions: ['startPause', 'stopPause', 'cancelOrder', 'stateRequest', 'factsheetRequest'].map(
          (actionType) => ({ actionType, actionScopes: ['INSTANT'] }),
        ),
      },
      agvGeometry: {},
      loadSpecification: {},
    },
    true,
  );
  await publish('state', state());
  return {
    client,
    instant,
    orders,
    publishState: (over: Partial<VdaState> = {}) => publish('state', state(over)),
    stop: () => client.endAsync(),
  };
}

describe('the robot link as a standard VDA 5050 robot sees it', () => {
  let t: TestApp;
  let admin: string;
  let buildingId: number;
  let floor: FloorDetail;
  const sims: SimRobot[] = [];
  const clients: Array<{ stop(): Promise<void> }> = [];
  let serial = 0;

  async function register(): Promise<CreatedRobot> {
    const res = await t.call('POST', '/robots', admin, {
      serialNo: `STD-${++serial}`,
      name: `Standard ${serial}`,
      model: 'pro',
      version: '',
      hardwareRevision: '',
      buildingId,
      floorId: floor.id,
      groupId: null,
      status: 1,
      longTermRecordingAutoStart: false,
      videoMode: 'medium',
      notes: '',
    });
    expect(res.statusCode, res.body).toBe(201);
    return res.json<CreatedRobot>();
  }

  async function sim(created: CreatedRobot, extra: Partial<Parameters<typeof startRobot>[0]> = {}) {
    const c = created.credentials;
    const robot = await startRobot({
      brokerUrl: c.mqttUrl,
      username: c.username,
      password: c.password,
      manufacturer: c.manufacturer,
      serialNumber: c.serialNumber,
      model: 'pro',
      mapId: `floor-${floor.id}`,
      start: { x: 1, y: 1, theta: 0 },
      speedScale: 4,
      visualizationHz: 5,
      ...extra,
    });
    sims.push(robot);
    return robot;
  }

  async function standard(created: CreatedRobot, opts: { x?: number; y?: number; defaultStateInterval?: number } = {}) {
    const robot = await standardRobot(created, { mapId: `floor-${floor.id}`, x: 1, y: 1, ...opts });
    clients.push(robot);
    return robot;
  }

  const live = (robotId: number) => t.link.live({ id: robotId, status: 1 });

  beforeAll(async () => {
    t = await createTestApp();
    admin = (await t.as('orgadmin@demo.example')).authorization;
    const b = await t.call('GET', '/buildings?filter={"where":{"name":"Demo Tower"}}', admin);
    buildingId = b.json<Array<{ id: number }>>()[0]!.id;
    const f = await t.call('POST', `/buildings/${buildingId}/floors`, admin, {
      name: 'STD',
      type: 'office',
      index: 61,
      resolution: 0.05,
      originX: 0,
      originY: 0,
    });
    expect(f.statusCode, f.body).toBe(201);
    floor = f.json<FloorDetail>();
  });

  afterAll(async () => {
    await Promise.all(sims.map((r) => r.stop().catch(() => undefined)));
    await Promise.all(clients.map((c) => c.stop().catch(() => undefined)));
    await t?.close();
  });

  it('mapChanged goes only to robots whose factsheet announces it (item 12)', async () => {
    const simRobot = await register();
    const stdRobot = await register();
    const s = await sim(simRobot);
    const std = await standard(stdRobot);
    await until(() => live(simRobot.robot.id).position?.floorId === floor.id);
    await until(
      () => live(stdRobot.robot.id).position?.floorId === floor.id && t.link.details(stdRobot.robot.id)?.factsheet,
    );
    expect(t.link.announces(simRobot.robot.id, 'mapChanged')).toBe(true);
    expect(t.link.announces(stdRobot.robot.id, 'mapChanged')).toBe(false);

    const saved = await t.call('PUT', `/floors/${floor.id}/map`, admin, {
      baseRevision: 0,
      note: '',
      document: { ...emptyMapDocument(), waypoints: [{ id: 1, name: 'A', x: 1, y: 1, theta: 0, type: 1 }] },
    });
    expect(saved.statusCode, saved.body).toBe(200);
    // The simulator announces mapChanged: it gets it and answers FINISHED.
    await s.waitFor((st) =>
      st.actionStates.some((a) => a.actionType === 'mapChanged' && a.actionStatus === 'FINISHED'),
    );
    // The standard robot announces no custom action: it gets none, and the link refuses to send one.
    await expect(t.link.instantAction(stdRobot.robot.id, 'mapChanged', {})).rejects.toMatchObject({
      code: 'CAPABILITY_MISSING',
    });
    // Standard actions still go; messages to a robot arrive in order, so no mapChanged came before.
    await t.link.command(stdRobot.robot.id, 'pause');
    await until(() => std.instant.find((m) => m.actions[0]?.actionType === 'startPause'));
    expect(std.instant.some((m) => m.actions.some((a) => a.actionType === 'mapChanged'))).toBe(false);
  });

  it('a robot publishing state every 30 s and no visualization stays online; silence only marks it "not reporting" (item 11)', async () => {
    const created = await register();
    const std = await standard(created);
    const id = created.robot.id;
    await until(() => live(id).online && live(id).position);
    // Four states 30 s apart on the portal's clock, nothing in between.
    for (let i = 0; i < 4; i++) {
      t.advance(0.5);
      t.link.checkSilence();
      expect(live(id)).toMatchObject({ online: true, notReporting: false, statusLabel: 'available' });
      const battery = 70 + i;
      await std.publishState({ batteryState: { batteryCharge: battery, charging: false } });
      await until(() => live(id).battery === battery);
    }
    // Silent for more than twice its state interval (30 s: it announces none): not reporting, still online.
    t.advance(1.1);
    t.link.checkSilence();
    expect(live(id)).toMatchObject({ online: true, notReporting: true, statusLabel: 'available' });
    expect(
      t.link.fleet({ type: 9, organizationId: null, buildingId: null } as never, null).find((r) => r.id === id)?.live,
    ).toMatchObject({ notReporting: true });
    await std.publishState();
    await until(() => live(id).notReporting === false);
    expect(live(id).online).toBe(true);
    // Online comes from the broker session: a robot that leaves without a word is offline at once.
    await std.client.endAsync();
    await until(() => !live(id).online);
    expect(live(id)).toMatchObject({ statusLabel: 'offline', notReporting: false });
  });

  it('a robot announcing a 2 s state interval is "not reporting" after 4 s of silence (item 11)', async () => {
    const created = await register();
    const std = await standard(created, { defaultStateInterval: 2 });
    const id = created.robot.id;
    await until(() => live(id).online && t.link.details(id)?.factsheet);
    await std.publishState();
    await until(() => live(id).online && !live(id).notReporting);
    t.advance(5 / 60);
    t.link.checkSilence();
    expect(live(id)).toMatchObject({ online: true, notReporting: true });
  });

  it('tracks an order from send to rejection: the live state says the robot refused it and why (item 10)', async () => {
    const created = await register();
    const std = await standard(created, { x: 3, y: 3 });
    const id = created.robot.id;
    await until(() => live(id).online && live(id).position);
    const mapId = `floor-${floor.id}`;
    const orderId = await t.link.sendOrder(id, [
      { nodeId: 'a', x: 3, y: 3, mapId },
      { nodeId: 'b', x: 6, y: 3, mapId },
    ]);
    expect(live(id).lastOrder).toMatchObject({ orderId, status: 'sent', error: null });
    // Unanswered: busy, a second goto would be refused.
    expect(t.link.busy(id)).toBe(true);
    const order = await until(() => std.orders.find((o) => o.orderId === orderId));
    expect(order.nodes[0]?.nodePosition).toMatchObject({ x: 3, y: 3, allowedDeviationXY: 0.5 });
    // The robot refuses it, as VDA 5050 says: an error referring to the order, the state unchanged.
    await std.publishState({
      errors: [
        {
          errorType: 'noRouteError',
          errorLevel: 'WARNING',
          errorDescription: 'no way to b',
          errorReferences: [
            { referenceKey: 'topic', referenceValue: 'order' },
            { referenceKey: 'orderId', referenceValue: orderId },
          ],
        },
      ],
    });
    await until(() => live(id).lastOrder?.status === 'rejected');
    expect(live(id).lastOrder).toMatchObject({
      orderId,
      status: 'rejected',
      error: { type: 'noRouteError', description: 'no way to b' },
    });
    expect(t.link.busy(id)).toBe(false);
    // The fleet API says it too.
    const fleet = await t.call('GET', '/robots/fleet', admin);
    expect(fleet.statusCode, fleet.body).toBe(200);
    const mine = fleet.json<Array<{ id: number; live: { lastOrder?: unknown } }>>().find((r) => r.id === id);
    expect(mine?.live.lastOrder).toMatchObject({ orderId, status: 'rejected', error: { type: 'noRouteError' } });

    // Accepted, then finished, from the state's orderId and node states.
    const next = await t.link.sendOrder(id, [
      { nodeId: 'a', x: 3, y: 3, mapId },
      { nodeId: 'b', x: 6, y: 3, mapId },
    ]);
    await std.publishState({
      orderId: next,
      lastNodeId: 'a',
      nodeStates: [{ nodeId: 'b', sequenceId: 2, released: true }],
      edgeStates: [{ edgeId: 'a--b', sequenceId: 1, released: true }],
    });
    await until(() => live(id).lastOrder?.status === 'accepted');
    // Stopped before an obstacle, still holding the order: waiting and busy (a goto is refused).
    await std.publishState({
      orderId: next,
      lastNodeId: 'a',
      nodeStates: [{ nodeId: 'b', sequenceId: 2, released: true }],
      edgeStates: [{ edgeId: 'a--b', sequenceId: 1, released: true }],
      errors: [{ errorType: 'F0007', errorLevel: 'WARNING', errorReferences: [] }],
    });
    await until(() => live(id).activity === 'waiting');
    expect(t.link.busy(id)).toBe(true);
    const general = (await t.as('operator@demo.example')).authorization;
    const busy = await t.call('POST', `/robots/${id}/goto`, general, { floorId: floor.id, waypointId: 1 });
    expect(busy.statusCode, busy.body).toBe(409);
    expect(busy.json<{ error: { code: string; details: unknown } }>().error).toMatchObject({
      code: 'CONFLICT',
      details: [{ path: 'robot', message: 'validation.robotBusy' }],
    });
    await std.publishState({
      orderId: next,
      lastNodeId: 'b',
      agvPosition: { x: 6, y: 3, theta: 0, mapId, positionInitialized: true },
    });
    await until(() => live(id).lastOrder?.status === 'finished');
    expect(live(id).activity).toBe('idle');
    expect(t.link.busy(id)).toBe(false);
  });

  it('a simulated robot refusing an order shows as rejected; a robot stopping on each node does not flicker to idle (item 10)', async () => {
    const created = await register();
    const robot = await sim(created, { speedScale: 4 });
    const id = created.robot.id;
    await until(() => live(id).online && live(id).position);
    // An order on another map: the robot cannot start it (noRouteError).
    const refused = await t.link.sendOrder(id, [{ nodeId: 'x', x: 1, y: 1, mapId: 'floor-999999' }]);
    await until(() => live(id).lastOrder?.status === 'rejected');
    expect(live(id).lastOrder).toMatchObject({ orderId: refused, error: { type: 'noRouteError' } });

    const mapId = `floor-${floor.id}`;
    const accepted = await t.link.sendOrder(id, [
      { nodeId: 'a', x: 1, y: 1, mapId },
      { nodeId: 'b', x: 2.5, y: 1, mapId },
    ]);
    await robot.waitFor((st) => st.orderId === accepted && st.lastNodeId === 'b' && st.nodeStates.length === 0, 30_000);
    await until(() => live(id).lastOrder?.status === 'finished');

    // A standard robot stops on each node of its order (driving false, nodes left): still driving.
    const other = await register();
    const std = await standard(other);
    const oid = other.robot.id;
    await until(() => live(oid).online && live(oid).position);
    const activities: string[] = [];
    const off = t.link.on('live', (e) => {
      if (e.robotId === oid && e.live.activity) activities.push(e.live.activity);
    });
    const orderId = await t.link.sendOrder(oid, [
      { nodeId: 'a', x: 1, y: 1, mapId },
      { nodeId: 'b', x: 3, y: 1, mapId },
      { nodeId: 'c', x: 3, y: 3, mapId },
    ]);
    const left = (nodes: string[]) => ({
      orderId,
      nodeStates: nodes.map((nodeId, k) => ({ nodeId, sequenceId: 2 + 2 * k, released: true })),
      edgeStates: nodes.map((nodeId, k) => ({ edgeId: `e-${nodeId}`, sequenceId: 1 + 2 * k, released: true })),
    });
    await std.publishState({ ...left(['b', 'c']), lastNodeId: 'a', driving: true });
    await std.publishState({
      ...left(['c']),
      lastNodeId: 'b',
      driving: false,
      batteryState: { batteryCharge: 79, charging: false },
    });
    await std.publishState({ ...left(['c']), lastNodeId: 'b', driving: true });
    await std.publishState({ orderId, lastNodeId: 'c', driving: false });
    await until(() => live(oid).lastOrder?.status === 'finished');
    off();
    const changes = activities.filter((a, k) => k === 0 || a !== activities[k - 1]);
    expect(changes.slice(changes.indexOf('driving'))).toEqual(['driving', 'idle']);
  });
});
