import type { FleetRobot, MapSession, WsServerMessage } from '@portal/contract';
import { act, renderHook } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createElement, type ReactNode } from 'react';
import { FakeRealtime } from '@/testing/fake-realtime';
import {
  RealtimeClient,
  RealtimeProvider,
  realtimeUrl,
  useFleet,
  useMapSession,
  useRealtimeStatus,
  type TeleopServerMessage,
} from './realtime';

/** A WebSocket the test drives: open(), receive(message), drop(). */
class FakeSocket {
  static all: FakeSocket[] = [];
  readyState = 0;
  sent: Array<Record<string, unknown>> = [];
  onopen: ((ev: Event) => void) | null = null;
  onmessage: ((ev: MessageEvent) => void) | null = null;
  onclose: ((ev: CloseEvent) => void) | null = null;
  onerror: ((ev: Event) => void) | null = null;
  constructor(readonly url: string) {
    FakeSocket.all.push(this);
  }
  send(data: string) {
    this.sent.push(JSON.parse(data) as Record<string, unknown>);
  }
  close() {
    this.readyState = 3;
  }
  open() {
    this.readyState = 1;
    this.onopen?.(new Event('open'));
  }
  receive(msg: WsServerMessage) {
    this.onmessage?.(new MessageEvent('message', { data: JSON.stringify(msg) }));
  }
  drop() {
    this.readyState = 3;
    this.onclose?.(new CloseEvent('close', { code: 1006 }));
  }
  types() {
    return this.sent.map((m) => (m.topic ? `${String(m.type)} ${String(m.topic)}` : String(m.type)));
  }
}

const robot = (id: number, over: Partial<FleetRobot['live']> = {}): FleetRobot => ({
  id,
  serialNo: `SN-${id}`,
  name: `Robot ${id}`,
  model: 'pro',
  organizationId: 1,
  buildingId: 10,
  buildingName: 'Tower',
  groupId: null,
  groupName: null,
  status: 1,
  live: {
    robotId: id,
    online: true,
    everSeen: true,
    statusLabel: 'available',
    battery: 80,
    batteryState: 'active',
    activity: 'idle',
    orderId: null,
    floorId: 1,
    position: { x: 0, y: 0, theta: 0, mapId: 'floor-1', floorId: 1 },
    issues: [],
    lastCommunicationAt: '2026-01-01T00:00:00.000Z',
    protocolVersion: '2.0.0',
    ...over,
  },
});

let token: string | null = 'tok-1';
const newClient = () =>
  new RealtimeClient({
    url: () => 'ws://portal.test/api/ws',
    token: () => token,
    createSocket: (url) => new FakeSocket(url),
    baseDelayMs: 1000,
    maxDelayMs: 4000,
    idleCloseMs: 5000,
  });
const connect = (client: RealtimeClient) => {
  const sock = FakeSocket.all.at(-1)!;
  sock.open();
  sock.receive({ type: 'ready', operatorId: 7 });
  expect(client.getState()).toBe('open');
  return sock;
};

beforeEach(() => {
  FakeSocket.all = [];
  token = 'tok-1';
  vi.useFakeTimers();
});
afterEach(() => vi.useRealTimers());

