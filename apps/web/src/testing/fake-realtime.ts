import type {
  FleetRobot,
  MapSession,
  RobotLive,
  RobotPosition,
  WsClientMessage,
  WsServerMessage,
  WsTopic,
} from '@portal/contract';
import { act } from '@testing-library/react';
import {
  isTeleopMessage,
  TeleopChannel,
  type ConnectionState,
  type Realtime,
  type TeleopLink,
  type TeleopLinkListener,
  type TopicListener,
} from '@/lib/realtime';

/**
 * A realtime client for component tests, given to the screens with
 * `renderApp(path, { realtime: fake })` (or a `RealtimeProvider`): no socket, no timers. It records
 * what the screens send (`sent`, `ofType`) and the test plays the server: `receive(message)` or the
 * shortcuts `snapshot`, `live`, `poses`, `mapSession`, and `connect()` / `disconnect()` for the link.
 * Teleop links go through the real TeleopChannel, so joins, sessions and leaves behave as in the tab.
 * Messages are delivered inside `act`.
 */
export class FakeRealtime implements Realtime {
  /** Everything the screens sent, as the server would receive it (subscriptions and teleop). */
  readonly sent: WsClientMessage[] = [];
  private readonly topics = new Map<WsTopic, Set<TopicListener>>();
  private readonly stateListeners = new Set<() => void>();
  private readonly teleop: TeleopChannel;
  private ready: boolean;
  private state: ConnectionState;

  /** `connected: false`: the link starts down (`connect()` brings it up). */
  constructor(options: { connected?: boolean } = {}) {
    this.ready = options.connected ?? true;
    this.state = this.ready ? 'open' : 'connecting';
    this.teleop = new TeleopChannel({
      isReady: () => this.ready,
      send: (msg) => this.sent.push(msg),
      attached: () => this.emitState(),
      detached: () => this.emitState(),
    });
  }

  // ---------------------------------------------------------------- what the screens use

  subscribe(topic: WsTopic, listener: TopicListener): () => void {
    let listeners = this.topics.get(topic);
    if (!listeners) {
      listeners = new Set();
      this.topics.set(topic, listeners);
      this.sent.push({ type: 'subscribe', topic });
      this.emitState();
    }
    listeners.add(listener);
    let active = true;
    return () => {
      if (!active) return;
      active = false;
      const set = this.topics.get(topic);
      if (!set) return;
      set.delete(listener);
      if (set.size > 0) return;
      this.topics.delete(topic);
      this.sent.push({ type: 'unsubscribe', topic });
      this.emitState();
    };
  }

  refresh(topic: WsTopic): void {
    if (!this.topics.has(topic)) return;
    this.sent.push({ type: 'unsubscribe', topic }, { type: 'subscribe', topic });
  }

  openTeleop(listener: TeleopLinkListener): TeleopLink {
    return this.teleop.open(listener);
  }

  getState = (): ConnectionState => this.state;
  isActive = (): boolean => this.topics.size > 0 || this.teleop.active();

  onStateChange = (listener: () => void): (() => void) => {
    this.stateListeners.add(listener);
    return () => this.stateListeners.delete(listener);
  };

  // ---------------------------------------------------------------- what the test does

  /** Some screen listens to the topic. */
  subscribed(topic: WsTopic): boolean {
    return this.topics.has(topic);
  }

  /** The messages of one type the screens sent. */
  ofType<T extends WsClientMessage['type']>(type: T): Array<Extract<WsClientMessage, { type: T }>> {
    return this.sent.filter((m): m is Extract<WsClientMessage, { type: T }> => m.type === type);
  }

  /**
   * A message from the server, delivered as the tab's client would: snapshot, resync and error to
   * their topic's listeners, teleop messages to their link, everything else to every listener.
   */
  receive(msg: WsServerMessage): void {
    act(() => {
      if (isTeleopMessage(msg)) return this.teleop.handle(msg);
      const topic = msg.type === 'snapshot' || msg.type === 'resync' || msg.type === 'error' ? msg.topic : undefined;
      const targets = topic ? [this.topics.get(topic)] : [...this.topics.values()];
      for (const set of targets) if (set) for (const l of [...set]) l(msg);
    });
  }

  snapshot(topic: WsTopic, robots: FleetRobot[]): void {
    this.receive({ type: 'snapshot', topic, robots });
  }

  live(live: RobotLive): void {
    this.receive({ type: 'live', robotId: live.robotId, live });
  }

  poses(poses: Array<{ robotId: number; position: RobotPosition; at?: string }>): void {
    this.receive({ type: 'poses', poses: poses.map((p) => ({ at: '2026-01-01T00:00:00.000Z', ...p })) });
  }

  mapSession(robotId: number, session: MapSession | null): void {
    this.receive({ type: 'mapSession', robotId, session });
  }

  /** The link comes (back) up: teleop links are told they may join. */
  connect(): void {
    act(() => {
      this.ready = true;
      this.setState('open');
      this.teleop.ready();
    });
  }

  /** The link drops: teleop links lose their sessions. */
  disconnect(): void {
    act(() => {
      const was = this.ready;
      this.ready = false;
      this.teleop.lost(was);
      this.setState('closed');
    });
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
