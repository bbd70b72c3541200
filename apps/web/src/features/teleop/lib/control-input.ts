import type { DriveSpeed } from '@portal/contract';

/**
 * What the operator's hands say, as one drive command: held keys (W/A/S/D, arrows), the on-screen
 * joystick and a game controller add up; Space (or the controller's stop button, or the stop
 * button on screen) latches a stop that holds until the operator drives again.
 *
 * `vx` is forward (+) / back (-), `wz` turns left (+, counter-clockwise) / right (-), both -1..1 of
 * the robot's maximum; `speed` slow asks the robot to scale its maximum down.
 */
export type DriveDirection = 'forward' | 'back' | 'left' | 'right';

export const DRIVE_KEYS: Readonly<Record<string, DriveDirection>> = {
  KeyW: 'forward',
  ArrowUp: 'forward',
  KeyS: 'back',
  ArrowDown: 'back',
  KeyA: 'left',
  ArrowLeft: 'left',
  KeyD: 'right',
  ArrowRight: 'right',
};
export const STOP_KEY = 'Space';
/** Held: the operator talks through the robot (push-to-talk). */
export const TALK_KEY = 'KeyM';

/** Stick travel below this counts as centred (worn sticks never rest at exactly 0). */
export const GAMEPAD_DEAD_ZONE = 0.15;
/** Standard mapping: button 1 is B (Xbox) / circle (PlayStation). */
export const GAMEPAD_STOP_BUTTON = 1;
/** The on-screen joystick counts as moved beyond this share of its radius. */
const JOYSTICK_DEAD_ZONE = 0.05;

export interface GamepadLike {
  readonly connected?: boolean;
  readonly axes: readonly number[];
  readonly buttons: ReadonlyArray<{ readonly pressed: boolean }>;
}

export interface DriveCommand {
  vx: number;
  wz: number;
  speed: DriveSpeed;
  stop: boolean;
}

const clamp = (v: number) => Math.max(-1, Math.min(1, v));
/** Three decimals keep the messages short; `+ 0` turns -0 into 0. */
const tidy = (v: number) => Math.round(clamp(v) * 1000) / 1000 + 0;

/** Scales a stick axis so that the dead zone reads 0 and full travel still reads ±1. */
export function applyDeadZone(v: number, deadZone = GAMEPAD_DEAD_ZONE): number {
  const a = Math.abs(v);
  if (!Number.isFinite(v) || a < deadZone) return 0;
  return (Math.sign(v) * (Math.min(a, 1) - deadZone)) / (1 - deadZone);
}

/** The first usable controller of `navigator.getGamepads()`. */
const firstGamepad = (pads: ReadonlyArray<GamepadLike | null>): GamepadLike | null =>
  pads.find((p): p is GamepadLike => !!p && p.connected !== false && p.axes.length >= 2) ?? null;

export class ControlInput {
  private readonly held = new Set<DriveDirection>();
  /** Joystick position: x right (+), y up (+), within the unit circle. */
  private stick = { x: 0, y: 0 };
  private stopLatched = false;
  private gamepadMoving = false;
  private driveSpeed: DriveSpeed = 'normal';

  get speed(): DriveSpeed {
    return this.driveSpeed;
  }

  setSpeed(speed: DriveSpeed): void {
    this.driveSpeed = speed;
  }

  /** A key went down: 'drive' and 'stop' keys are ours (the caller prevents their default). */
  keyDown(code: string, repeat = false): 'drive' | 'stop' | null {
    if (code === STOP_KEY) {
      this.stop();
      return 'stop';
    }
    const dir = DRIVE_KEYS[code];
    if (!dir) return null;
    this.held.add(dir);
    // Only a fresh press drives again after a stop: a key still held (auto-repeat) does not.
    if (!repeat) this.stopLatched = false;
    return 'drive';
  }

  keyUp(code: string): boolean {
    const dir = DRIVE_KEYS[code];
    if (!dir) return code === STOP_KEY;
    this.held.delete(dir);
    return true;
  }

  /** Focus left the window or the tab was hidden: nothing is held any more. */
  releaseAll(): void {
    this.held.clear();
    this.stick = { x: 0, y: 0 };
  }