describe('realtime client', () => {
  it('builds the ws URL from the API base', () => {
    expect(realtimeUrl('/api', { href: 'https://portal.example/robot/control' })).toBe('wss://portal.example/api/ws');
    expect(realtimeUrl('http://10.0.0.5:8080/api', { href: 'http://x/' })).toBe('ws://10.0.0.5:8080/api/ws');
  });

  it('opens lazily, authenticates first, then subscribes each topic once (reference counted)', () => {
    const client = newClient();
    expect(FakeSocket.all).toHaveLength(0);
    const off1 = client.subscribe('fleet:all', () => undefined);
    const off2 = client.subscribe('fleet:all', () => undefined);
    expect(FakeSocket.all).toHaveLength(1);
    expect(client.getState()).toBe('connecting');
    const sock = FakeSocket.all[0]!;
    sock.open();
    expect(sock.sent[0]).toEqual({ type: 'auth', token: 'tok-1' });
    expect(sock.types()).toEqual(['auth']);
    sock.receive({ type: 'ready', operatorId: 7 });
    expect(sock.types()).toEqual(['auth', 'subscribe fleet:all']);

    const off3 = client.subscribe('robot:5', () => undefined);
    expect(sock.types()).toEqual(['auth', 'subscribe fleet:all', 'subscribe robot:5']);
    off1();
    expect(sock.types()).not.toContain('unsubscribe fleet:all');
    off2();
    off3();
    expect(sock.types().slice(-2)).toEqual(['unsubscribe fleet:all', 'unsubscribe robot:5']);
    // Closes a while after the last subscriber left.
    vi.advanceTimersByTime(5000);
    expect(sock.readyState).toBe(3);
    expect(client.getState()).toBe('closed');
  });

  it('reconnects with exponential backoff (capped) and subscribes again', () => {
    const client = newClient();
    client.subscribe('fleet:10', () => undefined);
    connect(client);
    FakeSocket.all[0]!.drop();
    expect(client.getState()).toBe('closed');
    vi.advanceTimersByTime(999);
    expect(FakeSocket.all).toHaveLength(1);
    vi.advanceTimersByTime(1);
    expect(FakeSocket.all).toHaveLength(2);
    FakeSocket.all[1]!.drop(); // fails again: 2 s
    vi.advanceTimersByTime(2000);
    expect(FakeSocket.all).toHaveLength(3);
    FakeSocket.all[2]!.drop(); // 4 s
    vi.advanceTimersByTime(4000);
    FakeSocket.all[3]!.drop(); // capped at 4 s
    vi.advanceTimersByTime(3999);
    expect(FakeSocket.all).toHaveLength(4);
    vi.advanceTimersByTime(1);
    expect(FakeSocket.all).toHaveLength(5);
    const sock = connect(client);
    expect(sock.types()).toEqual(['auth', 'subscribe fleet:10']);
  });

  it('stops on close (logout) and does not reconnect', () => {
    const client = newClient();
    client.subscribe('fleet:all', () => undefined);
    const sock = connect(client);
    token = null;
    client.close();
    expect(sock.readyState).toBe(3);
    vi.advanceTimersByTime(60_000);
    expect(FakeSocket.all).toHaveLength(1);
    expect(client.getState()).toBe('closed');
  });
});

describe('teleop link', () => {
  const joined = (sessionId: string, robotId = 5): TeleopServerMessage => ({
    type: 'teleop.joined',
    robotId,
    sessionId,
    role: 'controller',
    controller: { operatorId: 7, name: 'Hanako Yamada' },
    iceServers: [],
  });
  const recorder = () => {
    const log: string[] = [];
    return {
      log,
      listener: {
        message: (m: TeleopServerMessage) => log.push(`${m.type}${'sessionId' in m ? ` ${String(m.sessionId)}` : ''}`),
        ready: () => log.push('ready'),
        lost: () => log.push('lost'),
      },
    };
  };

  it('keeps the socket open, routes join answers and session messages to their link only', () => {
    const client = newClient();
    const a = recorder();
    const b = recorder();
    const fleet: string[] = [];
    client.subscribe('robot:5', (m) => fleet.push(m.type));
    const linkA = client.openTeleop(a.listener);
    const linkB = client.openTeleop(b.listener);
    expect(linkA.isReady()).toBe(false);
    expect(linkA.send({ type: 'teleop.join', robotId: 5, want: 'control' })).toBe(false);
    const sock = connect(client);
    expect(a.log).toEqual(['ready']);
    expect(linkA.isReady()).toBe(true);
    expect(linkA.send({ type: 'teleop.join', robotId: 5, want: 'control' })).toBe(true);
    linkB.send({ type: 'teleop.join', robotId: 6, want: 'watch' });
    expect(sock.types().slice(-2)).toEqual(['teleop.join', 'teleop.join']);

    sock.receive(joined('s-b', 6));
    sock.receive(joined('s-a', 5));
    sock.receive({ type: 'teleop.signal', sessionId: 's-a', signal: { kind: 'answer', sdp: 'v=0' } });
    sock.receive({ type: 'teleop.error', sessionId: 's-b', code: 'FORBIDDEN', message: 'no' });
    sock.receive({ type: 'teleop.signal', sessionId: 's-x', signal: { kind: 'answer', sdp: 'v=0' } });
    expect(a.log).toEqual(['ready', 'teleop.joined s-a', 'teleop.signal s-a']);
    expect(b.log).toEqual(['ready', 'teleop.joined s-b', 'teleop.error s-b']);
    expect(fleet).toEqual([]); // topic listeners never see teleop messages

    // The socket stays while a link exists, even without topics.
    client.subscribe('fleet:all', () => undefined)();
    vi.advanceTimersByTime(60_000);
    expect(sock.readyState).toBe(1);
    linkA.close(); // leaves what it joined
    expect(sock.sent.at(-1)).toEqual({ type: 'teleop.leave', sessionId: 's-a' });
  });

  it('answers a join nobody waits for any more with a leave', () => {
    const client = newClient();
    const a = recorder();
    const link = client.openTeleop(a.listener);
    const sock = connect(client);
    link.send({ type: 'teleop.join', robotId: 5, want: 'control' });
    link.close();
    sock.receive(joined('s-late'));
    expect(sock.sent.at(-1)).toEqual({ type: 'teleop.leave', sessionId: 's-late' });
    expect(a.log).toEqual(['ready']);
  });

  it('tells links the socket was lost and ready again after the reconnect; closes when the last link goes', () => {
    const client = newClient();
    const a = recorder();
    const link = client.openTeleop(a.listener);
    let sock = connect(client);
    link.send({ type: 'teleop.join', robotId: 5, want: 'control' });
    sock.receive(joined('s-1'));
    sock.drop();
    expect(a.log).toEqual(['ready', 'teleop.joined s-1', 'lost']);
    expect(link.send({ type: 'teleop.leave', sessionId: 's-1' })).toBe(false);
    vi.advanceTimersByTime(1000);
    sock = connect(client);
    expect(a.log.at(-1)).toBe('ready');
    // The old session is gone: closing sends no leave for it.
    link.close();
    expect(sock.types()).toEqual(['auth']);
    vi.advanceTimersByTime(5000);
    expect(sock.readyState).toBe(3);
  });
});

