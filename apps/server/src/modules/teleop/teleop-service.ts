import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import {
  isAdmin,
  teleopOperatorSchema,
  type IceServer,
  type TeleopCloseReason,
  type TeleopOperator,
  type TeleopRole,
  type WsClientMessage,
  type WsServerMessage,
} from '@portal/contract';
import type { FastifyBaseLogger } from 'fastify';
import type { Principal } from '../../context.ts';
import { AppError } from '../../lib/errors.ts';
import { robotInScope } from '../../lib/scope.ts';
import type { RobotLink } from '../robot-link/types.ts';

/** A browser connection as the teleop service sees it (the realtime gateway's connection). */
export interface TeleopClient {
  readonly principal: Principal | null;
  send(message: WsServerMessage): void;
}

type TeleopClientMessage = Extract<WsClientMessage, { type: `teleop.${string}` }>;

interface Session {
  id: string;
  robotId: number;
  client: TeleopClient;
  operator: TeleopOperator;
  admin: boolean;
  role: TeleopRole;
}

/** Lock messages between server instances (topic portal/v1/teleop, through the robot link). */
const shareSchema = z.discriminatedUnion('kind', [
  z.object({
    kind: z.literal('claim'),
    robotId: z.number().int(),
    sessionId: z.string(),
    operator: teleopOperatorSchema,
    /** When the controls were taken (ms, with a sequence): the later claim wins a race. */
    at: z.number(),
    takeover: z.boolean(),
  }),
  z.object({
    kind: z.literal('release'),
    robotId: z.number().int(),
    sessionId: z.string(),
    reason: z.enum(['released', 'left']),
  }),
]);
type Share = z.infer<typeof shareSchema>;
interface RemoteClaim {
  origin: string;
  sessionId: string;
  operator: TeleopOperator;
  at: number;
  seenAt: number;
}
/** Local controllers are announced to the other servers this often. */
const CLAIM_REFRESH_MS = 10_000;
/** A claim not refreshed for this long is from a server that went away: the controls are free. */
const CLAIM_TTL_MS = 35_000;

/** A browser may hold this many teleop sessions at once (a few robots side by side). */
const MAX_SESSIONS_PER_CLIENT = 8;
/** Watchers per robot (each one is a video stream the robot sends). */
const MAX_SESSIONS_PER_ROBOT = 10;

export const isTeleopMessage = (m: WsClientMessage): m is TeleopClientMessage => m.type.startsWith('teleop.');

const nameOf = (p: Principal) => `${p.lastName} ${p.firstName}`.trim() || p.email;

/**
 * Teleoperation sessions (docs/architecture-decisions.md "Teleoperation"). The server relays WebRTC signalling
 * between a browser (WebSocket) and the robot (MQTT `teleop` / `teleopReply`) after checking the
 * operator may reach the robot, and keeps the lock: one controller per robot, any number of
 * watchers (up to MAX_SESSIONS_PER_ROBOT), administrators may take over. Media and control never
 * pass through the server. Sessions live in the memory of the server the browser is connected to;
 * the lock is shared between server instances through the broker (claims, releases, a refresh every
 * CLAIM_REFRESH_MS; the later claim wins a race; docs/teleoperation.md).
 */
/** What the teleop service uses of the robot link. */
export type TeleopLink = Pick<RobotLink, 'instanceId' | 'shareTeleop' | 'on' | 'robot' | 'details' | 'publishTeleop'>;

