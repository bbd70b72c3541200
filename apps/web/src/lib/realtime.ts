import {
  WS_PATH,
  wsServerMessageSchema,
  type FleetRobot,
  type MapSession,
  type RobotPosition,
  type WsClientMessage,
  type WsServerMessage,
  type WsTopic,
} from '@portal/contract';
import { useCallback, useEffect, useState, useSyncExternalStore } from 'react';
import { apiBase } from '@/config/env';
import { sessionStore } from './session';

/**
 * The tab's one WebSocket (docs/architecture-decisions.md "Browsers: one WebSocket per tab"). Opened lazily by the
 * first subscription, authenticated with the session token, topics reference-counted and
 * re-subscribed after every reconnect (exponential backoff with a cap), closed on logout and a
 * while after the last subscriber left.
 */
export type ConnectionState = 'connecting' | 'open' | 'closed';
export type TopicListener = (message: WsServerMessage) => void;

/** Teleoperation signalling (contract teleop.ts): browser -> server and server -> browser messages. */
export type TeleopClientMessage = Extract<WsClientMessage, { type: `teleop.${string}` }>;
export type TeleopServerMessage = Extract<WsServerMessage, { type: `teleop.${string}` }>;
const isTeleopMessage = (msg: WsServerMessage): msg is TeleopServerMessage => msg.type.startsWith('teleop.');

/** What a teleop session hears from the socket. */
export interface TeleopLinkListener {
  /** A `teleop.*` message for this link: the answer to its join, or about a session it joined. */
  message(msg: TeleopServerMessage): void;
  /** The socket is (again) authenticated. After a reconnect the old sessions are gone: join anew. */
  ready(): void;
  /** The socket dropped: the server forgot this link's sessions (their peers are gone too). */
  lost(): void;
}

/** A teleop session's use of the socket; keeps the socket open (like a subscription) until closed. */
export interface TeleopLink {
  /** The socket is authenticated: messages can be sent. */
  isReady(): boolean;
  /** Sends a `teleop.*` message; false when the socket is not ready (nothing was sent). */
  send(msg: TeleopClientMessage): boolean;
  /** Stops listening; sessions still joined are left (also those whose join is answered later). */
  close(): void;
}

interface TeleopLinkEntry {
  listener: TeleopLinkListener;
  /** Session ids this link joined and has not left. */
  sessions: Set<string>;
  open: boolean;
}

interface SocketLike {
  readonly readyState: number;
  send(data: string): void;
  close(code?: number, reason?: string): void;
  onopen: ((ev: Event) => void) | null;
  onmessage: ((ev: MessageEvent) => void) | null;
  onclose: ((ev: CloseEvent) => void) | null;
  onerror: ((ev: Event) => void) | null;
}
export type SocketFactory = (url: string) => SocketLike;

export interface RealtimeOptions {
  url: () => string;
  token: () => string | null;
  createSocket?: SocketFactory;
  /** First reconnect delay; doubled per failed attempt up to maxDelayMs. */
  baseDelayMs?: number;
  maxDelayMs?: number;
  /** Keep the socket this long after the last subscriber left (navigating between live screens). */
  idleCloseMs?: number;
  pingMs?: number;
}

const OPEN = 1;

/** `{API_BASE}/ws` as a ws(s) URL: a relative base ("/api") is resolved against the page. */
export function realtimeUrl(base = apiBase(), location: { href: string } = window.location): string {
  const url = new URL(`${base}${WS_PATH}`, location.href);
  url.protocol = url.protocol === 'https:' ? 'wss:' : 'ws:';
  return url.toString();
}

export class RealtimeClient {
  private socket: SocketLike | null = null;
  private ready = false;
  private state: ConnectionState = 'closed';
  private readonly topics = new Map<WsTopic, Set<TopicListener>>();
  private readonly teleopLinks = new Set<TeleopLinkEntry>();
  /** Joins sent on this socket and not answered yet, in order (the server answers them in order). */
  private pendingJoins: Array<{ robotId: number; link: TeleopLinkEntry }> = [];
  private readonly stateListeners = new Set<() => void>();
  private attempt = 0;
  private reconnectTimer: ReturnType<typeof setTimeout> | null = null;
  private idleTimer: ReturnType<typeof setTimeout> | null = null;
  private pingTimer: ReturnType<typeof setInterval> | null = null;
  private readonly opts: Required<RealtimeOptions>;

  constructor(options: RealtimeOptions) {
    this.opts = {
      createSocket: (url) => new WebSocket(url),
      baseDelayMs: 1_000,
      maxDelayMs: 30_000,
      idleCloseMs: 10_000,
      pingMs: 25_000,
      ...options,
    };
  }

  getState = (): ConnectionState => this.state;
  /** True while some screen listens (the indicator is shown only then). */
  isActive = (): boolean => this.topics.size > 0 || this.teleopLinks.size > 0;

  onStateChange = (listener: () => void): (() => void) => {
    this.stateListeners.add(listener);
    return () => this.stateListeners.delete(listener);
  };

