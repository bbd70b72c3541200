import { describe, expect, it } from 'vitest';
import { DEADMAN_MS, type ControlInput, type VdaState } from '@portal/contract';
import { createWorld, RobotCore, TeleopController } from '../src/index.ts';
import { withVideoBandwidth } from '../src/teleop/webrtc.ts';

/**
 * The robot side of teleoperation control on a real RobotCore, driven by a fake clock: input drives
 * the robot, the dead-man stops it when input stops or the channel drops, watchers never drive, and
 * manual driving stops short of a wall (F0005).
 */
function setup() {
  // A 20 m × 10 m room with a wall across x = 8.
  const world = createWorld('floor-1', { x0: -2, y0: -5, x1: 18, y1: 5 }, [{ x0: 8, y0: -5, x1: 8.2, y1: 5 }]);
  const core = new RobotCore(
    {
      manufacturer: 'sim',
      serialNumber: 'T-1',
      model: 'mini',
      version: '2.1.0',
      mapId: 'floor-1',
      start: { x: 0, y: 0, theta: 0 },
      battery: 80,
      visualizationHz: 0,
      stateIntervalMs: 1000,
      chargers: [],
      speedScale: 1,
      actionTypes: [],
      world,
    },
    () => undefined,
  );
  let now = 1_000_000;
  const controller = new TeleopController(core, { now: () => now });
  let seq = 0;
  const send = (session: string, input: Partial<ControlInput> = {}) =>
    controller.input(session, JSON.stringify({ seq: seq++, t: now - 3, vx: 0, wz: 0, speed: 'normal', ...input }));
  /** Advances 50 ms: the robot's tick and the controller's dead-man check. */
  const tick = (n = 1) => {
    for (let i = 0; i < n; i++) {
      now += 50;
      controller.check();
      core.tick(now, new Date(now).toISOString());
    }
  };
  const state = (): VdaState => core.state();
  return { core, controller, send, tick, state, now: () => now };
}

