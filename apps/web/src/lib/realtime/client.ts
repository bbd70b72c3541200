import {
  WS_PATH,
  wsServerMessageSchema,
  type WsClientMessage,
  type WsServerMessage,
  type WsTopic,
} from '@portal/contract';
import { apiBase } from '@/config/env';
import { isTeleopMessage, TeleopChannel, type TeleopLink, type TeleopLinkListener } from './teleop-channel';

/**
 * The tab's one WebSocket (docs/architecture-decisions.md "Browsers: one WebSocket per tab"). Opened
 * lazily by the first subscription, authenticated with the session token, topics reference-counted
 * and re-subscribed after every reconnect (exponential backoff with a cap), closed on logout and a
 * while after the last subscriber left. Teleop links share it (teleop-channel.ts).
 */
export type ConnectionState = 'connecting' | 'open' | 'closed';
export type TopicListener = (message: WsServerMessage) => void;

/**
 * What screens use of the realtime client: topics, teleop links, the connection state. The tab's
 * `RealtimeClient` and the tests' `FakeRealtime` (testing/fake-realtime.ts) both provide it.
 */
export interface Realtime {
  /** Listens to a topic: its snapshot, resync and errors, and every robot's live and pose frames. */
  subscribe(topic: WsTopic, listener: TopicListener): () => void;
  /** Asks the server for a new snapshot of a topic (after `resync`). */
  refresh(topic: WsTopic): void;
  /** Opens a teleop link (teleop-channel.ts). */
  openTeleop(listener: TeleopLinkListener): TeleopLink;
  getState(): ConnectionState;
  /** True while some screen listens (the indicator is shown only then). */
  isActive(): boolean;
  onStateChange(listener: () => void): () => void;
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

export class RealtimeClient implements Realtime {
  private socket: SocketLike | null = null;
  private ready = false;
  private state: ConnectionState = 'closed';
  private readonly topics = new Map<WsTopic, Set<TopicListener>>();
  private readonly teleop: TeleopChannel;
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
    this.teleop = new TeleopChannel({
      isReady: () => this.ready,
      send: (msg) => this.send(msg),
      attached: (first) => {
        this.clearIdle();
        if (first) this.emitState();
        this.ensureConnected();
      },
      detached: () => {
        if (!this.hasListeners()) this.scheduleIdleClose();
        this.emitState();
      },
    });
  }

  getState = (): ConnectionState => this.state;
  isActive = (): boolean => this.hasListeners();

  onStateChange = (listener: () => void): (() => void) => {
    this.stateListeners.add(listener);
    return () => this.stateListeners.delete(listener);
  };

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
    return this.teleop.open(listener);
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
    return this.topics.size > 0 || this.teleop.active();
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
        this.teleop.ready();
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
        if (isTeleopMessage(msg)) this.teleop.handle(msg);
        else this.dispatch(msg);
    }
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
    this.teleop.lost(was);
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