  /** Listens to a topic: its snapshot, resync and errors, and every robot's live and pose frames. */
  subscribe(topic: WsTopic, listener: TopicListener): () => void {
    let listeners = this.topics.get(topic);
    const first = !listeners;
    if (!listeners) {
      listeners = new Set();
      this.topics.set(topic, listeners);
    }
    listeners.add(listener);
    this.clearIdle();
    if (first) {
      if (this.ready) this.send({ type: 'subscribe', topic });
      this.emitState();
    }
    this.ensureConnected();
    let active = true;
    return () => {
      if (!active) return;
      active = false;
      const set = this.topics.get(topic);
      if (!set) return;
      set.delete(listener);
      if (set.size > 0) return;
      this.topics.delete(topic);
      if (this.ready) this.send({ type: 'unsubscribe', topic });
      if (!this.hasListeners()) this.scheduleIdleClose();
      this.emitState();
    };
  }

  /** Asks the server for a new snapshot of a topic (after `resync`). */
  refresh(topic: WsTopic): void {
    if (!this.ready || !this.topics.has(topic)) return;
    this.send({ type: 'unsubscribe', topic });
    this.send({ type: 'subscribe', topic });
  }

  /**
   * Opens a teleop link: the socket stays open while it exists and reconnects as for topics. Join
   * answers reach the link that sent the join; messages about a session reach the link that joined it.
   */
  openTeleop(listener: TeleopLinkListener): TeleopLink {
    const entry: TeleopLinkEntry = { listener, sessions: new Set(), open: true };
    this.teleopLinks.add(entry);
    this.clearIdle();
    if (this.teleopLinks.size === 1) this.emitState();
    this.ensureConnected();
    return {
      isReady: () => entry.open && this.ready,
      send: (msg) => {
        if (!entry.open || !this.ready) return false;
        if (msg.type === 'teleop.join') this.pendingJoins.push({ robotId: msg.robotId, link: entry });
        if (msg.type === 'teleop.leave') entry.sessions.delete(msg.sessionId);
        this.send(msg);
        return true;
      },
      close: () => {
        if (!entry.open) return;
        entry.open = false;
        for (const sessionId of entry.sessions) this.send({ type: 'teleop.leave', sessionId });
        entry.sessions.clear();
        this.teleopLinks.delete(entry);
        if (!this.hasListeners()) this.scheduleIdleClose();
        this.emitState();
      },
    };
  }

  /** Closes the socket and forgets pending reconnects (logout); a later subscription opens a new one. */
  close(): void {
    this.clearReconnect();
    this.clearIdle();
    this.dropSocket();
    this.attempt = 0;
    this.setState('closed');
  }

  /** Close, then connect again if someone listens (the session token changed). */
  restart(): void {
    this.close();
    this.ensureConnected();
  }

  private hasListeners(): boolean {
    return this.topics.size > 0 || this.teleopLinks.size > 0;
  }

  private ensureConnected(): void {
    if (this.socket || this.reconnectTimer || !this.hasListeners()) return;
    const token = this.opts.token();
    if (!token) return;
    this.setState('connecting');
    let socket: SocketLike;
    try {
      socket = this.opts.createSocket(this.opts.url());
    } catch {
      this.scheduleReconnect();
      return;
    }
    this.socket = socket;
    socket.onopen = () => {
      if (this.socket !== socket) return;
      const current = this.opts.token();
      if (!current) {
        this.close();
        return;
      }
      this.send({ type: 'auth', token: current });
    };
    socket.onmessage = (ev) => {
      if (this.socket !== socket) return;
      this.handle(ev.data);
    };
    socket.onclose = () => {
      if (this.socket !== socket) return;
      this.socket = null;
      this.setNotReady();
      this.stopPing();
      if (this.hasListeners() && this.opts.token()) this.scheduleReconnect();
      else this.setState('closed');
    };
    socket.onerror = () => undefined; // onclose follows and decides.
  }

  private handle(raw: unknown): void {
    if (typeof raw !== 'string') return;
    let data: unknown;
    try {
      data = JSON.parse(raw);
    } catch {
      return;
    }
    const parsed = wsServerMessageSchema.safeParse(data);
    if (!parsed.success) return;
    const msg = parsed.data;
    switch (msg.type) {
      case 'ready':
        this.ready = true;
        this.attempt = 0;
        this.setState('open');
        for (const topic of this.topics.keys()) this.send({ type: 'subscribe', topic });
        this.startPing();
        for (const link of [...this.teleopLinks]) if (link.open) link.listener.ready();
        return;
      case 'pong':
        return;
      case 'snapshot':
      case 'resync':
        this.dispatch(msg, msg.topic);
        return;
      case 'error':
        if (msg.code === 'UNAUTHENTICATED') {
          // The token is no longer valid: the next API call signs the user out; do not hammer the server.
          this.close();
          return;
        }
        this.dispatch(msg, msg.topic);
        return;
      default:
        if (isTeleopMessage(msg)) this.dispatchTeleop(msg);
        else this.dispatch(msg);
    }
  }

