import {
  COMMAND_CHANNEL,
  CONTROL_CHANNEL,
  CONTROL_INTERVAL_MS,
  teleopPeerStatusSchema,
  type ControlInput as ControlMessage,
  type IceServer,
  type TeleopCloseReason,
  type TeleopCommand,
  type TeleopOperator,
  type TeleopPeerStatus,
  type TeleopRole,
} from '@portal/contract';
import type { TeleopLink, TeleopLinkListener, TeleopServerMessage } from '@/lib/realtime';
import { ControlInput, type GamepadLike } from './control-input';

/**
 * One operator's teleoperation session with one robot (docs/architecture-decisions.md "Teleoperation"): joins over
 * the app's WebSocket, opens the WebRTC peer (video in, audio both ways, a control and a command
 * data channel), relays signalling, keeps the role (controller or viewer) and, as controller, sends
 * the control input at a fixed rate. Plain TypeScript: the socket link and the peer are injected,
 * so tests drive it with fakes. The screen renders {@link TeleopSession.getSnapshot}.
 */

// ---------------------------------------------------------------- what it needs from the browser

/** A React-style handler whose parameter is checked both ways, so the DOM's own handlers fit. */
type Handler<E> = { bivarianceHack(event: E): void }['bivarianceHack'];

export interface DataChannelLike {
  readonly readyState: RTCDataChannelState;
  send(data: string): void;
  close(): void;
  onopen: Handler<Event> | null;
  onclose: Handler<Event> | null;
  onmessage: Handler<{ data: unknown }> | null;
}

export interface PeerLike {
  readonly connectionState: RTCPeerConnectionState;
  readonly remoteDescription: unknown;
  readonly localDescription: { sdp: string } | null;
  addTransceiver(
    kind: 'audio' | 'video',
    init: { direction: RTCRtpTransceiverDirection },
  ): { sender: { replaceTrack(track: MediaStreamTrack | null): Promise<void> } };
  createDataChannel(label: string, init?: RTCDataChannelInit): DataChannelLike;
  createOffer(): Promise<{ sdp?: string }>;
  setLocalDescription(description: { type: 'offer'; sdp?: string }): Promise<void>;
  setRemoteDescription(description: { type: 'answer'; sdp: string }): Promise<void>;
  addIceCandidate(candidate: RTCIceCandidateInit): Promise<void>;
  getStats(): Promise<ReadonlyMap<string, unknown>>;
  close(): void;
  onicecandidate: Handler<{ candidate: { toJSON(): RTCIceCandidateInit } | null }> | null;
  ontrack: Handler<{
    track: MediaStreamTrack;
    streams: readonly MediaStream[];
    /** Chromium's `jitterBufferTarget` (ms) asks for the least buffering: live driving beats smoothness. */
    receiver?: { jitterBufferTarget?: number | null };
  }> | null;
  onconnectionstatechange: Handler<Event> | null;
}

export type PeerFactory = (config: { iceServers: IceServer[] }) => PeerLike;
export interface TeleopSignalling {
  openTeleop(listener: TeleopLinkListener): TeleopLink;
}

export interface TeleopSessionOptions {
  robotId: number;
  /** `control` asks for the controls when joining (drive mode); `watch` only watches. */
  want: 'control' | 'watch';
  signalling: TeleopSignalling;
  createPeer?: PeerFactory;
  /** The controller's input (keys, joystick, game controller). */
  input?: ControlInput;
  getGamepads?: () => ReadonlyArray<GamepadLike | null>;
  /** Sender's epoch time in ms (fractional) for the robot's latency figures. */
  now?: () => number;
  /** MediaStream constructor (absent outside browsers). */
  createStream?: (tracks: MediaStreamTrack[]) => MediaStream;
}

// ---------------------------------------------------------------- what the screen shows

/**
 * waiting: the socket is not (yet, or no longer) connected; joining: the join is on its way;
 * connecting: joined, the peer is being set up; connected: video and channels flow; closed: the
 * session ended (closedReason), offer to reconnect; failed: the server refused (error).
 */
