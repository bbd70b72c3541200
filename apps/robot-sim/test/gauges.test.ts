import { describe, expect, it } from 'vitest';
import { createWorld, setGaugeValue, worldFor } from '../src/index.ts';
import { gaugeAngle, gaugeViewpoint, GAUGE_DIAL_RADIUS, GAUGE_QR_SIDE, type Gauge } from '../src/gauges.ts';
import { FrameRenderer, type CameraView } from '../src/video/index.ts';

const renderer = new FrameRenderer(1280, 720);
const FOCAL = 640; // 90° over 1280 pixels

function view(world: ReturnType<typeof worldFor>, pose: CameraView['pose']): CameraView {
  return {
    camera: 'v1',
    pose,
    world,
    gimbal: { pan: 0, tilt: 0 },
    eyeHeight: 1.2,
    thermal: { colorMap: 'normal', rangeMin: 15, rangeMax: 45 },
    robotName: 'sim',
    now: 0,
  };
}

/** Luma of the pixel showing the dial's point at `angle` degrees and `radius` (fraction of R), from 1 m. */
function dialLuma(rgba: Uint8ClampedArray, angle: number, radius: number): number {
  const r = GAUGE_DIAL_RADIUS * GAUGE_QR_SIDE * radius;
  const cu = (GAUGE_DIAL_OFFSET_U + r * Math.cos((angle * Math.PI) / 180)) * FOCAL;
  const cv = r * Math.sin((angle * Math.PI) / 180) * FOCAL;
  const col = Math.round(640 + cu);
  const row = Math.round(360 - cv);
  const p = (row * 1280 + col) * 4;
  return (rgba[p]! + rgba[p + 1]! + rgba[p + 2]!) / 3;
}
const GAUGE_DIAL_OFFSET_U = -0.14;

describe('simulated gauges', () => {
  it('floor-1 has gauges with QR codes at known places; other maps none', () => {
    const gauges = worldFor('floor-1').gauges!;
    expect(gauges.map((g) => [g.id, g.qr, g.x, g.y])).toEqual([
      ['G1', 'GAUGE-1', 2, -1.79],
      ['G2', 'GAUGE-2', 5, -1.79],
      ['G3', 'GAUGE-3', 8, -1.79],
    ]);
    expect(gauges[0]!.size).toBeGreaterThanOrEqual(21);
    expect(worldFor('floor-2').gauges).toEqual([]);
    expect(() => setGaugeValue('floor-1', 'G9', 1)).toThrow(/no gauge/);
    expect(() => setGaugeValue('floor-1', 'G1', Number.NaN)).toThrow(/finite/);
  });

  it('maps values onto 270° clockwise from lower left', () => {
    const g = { min: 0, max: 100 } as Gauge;
    expect(gaugeAngle(g, 0)).toBe(225);
    expect(gaugeAngle(g, 50)).toBe(90);
    expect(gaugeAngle(g, 100)).toBe(-45);
    expect(gaugeAngle(g, 150)).toBe(-45);
  });

  it('draws the needle where the value points, when the camera faces the gauge', () => {
    const world = createWorld(
      'g',
      { x0: -3, y0: -3, x1: 3, y1: 3 },
      [{ x0: -3, y0: -3, x1: 3, y1: -2.8 }],
      [],
      [{ id: 'A', qr: 'A-1', x: 0, y: -2.79, facing: Math.PI / 2, value: 0 }],
    );
    const gauge = world.gauges![0]!;
    const pose = gaugeViewpoint(gauge, 1);
    for (const value of [10, 50, 85]) {
      gauge.value = value;
      const rgba = renderer.renderRgba(view(world, pose));
      const angle = gaugeAngle(gauge, value);
      expect(dialLuma(rgba, angle, 0.5)).toBeLessThan(60);
      expect(dialLuma(rgba, angle + 180, 0.5)).toBeGreaterThan(180);
      expect(dialLuma(rgba, angle + 90, 0.5)).toBeGreaterThan(180);
    }
    // From behind the wall (facing away) nothing of the plate shows.
    const behind = renderer.renderRgba(view(world, { x: 0, y: -2.79 + 1, theta: Math.PI / 2 }));
    expect(behind.some((_, i) => i % 4 === 0 && behind[i]! > 240 && i > 1280 * 4 * 200)).toBe(false);
  });
});