  private dispatchTeleop(msg: TeleopServerMessage): void {
    const takeJoin = (robotId: number | undefined) => {
      const i = this.pendingJoins.findIndex((p) => robotId === undefined || p.robotId === robotId);
      return i < 0 ? null : this.pendingJoins.splice(i, 1)[0]!.link;
    };
    const owner = (sessionId: string) => [...this.teleopLinks].find((l) => l.sessions.has(sessionId)) ?? null;
    let target: TeleopLinkEntry | null;
    if (msg.type === 'teleop.joined') {
      target = takeJoin(msg.robotId);
      if (!target?.open) {
        // Nobody waits for this session any more (the screen closed meanwhile): leave it at once.
        this.send({ type: 'teleop.leave', sessionId: msg.sessionId });
        return;
      }
      target.sessions.add(msg.sessionId);
    } else if (msg.type === 'teleop.error' && msg.sessionId === undefined) {
      target = takeJoin(msg.robotId);
    } else {
      target = owner(msg.sessionId ?? '');
      if (msg.type === 'teleop.closed') target?.sessions.delete(msg.sessionId);
    }
    if (target?.open) target.listener.message(msg);
  }

  private dispatch(msg: WsServerMessage, topic?: WsTopic): void {
    const targets = topic ? [this.topics.get(topic)] : [...this.topics.values()];
    for (const set of targets) if (set) for (const l of [...set]) l(msg);
  }

  private send(msg: WsClientMessage): void {
    if (this.socket && this.socket.readyState === OPEN) this.socket.send(JSON.stringify(msg));
  }

  /** The socket is no longer authenticated: the server forgot this socket's teleop sessions. */
  private setNotReady(): void {
    const was = this.ready;
    this.ready = false;
    this.pendingJoins = [];
    for (const link of this.teleopLinks) link.sessions.clear();
    if (was) for (const link of [...this.teleopLinks]) if (link.open) link.listener.lost();
  }

  private scheduleReconnect(): void {
    this.socket = null;
    this.setNotReady();
    this.setState('closed');
    const delay = Math.min(this.opts.maxDelayMs, this.opts.baseDelayMs * 2 ** this.attempt);
    this.attempt += 1;
    this.reconnectTimer = setTimeout(() => {
      this.reconnectTimer = null;
      this.ensureConnected();
    }, delay);
  }

  private scheduleIdleClose(): void {
    this.clearIdle();
    this.idleTimer = setTimeout(() => {
      this.idleTimer = null;
      if (!this.hasListeners()) this.close();
    }, this.opts.idleCloseMs);
  }

  private startPing(): void {
    this.stopPing();
    this.pingTimer = setInterval(() => this.send({ type: 'ping' }), this.opts.pingMs);
  }

  private stopPing(): void {
    if (this.pingTimer) clearInterval(this.pingTimer);
    this.pingTimer = null;
  }

  private clearReconnect(): void {
    if (this.reconnectTimer) clearTimeout(this.reconnectTimer);
    this.reconnectTimer = null;
  }

  private clearIdle(): void {
    if (this.idleTimer) clearTimeout(this.idleTimer);
    this.idleTimer = null;
  }

  private dropSocket(): void {
    const socket = this.socket;
    this.socket = null;
    this.setNotReady();
    this.stopPing();
    if (socket) {
      socket.onopen = socket.onmessage = socket.onerror = null;
      socket.onclose = null;
      try {
        socket.close(1000, 'bye');
      } catch {
        // Already closing.
      }
    }
  }

  private setState(state: ConnectionState): void {
    if (this.state === state) return;
    this.state = state;
    this.emitState();
  }

  private emitState(): void {
    this.stateListeners.forEach((l) => l());
  }
}

/** The tab's client: follows the session (closed on logout, reconnected with a new token). */
export const realtime = new RealtimeClient({
  url: () => realtimeUrl(),
  token: () => sessionStore.get()?.token ?? null,
});

let lastToken = sessionStore.get()?.token ?? null;
sessionStore.subscribe(() => {
  const token = sessionStore.get()?.token ?? null;
  if (token === lastToken) return;
  lastToken = token;
  if (token === null) realtime.close();
  else realtime.restart();
});

/** Connection state for the header indicator: null while no screen uses live updates. */
export function useRealtimeStatus(client: RealtimeClient = realtime): ConnectionState | null {
  const state = useSyncExternalStore(client.onStateChange, client.getState, client.getState);
  const active = useSyncExternalStore(client.onStateChange, client.isActive, client.isActive);
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
export function useFleet(
  topic: WsTopic | null,
  options: { poses?: boolean; client?: RealtimeClient } = {},
): FleetState {
  const { poses = true, client = realtime } = options;
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
  options: { client?: RealtimeClient } = {},
): [MapSession | null, (session: MapSession | null) => void] {
  const { client = realtime } = options;
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
