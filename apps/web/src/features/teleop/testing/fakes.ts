import type { TeleopServerMessage, TeleopClientMessage, TeleopLink, TeleopLinkListener } from '@/lib/realtime';
import type { DataChannelLike, PeerLike, TeleopSignalling } from '../lib/teleop-session';

/** Test doubles of the browser's WebRTC objects and of the app's socket (driven by the tests). */

export class FakeChannel implements DataChannelLike {
  readyState: RTCDataChannelState = 'connecting';
  sent: string[] = [];
  onopen: DataChannelLike['onopen'] = null;
  onclose: DataChannelLike['onclose'] = null;
  onmessage: DataChannelLike['onmessage'] = null;
  constructor(
    readonly label: string,
    readonly init: RTCDataChannelInit | undefined,
  ) {}
  send(data: string) {
    if (this.readyState !== 'open') throw new Error('channel not open');
    this.sent.push(data);
  }
  close() {
    this.readyState = 'closed';
  }
  /** The robot's side opened. */
  open() {
    this.readyState = 'open';
    this.onopen?.(new Event('open'));
  }
  /** The link dropped. */
  drop() {
    this.readyState = 'closed';
    this.onclose?.(new Event('close'));
  }
  receive(data: unknown) {
    this.onmessage?.({ data: JSON.stringify(data) });
  }
  parsed(): Array<Record<string, unknown>> {
    return this.sent.map((s) => JSON.parse(s) as Record<string, unknown>);
  }
}

export class FakePeer implements PeerLike {
  static all: FakePeer[] = [];
  connectionState: RTCPeerConnectionState = 'new';
  remoteDescription: { type: 'answer'; sdp: string } | null = null;
  localDescription: { sdp: string } | null = null;
  transceivers: Array<{ kind: string; direction: RTCRtpTransceiverDirection; track: MediaStreamTrack | null }> = [];
  channels: FakeChannel[] = [];
  candidates: RTCIceCandidateInit[] = [];
  closed = false;
  onicecandidate: PeerLike['onicecandidate'] = null;
  ontrack: PeerLike['ontrack'] = null;
  onconnectionstatechange: PeerLike['onconnectionstatechange'] = null;
  constructor(readonly config: { iceServers: unknown[] }) {
    FakePeer.all.push(this);
  }
  addTransceiver(kind: 'audio' | 'video', init: { direction: RTCRtpTransceiverDirection }) {
    const t = { kind, direction: init.direction, track: null as MediaStreamTrack | null };
    this.transceivers.push(t);
    return {
      sender: {
        replaceTrack: async (track: MediaStreamTrack | null) => {
          t.track = track;
        },
      },
    };
  }
  createDataChannel(label: string, init?: RTCDataChannelInit) {
    const ch = new FakeChannel(label, init);
    this.channels.push(ch);
    return ch;
  }
  async createOffer() {
    return { sdp: 'v=0 offer' };
  }
  async setLocalDescription(d: { type: 'offer'; sdp?: string }) {
    this.localDescription = { sdp: d.sdp ?? '' };
  }
  async setRemoteDescription(d: { type: 'answer'; sdp: string }) {
    this.remoteDescription = d;
  }
  async addIceCandidate(c: RTCIceCandidateInit) {
    this.candidates.push(c);
  }
  async getStats() {
    return new Map<string, unknown>();
  }
  close() {
    this.closed = true;
    this.connectionState = 'closed';
  }
  channel(label: string): FakeChannel {
    const ch = this.channels.find((c) => c.label === label);
    if (!ch) throw new Error(`no channel ${label}`);
    return ch;
  }
  setState(state: RTCPeerConnectionState) {
    this.connectionState = state;
    this.onconnectionstatechange?.(new Event('connectionstatechange'));
  }
  /** The browser found a local candidate. */
  emitCandidate(candidate: RTCIceCandidateInit) {
    this.onicecandidate?.({ candidate: { toJSON: () => candidate } });
  }
}

/** The app's socket as the session sees it: `sent` records messages, `deliver` plays the server. */
export class FakeSignalling implements TeleopSignalling {
  ready = true;
  sent: TeleopClientMessage[] = [];
  listener: TeleopLinkListener | null = null;
  closed = 0;
  openTeleop(listener: TeleopLinkListener): TeleopLink {
    this.listener = listener;
    return {
      isReady: () => this.ready && this.listener === listener,
      send: (msg) => {
        if (!this.ready || this.listener !== listener) return false;
        this.sent.push(msg);
        return true;
      },
      close: () => {
        if (this.listener === listener) this.listener = null;
        this.closed += 1;
      },
    };
  }
  deliver(msg: TeleopServerMessage) {
    this.listener?.message(msg);
  }
  types() {
    return this.sent.map((m) => m.type);
  }
  reconnect() {
    this.ready = true;
    this.listener?.ready();
  }
  drop() {
    this.ready = false;
    this.listener?.lost();
  }
}
