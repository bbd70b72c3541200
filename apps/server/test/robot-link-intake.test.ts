import { describe, expect, it } from 'vitest';
import { ROBOT_DEFAULT_STATE_INTERVAL_S, ROBOT_NOT_REPORTING_INTERVALS } from '@portal/contract';
import { liveOf, significantKey, type RobotEntry } from '../src/modules/robot-link/fleet-state.ts';
import {
  sessionEnded,
  silenceCheck,
  takeCustomMessage,
  takeVdaMessage,
  trackOrder,
} from '../src/modules/robot-link/intake.ts';
import { commandMessage, nextHeader, orderMessage } from '../src/modules/robot-link/messages.ts';

/** Message intake and the message builders as pure functions: no broker, no database, no clock. */

const NOW = Date.parse('2026-01-02T03:04:05.000Z');

function entry(over: Partial<RobotEntry> = {}): RobotEntry {
  const e: RobotEntry = {
    id: 7,
    organizationId: 1,
    buildingId: 2,
    buildingName: 'Tower',
    floorId: 3,
    groupId: null,
    groupName: null,
    serialNo: 'S-1',
    name: 'Robot',
    model: 'mini',
    manufacturer: 'ugo',
    status: 1,
    videoMode: 'low',
    online: false,
    everSeen: false,
    lastSeen: 0,
    notReporting: false,
    sentOrder: null,
    protocolVersion: null,
    state: null,
    factsheet: null,
    teleop: null,
    position: null,
    liveKey: '',
    headerIds: { order: 0, instantActions: 0 },
    ...over,
  };
  e.liveKey = significantKey(liveOf(e));
  return e;
}

const header = (version = '2.1.0') => ({
  headerId: 1,
  timestamp: '2026-01-02T03:04:04.000Z',
  version,
  manufacturer: 'ugo',
  serialNumber: 'S-1',
});
const state = (over: Record<string, unknown> = {}) => ({
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
  agvPosition: { x: 1, y: 2, theta: 0, mapId: 'floor-3', positionInitialized: true },
  ...over,
});
const bytes = (m: unknown) => Buffer.from(typeof m === 'string' ? m : JSON.stringify(m));