export type TeleopPhase = 'waiting' | 'joining' | 'connecting' | 'connected' | 'closed' | 'failed';
export type TeleopEndReason = TeleopCloseReason | 'peerFailed';
export type ChannelState = 'none' | 'connecting' | 'open' | 'closed';

/** Something the operator should be told once (shown as a notification, kept until dismissed). */
export type TeleopNotice =
  | { id: number; kind: 'takenOver'; by: string | null }
  | { id: number; kind: 'granted' }
  | { id: number; kind: 'refused'; code: string; message: string };

export interface TeleopSnapshot {
  phase: TeleopPhase;
  sessionId: string | null;
  role: TeleopRole | null;
  /** Who has the controls (null: nobody). */
  controller: TeleopOperator | null;
  /** RTCPeerConnection state ('new' before the peer exists). */
  peerState: RTCPeerConnectionState;
  controlChannel: ChannelState;
  commandChannel: ChannelState;
  /** The robot's last status on the command channel. */
  peerStatus: TeleopPeerStatus | null;
  videoStream: MediaStream | null;
  audioStream: MediaStream | null;
  closedReason: TeleopEndReason | null;
  error: { code: string; message: string } | null;
  notice: TeleopNotice | null;
}

const initialSnapshot: TeleopSnapshot = {
  phase: 'waiting',
  sessionId: null,
  role: null,
  controller: null,
  peerState: 'new',
  controlChannel: 'none',
  commandChannel: 'none',
  peerStatus: null,
  videoStream: null,
  audioStream: null,
  closedReason: null,
  error: null,
  notice: null,
};

/** Read by end-to-end tests and the benchmark (window.__teleopDebug): a plain object, kept current. */
export interface TeleopDebug {
  sessionId: string | null;
  role: TeleopRole | null;
  /** Control messages sent. */
  sent: number;
}

const defaultNow = () => performance.timeOrigin + performance.now();
const defaultPeer: PeerFactory = (config) => new RTCPeerConnection(config);
const defaultStream = (tracks: MediaStreamTrack[]) => new MediaStream(tracks);
const noGamepads = () => [];

interface Peer {
  pc: PeerLike;
  control: DataChannelLike;
  command: DataChannelLike;
  audioSender: { replaceTrack(track: MediaStreamTrack | null): Promise<void> };
  /** Robot candidates that arrived before its answer. */
  pendingCandidates: RTCIceCandidateInit[];
  seq: number;
}

export class TeleopSession {
  readonly robotId: number;
  readonly input: ControlInput;
  readonly debug: TeleopDebug = { sessionId: null, role: null, sent: 0 };
  private want: 'control' | 'watch';
  private snapshot: TeleopSnapshot = initialSnapshot;
  private readonly listeners = new Set<() => void>();
  private link: TeleopLink | null = null;
  private peer: Peer | null = null;
  private iceServers: IceServer[] = [];
  private loop: ReturnType<typeof setInterval> | null = null;
  private joinTimer: ReturnType<typeof setTimeout> | null = null;
  private micTrack: MediaStreamTrack | null = null;
  private noticeId = 0;
  private readonly opts: Required<Omit<TeleopSessionOptions, 'input'>>;

  constructor(options: TeleopSessionOptions) {
    this.robotId = options.robotId;
    this.want = options.want;
    this.input = options.input ?? new ControlInput();
    this.opts = {
      createPeer: defaultPeer,
      getGamepads: noGamepads,
      now: defaultNow,
      createStream: defaultStream,
      ...options,
    };
  }

  // ---------------------------------------------------------------- store

  getSnapshot = (): TeleopSnapshot => this.snapshot;

  subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  private set(patch: Partial<TeleopSnapshot>): void {
    this.snapshot = { ...this.snapshot, ...patch };
    this.debug.sessionId = this.snapshot.sessionId;
    this.debug.role = this.snapshot.role;
    this.listeners.forEach((l) => l());
  }

  // ---------------------------------------------------------------- life cycle