describe('useFleet', () => {
  it('takes the snapshot, applies live changes, batches poses per frame and re-subscribes on resync', () => {
    const client = newClient();
    let renders = 0;
    const { result } = renderHook(() => {
      renders += 1;
      return useFleet('fleet:all', { client });
    });
    const sock = connect(client);
    expect(result.current.ready).toBe(false);

    act(() => sock.receive({ type: 'snapshot', topic: 'fleet:all', robots: [robot(1), robot(2)] }));
    expect(result.current.ready).toBe(true);
    expect([...result.current.robots.keys()]).toEqual([1, 2]);

    act(() =>
      sock.receive({ type: 'live', robotId: 2, live: { ...robot(2).live, battery: 12, statusLabel: 'offline' } }),
    );
    expect(result.current.robots.get(2)?.live.battery).toBe(12);
    expect(result.current.robots.get(2)?.live.statusLabel).toBe('offline');
    expect(result.current.robots.get(1)?.live.battery).toBe(80);

    const pose = (robotId: number, x: number) => ({
      robotId,
      position: { x, y: 1, theta: 0, mapId: 'floor-1', floorId: 1 },
      at: '2026-01-01T00:00:01.000Z',
    });
    const before = renders;
    act(() => {
      sock.receive({ type: 'poses', poses: [pose(1, 1)] });
      sock.receive({ type: 'poses', poses: [pose(1, 2), pose(2, 5)] });
      sock.receive({ type: 'poses', poses: [pose(99, 5)] }); // not in this topic: ignored
    });
    expect(renders).toBe(before); // nothing until the next frame
    expect(result.current.robots.get(1)?.live.position?.x).toBe(0);
    act(() => vi.advanceTimersByTime(20));
    expect(renders).toBe(before + 1);
    expect(result.current.robots.get(1)?.live.position?.x).toBe(2);
    expect(result.current.robots.get(2)?.live.position?.x).toBe(5);
    expect(result.current.robots.has(99)).toBe(false);

    act(() => sock.receive({ type: 'resync', topic: 'fleet:all' }));
    expect(sock.types().slice(-2)).toEqual(['unsubscribe fleet:all', 'subscribe fleet:all']);
    act(() => sock.receive({ type: 'snapshot', topic: 'fleet:all', robots: [robot(3)] }));
    expect([...result.current.robots.keys()]).toEqual([3]);
  });

  it('gets a fresh snapshot after a reconnect', () => {
    const client = newClient();
    const { result } = renderHook(() => useFleet('fleet:10', { client }));
    let sock = connect(client);
    act(() => sock.receive({ type: 'snapshot', topic: 'fleet:10', robots: [robot(1)] }));
    act(() => sock.drop());
    act(() => vi.advanceTimersByTime(1000));
    sock = connect(client);
    expect(sock.types()).toEqual(['auth', 'subscribe fleet:10']);
    act(() => sock.receive({ type: 'snapshot', topic: 'fleet:10', robots: [robot(1, { battery: 50 }), robot(4)] }));
    expect(result.current.robots.get(1)?.live.battery).toBe(50);
    expect(result.current.robots.size).toBe(2);
  });
});

