import { CONTROL_INTERVAL_MS, type TeleopPeerStatus } from '@portal/contract';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { FakePeer, FakeSignalling } from '../testing/fakes';
import { TeleopSession } from './teleop-session';

const operator = (operatorId: number, name: string) => ({ operatorId, name });
const iceServers = [{ urls: 'stun:stun.example:3478' }];

const status = (over: Partial<TeleopPeerStatus> = {}): TeleopPeerStatus => ({
  type: 'status',
  camera: 'v1',
  cameras: ['v1', 'v2'],
  video: 'high',
  thermalColorMap: 'normal',
  controller: true,
  deadmanStopped: false,
  blocked: null,
  ...over,
});

let signalling: FakeSignalling;
let clock = 1_000;

function newSession(want: 'control' | 'watch' = 'control') {
  return new TeleopSession({
    robotId: 5,
    want,
    signalling,
    createPeer: (config) => new FakePeer(config),
    now: () => clock,
  });
}

/** Starts, joins as `role` and lets the offer go out. */
async function joined(session: TeleopSession, role: 'controller' | 'viewer' = 'controller') {
  session.start();
  await vi.advanceTimersByTimeAsync(0);
  signalling.deliver({
    type: 'teleop.joined',
    robotId: 5,
    sessionId: 's-1',
    role,
    controller: role === 'controller' ? operator(7, 'Hanako Yamada') : operator(9, 'Taro Sato'),
    iceServers,
  });
  await vi.advanceTimersByTimeAsync(0);
  return FakePeer.all.at(-1)!;
}

beforeEach(() => {
  vi.useFakeTimers();
  FakePeer.all = [];
  signalling = new FakeSignalling();
  clock = 1_000;
});
afterEach(() => vi.useRealTimers());