  /** Opens the link and joins (again, after {@link dispose}: React mounts effects twice in development). */
  start(): void {
    if (this.link) return;
    this.snapshot = { ...initialSnapshot };
    this.link = this.opts.signalling.openTeleop({
      message: (msg) => this.onMessage(msg),
      ready: () => {
        if (this.snapshot.phase === 'waiting') this.scheduleJoin();
      },
      lost: () => {
        // The server forgot the session and the robot closes its peer: join anew once reconnected.
        this.teardown();
        if (this.snapshot.phase === 'closed' || this.snapshot.phase === 'failed') return;
        this.set({ ...this.resetPart(), phase: 'waiting' });
      },
    });
    if (this.link.isReady()) this.scheduleJoin();
  }

  /** Leaves the session (unmount, page hidden for good) and stops listening. */
  dispose(): void {
    this.cancelJoin();
    this.leaveSession();
    this.link?.close();
    this.link = null;
  }

  /** Leaves and stays on the page: the session shows as closed ('left'), with a way back. */
  leave(): void {
    this.cancelJoin();
    this.leaveSession();
    this.set({ ...this.resetPart(), phase: 'closed', closedReason: 'left' });
  }

  /** After a close or a failure: a new session (the robot starts a new peer). */
  reconnect(): void {
    this.cancelJoin();
    this.leaveSession();
    this.set({ ...this.resetPart(), phase: 'waiting', closedReason: null, error: null });
    if (!this.link) this.start();
    else if (this.link.isReady()) this.scheduleJoin();
  }

  /**
   * The join waits for the end of the current task: React's development double mount starts and
   * disposes at once, and a join already sent would leave a session behind on the server.
   */
  private scheduleJoin(): void {
    this.cancelJoin();
    this.joinTimer = setTimeout(() => {
      this.joinTimer = null;
      this.join();
    }, 0);
  }

  private cancelJoin(): void {
    if (this.joinTimer) clearTimeout(this.joinTimer);
    this.joinTimer = null;
  }

  private join(): void {
    if (!this.link?.send({ type: 'teleop.join', robotId: this.robotId, want: this.want })) return;
    this.set({ phase: 'joining', error: null, closedReason: null });
  }

  private leaveSession(): void {
    const { sessionId } = this.snapshot;
    if (sessionId) this.link?.send({ type: 'teleop.leave', sessionId });
    this.teardown();
  }

  private resetPart(): Partial<TeleopSnapshot> {
    return {
      sessionId: null,
      role: null,
      peerState: 'new',
      controlChannel: 'none',
      commandChannel: 'none',
      peerStatus: null,
      videoStream: null,
      audioStream: null,
    };
  }

  // ---------------------------------------------------------------- controls lock

  /** Ask for the controls (nobody has them). */
  requestControl(): void {
    this.want = 'control';
    this.sendWithSession('teleop.request');
  }

  /** Administrators: take the controls from the current controller. */
  takeOver(): void {
    this.want = 'control';
    this.sendWithSession('teleop.takeover');
  }

  /** Give the controls up and keep watching. */
  release(): void {
    this.want = 'watch';
    this.input.releaseAll();
    this.sendWithSession('teleop.release');
  }

  dismissNotice(): void {
    if (this.snapshot.notice) this.set({ notice: null });
  }

  private sendWithSession(type: 'teleop.request' | 'teleop.takeover' | 'teleop.release'): void {
    const { sessionId } = this.snapshot;
    if (sessionId) this.link?.send({ type, sessionId });
  }

  private nextNoticeId(): number {
    this.noticeId += 1;
    return this.noticeId;
  }

  // ---------------------------------------------------------------- signalling

