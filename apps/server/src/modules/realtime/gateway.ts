import {
  WS_AUTH_TIMEOUT_MS,
  WS_MAX_MESSAGE_BYTES,
  WS_POSE_FLUSH_MS,
  wsClientMessageSchema,
  type RobotPosition,
  type WsServerMessage,
  type WsTopic,
} from '@portal/contract';
import type { WebSocket } from 'ws';
import type { AppContext, Principal } from '../../context.ts';
import { AppError } from '../../lib/errors.ts';
import { canSeeBuilding, robotInScope, type TenantScope } from '../../lib/scope.ts';
import type { ResolveSession } from '../auth/resolve-session.ts';
import type { LiveEvent, PoseEvent, RegistryEvent, RobotRef } from '../robot-link/types.ts';
import { mapSessionEvents, type MapSessionEvent } from '../map-sessions/events.ts';
import { isTeleopMessage, type TeleopService } from '../teleop/teleop-service.ts';
import type { RealtimeRepo } from './realtime-repo.ts';

/** Above this many unsent bytes a client is slow: its position frames wait (latest wins). */
const SLOW_CLIENT_BYTES = 512 * 1024;
/** Sessions are checked again this often (a revoked session's socket closes). */
const RECHECK_MS = 60_000;
/**
 * Messages per socket: a token bucket (sustained rate per second, burst). The web client sends a
 * few subscriptions, pings and teleop signalling (join, offer, a few dozen ICE candidates); the
 * teleop controls go over the WebRTC data channel, not this socket. Over the limit: closed (1008).
 */
export const WS_RATE_PER_SECOND = 50;
export const WS_RATE_BURST = 200;
/** Topics one socket may hold at once; one more closes it (1008). */
export const WS_MAX_TOPICS = 256;
/** Close code and reason of a socket whose session ended (the web client treats it as sign-out). */
const SESSION_ENDED = 4401;

class Connection {
  principal: Principal | null = null;
  readonly topics = new Set<WsTopic>();
  /** The operator changed and is being re-checked: deltas wait (the topics get a resync after). */
  held = false;
  missed = false;
  closing = false;
  /** Messages and re-checks run one at a time, in order, per socket. */
  chain: Promise<void> = Promise.resolve();
  private tokens = WS_RATE_BURST;
  private filledAt = performance.now();
  constructor(
    readonly socket: WebSocket,
    readonly ip: string,
  ) {}
  send(message: WsServerMessage | string): void {
    if (this.socket.readyState !== this.socket.OPEN) return;
    this.socket.send(typeof message === 'string' ? message : JSON.stringify(message));
  }
  /** A broadcast delta (live, positions, resync): skipped while the connection is held. */
  push(message: WsServerMessage | string): void {
    if (this.held) this.missed = true;
    else this.send(message);
  }
  /** Takes one message from the bucket; false when the socket is over its rate. */
  take(): boolean {
    const now = performance.now();
    this.tokens = Math.min(WS_RATE_BURST, this.tokens + ((now - this.filledAt) * WS_RATE_PER_SECOND) / 1000);
    this.filledAt = now;
    if (this.tokens < 1) return false;
    this.tokens -= 1;
    return true;
  }
  close(code: number, reason: string): void {
    this.closing = true;
    this.socket.close(code, reason);
  }
}

const inScope = (scope: TenantScope, r: RobotRef) => robotInScope(scope, r);

/**
 * The browsers' WebSocket: one per tab. After `auth`, a client subscribes to topics; each
 * subscription gets a snapshot, then deltas. Live-state changes go out at once and are never
 * dropped; positions are coalesced per client and flushed every WS_POSE_FLUSH_MS.
 */
