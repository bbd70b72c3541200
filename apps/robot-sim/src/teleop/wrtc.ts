import { createRequire } from 'node:module';

/**
 * The part of @roamhq/wrtc (libwebrtc for Node: peer connections, data channels, and the
 * nonstandard RTCVideoSource that takes I420 frames) the simulator uses. Typed here because the
 * package's own types need the DOM library. Loaded lazily: a robot without teleoperation (the
 * 1,000-robot benchmarks, the server's tests) never loads the native module.
 */
export interface WrtcCandidate {
  candidate: string;
  sdpMid?: string | null;
  sdpMLineIndex?: number | null;
}
export interface WrtcDataChannel {
  readonly label: string;
  readonly readyState: 'connecting' | 'open' | 'closing' | 'closed';
  onopen: (() => void) | null;
  onclose: (() => void) | null;
  onmessage: ((e: { data: string | ArrayBuffer }) => void) | null;
  send(data: string): void;
  close(): void;
}
export interface WrtcTrack {
  readonly kind: 'audio' | 'video';
  stop(): void;
}
export interface WrtcPeerConnection {
  readonly connectionState: 'new' | 'connecting' | 'connected' | 'disconnected' | 'failed' | 'closed';
  onicecandidate: ((e: { candidate: (WrtcCandidate & { toJSON?: () => WrtcCandidate }) | null }) => void) | null;
  ondatachannel: ((e: { channel: WrtcDataChannel }) => void) | null;
  onconnectionstatechange: (() => void) | null;
  ontrack: ((e: { track: WrtcTrack }) => void) | null;
  addTrack(track: WrtcTrack, ...streams: unknown[]): unknown;
  setRemoteDescription(d: { type: 'offer' | 'answer'; sdp: string }): Promise<void>;
  createAnswer(): Promise<{ type: 'answer'; sdp: string }>;
  setLocalDescription(d: { type: 'answer'; sdp: string }): Promise<void>;
  readonly localDescription: { type: string; sdp: string } | null;
  addIceCandidate(c: WrtcCandidate): Promise<void>;
  close(): void;
}
export interface WrtcVideoSource {
  createTrack(): WrtcTrack;
  onFrame(frame: { width: number; height: number; data: Uint8Array | Uint8ClampedArray }): void;
}
export interface WrtcAudioSource {
  createTrack(): WrtcTrack;
  onData(data: { samples: Int16Array; sampleRate: number; bitsPerSample?: number; channelCount?: number }): void;
}
export interface WrtcAudioSink {
  ondata: ((d: { samples: Int16Array; sampleRate: number }) => void) | null;
  stop(): void;
}
export interface Wrtc {
  RTCPeerConnection: new (config: { iceServers: unknown[] }) => WrtcPeerConnection;
  MediaStream: new () => unknown;
  nonstandard: {
    RTCVideoSource: new () => WrtcVideoSource;
    RTCAudioSource: new () => WrtcAudioSource;
    RTCAudioSink: new (track: WrtcTrack) => WrtcAudioSink;
  };
}

let loaded: Wrtc | null = null;

/**
 * Loads the native WebRTC module once. Throws with an explanation when it is not installed.
 * @roamhq/wrtc can crash while Node tears a process down on its own (native threads outlive the
 * JavaScript heap): a process that loaded it ends through `process.exit`, which skips that teardown.
 */
export function loadWrtc(): Wrtc {
  if (loaded) return loaded;
  try {
    loaded = createRequire(import.meta.url)('@roamhq/wrtc') as Wrtc;
  } catch (err) {
    throw new Error(
      `WebRTC for Node (@roamhq/wrtc) could not be loaded: ${(err as Error).message}. ` +
        'Teleoperation video and control need it (npm ci installs it on Linux x64/arm64, macOS and Windows).',
    );
  }
  return loaded;
}