export function createTeleopService(deps: {
  robotLink: TeleopLink;
  log: Pick<FastifyBaseLogger, 'warn' | 'error' | 'info'>;
  iceServers: IceServer[];
  /**
   * A local session took or gave up a robot's controls (the robot's activity log): each server
   * tells only of its own sessions, so a change is told once across servers.
   */
  onControl?: (c: {
    robotId: number;
    operator: TeleopOperator;
    event: 'start' | 'end';
    reason: 'granted' | 'takeover' | 'released' | 'left' | 'takenOver';
  }) => void;
}) {
  const { robotLink: link, log } = deps;
  const sessions = new Map<string, Session>();
  const byRobot = new Map<number, Set<Session>>();
  const byClient = new Map<TeleopClient, Set<Session>>();
  const controllers = new Map<number, Session>();
  /** Controllers held on other server instances. */
  const remote = new Map<number, RemoteClaim>();
  /** When each local controller took the controls (claim order). */
  const claimedAt = new Map<number, number>();
  let lastAt = 0;
  const nextAt = () => (lastAt = Math.max(Date.now(), lastAt + 1));
  const origin = link.instanceId;
  const share = (m: Share) =>
    link.shareTeleop(m).catch((err: unknown) => log.warn({ err }, 'teleop lock not shared with other servers'));

  /** A live claim of another server for this robot, or null (an expired one is dropped). */
  function remoteHolder(robotId: number): RemoteClaim | null {
    const r = remote.get(robotId);
    if (!r) return null;
    if (Date.now() - r.seenAt > CLAIM_TTL_MS) {
      remote.delete(robotId);
      return null;
    }
    return r;
  }
  /** Who has the controls of a robot, on this server or another. */
  const holder = (robotId: number): TeleopOperator | null =>
    controllers.get(robotId)?.operator ?? remoteHolder(robotId)?.operator ?? null;

  /** A local session takes the controls: recorded, and told to the other servers. */
  function take(s: Session, takeover: boolean): void {
    s.role = 'controller';
    controllers.set(s.robotId, s);
    remote.delete(s.robotId);
    const at = nextAt();
    claimedAt.set(s.robotId, at);
    void share({ kind: 'claim', robotId: s.robotId, sessionId: s.id, operator: s.operator, at, takeover });
    deps.onControl?.({
      robotId: s.robotId,
      operator: s.operator,
      event: 'start',
      reason: takeover ? 'takeover' : 'granted',
    });
  }
  /** A local controller gives the controls up (released, left, demoted). */
  function drop(s: Session, reason: 'released' | 'left' | null): void {
    if (controllers.get(s.robotId) !== s) return;
    controllers.delete(s.robotId);
    claimedAt.delete(s.robotId);
    if (reason) void share({ kind: 'release', robotId: s.robotId, sessionId: s.id, reason });
    deps.onControl?.({ robotId: s.robotId, operator: s.operator, event: 'end', reason: reason ?? 'takenOver' });
  }

  const error = (c: TeleopClient, code: string, message: string, ref: { robotId?: number; sessionId?: string }) =>
    c.send({ type: 'teleop.error', code, message, ...ref });

  /** Tells the robot, then every session of the robot, who has the controls now. */
  function announce(
    robotId: number,
    reason: 'takenOver' | 'released' | 'granted' | 'left',
    by: TeleopOperator | null,
    changed: Session[],
  ): void {
    for (const s of changed) {
      link
        .publishTeleop(robotId, { kind: 'role', sessionId: s.id, role: s.role })
        .catch((err: unknown) => log.warn({ err, robotId }, 'teleop role change not sent to the robot'));
    }
    const controller = holder(robotId);
    for (const s of byRobot.get(robotId) ?? []) {
      s.client.send({
        type: 'teleop.controller',
        robotId,
        sessionId: s.id,
        role: s.role,
        controller,
        reason,
        by,
      });
    }
  }

  function remove(s: Session, notifyRobot: boolean): void {
    if (!sessions.delete(s.id)) return;
    byRobot.get(s.robotId)?.delete(s);
    if (byRobot.get(s.robotId)?.size === 0) byRobot.delete(s.robotId);
    byClient.get(s.client)?.delete(s);
    if (byClient.get(s.client)?.size === 0) byClient.delete(s.client);
    if (notifyRobot) {
      link
        .publishTeleop(s.robotId, { kind: 'close', sessionId: s.id })
        .catch((err: unknown) => log.warn({ err, robotId: s.robotId }, 'teleop close not sent to the robot'));
    }
    if (controllers.get(s.robotId) === s) {
      drop(s, 'left');
      announce(s.robotId, 'left', s.operator, []);
    }
  }

  function closeRobot(robotId: number, reason: TeleopCloseReason): void {
    for (const s of [...(byRobot.get(robotId) ?? [])]) {
      s.client.send({ type: 'teleop.closed', sessionId: s.id, reason });
      remove(s, reason !== 'robotOffline' && reason !== 'robotDeleted');
    }
  }

  const offReply = link.on('teleopReply', (e) => {
    const s = sessions.get(e.message.sessionId);
    // Replies reach every server of a cluster; only the one holding the session answers.
    if (!s || s.robotId !== e.robotId) return;
    const m = e.message;
    if (m.kind === 'closed') {
      log.info({ robotId: s.robotId, reason: m.reason }, 'robot closed a teleop session');
      s.client.send({ type: 'teleop.closed', sessionId: s.id, reason: 'robotClosed' });
      remove(s, false);
      return;
    }
    s.client.send({
      type: 'teleop.signal',
      sessionId: s.id,
      signal: m.kind === 'answer' ? { kind: 'answer', sdp: m.sdp } : { kind: 'candidate', candidate: m.candidate },
    });
  });
  const offShared = link.on('teleopShared', (e) => {
    const parsed = shareSchema.safeParse(e.message);
    if (!parsed.success) return log.warn({ origin: e.origin }, 'teleop share message dropped: malformed');
    const m = parsed.data;
    if (m.kind === 'release') {
      const r = remote.get(m.robotId);
      if (!r || r.sessionId !== m.sessionId) return;
      remote.delete(m.robotId);
      return announce(m.robotId, m.reason, r.operator, []);
    }
    const claim: RemoteClaim = {
      origin: e.origin,
      sessionId: m.sessionId,
      operator: m.operator,
      at: m.at,
      seenAt: Date.now(),
    };
    const known = remote.get(m.robotId);
    const local = controllers.get(m.robotId);
    if (local) {
      const mine = claimedAt.get(m.robotId) ?? 0;
      // A takeover always wins; otherwise the later claim (then the greater server id) does.
      const theirs = m.takeover || m.at > mine || (m.at === mine && e.origin > origin);
      if (!theirs) {
        // Ours stands: say so again, so the other server demotes its controller.
        void share({
          kind: 'claim',
          robotId: m.robotId,
          sessionId: local.id,
          operator: local.operator,
          at: mine,
          takeover: false,
        });
        return;
      }
      local.role = 'viewer';
      drop(local, null);
      remote.set(m.robotId, claim);
      return announce(m.robotId, 'takenOver', m.operator, [local]);
    }
    remote.set(m.robotId, claim);
    // A refresh of a known claim changes nothing for the browsers.
    if (known && known.sessionId === m.sessionId) return;
    announce(m.robotId, m.takeover && known ? 'takenOver' : 'granted', m.operator, []);
  });
  // Local controllers are re-announced so that a server started later knows them, and claims of a
  // server that went away expire.
  const refresh = setInterval(() => {
    for (const [robotId, s] of controllers) {
      const at = claimedAt.get(robotId) ?? nextAt();
      void share({ kind: 'claim', robotId, sessionId: s.id, operator: s.operator, at, takeover: false });
    }
  }, CLAIM_REFRESH_MS);
  refresh.unref();

  const offLive = link.on('live', (e) => {
    if (e.live.online) return;
    remote.delete(e.robotId);
    if (byRobot.has(e.robotId)) closeRobot(e.robotId, 'robotOffline');
  });
  const offRegistry = link.on('registry', (e) => {
    if (!byRobot.has(e.robotId)) return;
    const r = link.robot(e.robotId);
    if (!r) return closeRobot(e.robotId, 'robotDeleted');
    // Moved to another building or organization: sessions that may no longer see it end.
    for (const s of [...(byRobot.get(e.robotId) ?? [])]) {
      const p = s.client.principal;
      if (!p || !robotInScope(p, r)) {
        s.client.send({ type: 'teleop.closed', sessionId: s.id, reason: 'accessLost' });
        remove(s, true);
      }
    }
  });

  function join(c: TeleopClient, p: Principal, robotId: number, want: 'control' | 'watch'): void {
    const r = link.robot(robotId);
    if (!r || !robotInScope(p, r)) return error(c, 'NOT_FOUND', 'Robot not found', { robotId });
    if (!link.details(robotId)?.online) {
      return error(c, 'ROBOT_OFFLINE', 'The robot is offline', { robotId });
    }
    if ((byClient.get(c)?.size ?? 0) >= MAX_SESSIONS_PER_CLIENT) {
      return error(c, 'RATE_LIMITED', 'Too many teleoperation sessions on this connection', { robotId });
    }
    if ((byRobot.get(robotId)?.size ?? 0) >= MAX_SESSIONS_PER_ROBOT) {
      return error(c, 'RATE_LIMITED', 'Too many operators are watching this robot', { robotId });
    }
    const s: Session = {
      id: randomUUID(),
      robotId,
      client: c,
      operator: { operatorId: p.operatorId, name: nameOf(p) },
      admin: isAdmin(p.type),
      role: 'viewer',
    };
    sessions.set(s.id, s);
    let set = byRobot.get(robotId);
    if (!set) byRobot.set(robotId, (set = new Set()));
    set.add(s);
    let mine = byClient.get(c);
    if (!mine) byClient.set(c, (mine = new Set()));
    mine.add(s);
    if (want === 'control' && !holder(robotId)) take(s, false);
    c.send({
      type: 'teleop.joined',
      robotId,
      sessionId: s.id,
      role: s.role,
      controller: holder(robotId),
      iceServers: deps.iceServers,
    });
    if (s.role === 'controller') announce(robotId, 'granted', s.operator, []);
  }

  /** Handles one `teleop.*` message of a signed-in client. */
  async function handle(c: TeleopClient, msg: TeleopClientMessage): Promise<void> {
    const p = c.principal;
    if (!p) return error(c, 'UNAUTHENTICATED', 'Send auth first', {});
    if (msg.type === 'teleop.join') return join(c, p, msg.robotId, msg.want);
    const s = sessions.get(msg.sessionId);
    if (!s || s.client !== c) {
      return error(c, 'NOT_FOUND', 'No such teleoperation session', { sessionId: msg.sessionId });
    }
    // Access is checked again on every step: a robot moved out of reach ends the session.
    const r = link.robot(s.robotId);
    if (!r || !robotInScope(p, r)) {
      c.send({ type: 'teleop.closed', sessionId: s.id, reason: 'accessLost' });
      return remove(s, true);
    }
    switch (msg.type) {
      case 'teleop.signal': {
        const sig = msg.signal;
        try {
          if (sig.kind === 'offer') {
            await link.publishTeleop(s.robotId, {
              kind: 'offer',
              sessionId: s.id,
              sdp: sig.sdp,
              role: s.role,
              operator: s.operator,
              iceServers: deps.iceServers,
              video: r.videoMode,
            });
          } else {
            await link.publishTeleop(s.robotId, { kind: 'candidate', sessionId: s.id, candidate: sig.candidate });
          }
        } catch (err) {
          const code = err instanceof AppError ? err.code : 'INTERNAL';
          if (!(err instanceof AppError)) log.error({ err }, 'teleop signal not sent');
          error(c, code, 'The robot cannot be reached', { sessionId: s.id, robotId: s.robotId });
        }
        return;
      }
      case 'teleop.request': {
        if (s.role === 'controller') return;
        const current = holder(s.robotId);
        if (current) {
          return error(c, 'TELEOP_LOCKED', `Being operated by ${current.name}`, {
            sessionId: s.id,
            robotId: s.robotId,
          });
        }
        take(s, false);
        return announce(s.robotId, 'granted', s.operator, [s]);
      }
      case 'teleop.takeover': {
        if (s.role === 'controller') return;
        if (!s.admin) {
          return error(c, 'FORBIDDEN', 'Only administrators can take over the controls', {
            sessionId: s.id,
            robotId: s.robotId,
          });
        }
        const current = controllers.get(s.robotId);
        const previous = holder(s.robotId);
        const changed: Session[] = [];
        if (current) {
          current.role = 'viewer';
          drop(current, null);
          changed.push(current);
        }
        take(s, true);
        changed.push(s);
        log.info({ robotId: s.robotId, by: p.operatorId, from: previous?.operatorId }, 'teleop takeover');
        return announce(s.robotId, previous ? 'takenOver' : 'granted', s.operator, changed);
      }
      case 'teleop.release': {
        if (s.role !== 'controller') return;
        s.role = 'viewer';
        drop(s, 'released');
        return announce(s.robotId, 'released', s.operator, [s]);
      }
      case 'teleop.leave':
        c.send({ type: 'teleop.closed', sessionId: s.id, reason: 'left' });
        return remove(s, true);
    }
  }

  return {
    handle,
    /**
     * Ends every session of a client, and their robots are told (a controller's robot stops): its
     * socket closed (no reason), or its operator changed scope (`accessLost`), when the browser is told
     * `teleop.closed` so it stops driving at once.
     */
    drop(c: TeleopClient, reason?: TeleopCloseReason): void {
      for (const s of [...(byClient.get(c) ?? [])]) {
        if (reason) c.send({ type: 'teleop.closed', sessionId: s.id, reason });
        remove(s, true);
      }
    },
    /** Who has the controls of a robot (on this server or another one). */
    controllerOf(robotId: number): TeleopOperator | null {
      return holder(robotId);
    },
    /** Number of open sessions (tests, metrics). */
    get size() {
      return sessions.size;
    },
    close(): void {
      clearInterval(refresh);
      offShared();
      offReply();
      offLive();
      offRegistry();
      for (const s of [...sessions.values()]) remove(s, true);
    },
  };
}
export type TeleopService = ReturnType<typeof createTeleopService>;
