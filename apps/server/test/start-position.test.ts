import { deflateSync } from 'node:zlib';
import { afterAll, describe, expect, it } from 'vitest';
import { worldFor } from '@portal/robot-sim';
import { encodePng, FrameRenderer } from '@portal/robot-sim/video';
import { capturePhoto } from '@portal/robot-sim';
import {
  closeImageWorker,
  compareWithReferenceGridOffThread,
  imageWorkerJobs,
  startPositionGridOffThread,
} from '../src/lib/image-worker.ts';
import { encodeGrayPng } from '../src/lib/png.ts';
import {
  START_POSITION_THRESHOLD,
  compareGrids,
  compareStartPhotos,
  compareWithReferenceGrid,
  gridFromBytes,
  gridToBytes,
  pngToGrayGrid,
} from '../src/modules/schedules/start-position.ts';

/**
 * The start-position comparison (docs/api-schedules.md "Start position") on the simulator's rendered
 * camera views of the demo world (as its takePhoto sends them: 1280×720 PNG with the time burnt in):
 * the same pose later, under other lighting, or a few centimetres / degrees off passes; another place
 * on the floor, or the robot turned, fails.
 */
const W = 1280;
const H = 720;
const renderer = new FrameRenderer(W, H);
const world = worldFor('floor-1');
const START = { x: 3, y: 1, deg: 0 };

function view(x: number, y: number, deg: number, opts: { now?: number; light?: (v: number) => number } = {}) {
  const rgba = renderer.renderRgba({
    camera: 'v1',
    pose: { x, y, theta: (deg * Math.PI) / 180 },
    world,
    gimbal: { pan: 0, tilt: 0 },
    eyeHeight: 1.2,
    thermal: { colorMap: 'normal', rangeMin: 10, rangeMax: 40 },
    robotName: 'sim',
    now: opts.now ?? Date.now(),
  });
  const light = opts.light;
  if (light)
    for (let i = 0; i < rgba.length; i++)
      if (i % 4 !== 3) rgba[i] = Math.max(0, Math.min(255, Math.round(light(rgba[i]!))));
  return encodePng(W, H, rgba);
}