  private onMessage(msg: TeleopServerMessage): void {
    switch (msg.type) {
      case 'teleop.joined':
        if (this.snapshot.phase !== 'joining' || msg.robotId !== this.robotId) return;
        this.iceServers = msg.iceServers;
        this.set({ phase: 'connecting', sessionId: msg.sessionId, role: msg.role, controller: msg.controller });
        void this.openPeer(msg.sessionId);
        return;
      case 'teleop.error':
        if (msg.sessionId !== undefined && msg.sessionId === this.snapshot.sessionId) {
          this.set({ notice: { id: this.nextNoticeId(), kind: 'refused', code: msg.code, message: msg.message } });
        } else if (msg.sessionId === undefined && this.snapshot.phase === 'joining') {
          this.set({ phase: 'failed', error: { code: msg.code, message: msg.message } });
        }
        return;
      case 'teleop.signal':
        if (msg.sessionId !== this.snapshot.sessionId) return;
        void this.applySignal(msg.signal);
        return;
      case 'teleop.controller': {
        if (msg.sessionId !== this.snapshot.sessionId) return;
        const before = this.snapshot.role;
        let notice = this.snapshot.notice;
        if (before === 'controller' && msg.role === 'viewer' && msg.reason === 'takenOver')
          notice = { id: this.nextNoticeId(), kind: 'takenOver', by: msg.by?.name ?? null };
        else if (before === 'viewer' && msg.role === 'controller')
          notice = { id: this.nextNoticeId(), kind: 'granted' };
        if (msg.role !== 'controller') this.input.releaseAll();
        this.set({ role: msg.role, controller: msg.controller, notice });
        this.updateLoop();
        return;
      }
      case 'teleop.closed':
        if (msg.sessionId !== this.snapshot.sessionId) return;
        this.teardown();
        this.set({ ...this.resetPart(), phase: 'closed', closedReason: msg.reason });
    }
  }

  private async openPeer(sessionId: string): Promise<void> {
    let pc: PeerLike;
    try {
      pc = this.opts.createPeer({ iceServers: this.iceServers });
    } catch {
      this.failPeer();
      return;
    }
    pc.addTransceiver('video', { direction: 'recvonly' });
    // Sends nothing until push-to-talk puts the microphone track on it.
    const audio = pc.addTransceiver('audio', { direction: 'sendrecv' });
    const control = pc.createDataChannel(CONTROL_CHANNEL, { ordered: false, maxRetransmits: 0 });
    const command = pc.createDataChannel(COMMAND_CHANNEL);
    const peer: Peer = { pc, control, command, audioSender: audio.sender, pendingCandidates: [], seq: 0 };
    this.peer = peer;
    const current = () => this.peer === peer;

    pc.onicecandidate = (ev) => {
      if (!current() || !ev.candidate) return;
      const c = ev.candidate.toJSON();
      if (!c.candidate) return;
      this.link?.send({
        type: 'teleop.signal',
        sessionId,
        signal: {
          kind: 'candidate',
          candidate: { candidate: c.candidate, sdpMid: c.sdpMid ?? null, sdpMLineIndex: c.sdpMLineIndex ?? null },
        },
      });
    };
    pc.ontrack = (ev) => {
      if (!current()) return;
      // Teleoperation wants the newest frame now, not a smooth one later: no extra playout delay.
      if (ev.receiver && 'jitterBufferTarget' in ev.receiver) {
        try {
          ev.receiver.jitterBufferTarget = 0;
        } catch {
          // a browser that does not let it be set keeps its default
        }
      }
      const stream = ev.streams[0] ?? this.opts.createStream([ev.track]);
      this.set(ev.track.kind === 'video' ? { videoStream: stream } : { audioStream: stream });
    };
    pc.onconnectionstatechange = () => {
      if (!current()) return;
      const state = pc.connectionState;
      if (state === 'failed') {
        this.failPeer();
        return;
      }
      this.set({ peerState: state, phase: state === 'connected' ? 'connected' : 'connecting' });
    };
    const channelState = (key: 'controlChannel' | 'commandChannel', state: ChannelState) => {
      if (!current()) return;
      this.set({ [key]: state });
      this.updateLoop();
    };
    control.onopen = () => channelState('controlChannel', 'open');
    control.onclose = () => channelState('controlChannel', 'closed');
    command.onopen = () => channelState('commandChannel', 'open');
    command.onclose = () => channelState('commandChannel', 'closed');
    command.onmessage = (ev) => {
      if (!current() || typeof ev.data !== 'string') return;
      let data: unknown;
      try {
        data = JSON.parse(ev.data);
      } catch {
        return;
      }
      const status = teleopPeerStatusSchema.safeParse(data);
      if (status.success) this.set({ peerStatus: status.data });
    };
    this.set({ controlChannel: 'connecting', commandChannel: 'connecting', peerState: pc.connectionState });
    if (this.micTrack) void audio.sender.replaceTrack(this.micTrack).catch(() => undefined);

    try {
      const offer = await pc.createOffer();
      if (!current()) return;
      await pc.setLocalDescription({ type: 'offer', sdp: offer.sdp });
      if (!current()) return;
      const sdp = pc.localDescription?.sdp ?? offer.sdp ?? '';
      this.link?.send({ type: 'teleop.signal', sessionId, signal: { kind: 'offer', sdp } });
    } catch {
      if (current()) this.failPeer();
    }
  }