export function createGateway(
  ctx: Pick<AppContext, 'robotLink' | 'log'> & Partial<Pick<AppContext, 'operatorEvents'>>,
  repo: Pick<RealtimeRepo, 'building'>,
  resolveSession: ResolveSession,
  teleop: Pick<TeleopService, 'handle' | 'drop'>,
) {
  const connections = new Set<Connection>();
  const byTopic = new Map<WsTopic, Set<Connection>>();
  const link = ctx.robotLink;

  const subscribers = (topic: WsTopic) => byTopic.get(topic);

  /** Every connection that should hear about this robot, each once. */
  function audience(r: RobotRef, visit: (c: Connection) => void): void {
    const byRobot = subscribers(`robot:${r.robotId}`);
    const byBuilding = subscribers(`fleet:${r.buildingId}`);
    const all = subscribers('fleet:all');
    // The common case (one kind of subscription) needs no de-duplication.
    if (!byRobot && !all) return byBuilding?.forEach(visit);
    const seen = new Set<Connection>();
    const add = (c: Connection) => {
      if (seen.has(c)) return;
      seen.add(c);
      visit(c);
    };
    byRobot?.forEach(add);
    byBuilding?.forEach(add);
    all?.forEach((c) => c.principal && inScope(c.principal, r) && add(c));
  }

  const offLive = link.on('live', (e: LiveEvent) => {
    let text: string | null = null;
    audience(e, (c) => c.push((text ??= JSON.stringify({ type: 'live', robotId: e.robotId, live: e.live }))));
  });
  // Map sessions (mapping, route recording) go to the same audience as live states (already throttled).
  const offMapSession = mapSessionEvents(link).on((e: MapSessionEvent) => {
    let text: string | null = null;
    audience(e, (c) =>
      c.push((text ??= JSON.stringify({ type: 'mapSession', robotId: e.robotId, session: e.session }))),
    );
  });
  // Positions wait in per-topic buffers (latest wins) and go out as one frame per topic per flush,
  // serialized once for all of the topic's subscribers.
  type Pose = { robotId: number; position: RobotPosition; at: string };
  const buildingPoses = new Map<number, Map<number, Pose>>();
  const robotPoses = new Map<number, Pose>();
  const allPoses = new Map<number, Pose & RobotRef>();
  const offPose = link.on('pose', (e: PoseEvent) => {
    const pose = { robotId: e.robotId, position: e.position, at: e.at };
    if (byTopic.has(`fleet:${e.buildingId}`)) {
      let m = buildingPoses.get(e.buildingId);
      if (!m) buildingPoses.set(e.buildingId, (m = new Map()));
      m.set(e.robotId, pose);
    }
    if (byTopic.has(`robot:${e.robotId}`)) robotPoses.set(e.robotId, pose);
    if (byTopic.has('fleet:all')) allPoses.set(e.robotId, { ...pose, ...e });
  });
  const offRegistry = link.on('registry', (e: RegistryEvent) => {
    const ref = { robotId: e.robotId, organizationId: e.organizationId };
    const topics: WsTopic[] = [`robot:${e.robotId}`, ...e.buildingIds.map((b) => `fleet:${b}` as WsTopic)];
    for (const t of topics) subscribers(t)?.forEach((c) => c.push({ type: 'resync', topic: t }));
    subscribers('fleet:all')?.forEach((c) => {
      const p = c.principal;
      if (p && e.buildingIds.some((b) => inScope(p, { ...ref, buildingId: b }))) {
        c.push({ type: 'resync', topic: 'fleet:all' });
      }
    });
  });

  const frame = (poses: Iterable<Pose>) => JSON.stringify({ type: 'poses', poses: [...poses] });
  /** A slow client skips frames (the next one carries newer positions); live messages still go. */
  const sendFrame = (c: Connection, text: string) => {
    if (c.socket.bufferedAmount <= SLOW_CLIENT_BYTES) c.push(text);
  };
  const flush = setInterval(() => {
    for (const [buildingId, poses] of buildingPoses) {
      const subs = subscribers(`fleet:${buildingId}`);
      if (subs && poses.size > 0) {
        const text = frame(poses.values());
        for (const c of subs) sendFrame(c, text);
      }
    }
    buildingPoses.clear();
    for (const [robotId, pose] of robotPoses) {
      const subs = subscribers(`robot:${robotId}`);
      if (subs) {
        const text = frame([pose]);
        for (const c of subs) sendFrame(c, text);
      }
    }
    robotPoses.clear();
    const all = subscribers('fleet:all');
    if (all && allPoses.size > 0) {
      for (const c of all) {
        const p = c.principal;
        if (!p) continue;
        const mine = [...allPoses.values()].filter((x) => inScope(p, x));
        if (mine.length > 0) sendFrame(c, frame(mine.map(({ robotId, position, at }) => ({ robotId, position, at }))));
      }
    }
    allPoses.clear();
  }, WS_POSE_FLUSH_MS);
  flush.unref();

  const tokens = new WeakMap<Connection, string>();
  /** Runs work after the socket's earlier messages, one at a time. */
  const enqueue = (c: Connection, work: () => Promise<void>) => {
    c.chain = c.chain.then(work).catch((err: unknown) => {
      ctx.log.error({ err }, 'websocket message failed');
    });
  };

  /** Whether the principal may (still) hold this topic. */
  async function allowed(p: Principal, topic: WsTopic): Promise<boolean> {
    const [kind, arg] = topic.split(':') as ['fleet' | 'robot', string];
    if (kind === 'robot') {
      const r = link.robot(Number(arg));
      return !!r && inScope(p, { robotId: r.id, organizationId: r.organizationId, buildingId: r.buildingId });
    }
    if (arg === 'all') return true;
    const b = await repo.building(Number(arg));
    return !!b && canSeeBuilding(p, b);
  }

  /**
   * Resolves the socket's session again: gone -> the socket closes; otherwise the new principal
   * replaces the old one, topics it may no longer hold end (an error names each), teleop sessions
   * end when the operator's scope changed, and kept topics that missed deltas get a resync.
   */
  async function recheck(c: Connection): Promise<void> {
    const token = tokens.get(c);
    const before = c.principal;
    if (!token || !before || c.closing) return;
    try {
      let p: Principal;
      try {
        p = await resolveSession(token, c.ip);
      } catch {
        // UNAUTHENTICATED whatever the reason (ended, disabled, password change due): the web client
        // stops reconnecting and its next API call shows the operator why.
        c.send({ type: 'error', code: 'UNAUTHENTICATED', message: 'Session ended' });
        c.close(SESSION_ENDED, 'session ended');
        return;
      }
      c.principal = p;
      const scopeChanged =
        before.organizationId !== p.organizationId || before.buildingId !== p.buildingId || before.type !== p.type;
      if (scopeChanged) teleop.drop(c, 'accessLost');
      for (const topic of [...c.topics]) {
        if (!(await allowed(p, topic))) {
          unsubscribe(c, topic);
          c.send({ type: 'error', code: 'NOT_FOUND', message: 'Subscription ended', topic });
        } else if (c.missed || scopeChanged) {
          c.send({ type: 'resync', topic });
        }
      }
      c.held = false;
      c.missed = false;
    } catch (err) {
      ctx.log.error({ err }, 'websocket recheck failed');
      c.close(1011, 'recheck failed');
    }
  }

  // An operator's change reaches their sockets at once: held (no deltas) until re-checked.
  const offOperator = ctx.operatorEvents?.on((operatorId) => {
    for (const c of connections) {
      if (c.principal?.operatorId !== operatorId || c.closing) continue;
      c.held = true;
      enqueue(c, () => recheck(c));
    }
  });

  const periodic = setInterval(() => {
    for (const c of connections) if (c.principal) enqueue(c, () => recheck(c));
  }, RECHECK_MS);
  periodic.unref();

  async function snapshot(c: Connection, topic: WsTopic): Promise<void> {
    const p = c.principal!;
    const [kind, arg] = topic.split(':') as ['fleet' | 'robot', string];
    if (kind === 'robot') {
      const r = link.robot(Number(arg));
      if (!r || !inScope(p, { robotId: r.id, organizationId: r.organizationId, buildingId: r.buildingId })) {
        throw new AppError('NOT_FOUND', 'Robot not found');
      }
      c.send({ type: 'snapshot', topic, robots: link.fleet(p, r.buildingId).filter((f) => f.id === r.id) });
      return;
    }
    if (arg === 'all') {
      c.send({ type: 'snapshot', topic, robots: link.fleet(p, null) });
      return;
    }
    const b = await repo.building(Number(arg));
    if (!b || !canSeeBuilding(p, b)) {
      throw new AppError('NOT_FOUND', 'Building not found');
    }
    c.send({ type: 'snapshot', topic, robots: link.fleet(p, b.id) });
  }

  function unsubscribe(c: Connection, topic: WsTopic) {
    c.topics.delete(topic);
    const set = byTopic.get(topic);
    set?.delete(c);
    if (set && set.size === 0) byTopic.delete(topic);
  }

  async function onMessage(c: Connection, raw: string): Promise<void> {
    let json: unknown;
    try {
      json = JSON.parse(raw);
    } catch {
      c.send({ type: 'error', code: 'VALIDATION_FAILED', message: 'Messages are JSON' });
      return;
    }
    const parsed = wsClientMessageSchema.safeParse(json);
    if (!parsed.success) {
      c.send({ type: 'error', code: 'VALIDATION_FAILED', message: 'Unknown message' });
      return;
    }
    const msg = parsed.data;
    if (msg.type === 'ping') return c.send({ type: 'pong' });
    if (msg.type === 'auth') {
      try {
        c.principal = await resolveSession(msg.token, c.ip);
        tokens.set(c, msg.token);
        c.send({ type: 'ready', operatorId: c.principal.operatorId });
      } catch (err) {
        const code = err instanceof AppError ? err.code : 'UNAUTHENTICATED';
        c.send({ type: 'error', code, message: 'Not signed in' });
        c.socket.close(4401, 'unauthenticated');
      }
      return;
    }
    if (!c.principal) {
      c.send({ type: 'error', code: 'UNAUTHENTICATED', message: 'Send auth first' });
      return;
    }
    if (isTeleopMessage(msg)) return teleop.handle(c, msg);
    if (msg.type === 'unsubscribe') return unsubscribe(c, msg.topic);
    if (!c.topics.has(msg.topic) && c.topics.size >= WS_MAX_TOPICS) {
      c.send({ type: 'error', code: 'VALIDATION_FAILED', message: 'Too many subscriptions', topic: msg.topic });
      c.close(1008, 'too many subscriptions');
      return;
    }
    // Subscribe first so no change between the snapshot and the subscription is lost.
    c.topics.add(msg.topic);
    let set = byTopic.get(msg.topic);
    if (!set) byTopic.set(msg.topic, (set = new Set()));
    set.add(c);
    try {
      await snapshot(c, msg.topic);
    } catch (err) {
      unsubscribe(c, msg.topic);
      const code = err instanceof AppError ? err.code : 'INTERNAL';
      if (!(err instanceof AppError)) ctx.log.error({ err }, 'websocket snapshot failed');
      c.send({ type: 'error', code, message: 'Cannot subscribe', topic: msg.topic });
    }
  }

  return {
    /** Takes over a new socket. */
    accept(socket: WebSocket, ip: string): void {
      const c = new Connection(socket, ip);
      connections.add(c);
      const authTimer = setTimeout(() => {
        if (!c.principal) socket.close(4401, 'authentication timeout');
      }, WS_AUTH_TIMEOUT_MS);
      // Messages are handled one at a time, in order, per socket.
      socket.on('message', (data: Buffer, isBinary: boolean) => {
        if (c.closing) return;
        if (isBinary || data.length > WS_MAX_MESSAGE_BYTES) {
          c.close(1009, 'message too large');
          return;
        }
        // A flooding socket is closed before its messages queue up work (others are not slowed).
        if (!c.take()) {
          c.close(1008, 'too many messages');
          return;
        }
        enqueue(c, () => (c.closing ? Promise.resolve() : onMessage(c, data.toString('utf8'))));
      });
      socket.on('close', () => {
        c.closing = true;
        clearTimeout(authTimer);
        connections.delete(c);
        for (const t of [...c.topics]) unsubscribe(c, t);
        teleop.drop(c);
      });
      socket.on('error', () => socket.terminate());
    },
    get size() {
      return connections.size;
    },
    close(): void {
      clearInterval(flush);
      clearInterval(periodic);
      offOperator?.();
      offLive();
      offPose();
      offRegistry();
      offMapSession();
      for (const c of connections) c.socket.close(1001, 'server stopping');
    },
  };
}