/** A PNG of 8-bit RGB pixels, each row written with `filter` (0–4), as encoders may. */
function rgbPng(width: number, height: number, rgb: Uint8Array, filter: (row: number) => number): Buffer {
  const stride = width * 3;
  const raw = Buffer.alloc((stride + 1) * height);
  for (let y = 0; y < height; y++) {
    const f = filter(y);
    raw[y * (stride + 1)] = f;
    for (let i = 0; i < stride; i++) {
      const x = rgb[y * stride + i]!;
      const a = i >= 3 ? rgb[y * stride + i - 3]! : 0;
      const b = y > 0 ? rgb[(y - 1) * stride + i]! : 0;
      const c = y > 0 && i >= 3 ? rgb[(y - 1) * stride + i - 3]! : 0;
      const p = a + b - c;
      const pred = [
        0,
        a,
        b,
        (a + b) >> 1,
        Math.abs(p - a) <= Math.abs(p - b) && Math.abs(p - a) <= Math.abs(p - c)
          ? a
          : Math.abs(p - b) <= Math.abs(p - c)
            ? b
            : c,
      ][f]!;
      raw[y * (stride + 1) + 1 + i] = (x - pred) & 0xff;
    }
  }
  const chunk = (type: string, data: Buffer) => {
    const len = Buffer.alloc(4);
    len.writeUInt32BE(data.length);
    return Buffer.concat([len, Buffer.from(type, 'latin1'), data, Buffer.alloc(4)]);
  };
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr[8] = 8;
  ihdr[9] = 2;
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', ihdr),
    chunk('IDAT', deflateSync(raw)),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

describe('start-position comparison', () => {
  afterAll(async () => closeImageWorker());

  it('decodes every PNG row filter to the same gray values (luma)', () => {
    const width = 12;
    const height = 10;
    const rgb = new Uint8Array(width * height * 3);
    for (let i = 0; i < rgb.length; i++) rgb[i] = (i * 37 + (i >> 3) * 11) & 0xff;
    const want = Array.from({ length: width * height }, (_, k) =>
      Math.round(0.299 * rgb[k * 3]! + 0.587 * rgb[k * 3 + 1]! + 0.114 * rgb[k * 3 + 2]!),
    );
    for (const filter of [(y: number) => y % 5, () => 4, () => 3, () => 1]) {
      const g = pngToGrayGrid(rgbPng(width, height, rgb, filter), width, height, 0);
      expect(Array.from(g.cells, (v) => Math.round(v))).toEqual(want);
    }
    // A gray PNG (lib/png.ts), averaged onto a grid of 2×2 cells.
    const gray = new Uint8Array(16).map((_, i) => (i % 4 < 2 ? 0 : 200) + (i < 8 ? 0 : 40));
    expect(Array.from(pngToGrayGrid(encodeGrayPng(4, 4, gray), 2, 2, 0).cells)).toEqual([0, 200, 40, 240]);
    expect(() => pngToGrayGrid(Buffer.from([0xff, 0xd8, 0xff, 0xe0]))).toThrow('not a PNG');
  });

  it('tolerates brightness and contrast: an affine change of the gray values scores 1', () => {
    const cells = Float32Array.from({ length: 64 * 40 }, (_, i) => ((i * 7919) % 255) + (i % 64));
    const a = { width: 64, height: 40, cells };
    const b = { width: 64, height: 40, cells: cells.map((v) => v * 0.5 + 30) };
    expect(compareGrids(a, b).score).toBe(1);
  });

  it('passes the start pose seen later, under other lighting and a few cm / degrees off; fails elsewhere', () => {
    const reference = view(START.x, START.y, START.deg, { now: Date.now() - 3 * 3600_000 });
    const score = (png: Buffer) => compareStartPhotos(reference, png);
    const same: Array<[string, Buffer]> = [
      ['same pose, 3 h later', view(START.x, START.y, START.deg)],
      ['darker (×0.6)', view(START.x, START.y, START.deg, { light: (v) => v * 0.6 })],
      ['brighter (×1.3 + 20)', view(START.x, START.y, START.deg, { light: (v) => v * 1.3 + 20 })],
      ['gamma 0.7', view(START.x, START.y, START.deg, { light: (v) => 255 * (v / 255) ** 0.7 })],
      ['5 cm aside', view(START.x, START.y + 0.05, START.deg)],
      ['10 cm back', view(START.x - 0.1, START.y, START.deg)],
      ['3° turned', view(START.x, START.y, START.deg + 3)],
      ['5° turned the other way', view(START.x, START.y, START.deg - 5)],
      ['5 cm, 3° and darker', view(START.x + 0.05, START.y + 0.05, START.deg + 3, { light: (v) => v * 0.7 })],
    ];
    const elsewhere: Array<[string, Buffer]> = [
      ['1 m ahead', view(START.x + 1, START.y, START.deg)],
      ['turned 90°', view(START.x, START.y, START.deg + 90)],
      ['turned around', view(START.x, START.y, START.deg + 180)],
      ['(6, 3) facing +x', view(6, 3, 0)],
      ['(10, 2) facing +x', view(10, 2, 0)],
      ['(12, 6) facing +y', view(12, 6, 90)],
    ];
    const scores = Object.fromEntries([...same, ...elsewhere].map(([name, png]) => [name, score(png).score]));
    for (const [name] of same)
      expect({ name, pass: scores[name]! >= START_POSITION_THRESHOLD }).toEqual({ name, pass: true });
    for (const [name] of elsewhere)
      expect({ name, pass: scores[name]! >= START_POSITION_THRESHOLD }).toEqual({ name, pass: false });
    expect(scores['same pose, 3 h later']).toBeGreaterThan(0.99);
  });

  it('a stored reference grid (one byte a cell) against a 320-wide current photo splits pass and fail as the full photos do', () => {
    // The check asks the robot for a 320-wide photo (START_PHOTO_WIDTH); the simulator scales its
    // 1280 × 720 still down as a camera does, burnt-in text included.
    const small = (x: number, y: number, deg: number) =>
      capturePhoto(
        {
          camera: 'v1',
          pose: { x, y, theta: (deg * Math.PI) / 180 },
          world,
          gimbal: { pan: 0, tilt: 0 },
          eyeHeight: 1.2,
          thermal: { colorMap: 'normal', rangeMin: 10, rangeMax: 40 },
          robotName: 'sim',
          now: Date.now(),
        },
        320,
      );
    const reference = view(START.x, START.y, START.deg, { now: Date.now() - 3 * 3600_000 });
    const stored = gridToBytes(pngToGrayGrid(reference));
    expect(stored).toHaveLength(64 * 40);
    expect(gridToBytes(gridFromBytes(stored))).toEqual(stored);
    expect(() => gridFromBytes(stored.subarray(1))).toThrow(/cells/);
    const cases: Array<[string, number, number, number, boolean]> = [
      ['same pose', START.x, START.y, START.deg, true],
      ['5 cm aside', START.x, START.y + 0.05, START.deg, true],
      ['10 cm back', START.x - 0.1, START.y, START.deg, true],
      ['3° turned', START.x, START.y, START.deg + 3, true],
      ['5° the other way', START.x, START.y, START.deg - 5, true],
      ['1 m ahead', START.x + 1, START.y, START.deg, false],
      ['turned 90°', START.x, START.y, START.deg + 90, false],
      ['(6, 3) facing +x', 6, 3, 0, false],
      ['(12, 6) facing +y', 12, 6, 90, false],
    ];
    for (const [name, x, y, deg, pass] of cases) {
      const shot = small(x, y, deg);
      expect(shot).toMatchObject({ width: 320, height: 180 });
      const s = compareWithReferenceGrid(stored, shot.png);
      expect({ name, pass: s.pass }).toEqual({ name, pass });
      // Within a few hundredths of the full photos' score.
      expect(Math.abs(s.score - compareStartPhotos(reference, view(x, y, deg)).score)).toBeLessThan(0.05);
    }
  });

  it('compares with a stored grid on the image worker with the same answer', async () => {
    const reference = view(START.x, START.y, START.deg);
    const current = view(START.x, START.y + 0.05, START.deg);
    const grid = await startPositionGridOffThread(reference);
    expect(grid).toEqual(gridToBytes(pngToGrayGrid(reference)));
    const before = imageWorkerJobs('startPositionGrid');
    expect(await compareWithReferenceGridOffThread(grid, current)).toEqual(compareWithReferenceGrid(grid, current));
    expect(imageWorkerJobs('startPositionGrid')).toBe(before + 1);
  });
});
