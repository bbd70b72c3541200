import { describe, expect, it } from 'vitest';
import {
  applyDeadZone,
  ControlInput,
  GAMEPAD_DEAD_ZONE,
  isTextEntry,
  ownsArrowKeys,
  type GamepadLike,
} from './control-input';

const pad = (x: number, y: number, stop = false): GamepadLike => ({
  connected: true,
  axes: [x, y, 0, 0],
  buttons: [{ pressed: false }, { pressed: stop }],
});

describe('control input', () => {
  it('is zero when nothing is held', () => {
    expect(new ControlInput().read()).toEqual({ vx: 0, wz: 0, speed: 'normal', stop: false });
  });

  it('maps W/S and the up/down arrows to forward/back, A/D and left/right to turning (left = positive wz)', () => {
    const input = new ControlInput();
    expect(input.keyDown('KeyW')).toBe('drive');
    expect(input.read()).toMatchObject({ vx: 1, wz: 0 });
    input.keyDown('KeyA');
    expect(input.read()).toMatchObject({ vx: 1, wz: 1 });
    input.keyUp('KeyW');
    input.keyUp('KeyA');
    input.keyDown('ArrowDown');
    input.keyDown('ArrowRight');
    expect(input.read()).toMatchObject({ vx: -1, wz: -1 });
    // Opposite keys cancel out.
    input.keyDown('ArrowUp');
    input.keyDown('ArrowLeft');
    expect(input.read()).toMatchObject({ vx: 0, wz: 0 });
    expect(input.keyDown('KeyQ')).toBeNull();
  });

  it('stops at once on Space and holds the stop until a drive key is pressed again', () => {
    const input = new ControlInput();
    input.keyDown('KeyW');
    expect(input.keyDown('Space')).toBe('stop');
    expect(input.read()).toEqual({ vx: 0, wz: 0, speed: 'normal', stop: true });
    // W is still held: its auto-repeat does not drive again.
    input.keyDown('KeyW', true);
    expect(input.read().stop).toBe(true);
    input.keyUp('KeyW');
    expect(input.read().stop).toBe(true);
    input.keyDown('KeyD');
    expect(input.read()).toEqual({ vx: 0, wz: -1, speed: 'normal', stop: false });
  });

  it('sends the slow speed when toggled, with the same axes', () => {
    const input = new ControlInput();
    expect(input.toggleSpeed()).toBe('slow');
    input.keyDown('KeyW');
    expect(input.read()).toEqual({ vx: 1, wz: 0, speed: 'slow', stop: false });
    expect(input.toggleSpeed()).toBe('normal');
  });

  it('releases every key and the joystick when focus is lost', () => {
    const input = new ControlInput();
    input.keyDown('KeyW');
    input.setJoystick(0.5, 0);
    input.releaseAll();
    expect(input.read()).toMatchObject({ vx: 0, wz: 0 });
  });

  it('maps the joystick (up = forward, left = positive wz) within the unit circle; moving it ends a stop', () => {
    const input = new ControlInput();
    input.setJoystick(-0.5, 0.25);
    expect(input.read()).toMatchObject({ vx: 0.25, wz: 0.5 });
    input.setJoystick(3, 4);
    expect(input.read()).toMatchObject({ vx: 0.8, wz: -0.6 });
    input.stop();
    input.setJoystick(1, 0); // still deflected: the stop holds
    expect(input.read().stop).toBe(true);
    input.releaseJoystick();
    input.setJoystick(0, 1);
    expect(input.read()).toMatchObject({ vx: 1, stop: false });
  });

  it('reads the left stick of a game controller with a dead zone; button B stops', () => {
    const input = new ControlInput();
    expect(input.read([pad(0.1, -0.14)])).toMatchObject({ vx: 0, wz: 0 });
    // Full travel is still full speed; the y axis points down.
    expect(input.read([null, pad(0, -1)])).toMatchObject({ vx: 1, wz: 0 });
    expect(input.read([pad(1, 0)])).toMatchObject({ vx: 0, wz: -1 });
    const half = input.read([pad(-(GAMEPAD_DEAD_ZONE + (1 - GAMEPAD_DEAD_ZONE) / 2), 0)]);
    expect(half.wz).toBeCloseTo(0.5, 3);
    expect(input.read([pad(0, -1, true)])).toMatchObject({ vx: 0, stop: true });
    // Released button, stick still forward: stays stopped until the stick comes back and moves again.
    expect(input.read([pad(0, -1)]).stop).toBe(true);
    input.read([pad(0, 0)]);
    expect(input.read([pad(0, -1)])).toMatchObject({ vx: 1, stop: false });
    expect(input.read([{ connected: false, axes: [0, -1], buttons: [] }])).toMatchObject({ vx: 0 });
  });

  it('applies the dead zone symmetrically', () => {
    expect(applyDeadZone(0.149)).toBe(0);
    expect(applyDeadZone(-0.149)).toBe(0);
    expect(applyDeadZone(1)).toBe(1);
    expect(applyDeadZone(-1)).toBe(-1);
    expect(applyDeadZone(Number.NaN)).toBe(0);
  });

  it('knows which focused elements keep their keys', () => {
    const text = document.createElement('input');
    const range = document.createElement('input');
    range.type = 'range';
    const slider = document.createElement('div');
    slider.setAttribute('role', 'slider');
    expect(isTextEntry(text)).toBe(true);
    expect(isTextEntry(document.createElement('textarea'))).toBe(true);
    expect(isTextEntry(range)).toBe(false);
    expect(isTextEntry(document.body)).toBe(false);
    expect(ownsArrowKeys(slider)).toBe(true);
    expect(ownsArrowKeys(range)).toBe(true);
    expect(ownsArrowKeys(document.body)).toBe(false);
  });
});
