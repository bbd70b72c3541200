import type { FleetRobot, MapSession, RobotPosition, WsServerMessage, WsTopic } from '@portal/contract';
import { useCallback, useEffect, useState, useSyncExternalStore } from 'react';
import type { ConnectionState, Realtime } from './client';
import { useRealtime } from './provider';

/** Connection state for the header indicator: null while no screen uses live updates. */
export function useRealtimeStatus(client?: Realtime): ConnectionState | null {
  const fromTree = useRealtime();
  const c = client ?? fromTree;
  const state = useSyncExternalStore(c.onStateChange, c.getState, c.getState);
  const active = useSyncExternalStore(c.onStateChange, c.isActive, c.isActive);
  return active ? state : null;
}

// ---------------------------------------------------------------- fleet state

export interface FleetState {
  robots: ReadonlyMap<number, FleetRobot>;
  /** A snapshot has arrived for the current topic. */
  ready: boolean;
  /** The server refused the topic (error code), if it did. */
  error: string | null;
}

const schedule: (cb: () => void) => () => void =
  typeof requestAnimationFrame === 'function'
    ? (cb) => {
        const id = requestAnimationFrame(cb);
        return () => cancelAnimationFrame(id);
      }
    : (cb) => {
        const id = setTimeout(cb, 16);
        return () => clearTimeout(id);
      };

const withPosition = (robot: FleetRobot, position: RobotPosition): FleetRobot => ({
  ...robot,
  live: { ...robot.live, position, floorId: position.floorId ?? robot.live.floorId },
});

/**
 * Applies one server message to a fleet map, returning the same map when nothing changed.
 * `poses` are applied by {@link useFleet} once per animation frame.
 */
export function applyFleetMessage(
  robots: ReadonlyMap<number, FleetRobot>,
  msg: WsServerMessage,
): ReadonlyMap<number, FleetRobot> {
  switch (msg.type) {
    case 'snapshot':
      return new Map(msg.robots.map((r) => [r.id, r]));
    case 'live': {
      const robot = robots.get(msg.robotId);
      if (!robot) return robots;
      const next = new Map(robots);
      next.set(msg.robotId, { ...robot, live: msg.live });
      return next;
    }
    case 'poses': {
      let next: Map<number, FleetRobot> | null = null;
      for (const p of msg.poses) {
        const robot = (next ?? robots).get(p.robotId);
        if (!robot) continue;
        next ??= new Map(robots);
        next.set(p.robotId, withPosition(robot, p.position));
      }
      return next ?? robots;
    }
    default:
      return robots;
  }
}

const emptyFleet: FleetState = { robots: new Map(), ready: false, error: null };

/**
 * The robots of a topic kept live: the snapshot replaces the map, `live` updates one robot, `poses`
 * move robots (all pose frames of one animation frame render once), `resync` asks for a new
 * snapshot. `poses: false` ignores positions (screens that do not show them render less).
 */
export function useFleet(topic: WsTopic | null, options: { poses?: boolean; client?: Realtime } = {}): FleetState {
  const fromTree = useRealtime();
  const { poses = true, client = fromTree } = options;
  const [state, setState] = useState<FleetState & { topic: WsTopic | null }>({ ...emptyFleet, topic });
  // A new topic starts empty (render-time reset, no effect round trip).
  if (state.topic !== topic) setState({ ...emptyFleet, topic });

  useEffect(() => {
    if (topic === null) return;
    let pending: Array<{ robotId: number; position: RobotPosition }> = [];
    let cancelFrame: (() => void) | null = null;

    const flush = () => {
      cancelFrame = null;
      const batch = pending;
      pending = [];
      setState((s) => {
        if (s.topic !== topic) return s;
        const robots = applyFleetMessage(s.robots, {
          type: 'poses',
          poses: batch.map((p) => ({ ...p, at: '' })),
        });
        return robots === s.robots ? s : { ...s, robots };
      });
    };

    const unsubscribe = client.subscribe(topic, (msg) => {
      if (msg.type === 'resync') {
        client.refresh(topic);
        return;
      }
      if (msg.type === 'error') {
        setState((s) => (s.topic === topic ? { ...s, error: msg.code } : s));
        return;
      }
      if (msg.type === 'poses') {
        if (!poses) return;
        for (const p of msg.poses) pending.push({ robotId: p.robotId, position: p.position });
        cancelFrame ??= schedule(flush);
        return;
      }
      if (msg.type === 'snapshot') {
        // Positions older than the snapshot are stale.
        pending = [];
        cancelFrame?.();
        cancelFrame = null;
      }
      setState((s) => {
        if (s.topic !== topic) return s;
        const robots = applyFleetMessage(s.robots, msg);
        if (msg.type === 'snapshot') return { ...s, robots, ready: true, error: null };
        return robots === s.robots ? s : { ...s, robots };
      });
    });
    return () => {
      cancelFrame?.();
      unsubscribe();
    };
  }, [topic, poses, client]);

  return state.topic === topic ? state : { ...emptyFleet };
}

// ---------------------------------------------------------------- map sessions

/**
 * A robot's map creation or route recording kept live: `mapSession` messages for `robotId` that
 * arrive on `topic` (`robot:{id}` or the robot's `fleet:{buildingId}`) replace it; null means no
 * session. The setter lets a screen apply the session a REST call answered. A new robot starts from
 * null. Messages come at most every couple of seconds, so each one renders once.
 */
export function useMapSession(
  robotId: number | null,
  topic: WsTopic | null,
  options: { client?: Realtime } = {},
): [MapSession | null, (session: MapSession | null) => void] {
  const fromTree = useRealtime();
  const { client = fromTree } = options;
  const [state, setState] = useState<{ robotId: number | null; session: MapSession | null }>({
    robotId,
    session: null,
  });
  if (state.robotId !== robotId) setState({ robotId, session: null });

  useEffect(() => {
    if (robotId === null || topic === null) return;
    return client.subscribe(topic, (msg) => {
      if (msg.type !== 'mapSession' || msg.robotId !== robotId) return;
      setState((s) => (s.robotId === robotId ? { robotId, session: msg.session } : s));
    });
  }, [robotId, topic, client]);

  const set = useCallback(
    (session: MapSession | null) => setState((s) => (s.robotId === robotId ? { robotId, session } : s)),
    [robotId],
  );
  return [state.robotId === robotId ? state.session : null, set];
}
