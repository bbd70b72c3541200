import { describe, expect, it, vi } from 'vitest';
import { robotPhotoMessageSchema, type ActionState } from '@portal/contract';
import {
  ARM_PRESS_SECONDS,
  DEPTH_HEIGHT,
  DEPTH_WIDTH,
  demoButtonPanels,
  depthAt,
  ElevatorBank,
  ManualClock,
  startBuildingSystems,
  panelViewpoint,
  buttonPixel,
  renderDepthRgba,
  RobotCore,
  SecurityDoor,
  worldFor,
  type ButtonBuilding,
  type ButtonTarget,
  type DepthView,
} from '../src/index.ts';
import { BUTTON_DEPTH, PLATE_DEPTH } from '../src/buttons.ts';
import { FrameRenderer } from '../src/video/index.ts';

const MAP = 'floor-1';
const panels = demoButtonPanels(MAP);
const panel = (id: string) => panels.find((p) => p.id === id)!;

/** The pixel of a button's centre as the robot sees it. */
function pixelOf(view: DepthView, target: ButtonTarget): { u: number; v: number } {
  const at = buttonPixel(view, target);
  if (!at) throw new Error(`${target} not in view`);
  return at;
}

function robot(pose: { x: number; y: number; theta: number }, building?: ButtonBuilding) {
  const photos: string[] = [];
  const c = new RobotCore(
    {
      manufacturer: 'sim',
      serialNumber: 'ARM-1',
      model: 'pro',
      version: '2.1.0',
      mapId: MAP,
      start: pose,
      battery: 80,
      visualizationHz: 0,
      stateIntervalMs: 1000,
      chargers: [],
      speedScale: 10,
      actionTypes: [],
      building,
    },
    (topic, payload) => {
      if (topic === 'photo') photos.push(payload);
    },
  );
  let now = 1000;
  c.tick(now, new Date().toISOString());
  let id = 0;
  return {
    core: c,
    photos,
    /** Simulated seconds (100 ms real ticks at speedScale 10: 1 s each). */
    tick(seconds: number) {
      for (let i = 0; i < Math.ceil(seconds); i++) c.tick((now += 100), new Date().toISOString());
    },
    instant(actionType: string, params: Record<string, string> = {}): string {
      const actionId = `${actionType}-${++id}`;
      c.handleInstantActions(
        JSON.stringify({
          headerId: id,
          timestamp: new Date().toISOString(),
          version: '2.1.0',
          manufacturer: 'sim',
          serialNumber: 'ARM-1',
          actions: [
            {
              actionType,
              actionId,
              blockingType: 'NONE',
              actionParameters: Object.entries(params).map(([key, value]) => ({ key, value })),
            },
          ],
        }),
      );
      return actionId;
    },
    status(actionId: string): ActionState | undefined {
      return c.state().actionStates.find((s) => s.actionId === actionId);
    },
  };
}

/** Presses at a pixel and lets the arm finish: the action's end. */
function press(r: ReturnType<typeof robot>, at: { u: number; v: number }, arm = 'right'): ActionState {
  const id = r.instant('pressButton', { arm, u: String(at.u), v: String(at.v) });
  expect(r.status(id)?.actionStatus).toBe('RUNNING');
  r.tick(ARM_PRESS_SECONDS + 1);
  return r.status(id)!;
}

const isAmber = (rgba: Uint8ClampedArray, at: { u: number; v: number }) => {
  const p = (at.v * DEPTH_WIDTH + at.u) * 4;
  return rgba[p] === 255 && rgba[p + 2] === 0 && rgba[p + 1]! > 100;
};

