import {
  COMMAND_CHANNEL,
  CONTROL_CHANNEL,
  teleopCommandSchema,
  VIDEO_MODE_SPECS,
  type CameraId,
  type IceServer,
  type TeleopPeerStatus,
  type TeleopReplyMessage,
  type TeleopRobotMessage,
  type ThermalColorMap,
  type VideoMode,
} from '@portal/contract';
import { Worker } from 'node:worker_threads';
import type { CameraView } from '../video/render.ts';
import type { RenderReply, RenderRequest } from '../video/render-worker.ts';
import type { World } from '../world.ts';
import type { TeleopController } from './controller.ts';
import { loadWrtc, type WrtcAudioSink, type WrtcDataChannel, type WrtcPeerConnection, type WrtcTrack } from './wrtc.ts';

/** What a teleop endpoint needs from its robot. */
export interface TeleopHost {
  readonly serialNumber: string;
  readonly controller: TeleopController;
  /** Sends a message on the robot's `teleopReply` topic. */
  reply(message: TeleopReplyMessage): void;
  cameras(): CameraId[];
  /** The camera view's inputs as they are now (pose, world, gimbal, periscope, thermal settings). */
  view(): Omit<CameraView, 'camera' | 'now' | 'label'>;
  /** Why manual driving is refused now (reported to the browser), or null. */
  blocked(): string | null;
  /** Operator audio arrived (push-to-talk): RMS level 0..1 of a 10 ms frame. */
  operatorAudio?(level: number): void;
  /** Call-in customer service: during a conversation the robot's microphone hears the caller. */
  callState?(): 'idle' | 'calling' | 'conversation';
}

export interface TeleopEndpoint {
  /** A message from the portal on the robot's `teleop` topic (already validated). */
  handle(message: TeleopRobotMessage): void;
  /** Closes every peer (the robot stops if driven). */
  close(): void;
}

/** Makes the teleop endpoint of one robot. */
export type TeleopProvider = (host: TeleopHost) => TeleopEndpoint;

export interface WebrtcTeleopOptions {
  /** Video setting until the browser chooses one; default `medium` (720p, 8 fps). */
  defaultVideo?: VideoMode;
}

const AUDIO_RATE = 48_000;
const AUDIO_FRAME = AUDIO_RATE / 100; // 10 ms

interface Peer {
  id: string;
  pc: WrtcPeerConnection;
  command: WrtcDataChannel | null;
  camera: CameraId;
  video: VideoMode;
  thermalColorMap: ThermalColorMap | null;
  /** A frame of this peer is being rendered (the next tick skips rather than queues). */
  rendering: boolean;
  frameTimer: NodeJS.Timeout | null;
  tracks: WrtcTrack[];
  sink: WrtcAudioSink | null;
  lastStatus: string;
  closed: boolean;
  /** Candidates that arrived before the offer was applied. */
  early: TeleopRobotMessage[];
  ready: boolean;
}

/**
 * The browser's offer with a receive bandwidth for its video section (`b=AS`, kbps): libwebrtc then
 * holds its encoder to the video setting's bitrate. (Capping through RTCRtpSender.setParameters is
 * refused by @roamhq/wrtc, so the cap is set once, when the session starts.)
 */
export function withVideoBandwidth(sdp: string, kbps: number): string {
  const lines = sdp.split(/\r\n/);
  const out: string[] = [];
  let inVideo = false;
  let placed = false;
  for (const line of lines) {
    if (line.startsWith('m=')) {
      inVideo = line.startsWith('m=video');
      placed = false;
    } else if (inVideo && line.startsWith('b=')) continue; // replaced below
    out.push(line);
    // b= goes right after the section's c= line (RFC 4566 order: m, i, c, b).
    if (inVideo && !placed && line.startsWith('c=')) {
      out.push(`b=AS:${kbps}`);
      placed = true;
    }
  }
  return out.join('\r\n');
}

const sizeOf = (mode: VideoMode) => {
  const [w, h] = VIDEO_MODE_SPECS[mode].resolution.split('x').map(Number) as [number, number];
  return { width: w, height: h };
};