describe('teleoperation control (robot side)', () => {
  it('drives with the controller’s input and stops by dead-man when input stops', () => {
    const { controller, send, tick, state } = setup();
    controller.setRole('s1', 'controller');
    tick();
    for (let i = 0; i < 20; i++) {
      send('s1', { vx: 1 });
      tick();
    }
    const moving = state();
    expect(moving.driving).toBe(true);
    expect(moving.agvPosition!.x).toBeGreaterThan(0.2);
    expect(moving.operatingMode).toBe('MANUAL');
    expect(controller.latencies.at(-1)).toBe(3);

    // Input stops: within DEADMAN_MS plus one tick the robot stands and says why.
    const ticks = Math.ceil(DEADMAN_MS / 50) + 1;
    tick(ticks);
    const stopped = state();
    expect(stopped.driving).toBe(false);
    expect(stopped.velocity).toMatchObject({ vx: 0, omega: 0 });
    expect(controller.status()).toEqual({ controller: 's1', deadmanStopped: true });
    const x = stopped.agvPosition!.x;
    tick(10);
    expect(state().agvPosition!.x).toBe(x);

    // Driving again clears the dead-man flag.
    send('s1', { vx: 1 });
    tick();
    expect(controller.status().deadmanStopped).toBe(false);

    // The controller leaves while driving: stopped by dead-man; a new controller starts clean.
    controller.close('s1');
    tick();
    expect(state().driving).toBe(false);
    expect(controller.status()).toEqual({ controller: null, deadmanStopped: true });
    controller.setRole('s2', 'controller');
    expect(controller.status()).toEqual({ controller: 's2', deadmanStopped: false });
  });

  it('stops at once when the control channel closes, and on Space until a drive key', () => {
    const { controller, send, tick, state } = setup();
    controller.setRole('s1', 'controller');
    for (let i = 0; i < 10; i++) {
      send('s1', { vx: 1, wz: 0.5 });
      tick();
    }
    expect(state().driving).toBe(true);
    controller.channelClosed('s1');
    tick();
    expect(state().driving).toBe(false);
    expect(controller.status().deadmanStopped).toBe(true);

    send('s1', { vx: 1 });
    tick(3);
    expect(state().driving).toBe(true);
    send('s1', { vx: 1, stop: true });
    tick();
    expect(state().driving).toBe(false);
    // Held keys keep arriving after Space: still stopped (latched) ...
    send('s1', { vx: 0, wz: 0 });
    tick();
    expect(state().driving).toBe(false);
    // ... until a new drive input.
    send('s1', { vx: 0.5 });
    tick(2);
    expect(state().driving).toBe(true);
  });

  it('ignores watchers, late (reordered) inputs and garbage; a demoted controller’s robot stops', () => {
    const { controller, send, tick, state } = setup();
    controller.setRole('viewer', 'viewer');
    for (let i = 0; i < 5; i++) {
      send('viewer', { vx: 1 });
      tick();
    }
    expect(state().driving).toBe(false);

    controller.setRole('s1', 'controller');
    controller.input('s1', 'not json');
    controller.input('s1', JSON.stringify({ seq: 1e9, t: 0, vx: 5, wz: 0, speed: 'normal' }));
    tick();
    expect(state().driving).toBe(false);
    controller.input('s1', JSON.stringify({ seq: 100, t: 0, vx: 1, wz: 0, speed: 'normal' }));
    controller.input('s1', JSON.stringify({ seq: 99, t: 0, vx: 0, wz: 0, speed: 'normal', stop: true }));
    tick(3);
    expect(state().driving).toBe(true); // the older stop arrived late and was ignored

    controller.setRole('s1', 'viewer');
    tick();
    expect(state().driving).toBe(false);
    expect(controller.status().controller).toBeNull();
  });

  it('drives slower in slow mode and stops short of a wall with F0005', () => {
    const a = setup();
    a.controller.setRole('s', 'controller');
    for (let i = 0; i < 40; i++) {
      a.send('s', { vx: 1, speed: 'slow' });
      a.tick();
    }
    const slowX = a.state().agvPosition!.x;
    const b = setup();
    b.controller.setRole('s', 'controller');
    for (let i = 0; i < 40; i++) {
      b.send('s', { vx: 1 });
      b.tick();
    }
    expect(b.state().agvPosition!.x).toBeGreaterThan(slowX * 1.5);

    // Keep pushing toward the wall at x = 8: the robot stops before it and reports F0005.
    for (let i = 0; i < 600; i++) {
      b.send('s', { vx: 1 });
      b.tick();
    }
    const s = b.state();
    expect(s.agvPosition!.x).toBeLessThan(8 - 0.45 / 2);
    expect(s.agvPosition!.x).toBeGreaterThan(7);
    expect(s.errors.map((e) => e.errorType)).toContain('F0005');
    expect(b.core.manualBlock()).toBe('obstacle');
    // Backing away clears it.
    for (let i = 0; i < 10; i++) {
      b.send('s', { vx: -1 });
      b.tick();
    }
    expect(b.state().errors.map((e) => e.errorType)).not.toContain('F0005');
  });

  it('refuses to drive during an emergency stop', () => {
    const { core, controller, send, tick, state } = setup();
    core.injectFault('emergencyStop');
    controller.setRole('s1', 'controller');
    for (let i = 0; i < 10; i++) {
      send('s1', { vx: 1 });
      tick();
    }
    expect(state().driving).toBe(false);
    expect(state().agvPosition!.x).toBe(0);
    expect(core.manualBlock()).toBe('emergencyStop');
  });
});

describe('video bitrate of a session', () => {
  it('caps the video section of the offer at the setting’s bitrate, and only that section', () => {
    const offer = [
      'v=0',
      'o=- 1 2 IN IP4 127.0.0.1',
      's=-',
      't=0 0',
      'm=video 9 UDP/TLS/RTP/SAVPF 96',
      'c=IN IP4 0.0.0.0',
      'b=AS:9000',
      'a=mid:0',
      'm=audio 9 UDP/TLS/RTP/SAVPF 111',
      'c=IN IP4 0.0.0.0',
      'a=mid:1',
      '',
    ].join('\r\n');
    const lines = withVideoBandwidth(offer, 1000).split('\r\n');
    expect(lines.filter((l) => l.startsWith('b='))).toEqual(['b=AS:1000']);
    expect(lines.indexOf('b=AS:1000')).toBe(lines.indexOf('m=video 9 UDP/TLS/RTP/SAVPF 96') + 2);
    expect(lines.slice(lines.indexOf('m=audio 9 UDP/TLS/RTP/SAVPF 111'))).toEqual([
      'm=audio 9 UDP/TLS/RTP/SAVPF 111',
      'c=IN IP4 0.0.0.0',
      'a=mid:1',
      '',
    ]);
  });
});