describe('robot message intake', () => {
  it('a state brings the robot online: new entry, a live and a pose event, last communication to save', () => {
    const before = entry();
    const r = takeVdaMessage(before, 'state', bytes(state()), NOW);
    if (!r.ok) throw new Error('refused');
    expect(r.dirty).toBe(true);
    expect(r.entry).toMatchObject({ online: true, everSeen: true, lastSeen: NOW, protocolVersion: '2.1.0' });
    expect(r.entry.position).toMatchObject({ x: 1, y: 2, floorId: 3 });
    expect(r.events.map((e) => e.type)).toEqual(['live', 'pose']);
    expect(r.events[0]!.event).toMatchObject({ robotId: 7, organizationId: 1, buildingId: 2 });
    // The input is left as it was.
    expect(before.online).toBe(false);
    expect(before.state).toBeNull();
  });

  it('the same state again changes nothing significant: only the position goes out', () => {
    const first = takeVdaMessage(entry(), 'state', bytes(state()), NOW);
    if (!first.ok) throw new Error('refused');
    const again = takeVdaMessage(first.entry, 'state', bytes(state()), NOW + 1000);
    if (!again.ok) throw new Error('refused');
    expect(again.events.map((e) => e.type)).toEqual(['pose']);
  });

  it('drops what is not JSON or not VDA 5050, and custom messages that fail their schema', () => {
    expect(takeVdaMessage(entry(), 'state', bytes('{oops'), NOW)).toMatchObject({ ok: false, reason: 'notJson' });
    const invalid = takeVdaMessage(entry(), 'state', bytes({ ...header(), driving: 'yes' }), NOW);
    expect(invalid).toMatchObject({ ok: false, reason: 'invalid' });
    expect(takeCustomMessage(entry(), 'photo', bytes('nope'), NOW)).toMatchObject({ ok: false, reason: 'invalid' });
  });

  it('OFFLINE connection and the end of the broker session take the robot offline', () => {
    const online = takeVdaMessage(entry(), 'state', bytes(state()), NOW);
    if (!online.ok) throw new Error('refused');
    const off = takeVdaMessage(online.entry, 'connection', bytes({ ...header(), connectionState: 'OFFLINE' }), NOW);
    expect(off).toMatchObject({ ok: true, dirty: true, entry: { online: false } });
    // How the robot went away comes first (the activity log tells offline from connection broken).
    if (!off.ok) throw new Error('refused');
    expect(off.events.map((e) => e.type)).toEqual(['connection', 'live']);
    expect(off.events[0]).toMatchObject({ type: 'connection', event: { state: 'OFFLINE' } });
    const gone = sessionEnded(online.entry);
    expect(gone?.entry.online).toBe(false);
    expect(gone?.events.map((e) => e.type)).toEqual(['connection', 'live']);
    expect(gone?.events[0]).toMatchObject({ type: 'connection', event: { state: 'SESSION_ENDED' } });
    expect(sessionEnded(gone!.entry)).toBeNull();
  });

  it('a silent robot stays online and is only "not reporting" beyond its announced state interval', () => {
    const online = takeVdaMessage(entry(), 'state', bytes(state()), NOW);
    if (!online.ok) throw new Error('refused');
    // No factsheet: VDA 5050's 30 s. A state every 30 s (and no visualization) is reporting.
    const limit = ROBOT_NOT_REPORTING_INTERVALS * ROBOT_DEFAULT_STATE_INTERVAL_S * 1000;
    expect(silenceCheck(online.entry, NOW + 30_000)).toBeNull();
    expect(silenceCheck(online.entry, NOW + limit)).toBeNull();
    const silent = silenceCheck(online.entry, NOW + limit + 1);
    expect(silent?.entry).toMatchObject({ online: true, notReporting: true });
    expect(silent?.events.map((e) => e.type)).toEqual(['live']);
    const l = (silent!.events[0]!.event as { live: { online: boolean; notReporting?: boolean; statusLabel: string } })
      .live;
    expect(l).toMatchObject({ online: true, notReporting: true, statusLabel: 'available' });
    expect(silenceCheck(silent!.entry, NOW + limit + 5_000)).toBeNull(); // said once
    // Any message: reporting again.
    const back = takeVdaMessage(
      silent!.entry,
      'visualization',
      bytes({ ...header(), agvPosition: state().agvPosition }),
      NOW + limit + 6_000,
    );
    if (!back.ok) throw new Error('refused');
    expect(back.entry.notReporting).toBe(false);
    expect(back.events.some((e) => e.type === 'live')).toBe(true);
    // The factsheet's interval counts: 2 s announced, silent after 4 s.
    const factsheet = { protocolLimits: { timing: { defaultStateInterval: 2 } } } as never;
    expect(silenceCheck({ ...online.entry, factsheet }, NOW + 4_000)).toBeNull();
    expect(silenceCheck({ ...online.entry, factsheet }, NOW + 4_001)?.entry.notReporting).toBe(true);
    // Without one, the configured interval (ROBOT_STATE_INTERVAL_S) counts: 10 s, silent after 20 s.
    expect(silenceCheck(online.entry, NOW + 20_000, 10)).toBeNull();
    expect(silenceCheck(online.entry, NOW + 20_001, 10)?.entry.notReporting).toBe(true);
    // ... and the factsheet still wins over it.
    expect(silenceCheck({ ...online.entry, factsheet }, NOW + 4_001, 60)?.entry.notReporting).toBe(true);
  });
});