/**
 * Teleoperation over WebRTC with libwebrtc (@roamhq/wrtc): answers the browser's offer, streams a
 * synthetic camera view (video/render.ts) at the chosen video setting, plays a quiet audio track,
 * and feeds the unordered control channel into the TeleopController (dead-man included).
 */
export function webrtcTeleop(options: WebrtcTeleopOptions = {}): TeleopProvider {
  return (host) => {
    const wrtc = loadWrtc();
    const peers = new Map<string, Peer>();
    const audioSource = new wrtc.nonstandard.RTCAudioSource();
    const silence = new Int16Array(AUDIO_FRAME);
    const voice = new Int16Array(AUDIO_FRAME);
    let phase = 0;
    /** The caller at the robot, simulated: a soft voice-like tone, in syllables of about 0.2 s. */
    const callerVoice = (): Int16Array => {
      for (let i = 0; i < AUDIO_FRAME; i++, phase++) {
        const t = phase / AUDIO_RATE;
        const syllable = Math.max(0, Math.sin(2 * Math.PI * 2.5 * t));
        voice[i] = Math.round(
          3000 * syllable * (Math.sin(2 * Math.PI * 180 * t) + 0.4 * Math.sin(2 * Math.PI * 360 * t)),
        );
      }
      return voice;
    };
    // One shared 10 ms audio clock for all peers of the robot: what the robot's microphone hears.
    let audioTimer: NodeJS.Timeout | null = null;
    const startAudio = () => {
      audioTimer ??= setInterval(() => {
        const samples = host.callState?.() === 'conversation' ? callerVoice() : silence;
        audioSource.onData({ samples, sampleRate: AUDIO_RATE, bitsPerSample: 16, channelCount: 1 });
      }, 10);
    };
    const stopAudio = () => {
      if (audioTimer && peers.size === 0) {
        clearInterval(audioTimer);
        audioTimer = null;
      }
    };
    const offStatus = host.controller.onStatus(() => {
      for (const p of peers.values()) sendStatus(p);
    });
    // What blocks driving (e-stop, a wall ahead...) changes with the robot: status goes out on change.
    const statusTimer = setInterval(() => {
      for (const p of peers.values()) sendStatus(p);
    }, 250);
    statusTimer.unref();

    function statusOf(p: Peer): TeleopPeerStatus {
      const s = host.controller.status();
      return {
        type: 'status',
        camera: p.camera,
        cameras: host.cameras(),
        video: p.video,
        thermalColorMap: p.thermalColorMap ?? host.view().thermal.colorMap,
        controller: s.controller === p.id,
        deadmanStopped: s.deadmanStopped && s.controller === p.id,
        blocked: host.blocked(),
      };
    }

    function sendStatus(p: Peer, force = false): void {
      const ch = p.command;
      if (!ch || ch.readyState !== 'open') return;
      const text = JSON.stringify(statusOf(p));
      if (!force && text === p.lastStatus) return;
      p.lastStatus = text;
      try {
        ch.send(text);
      } catch {
        // closing
      }
    }

    // Frames are rendered on a worker thread: the robot's event loop stays free for control input.
    let worker: Worker | null = null;
    let workerReady = false;
    let nextRequest = 1;
    const pending = new Map<number, Peer>();
    const worldKeys = new WeakMap<World, string>();
    const sentWorlds = new Set<string>();
    const keyOfWorld = (w: World) => {
      let k = worldKeys.get(w);
      if (!k) worldKeys.set(w, (k = `${w.mapId}#${nextRequest++}`));
      return k;
    };
    function renderer(): Worker {
      if (worker) return worker;
      // The simulator runs as TypeScript through tsx; a worker's entry does not get tsx's loader from
      // --import, so it registers it itself before loading the renderer.
      const url = new URL('../video/render-worker.ts', import.meta.url).href;
      const w = new Worker(
        `import('tsx/esm/api').then(({ register }) => { register(); return import(${JSON.stringify(url)}); })`,
        { eval: true },
      );
      workerReady = false;
      w.unref();
      w.on('message', (reply: RenderReply | { ready: true }) => {
        if ('ready' in reply) {
          workerReady = true;
          return;
        }
        const p = pending.get(reply.id);
        pending.delete(reply.id);
        if (!p) return;
        p.rendering = false;
        const source = videoSources.get(p.id);
        const size = sizeOf(p.video);
        if (p.closed || !source || size.width !== reply.width) return;
        source.onFrame({ width: reply.width, height: reply.height, data: reply.data });
      });
      w.on('error', (err) => {
        console.error(`${host.serialNumber}: video renderer failed: ${err.message}`);
        worker = null;
        sentWorlds.clear();
        for (const p of pending.values()) p.rendering = false;
        pending.clear();
      });
      worker = w;
      return w;
    }
    function stopRenderer(): void {
      if (!worker || peers.size > 0) return;
      void worker.terminate();
      worker = null;
      sentWorlds.clear();
      pending.clear();
    }

    function startVideo(p: Peer): void {
      if (p.frameTimer) clearInterval(p.frameTimer);
      const frame = () => {
        if (p.closed || p.rendering) return;
        const w = renderer();
        if (!workerReady) return; // frames start once the renderer has loaded
        const { world, ...v } = host.view();
        const worldKey = keyOfWorld(world);
        const first = !sentWorlds.has(worldKey);
        sentWorlds.add(worldKey);
        const { width, height } = sizeOf(p.video);
        const id = nextRequest++;
        const req: RenderRequest = {
          id,
          width,
          height,
          worldKey,
          world: first
            ? { mapId: world.mapId, bounds: world.bounds, walls: world.walls, pillars: world.pillars }
            : null,
          view: {
            ...v,
            thermal: p.thermalColorMap ? { ...v.thermal, colorMap: p.thermalColorMap } : v.thermal,
            camera: p.camera,
            now: Date.now(),
            label: `${p.camera} ${p.video}`,
          },
        };
        p.rendering = true;
        pending.set(id, p);
        w.postMessage(req);
      };
      frame();
      p.frameTimer = setInterval(frame, 1000 / VIDEO_MODE_SPECS[p.video].fps);
    }
    const videoSources = new Map<string, ReturnType<typeof newVideoSource>>();
    const newVideoSource = () => new wrtc.nonstandard.RTCVideoSource();

    function close(p: Peer, reason: string | null): void {
      if (p.closed) return;
      p.closed = true;
      peers.delete(p.id);
      if (p.frameTimer) clearInterval(p.frameTimer);
      p.sink?.stop();
      for (const t of p.tracks) t.stop();
      videoSources.delete(p.id);
      host.controller.close(p.id);
      try {
        p.pc.close();
      } catch {
        // already closed
      }
      if (reason !== null) host.reply({ kind: 'closed', sessionId: p.id, reason });
      stopAudio();
      stopRenderer();
    }

    function onCommand(p: Peer, raw: string): void {
      let json: unknown;
      try {
        json = JSON.parse(raw);
      } catch {
        return;
      }
      const parsed = teleopCommandSchema.safeParse(json);
      if (!parsed.success) return;
      const c = parsed.data;
      if (c.type === 'camera') {
        if (!host.cameras().includes(c.camera)) return sendStatus(p, true);
        p.camera = c.camera;
      } else if (c.type === 'video') {
        p.video = c.mode;
        startVideo(p);
      } else {
        p.thermalColorMap = c.colorMap;
      }
      sendStatus(p, true);
    }

    async function offer(m: Extract<TeleopRobotMessage, { kind: 'offer' }>): Promise<void> {
      const existing = peers.get(m.sessionId);
      if (existing) close(existing, null);
      const pc = new wrtc.RTCPeerConnection({ iceServers: m.iceServers as IceServer[] });
      const cameras = host.cameras();
      const p: Peer = {
        id: m.sessionId,
        pc,
        command: null,
        camera: cameras[0] ?? 'v1',
        video: m.video ?? options.defaultVideo ?? 'medium',
        thermalColorMap: null,
        rendering: false,
        frameTimer: null,
        tracks: [],
        sink: null,
        lastStatus: '',
        closed: false,
        early: [],
        ready: false,
      };
      peers.set(p.id, p);
      host.controller.setRole(p.id, m.role);
      pc.onicecandidate = (e) => {
        if (!e.candidate || p.closed) return;
        const c = e.candidate.toJSON ? e.candidate.toJSON() : e.candidate;
        host.reply({
          kind: 'candidate',
          sessionId: p.id,
          candidate: { candidate: c.candidate, sdpMid: c.sdpMid ?? null, sdpMLineIndex: c.sdpMLineIndex ?? null },
        });
      };
      pc.onconnectionstatechange = () => {
        if (pc.connectionState === 'failed' || pc.connectionState === 'closed')
          close(p, 'peer connection ' + pc.connectionState);
        else if (pc.connectionState === 'disconnected') host.controller.channelClosed(p.id);
      };
      pc.ondatachannel = ({ channel }) => {
        if (channel.label === CONTROL_CHANNEL) {
          channel.onmessage = (e) => {
            if (typeof e.data === 'string') host.controller.input(p.id, e.data);
          };
          channel.onclose = () => host.controller.channelClosed(p.id);
        } else if (channel.label === COMMAND_CHANNEL) {
          p.command = channel;
          channel.onopen = () => sendStatus(p, true);
          channel.onmessage = (e) => {
            if (typeof e.data === 'string') onCommand(p, e.data);
          };
          if (channel.readyState === 'open') sendStatus(p, true);
        }
      };
      pc.ontrack = ({ track }) => {
        if (track.kind !== 'audio' || !host.operatorAudio) return;
        const sink = new wrtc.nonstandard.RTCAudioSink(track);
        p.sink = sink;
        sink.ondata = ({ samples }) => {
          let sum = 0;
          for (let i = 0; i < samples.length; i++) sum += samples[i]! * samples[i]!;
          host.operatorAudio?.(Math.sqrt(sum / Math.max(1, samples.length)) / 32768);
        };
      };
      try {
        await pc.setRemoteDescription({
          type: 'offer',
          sdp: withVideoBandwidth(m.sdp, VIDEO_MODE_SPECS[p.video].kbps),
        });
        const source = newVideoSource();
        videoSources.set(p.id, source);
        const videoTrack = source.createTrack();
        const audioTrack = audioSource.createTrack();
        p.tracks.push(videoTrack, audioTrack);
        const stream = new wrtc.MediaStream();
        pc.addTrack(videoTrack, stream);
        pc.addTrack(audioTrack, stream);
        const answer = await pc.createAnswer();
        await pc.setLocalDescription(answer);
        if (p.closed) return;
        host.reply({ kind: 'answer', sessionId: p.id, sdp: pc.localDescription?.sdp ?? answer.sdp });
        p.ready = true;
        for (const c of p.early.splice(0)) handle(c);
        startAudio();
        startVideo(p);
      } catch (err) {
        close(p, `could not answer the offer: ${(err as Error).message}`);
      }
    }

    function handle(m: TeleopRobotMessage): void {
      if (m.kind === 'offer') {
        void offer(m);
        return;
      }
      const p = peers.get(m.sessionId);
      if (!p) {
        if (m.kind !== 'close') host.reply({ kind: 'closed', sessionId: m.sessionId, reason: 'no such session' });
        return;
      }
      switch (m.kind) {
        case 'candidate':
          if (!p.ready) {
            p.early.push(m);
            return;
          }
          p.pc.addIceCandidate(m.candidate).catch(() => undefined);
          return;
        case 'role':
          host.controller.setRole(p.id, m.role);
          sendStatus(p, true);
          return;
        case 'close':
          close(p, null);
          return;
      }
    }

    return {
      handle,
      close() {
        offStatus();
        clearInterval(statusTimer);
        for (const p of [...peers.values()]) close(p, 'robot stopping');
        if (audioTimer) clearInterval(audioTimer);
        audioTimer = null;
      },
    };
  };
}