describe('useMapSession', () => {
  const session = (robotId: number, over: Partial<MapSession> = {}): MapSession => ({
    robotId,
    floorId: 1,
    kind: 'mapping',
    state: 'recording',
    startedAt: '2026-01-01T00:00:00.000Z',
    map: null,
    points: [],
    pointInterval: null,
    ...over,
  });

  it("keeps the robot's session from mapSession messages, ignores other robots and leaves the fleet alone", () => {
    const client = newClient();
    const fleet = renderHook(() => useFleet('fleet:10', { client }));
    const { result, rerender } = renderHook(
      ({ id }: { id: number | null }) => useMapSession(id, 'fleet:10', { client }),
      {
        initialProps: { id: 1 as number | null },
      },
    );
    const sock = connect(client);
    expect(sock.types()).toEqual(['auth', 'subscribe fleet:10']); // one subscription for both
    act(() => sock.receive({ type: 'snapshot', topic: 'fleet:10', robots: [robot(1)] }));
    const robots = fleet.result.current.robots;
    expect(result.current[0]).toBeNull();

    act(() => sock.receive({ type: 'mapSession', robotId: 1, session: session(1) }));
    expect(result.current[0]?.state).toBe('recording');
    const map = { image: 'data:image/png;base64,AA==', width: 2, height: 1, resolution: 0.05, originX: 0, originY: 0 };
    act(() => sock.receive({ type: 'mapSession', robotId: 1, session: session(1, { state: 'paused', map }) }));
    expect(result.current[0]).toMatchObject({ state: 'paused', map });
    act(() => sock.receive({ type: 'mapSession', robotId: 2, session: session(2, { state: 'saved' }) }));
    expect(result.current[0]?.state).toBe('paused');
    expect(fleet.result.current.robots).toBe(robots);

    // A REST answer can set it; a null message ends it.
    act(() => result.current[1](session(1, { state: 'resumed' })));
    expect(result.current[0]?.state).toBe('resumed');
    act(() => sock.receive({ type: 'mapSession', robotId: 1, session: null }));
    expect(result.current[0]).toBeNull();

    // Another robot starts from nothing.
    act(() => sock.receive({ type: 'mapSession', robotId: 1, session: session(1) }));
    rerender({ id: 2 });
    expect(result.current[0]).toBeNull();
    act(() => sock.receive({ type: 'mapSession', robotId: 2, session: session(2, { kind: 'recording' }) }));
    expect(result.current[0]?.kind).toBe('recording');
    rerender({ id: null });
    expect(result.current[0]).toBeNull();
  });
});

describe('RealtimeProvider and FakeRealtime', () => {
  it('gives the hooks below it another client: the test plays the server', () => {
    const fake = new FakeRealtime();
    const wrapper = ({ children }: { children: ReactNode }) =>
      createElement(RealtimeProvider, { client: fake, children });
    const { result, unmount } = renderHook(
      () => ({
        fleet: useFleet('fleet:10'),
        session: useMapSession(1, 'fleet:10')[0],
        status: useRealtimeStatus(),
      }),
      { wrapper },
    );
    expect(fake.subscribed('fleet:10')).toBe(true);
    expect(fake.ofType('subscribe')).toEqual([{ type: 'subscribe', topic: 'fleet:10' }]); // one for both hooks
    expect(result.current.status).toBe('open');

    fake.snapshot('fleet:10', [robot(1), robot(2)]);
    expect(result.current.fleet.ready).toBe(true);
    fake.live({ ...robot(2).live, battery: 12 });
    expect(result.current.fleet.robots.get(2)?.live.battery).toBe(12);
    fake.poses([{ robotId: 1, position: { x: 4, y: 1, theta: 0, mapId: 'floor-1', floorId: 1 } }]);
    act(() => vi.advanceTimersByTime(20)); // the next animation frame
    expect(result.current.fleet.robots.get(1)?.live.position?.x).toBe(4);
    fake.mapSession(1, {
      robotId: 1,
      floorId: 1,
      kind: 'mapping',
      state: 'recording',
      startedAt: '2026-01-01T00:00:00.000Z',
      map: null,
      points: [],
      pointInterval: null,
    });
    expect(result.current.session?.state).toBe('recording');

    fake.disconnect();
    expect(result.current.status).toBe('closed');
    unmount();
    expect(fake.subscribed('fleet:10')).toBe(false);
    expect(fake.ofType('unsubscribe')).toEqual([{ type: 'unsubscribe', topic: 'fleet:10' }]);
  });
});