describe('teleop session', () => {
  it('joins, opens the peer (video in, audio both ways, two channels) and sends the offer as teleop.signal', async () => {
    const session = newSession();
    session.start();
    expect(signalling.sent).toEqual([]); // the join waits for the end of the task (double mount)
    await vi.advanceTimersByTimeAsync(0);
    expect(signalling.sent).toEqual([{ type: 'teleop.join', robotId: 5, want: 'control' }]);
    expect(session.getSnapshot().phase).toBe('joining');

    const pc = await joined(session);
    expect(pc.config).toEqual({ iceServers });
    expect(pc.transceivers.map((t) => [t.kind, t.direction])).toEqual([
      ['video', 'recvonly'],
      ['audio', 'sendrecv'],
    ]);
    expect(pc.channels.map((c) => [c.label, c.init])).toEqual([
      ['control', { ordered: false, maxRetransmits: 0 }],
      ['command', undefined],
    ]);
    expect(signalling.sent.at(-1)).toEqual({
      type: 'teleop.signal',
      sessionId: 's-1',
      signal: { kind: 'offer', sdp: 'v=0 offer' },
    });
    const snap = session.getSnapshot();
    expect(snap).toMatchObject({ phase: 'connecting', sessionId: 's-1', role: 'controller' });
    expect(session.debug).toEqual({ sessionId: 's-1', role: 'controller', sent: 0 });
  });

  it('applies the answer, adds robot candidates (queued until the answer) and relays its own', async () => {
    const session = newSession();
    const pc = await joined(session);
    const early = { candidate: 'candidate:1 1 udp 1 10.0.0.2 5000 typ host', sdpMid: '0', sdpMLineIndex: 0 };
    signalling.deliver({ type: 'teleop.signal', sessionId: 's-1', signal: { kind: 'candidate', candidate: early } });
    await vi.advanceTimersByTimeAsync(0);
    expect(pc.candidates).toEqual([]);
    signalling.deliver({ type: 'teleop.signal', sessionId: 's-1', signal: { kind: 'answer', sdp: 'v=0 answer' } });
    await vi.advanceTimersByTimeAsync(0);
    expect(pc.remoteDescription).toEqual({ type: 'answer', sdp: 'v=0 answer' });
    expect(pc.candidates).toEqual([early]);
    const late = { candidate: 'candidate:2 1 udp 1 10.0.0.3 5001 typ host', sdpMid: '1', sdpMLineIndex: 1 };
    signalling.deliver({ type: 'teleop.signal', sessionId: 's-1', signal: { kind: 'candidate', candidate: late } });
    // Another session's signal is not ours.
    signalling.deliver({ type: 'teleop.signal', sessionId: 's-9', signal: { kind: 'candidate', candidate: late } });
    await vi.advanceTimersByTimeAsync(0);
    expect(pc.candidates).toEqual([early, late]);

    pc.emitCandidate({ candidate: 'candidate:3 1 udp 1 192.168.1.4 6000 typ host', sdpMid: '0', sdpMLineIndex: 0 });
    expect(signalling.sent.at(-1)).toEqual({
      type: 'teleop.signal',
      sessionId: 's-1',
      signal: {
        kind: 'candidate',
        candidate: { candidate: 'candidate:3 1 udp 1 192.168.1.4 6000 typ host', sdpMid: '0', sdpMLineIndex: 0 },
      },
    });
    pc.onicecandidate?.({ candidate: null }); // end of candidates: nothing to send
    expect(signalling.types().filter((t) => t === 'teleop.signal')).toHaveLength(2);

    pc.setState('connected');
    expect(session.getSnapshot()).toMatchObject({ phase: 'connected', peerState: 'connected' });
  });

  it('sends the control input every interval, only as controller with the channel open', async () => {
    const session = newSession();
    const pc = await joined(session);
    const control = pc.channel('control');
    vi.advanceTimersByTime(CONTROL_INTERVAL_MS * 3);
    expect(control.sent).toEqual([]); // not open yet

    control.open();
    session.input.keyDown('KeyW');
    clock = 2_000;
    vi.advanceTimersByTime(CONTROL_INTERVAL_MS);
    expect(control.parsed()).toEqual([{ seq: 0, t: 2_000, vx: 1, wz: 0, speed: 'normal', stop: false }]);
    session.input.keyUp('KeyW');
    vi.advanceTimersByTime(CONTROL_INTERVAL_MS * 4);
    // Idle: zeros, still every interval.
    expect(control.parsed()).toHaveLength(5);
    expect(control.parsed().at(-1)).toMatchObject({ seq: 4, vx: 0, wz: 0 });
    expect(session.debug.sent).toBe(5);

    // Space goes out at once.
    session.stopNow();
    expect(control.parsed().at(-1)).toMatchObject({ seq: 5, stop: true });

    // Demoted: nothing more.
    signalling.deliver({
      type: 'teleop.controller',
      robotId: 5,
      sessionId: 's-1',
      role: 'viewer',
      controller: null,
      reason: 'released',
      by: null,
    });
    vi.advanceTimersByTime(CONTROL_INTERVAL_MS * 5);
    expect(control.sent).toHaveLength(6);
  });

  it('never sends control input as a viewer', async () => {
    const session = newSession('watch');
    const pc = await joined(session, 'viewer');
    expect(signalling.sent[0]).toEqual({ type: 'teleop.join', robotId: 5, want: 'watch' });
    pc.channel('control').open();
    vi.advanceTimersByTime(CONTROL_INTERVAL_MS * 5);
    expect(session.sendControl()).toBe(false);
    expect(pc.channel('control').sent).toEqual([]);
    expect(session.getSnapshot().controller).toEqual(operator(9, 'Taro Sato'));
  });

  it('tells the controller who took over (teleop.controller takenOver) and stops sending', async () => {
    const session = newSession();
    const pc = await joined(session);
    pc.channel('control').open();
    session.input.keyDown('KeyW');
    signalling.deliver({
      type: 'teleop.controller',
      robotId: 5,
      sessionId: 's-1',
      role: 'viewer',
      controller: operator(1, 'Admin Kato'),
      reason: 'takenOver',
      by: operator(1, 'Admin Kato'),
    });
    const snap = session.getSnapshot();
    expect(snap.role).toBe('viewer');
    expect(snap.controller?.name).toBe('Admin Kato');
    expect(snap.notice).toMatchObject({ kind: 'takenOver', by: 'Admin Kato' });
    expect(session.debug.role).toBe('viewer');
    expect(session.input.read().vx).toBe(0); // held keys are let go
    session.dismissNotice();
    expect(session.getSnapshot().notice).toBeNull();

    // Granted again later.
    signalling.deliver({
      type: 'teleop.controller',
      robotId: 5,
      sessionId: 's-1',
      role: 'controller',
      controller: operator(7, 'Hanako Yamada'),
      reason: 'granted',
      by: null,
    });
    expect(session.getSnapshot().notice).toMatchObject({ kind: 'granted' });
    vi.advanceTimersByTime(CONTROL_INTERVAL_MS);
    expect(pc.channel('control').sent.length).toBeGreaterThan(0);
  });

  it('sends request, takeover and release with its session id', async () => {
    const session = newSession('watch');
    await joined(session, 'viewer');
    session.requestControl();
    session.takeOver();
    session.release();
    expect(signalling.sent.slice(-3)).toEqual([
      { type: 'teleop.request', sessionId: 's-1' },
      { type: 'teleop.takeover', sessionId: 's-1' },
      { type: 'teleop.release', sessionId: 's-1' },
    ]);
  });

  it('reads the robot status from the command channel and sends commands on it', async () => {
    const session = newSession();
    const pc = await joined(session);
    const command = pc.channel('command');
    expect(session.sendCommand({ type: 'camera', camera: 'v2' })).toBe(false);
    command.open();
    command.receive(status({ deadmanStopped: true }));
    command.receive({ type: 'status', camera: 'nope' }); // not a status: ignored
    expect(session.getSnapshot().peerStatus).toEqual(status({ deadmanStopped: true }));
    expect(session.sendCommand({ type: 'camera', camera: 'v2' })).toBe(true);
    expect(command.parsed()).toEqual([{ type: 'camera', camera: 'v2' }]);
    expect(session.getSnapshot().commandChannel).toBe('open');
    pc.channel('control').open();
    pc.channel('control').drop();
    expect(session.getSnapshot().controlChannel).toBe('closed');
  });

  it('puts the microphone on the audio sender while talking', async () => {
    const session = newSession();
    const pc = await joined(session);
    const mic = { kind: 'audio' } as MediaStreamTrack;
    await session.setMicrophone(mic);
    expect(pc.transceivers[1]!.track).toBe(mic);
    await session.setMicrophone(null);
    expect(pc.transceivers[1]!.track).toBeNull();
  });

  it('leaves on dispose, closes the peer and the link', async () => {
    const session = newSession();
    const pc = await joined(session);
    session.dispose();
    expect(signalling.sent.at(-1)).toEqual({ type: 'teleop.leave', sessionId: 's-1' });
    expect(pc.closed).toBe(true);
    expect(signalling.closed).toBe(1);
  });

  it('does not join at all when disposed in the same task (development double mount)', async () => {
    const session = newSession();
    session.start();
    session.dispose();
    session.start();
    await vi.advanceTimersByTimeAsync(0);
    expect(signalling.types()).toEqual(['teleop.join']);
  });

  it('shows why the server closed the session and joins again on reconnect', async () => {
    const session = newSession();
    const pc = await joined(session);
    signalling.deliver({ type: 'teleop.closed', sessionId: 's-1', reason: 'robotOffline' });
    expect(session.getSnapshot()).toMatchObject({ phase: 'closed', closedReason: 'robotOffline', sessionId: null });
    expect(pc.closed).toBe(true);
    session.reconnect();
    await vi.advanceTimersByTimeAsync(0);
    expect(signalling.sent.at(-1)).toEqual({ type: 'teleop.join', robotId: 5, want: 'control' });
  });

  it('fails with the code when the join is refused', async () => {
    const session = newSession();
    session.start();
    await vi.advanceTimersByTimeAsync(0);
    signalling.deliver({ type: 'teleop.error', robotId: 5, code: 'ROBOT_OFFLINE', message: 'offline' });
    expect(session.getSnapshot()).toMatchObject({ phase: 'failed', error: { code: 'ROBOT_OFFLINE' } });
  });

  it('keeps a refused request as a notice without ending the session', async () => {
    const session = newSession('watch');
    await joined(session, 'viewer');
    signalling.deliver({ type: 'teleop.error', sessionId: 's-1', code: 'FORBIDDEN', message: 'no' });
    expect(session.getSnapshot()).toMatchObject({
      phase: 'connecting',
      notice: { kind: 'refused', code: 'FORBIDDEN' },
    });
  });

  it('joins again as a new session after the socket reconnects', async () => {
    const session = newSession();
    const pc = await joined(session);
    signalling.drop();
    expect(pc.closed).toBe(true);
    expect(session.getSnapshot()).toMatchObject({ phase: 'waiting', sessionId: null });
    signalling.reconnect();
    await vi.advanceTimersByTimeAsync(0);
    expect(signalling.sent.at(-1)).toEqual({ type: 'teleop.join', robotId: 5, want: 'control' });
    signalling.deliver({
      type: 'teleop.joined',
      robotId: 5,
      sessionId: 's-2',
      role: 'controller',
      controller: operator(7, 'Hanako Yamada'),
      iceServers,
    });
    await vi.advanceTimersByTimeAsync(0);
    expect(FakePeer.all).toHaveLength(2);
    expect(session.debug.sessionId).toBe('s-2');
  });

  it('leaves when the peer fails and offers to reconnect', async () => {
    const session = newSession();
    const pc = await joined(session);
    pc.setState('failed');
    expect(session.getSnapshot()).toMatchObject({ phase: 'closed', closedReason: 'peerFailed' });
    expect(signalling.sent.at(-1)).toEqual({ type: 'teleop.leave', sessionId: 's-1' });
  });
});
