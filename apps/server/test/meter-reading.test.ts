import { afterAll, describe, expect, it } from 'vitest';
import { capturePhoto, createWorld, gaugeViewpoint, worldFor, type World } from '@portal/robot-sim';
import { closeImageWorker, imageWorkerJobs } from '../src/lib/image-worker.ts';
import { builtinReader, meterScale, type MeterItem } from '../src/modules/meter-reading/reading-service.ts';

afterAll(closeImageWorker);

function item(over: Partial<MeterItem> = {}): MeterItem {
  return {
    id: 1,
    buildingId: 1,
    qrCodeNumber: 'GAUGE-1',
    taskId: '',
    deviceId: '',
    meterType: 'analog',
    readingService: 'builtin',
    definition: '{"min":0,"max":100}',
    ...over,
  } as MeterItem;
}

function photo(world: World, pose: { x: number; y: number; theta: number }): Buffer {
  return capturePhoto({
    camera: 'v1',
    pose,
    world,
    gimbal: { pan: 0, tilt: 0 },
    eyeHeight: 1.2,
    thermal: { colorMap: 'normal', rangeMin: 15, rangeMax: 45 },
    robotName: 'sim',
    now: Date.UTC(2026, 0, 1),
  }).png;
}

describe('meter reading: the built-in reader', () => {
  it('reads simulated gauges set to several values within ±2 % of the scale', async () => {
    const world = createWorld(
      'meters',
      { x0: -3, y0: -3, x1: 3, y1: 3 },
      [{ x0: -3, y0: -3, x1: 3, y1: -2.8 }],
      [],
      [{ id: 'A', qr: 'GAUGE-1', x: 0, y: -2.79, facing: Math.PI / 2 }],
    );
    const gauge = world.gauges![0]!;
    const before = imageWorkerJobs('readGauge');
    for (const value of [0, 7, 33.3, 50, 71, 96, 100]) {
      gauge.value = value;
      const r = await builtinReader.read(photo(world, gaugeViewpoint(gauge, 1)), item());
      expect(r).toMatchObject({ ok: true, qr: 'GAUGE-1' });
      expect(r.ok && Math.abs(r.value - value)).toBeLessThanOrEqual(2);
    }
    expect(imageWorkerJobs('readGauge') - before).toBe(7);
  });

  it('reads on the item scale, from an angle and nearer, on the demo world floor-1', async () => {
    const world = worldFor('floor-1');
    const g2 = world.gauges!.find((g) => g.id === 'G2')!;
    g2.value = 62;
    const at = gaugeViewpoint(g2, 0.9);
    const r = await builtinReader.read(
      photo(world, { x: at.x + 0.15, y: at.y, theta: at.theta + 0.1 }),
      item({ qrCodeNumber: 'GAUGE-2', definition: '{"min":-1,"max":1,"unit":"MPa"}' }),
    );
    expect(r.ok).toBe(true);
    expect(r.ok && Math.abs(r.value - (-1 + 2 * 0.62))).toBeLessThanOrEqual(0.04);
  });

  it('answers MARKER_NOT_FOUND without a QR code or with another QR code number', async () => {
    const world = worldFor('floor-1');
    const g1 = world.gauges!.find((g) => g.id === 'G1')!;
    // Looking away from the wall: no QR code.
    const away = gaugeViewpoint(g1, 1);
    const none = await builtinReader.read(photo(world, { ...away, theta: away.theta + Math.PI }), item());
    expect(none).toMatchObject({ ok: false, code: 'MARKER_NOT_FOUND' });
    const other = await builtinReader.read(photo(world, gaugeViewpoint(g1, 1)), item({ qrCodeNumber: 'GAUGE-9' }));
    expect(other).toMatchObject({ ok: false, code: 'MARKER_NOT_FOUND' });
    expect(!other.ok && other.message).toContain('GAUGE-1');
  });

  it('answers READ_FAILED for bytes that are not a photo', async () => {
    expect(await builtinReader.read(Buffer.from('not a png'), item())).toMatchObject({
      ok: false,
      code: 'READ_FAILED',
    });
  });

  it('takes the scale from the definition JSON, 0..100 by default', () => {
    expect(meterScale('{"min":4,"max":20,"unit":"mA"}')).toEqual({ min: 4, max: 20, unit: 'mA' });
    expect(meterScale('{}')).toEqual({ min: 0, max: 100, unit: null });
    expect(meterScale('{"min":5,"max":1}')).toEqual({ min: 0, max: 100, unit: null });
  });
});