describe('orders the portal sent, and the activity', () => {
  const sent = { orderId: 'o-1', sentAt: NOW, status: 'sent' as const, error: null };
  const onOrder = { orderId: 'o-1', nodeStates: [{ nodeId: 'b', sequenceId: 2, released: true }] };
  const refusal = (refs: Array<{ referenceKey: string; referenceValue: string }>) => ({
    errorType: 'noRouteError',
    errorLevel: 'WARNING' as const,
    errorDescription: 'not here',
    errorReferences: refs,
  });

  it('accepted, finished, or rejected by an error naming the order (or a new rejection without references)', () => {
    const s = (over: Record<string, unknown>) => state(over) as never;
    expect(trackOrder(sent, s(onOrder), null)).toMatchObject({ status: 'accepted' });
    expect(trackOrder({ ...sent, status: 'accepted' }, s({ orderId: 'o-1' }), null)).toMatchObject({
      status: 'finished',
    });
    expect(
      trackOrder(sent, s({ errors: [refusal([{ referenceKey: 'orderId', referenceValue: 'o-1' }])] }), null),
    ).toEqual({
      ...sent,
      status: 'rejected',
      error: { type: 'noRouteError', description: 'not here' },
    });
    // Another order's error is not this one's; an old error without references neither.
    expect(trackOrder(sent, s({ errors: [refusal([{ referenceKey: 'orderId', referenceValue: 'o-0' }])] }), null)).toBe(
      sent,
    );
    const old = s({ errors: [refusal([])] });
    expect(trackOrder(sent, old, old)).toBe(sent);
    expect(trackOrder(sent, old, s({}))).toMatchObject({ status: 'rejected' });
    // Settled results stay.
    const done = { ...sent, status: 'finished' as const };
    expect(trackOrder(done, s(onOrder), null)).toBe(done);
  });

  it('an unfinished order keeps the robot "driving" between edges and "waiting" before an obstacle', () => {
    const at = (over: Record<string, unknown>) => {
      const r = takeVdaMessage(entry(), 'state', bytes(state(over)), NOW);
      if (!r.ok) throw new Error('refused');
      return liveOf(r.entry).activity;
    };
    expect(at({})).toBe('idle');
    expect(at({ ...onOrder, driving: true })).toBe('driving');
    expect(at({ ...onOrder, driving: false })).toBe('driving'); // on a node between two edges
    expect(at({ ...onOrder, errors: [{ errorType: 'F0007', errorLevel: 'WARNING' }] })).toBe('waiting');
    expect(at({ ...onOrder, safetyState: { eStop: 'NONE', fieldViolation: true } })).toBe('waiting');
    expect(at({ ...onOrder, newBaseRequest: true })).toBe('waiting');
    expect(at({ ...onOrder, paused: true })).toBe('paused');
    expect(at({ orderId: 'o-1' })).toBe('idle'); // finished or cancelled
  });
});

describe('messages to robots', () => {
  it('headers count per topic; 2.0 robots get 2.0.0 and actionName', () => {
    const e = entry({ protocolVersion: '2.0.0' });
    const h = nextHeader(e, 'instantActions', '2026-01-02T03:04:05.000Z');
    expect(h).toMatchObject({ headerId: 0, version: '2.0.0', manufacturer: 'ugo', serialNumber: 'S-1' });
    expect(nextHeader(e, 'instantActions', 'x').headerId).toBe(1);
    expect(nextHeader(e, 'order', 'x').headerId).toBe(0);
    expect(commandMessage(h, 'pause', 'u1').actions).toEqual([
      { actionId: 'pause-u1', actionType: 'startPause', actionName: 'startPause', blockingType: 'HARD' },
    ]);
  });

  it('orders: nodes with even and edges with odd sequence ids, angles in [-π, π]', () => {
    const h = nextHeader(entry(), 'order', 't');
    const o = orderMessage(h, 'o1', [
      { nodeId: 'a', x: 0, y: 0, mapId: 'm' },
      { nodeId: 'b', x: 1, y: 0, theta: 3 * Math.PI, mapId: 'm', maxSpeed: 0.5 },
    ]);
    expect(o.nodes.map((n) => n.sequenceId)).toEqual([0, 2]);
    expect(o.edges).toMatchObject([{ edgeId: 'a--b', sequenceId: 1, startNodeId: 'a', endNodeId: 'b', maxSpeed: 0.5 }]);
    expect(Math.abs(o.nodes[1]!.nodePosition!.theta!)).toBeCloseTo(Math.PI);
  });
});

describe('a message naming another robot in its header', () => {
  it('is dropped when the header serialNumber or manufacturer differs from the topic robot', () => {
    const other = takeVdaMessage(entry(), 'state', bytes(state({ serialNumber: 'S-2' })), NOW);
    expect(other).toMatchObject({ ok: false, reason: 'invalid' });
    const maker = takeVdaMessage(entry(), 'state', bytes(state({ manufacturer: 'acme' })), NOW);
    expect(maker).toMatchObject({ ok: false, reason: 'invalid' });
    expect(takeVdaMessage(entry(), 'state', bytes(state()), NOW).ok).toBe(true);
  });
});