describe('button panels, the depth camera and the arm', () => {
  it('renders the depth image: near is bright, the buttons stand out and the pixel maps to its button', () => {
    const view: DepthView = { pose: panelViewpoint(panel('hall')), eyeHeight: 1.2, world: worldFor(MAP) };
    const rgba = renderDepthRgba(view);
    expect(rgba.length).toBe(DEPTH_WIDTH * DEPTH_HEIGHT * 4);
    const up = pixelOf(view, 'hall-up');
    const hit = depthAt(view, up.u, up.v);
    expect(hit?.button?.target).toBe('hall-up');
    expect(hit!.depth).toBeCloseTo(0.6 - PLATE_DEPTH - BUTTON_DEPTH, 2);
    expect(hit!.point.z).toBeCloseTo(1.22, 1);
    // The wall beside the panel is farther than the button, so darker; the floor far off is darker still.
    const wall = depthAt(view, up.u + 150, up.v)!;
    expect(wall.button).toBeNull();
    const grey = (u: number, v: number) => rgba[(v * DEPTH_WIDTH + u) * 4]!;
    expect(grey(up.u, up.v)).toBeGreaterThan(grey(up.u + 150, up.v));
    expect(grey(up.u + 150, up.v)).toBeGreaterThan(200);
    // The car panel's four floor buttons are all in view from its viewpoint.
    const carView = { ...view, pose: panelViewpoint(panel('car')) };
    for (const t of ['car-0', 'car-1', 'car-2', 'car-3'] as const) {
      const at = pixelOf(carView, t);
      expect(depthAt(carView, at.u, at.v)?.button?.target).toBe(t);
    }
  });

  it('the colour cameras show the panels, a lit button amber', () => {
    const renderer = new FrameRenderer(320, 180);
    const amber = (litButtons: string[]) => {
      const rgba = renderer.renderRgba({
        camera: 'v1',
        pose: panelViewpoint(panel('hall'), 1.2),
        world: worldFor(MAP),
        gimbal: { pan: 0, tilt: 0 },
        eyeHeight: 1.2,
        thermal: { colorMap: 'normal', rangeMin: 15, rangeMax: 40 },
        robotName: 'ARM',
        now: 0,
        litButtons,
      });
      let n = 0;
      for (let p = 0; p < rgba.length; p += 4) if (rgba[p]! > 200 && rgba[p + 2]! < 90 && rgba[p + 1]! > 120) n++;
      return n;
    };
    expect(amber([])).toBe(0);
    expect(amber(['hall-up'])).toBeGreaterThan(10);
  });

  it('sends the depth image on the photo topic as camera depth (640x480 PNG)', () => {
    const r = robot(panelViewpoint(panel('hall')));
    const id = r.instant('takeDepthImage');
    r.tick(1);
    expect(r.status(id)).toMatchObject({ actionStatus: 'FINISHED' });
    const msg = robotPhotoMessageSchema.parse(JSON.parse(r.photos.at(-1)!));
    expect(msg).toMatchObject({ actionId: id, camera: 'depth', width: 640, height: 480, contentType: 'image/png' });
    expect(Buffer.from(msg.data, 'base64').subarray(1, 4).toString()).toBe('PNG');
  });

  it('a press on the call button lights it and calls a car; a press beside it does nothing', () => {
    const bank = new ElevatorBank('A', [0, 1, 2, 3], 1);
    const r = robot(panelViewpoint(panel('hall')), { banks: new Map([['A', bank]]), doors: new Map(), floor: 1 });
    const up = pixelOf(r.core.depthView(), 'hall-up');
    expect(isAmber(renderDepthRgba(r.core.depthView()), up)).toBe(false);

    const miss = press(r, { u: up.u + 120, v: up.v });
    expect(miss).toMatchObject({ actionStatus: 'FINISHED', resultDescription: 'no button there' });
    expect(bank.status('A-ride-1')).toBeNull();

    const hit = press(r, up);
    expect(hit).toMatchObject({ actionStatus: 'FINISHED', resultDescription: 'pressed hall-up' });
    expect(bank.status('A-ride-1')).toMatchObject({ phase: 'call' });
    expect(isAmber(renderDepthRgba(r.core.depthView()), up)).toBe(true);
    // The car comes (doors open on 1F): the light goes out.
    bank.tick(60_000);
    bank.tick(120_000);
    expect(bank.status('A-ride-1')?.phase).not.toBe('call');
    expect(isAmber(renderDepthRgba(r.core.depthView()), up)).toBe(false);
  });

  it('a car button sends the car to its floor; the door opener opens the door', () => {
    const bank = new ElevatorBank('A', [0, 1, 2, 3], 1);
    const door = new SecurityDoor('door-1');
    const building = { banks: new Map([['A', bank]]), doors: new Map([['door-1', door]]) };
    const car = robot(panelViewpoint(panel('car')), building);
    const third = pixelOf(car.core.depthView(), 'car-3');
    expect(press(car, third, 'left')).toMatchObject({ resultDescription: 'pressed car-3' });
    expect(bank.status('A-ride-1')).toMatchObject({ phase: 'call' });

    const opener = robot(panelViewpoint(panel('door')), building);
    const open = pixelOf(opener.core.depthView(), 'door-open');
    expect(press(opener, open)).toMatchObject({ resultDescription: 'pressed door-open' });
    expect(door.open).toBe(false);
    door.tick(10_000);
    expect(door.open).toBe(true);
  });

  it('reaches a building over its HTTP API (a robot in another process than the building systems)', async () => {
    const clock = new ManualClock();
    const systems = await startBuildingSystems({
      banks: [{ id: 'A', floors: [0, 1, 2, 3], cars: 1 }],
      doors: ['door-1'],
      clock,
    });
    try {
      const r = robot(panelViewpoint(panel('hall')), { url: systems.url, floor: 1 });
      const up = pixelOf(r.core.depthView(), 'hall-up');
      expect(press(r, up)).toMatchObject({ resultDescription: 'pressed hall-up' });
      const bank = systems.banks.get('A')!;
      await vi.waitFor(() => expect(bank.status('A-ride-1')).toMatchObject({ phase: 'call' }));
      expect(isAmber(renderDepthRgba(r.core.depthView()), up)).toBe(true);
      // The car opens on 1F: the robot's next poll sees the ride past its call, the light goes out.
      clock.advance(10_000);
      expect(bank.status('A-ride-1')?.phase).toBe('boarding');
      await vi.waitFor(
        () => {
          r.tick(2);
          expect(r.core.buttons.isLit('hall-up')).toBe(false);
        },
        { timeout: 10_000, interval: 100 },
      );
    } finally {
      await systems.close();
    }
  });

  it('a button beyond the arm’s reach is not pressed; a bad pixel or arm FAILS', () => {
    const far = panelViewpoint(panel('hall'), 1.5);
    const r = robot(far);
    const up = pixelOf(r.core.depthView(), 'hall-up');
    expect(press(r, up)).toMatchObject({ actionStatus: 'FINISHED', resultDescription: 'out of reach' });
    const bad = r.instant('pressButton', { arm: 'middle', u: '10', v: '10' });
    expect(r.status(bad)?.actionStatus).toBe('FAILED');
    const off = r.instant('pressButton', { arm: 'left', u: '640', v: '10' });
    expect(r.status(off)?.actionStatus).toBe('FAILED');
  });

  it('announces the arm actions only for a model with an arm', () => {
    const fs = (model: 'pro' | 'mini') => {
      const out: string[] = [];
      const c = new RobotCore(
        {
          manufacturer: 'sim',
          serialNumber: `FS-${model}`,
          model,
          version: '2.1.0',
          mapId: MAP,
          start: { x: 1, y: 1, theta: 0 },
          battery: 80,
          visualizationHz: 0,
          stateIntervalMs: 1000,
          chargers: [],
          speedScale: 1,
          actionTypes: [],
        },
        (topic, payload) => {
          if (topic === 'factsheet') out.push(payload);
        },
      );
      c.publishFactsheet();
      return JSON.stringify(JSON.parse(out.at(-1)!));
    };
    expect(fs('pro')).toContain('"pressButton"');
    expect(fs('pro')).toContain('"takeDepthImage"');
    expect(fs('mini')).not.toContain('"pressButton"');
  });
});