  private async applySignal(signal: Extract<TeleopServerMessage, { type: 'teleop.signal' }>['signal']): Promise<void> {
    const peer = this.peer;
    if (!peer) return;
    try {
      if (signal.kind === 'answer') {
        await peer.pc.setRemoteDescription({ type: 'answer', sdp: signal.sdp });
        const queued = peer.pendingCandidates.splice(0);
        for (const c of queued) await peer.pc.addIceCandidate(c);
      } else if (!peer.pc.remoteDescription) peer.pendingCandidates.push(signal.candidate);
      else await peer.pc.addIceCandidate(signal.candidate);
    } catch {
      // A candidate the browser cannot use is skipped; a bad answer shows as a failed connection.
      if (signal.kind === 'answer' && this.peer === peer) this.failPeer();
    }
  }

  /** The peer could not connect: leave (the server would keep the session and maybe the controls). */
  private failPeer(): void {
    this.leaveSession();
    this.set({ ...this.resetPart(), phase: 'closed', closedReason: 'peerFailed', peerState: 'failed' });
  }

  private teardown(): void {
    this.stopLoop();
    const peer = this.peer;
    this.peer = null;
    if (!peer) return;
    peer.pc.onicecandidate = peer.pc.ontrack = peer.pc.onconnectionstatechange = null;
    for (const ch of [peer.control, peer.command]) {
      ch.onopen = ch.onclose = ch.onmessage = null;
      try {
        ch.close();
      } catch {
        // Already closed.
      }
    }
    try {
      peer.pc.close();
    } catch {
      // Already closed.
    }
  }

  // ---------------------------------------------------------------- control and commands

  private updateLoop(): void {
    const driving = this.snapshot.role === 'controller' && this.peer?.control.readyState === 'open';
    if (driving && !this.loop) this.loop = setInterval(() => this.sendControl(), CONTROL_INTERVAL_MS);
    else if (!driving) this.stopLoop();
  }

  private stopLoop(): void {
    if (this.loop) clearInterval(this.loop);
    this.loop = null;
  }

  /** Sends the current input now (Space: the stop must not wait for the next tick). */
  sendControl(): boolean {
    const peer = this.peer;
    if (!peer || this.snapshot.role !== 'controller' || peer.control.readyState !== 'open') return false;
    const cmd = this.input.read(this.opts.getGamepads());
    const msg: ControlMessage = { seq: peer.seq, t: this.opts.now(), ...cmd };
    try {
      peer.control.send(JSON.stringify(msg));
    } catch {
      return false; // Closing: the robot's dead-man stops it.
    }
    peer.seq += 1;
    this.debug.sent += 1;
    return true;
  }

  /** Space, the stop button, the controller's stop button: stop at once. */
  stopNow(): void {
    this.input.stop();
    this.sendControl();
  }

  /** Camera, video setting or thermal colour map (the robot answers with a new status). */
  sendCommand(command: TeleopCommand): boolean {
    const ch = this.peer?.command;
    if (!ch || ch.readyState !== 'open') return false;
    ch.send(JSON.stringify(command));
    return true;
  }

  /** Push-to-talk: the microphone track while talking, null when released. */
  async setMicrophone(track: MediaStreamTrack | null): Promise<void> {
    this.micTrack = track;
    await this.peer?.audioSender.replaceTrack(track);
  }

  /** The peer's statistics (null without a peer). */
  getStats(): Promise<ReadonlyMap<string, unknown>> | null {
    return this.peer ? this.peer.pc.getStats() : null;
  }
}
