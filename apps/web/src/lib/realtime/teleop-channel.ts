import type { WsClientMessage, WsServerMessage } from '@portal/contract';

/** Teleoperation signalling (contract teleop.ts): browser -> server and server -> browser messages. */
export type TeleopClientMessage = Extract<WsClientMessage, { type: `teleop.${string}` }>;
export type TeleopServerMessage = Extract<WsServerMessage, { type: `teleop.${string}` }>;
export const isTeleopMessage = (msg: WsServerMessage): msg is TeleopServerMessage => msg.type.startsWith('teleop.');

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

/** The socket as the teleop channel sees it. */
export interface TeleopSocket {
  /** Authenticated: messages can be sent. */
  isReady(): boolean;
  send(msg: WsClientMessage): void;
  /** A link opened (`first`: the first one): the socket must be (or get) open. */
  attached(first: boolean): void;
  /** A link closed: the socket may close when nobody else listens. */
  detached(): void;
}

interface LinkEntry {
  listener: TeleopLinkListener;
  /** Session ids this link joined and has not left. */
  sessions: Set<string>;
  open: boolean;
}

/**
 * The teleop links sharing the tab's socket: join answers reach the link that sent the join (the
 * server answers joins in order); messages about a session reach the link that joined it.
 */
export class TeleopChannel {
  private readonly links = new Set<LinkEntry>();
  /** Joins sent on this socket and not answered yet, in order. */
  private pendingJoins: Array<{ robotId: number; link: LinkEntry }> = [];

  constructor(private readonly socket: TeleopSocket) {}

  /** Some link is open (it keeps the socket open). */
  active(): boolean {
    return this.links.size > 0;
  }

  open(listener: TeleopLinkListener): TeleopLink {
    const entry: LinkEntry = { listener, sessions: new Set(), open: true };
    this.links.add(entry);
    this.socket.attached(this.links.size === 1);
    return {
      isReady: () => entry.open && this.socket.isReady(),
      send: (msg) => {
        if (!entry.open || !this.socket.isReady()) return false;
        if (msg.type === 'teleop.join') this.pendingJoins.push({ robotId: msg.robotId, link: entry });
        if (msg.type === 'teleop.leave') entry.sessions.delete(msg.sessionId);
        this.socket.send(msg);
        return true;
      },
      close: () => {
        if (!entry.open) return;
        entry.open = false;
        for (const sessionId of entry.sessions) this.socket.send({ type: 'teleop.leave', sessionId });
        entry.sessions.clear();
        this.links.delete(entry);
        this.socket.detached();
      },
    };
  }

  /** The socket is authenticated (again): every link may join. */
  ready(): void {
    for (const link of [...this.links]) if (link.open) link.listener.ready();
  }

  /** The socket is no longer authenticated: the server forgot its sessions. `wasReady`: links are told. */
  lost(wasReady: boolean): void {
    this.pendingJoins = [];
    for (const link of this.links) link.sessions.clear();
    if (wasReady) for (const link of [...this.links]) if (link.open) link.listener.lost();
  }

  /** A `teleop.*` message from the server, routed to its link. */
  handle(msg: TeleopServerMessage): void {
    const takeJoin = (robotId: number | undefined) => {
      const i = this.pendingJoins.findIndex((p) => robotId === undefined || p.robotId === robotId);
      return i < 0 ? null : this.pendingJoins.splice(i, 1)[0]!.link;
    };
    const owner = (sessionId: string) => [...this.links].find((l) => l.sessions.has(sessionId)) ?? null;
    let target: LinkEntry | null;
    if (msg.type === 'teleop.joined') {
      target = takeJoin(msg.robotId);
      if (!target?.open) {
        // Nobody waits for this session any more (the screen closed meanwhile): leave it at once.
        this.socket.send({ type: 'teleop.leave', sessionId: msg.sessionId });
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
}