  /** Stop at once and stay stopped until the operator drives again. */
  stop(): void {
    this.stopLatched = true;
  }

  get stopped(): boolean {
    return this.stopLatched;
  }

  /** Joystick position, x right and y up, -1..1 (clamped to the unit circle). */
  setJoystick(x: number, y: number): void {
    const len = Math.hypot(x, y);
    const k = len > 1 ? 1 / len : 1;
    const next = { x: x * k, y: y * k };
    const wasMoving = Math.hypot(this.stick.x, this.stick.y) > JOYSTICK_DEAD_ZONE;
    const moving = Math.hypot(next.x, next.y) > JOYSTICK_DEAD_ZONE;
    this.stick = moving ? next : { x: 0, y: 0 };
    if (moving && !wasMoving) this.stopLatched = false;
  }

  releaseJoystick(): void {
    this.stick = { x: 0, y: 0 };
  }

  toggleSpeed(): DriveSpeed {
    this.driveSpeed = this.driveSpeed === 'normal' ? 'slow' : 'normal';
    return this.driveSpeed;
  }

  /** The command now, reading the game controller (left stick, stop button) if one is connected. */
  read(gamepads: ReadonlyArray<GamepadLike | null> = []): DriveCommand {
    let vx = (this.held.has('forward') ? 1 : 0) - (this.held.has('back') ? 1 : 0);
    let wz = (this.held.has('left') ? 1 : 0) - (this.held.has('right') ? 1 : 0);
    vx += this.stick.y;
    wz -= this.stick.x;

    const pad = firstGamepad(gamepads);
    if (pad) {
      const gx = applyDeadZone(pad.axes[0] ?? 0);
      const gy = applyDeadZone(pad.axes[1] ?? 0);
      const moving = gx !== 0 || gy !== 0;
      if (moving && !this.gamepadMoving) this.stopLatched = false;
      this.gamepadMoving = moving;
      if (pad.buttons[GAMEPAD_STOP_BUTTON]?.pressed) this.stopLatched = true;
      // The stick's y axis points down.
      vx -= gy;
      wz -= gx;
    } else this.gamepadMoving = false;

    if (this.stopLatched) return { vx: 0, wz: 0, speed: this.speed, stop: true };
    return { vx: tidy(vx), wz: tidy(wz), speed: this.speed, stop: false };
  }
}

/** True when keyboard input belongs to a form field (typing a phrase must not drive the robot). */
export function isTextEntry(target: EventTarget | null): boolean {
  if (!target || typeof (target as Element).tagName !== 'string') return false;
  const el = target as HTMLElement;
  if (el.isContentEditable) return true;
  if (el.tagName === 'TEXTAREA' || el.tagName === 'SELECT') return true;
  if (el.tagName !== 'INPUT') return false;
  const type = (el as HTMLInputElement).type;
  return !['button', 'checkbox', 'radio', 'range', 'submit', 'reset', 'image', 'color'].includes(type);
}

const arrowRoles = ['slider', 'listbox', 'menu', 'menuitem', 'option', 'combobox', 'radio', 'tab', 'spinbutton'];

/** True when a focused widget uses the arrow keys itself (a slider, a menu, a select...). */
export function ownsArrowKeys(target: EventTarget | null): boolean {
  if (!target || typeof (target as Element).tagName !== 'string') return false;
  const el = target as HTMLElement;
  if (el.tagName === 'SELECT') return true;
  if (el.tagName === 'INPUT' && ['range', 'radio', 'number'].includes((el as HTMLInputElement).type)) return true;
  return arrowRoles.includes(el.getAttribute('role') ?? '');
}

/** True when Space on the target has its own meaning (pressing a button or a link). */
export function isActivatable(target: EventTarget | null): boolean {
  if (!target || typeof (target as Element).tagName !== 'string') return false;
  const el = target as HTMLElement;
  return (
    ['BUTTON', 'A', 'SUMMARY'].includes(el.tagName) ||
    ['button', 'switch', 'checkbox'].includes(el.getAttribute('role') ?? '')
  );
}
