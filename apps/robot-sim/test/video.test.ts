import { inflateSync } from 'node:zlib';
import { runInNewContext } from 'node:vm';
import { describe, expect, it } from 'vitest';
import { THERMAL_COLOR_MAPS } from '@portal/contract';
import { createWorld, worldFor } from '../src/index.ts';
import {
  decodeStamp,
  drawStamp,
  drawText,
  encodePng,
  FrameRenderer,
  glyphRows,
  i420Size,
  i420ToRgba,
  measureText,
  stampLayout,
  STAMP_CELLS,
  type CameraView,
} from '../src/video/index.ts';

/** Deterministic noise. */
function lcg(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    return s / 4294967296;
  };
}

/** An I420 frame of random "scene" (so the stamp has to stand out from clutter). */
function noisyI420(width: number, height: number, seed = 1): Uint8Array {
  const rand = lcg(seed);
  const f = new Uint8Array(i420Size(width, height));
  for (let i = 0; i < f.length; i++) f[i] = 16 + Math.floor(rand() * 220);
  return f;
}

function stamped(width: number, height: number, ms: number): Uint8ClampedArray {
  const f = noisyI420(width, height, ms % 1000);
  const ySize = width * height;
  const cSize = (width >> 1) * (height >> 1);
  drawStamp(
    f.subarray(0, ySize),
    width,
    height,
    ms,
    f.subarray(ySize, ySize + cSize),
    f.subarray(ySize + cSize, ySize + 2 * cSize),
  );
  return i420ToRgba(f, width, height);
}

/**
 * Box blur (radius r) plus uniform noise of ±noise, a poor man's lossy codec, on the top `rows` rows
 * of an RGBA image (where the stamp is; the rest is copied).
 */
function degrade(
  rgba: Uint8ClampedArray,
  width: number,
  height: number,
  r: number,
  noise: number,
  rows: number,
): Uint8ClampedArray {
  const out = rgba.slice();
  const rand = lcg(42);
  for (let y = 0; y < Math.min(rows, height); y++) {
    for (let x = 0; x < width; x++) {
      for (let ch = 0; ch < 3; ch++) {
        let sum = 0;
        let n = 0;
        for (let dy = -r; dy <= r; dy++) {
          for (let dx = -r; dx <= r; dx++) {
            const xx = Math.min(width - 1, Math.max(0, x + dx));
            const yy = Math.min(height - 1, Math.max(0, y + dy));
            sum += rgba[(yy * width + xx) * 4 + ch]!;
            n++;
          }
        }
        out[(y * width + x) * 4 + ch] = sum / n + (rand() * 2 - 1) * noise;
      }
      out[(y * width + x) * 4 + 3] = 255;
    }
  }
  return out;
}

/** Halves an RGBA image (2×2 average), as an encoder scaling the resolution down would. */
function halve(rgba: Uint8ClampedArray, width: number, height: number): Uint8ClampedArray {
  const w = width >> 1;
  const h = height >> 1;
  const out = new Uint8ClampedArray(w * h * 4);
  for (let y = 0; y < h; y++) {
    for (let x = 0; x < w; x++) {
      for (let ch = 0; ch < 4; ch++) {
        const p = (i: number, j: number) => rgba[((2 * y + j) * width + 2 * x + i) * 4 + ch]!;
        out[(y * w + x) * 4 + ch] = (p(0, 0) + p(1, 0) + p(0, 1) + p(1, 1)) / 4;
      }
    }
  }
  return out;
}

const SIZES: Array<[number, number]> = [
  [1280, 720],
  [1920, 1080],
  [640, 360],
];
const TIMES = [0, 1, 1_700_000_000_000, 1_767_225_599_999, 2 ** 42 - 1, 1_234_567_890_123];

describe('stamp', () => {
  it('lays out whole blocks that fit the frame (16 px macroblocks at 720p)', () => {
    expect(stampLayout(1280, 720).block).toBe(16);
    expect(stampLayout(1920, 1080).block).toBe(24);
    expect(stampLayout(640, 360).block).toBe(8);
    for (const [w, h] of [...SIZES, [640, 480], [320, 240]] as Array<[number, number]>) {
      const l = stampLayout(w, h);
      expect(l.box.x).toBeGreaterThanOrEqual(0);
      expect(l.x + STAMP_CELLS * l.block).toBeLessThanOrEqual(w);
    }
  });

  it.each(SIZES)('round-trips through I420 -> RGBA at %dx%d', (w, h) => {
    for (const ms of TIMES) expect(decodeStamp(stamped(w, h, ms), w, h)).toBe(ms);
    // Fractions are floored.
    expect(decodeStamp(stamped(w, h, 1_700_000_000_123.9), w, h)).toBe(1_700_000_000_123);
  });

  it.each(SIZES)('survives blur and noise at %dx%d', (w, h) => {
    const ms = 1_767_000_123_456;
    const b = stampLayout(w, h).block;
    const r = Math.max(1, Math.round(b / 6));
    expect(decodeStamp(degrade(stamped(w, h, ms), w, h, r, 30, 4 * b), w, h)).toBe(ms);
  });

  it('decodes a frame the encoder scaled down', () => {
    const ms = 1_767_000_654_321;
    expect(decodeStamp(halve(stamped(1280, 720, ms), 1280, 720), 640, 360)).toBe(ms);
    expect(decodeStamp(halve(stamped(1920, 1080, ms), 1920, 1080), 960, 540)).toBe(ms);
    // 720p -> 480x270: blocks of 6 px, below the 8 px a native 270p frame would get.
    const small = halve(stamped(1920, 1080, ms), 1920, 1080);
    expect(decodeStamp(halve(small, 960, 540), 480, 270)).toBe(ms);
  });

  it('returns null for a corrupted stamp or none at all', () => {
    const [w, h] = [1280, 720];
    const ms = 1_767_000_000_000;
    const { block: b, x, y } = stampLayout(w, h);
    for (const cell of [3, 20, 44, 50, 60]) {
      const rgba = stamped(w, h, ms);
      // Invert one data or CRC cell.
      const p0 = ((y + (b >> 1)) * w + x + cell * b + (b >> 1)) * 4;
      const value = rgba[p0]! > 128 ? 0 : 255;
      for (let yy = y; yy < y + b; yy++) {
        for (let xx = x + cell * b; xx < x + (cell + 1) * b; xx++)
          rgba.fill(value, (yy * w + xx) * 4, (yy * w + xx) * 4 + 3);
      }
      expect(decodeStamp(rgba, w, h)).toBeNull();
    }
    expect(decodeStamp(i420ToRgba(noisyI420(w, h), w, h), w, h)).toBeNull();
    expect(decodeStamp(new Uint8ClampedArray(w * h * 4).fill(255), w, h)).toBeNull();
    expect(decodeStamp(new Uint8ClampedArray(w * h * 4), w, h)).toBeNull();
    expect(decodeStamp(new Uint8ClampedArray(16), w, h)).toBeNull();
  });

  it('decodeStamp is self-contained (it is shipped to the browser as source)', () => {
    const [w, h] = [1280, 720];
    const ms = 1_767_000_111_222;
    const rgba = stamped(w, h, ms);
    const result = runInNewContext(`(${decodeStamp.toString()})(rgba, w, h)`, { rgba, w, h });
    expect(result).toBe(ms);
  });
});

describe('font', () => {
  it('has glyphs for printable ASCII and draws anything else as ?', () => {
    expect(glyphRows('A')).toEqual(['.###.', '#...#', '#...#', '#...#', '#####', '#...#', '#...#']);
    expect(glyphRows(' ').join('')).not.toContain('#');
    expect(glyphRows('~').join('')).toContain('#');
    expect(glyphRows('é')).toEqual(glyphRows('?'));
    expect(measureText('ab😀', 2)).toEqual({ width: (3 * 6 - 1) * 2, height: 14 });
  });

  it('draws text with a dark box and changes pixels only in the box', () => {
    const [w, h] = [200, 60];
    const y = new Uint8Array(w * h).fill(100);
    const u = new Uint8Array((w / 2) * (h / 2)).fill(90);
    const v = new Uint8Array((w / 2) * (h / 2)).fill(160);
    const box = drawText(y, w, h, 10, 10, 'Hi 42', { scale: 2, u, v });
    expect(box).toEqual({ x: 6, y: 6, width: (5 * 6 - 1) * 2 + 8, height: 14 + 8 });
    let ink = 0;
    let bg = 0;
    for (let r = 0; r < h; r++) {
      for (let c = 0; c < w; c++) {
        const inBox = c >= box.x && c < box.x + box.width && r >= box.y && r < box.y + box.height;
        const px = y[r * w + c]!;
        if (!inBox) expect(px).toBe(100);
        else if (px === 235) ink++;
        else if (px === 24) bg++;
      }
    }
    expect(ink).toBeGreaterThan(50);
    expect(bg).toBeGreaterThan(ink);
    expect(u[(10 >> 1) * (w / 2) + 10]).toBe(128);
    expect(v[(10 >> 1) * (w / 2) + 10]).toBe(128);
    expect(u[0]).toBe(90);
    // Clipped at the frame's edge without throwing.
    expect(() => drawText(y, w, h, 180, 50, 'clipped text', { scale: 3 })).not.toThrow();
  });
});

describe('FrameRenderer', () => {
  const world = worldFor('floor-1');
  const view = (over: Partial<CameraView> = {}): CameraView => ({
    camera: 'v1',
    pose: { x: 5, y: 3, theta: 0.6 },
    world,
    gimbal: { pan: 0, tilt: 0 },
    eyeHeight: 1.2,
    thermal: { colorMap: 'normal', rangeMin: 15, rangeMax: 45 },
    robotName: 'SIM-001',
    now: 1_767_000_000_000,
    label: 'v1 720p',
    ...over,
  });
  const r = new FrameRenderer(640, 360);
  const frame = (over: Partial<CameraView> = {}): Uint8ClampedArray => r.render(view(over)).slice();
  const differ = (a: Uint8ClampedArray, b: Uint8ClampedArray): number => {
    let n = 0;
    for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) n++;
    return n;
  };

  it('renders I420 frames deterministically into one reused buffer', () => {
    const a = r.render(view());
    expect(a.length).toBe(640 * 360 * 1.5);
    const copy = a.slice();
    const b = r.render(view());
    expect(b).toBe(a);
    expect(differ(copy, b)).toBe(0);
    expect(() => new FrameRenderer(641, 360)).toThrow(RangeError);
  });

  it('changes when the robot moves or turns', () => {
    const base = frame();
    expect(differ(base, frame({ pose: { x: 5.5, y: 3, theta: 0.6 } }))).toBeGreaterThan(5000);
    expect(differ(base, frame({ pose: { x: 5, y: 3, theta: 0.7 } }))).toBeGreaterThan(5000);
  });

  it('shows different pictures per camera, gimbal and eye height', () => {
    const front = frame();
    const frames = {
      rear: frame({ camera: 'v2' }),
      wide: frame({ camera: 'v3' }),
      side: frame({ camera: 's1' }),
      thermal: frame({ camera: 'thermal' }),
      gimbalPan: frame({ camera: 'g1', gimbal: { pan: 30, tilt: 0 } }),
      gimbalTilt: frame({ camera: 'g1', gimbal: { pan: 0, tilt: 20 } }),
      periscope: frame({ eyeHeight: 2 }),
    };
    for (const f of Object.values(frames)) expect(differ(front, f)).toBeGreaterThan(5000);
    // The gimbal is ignored by the other cameras.
    expect(differ(front, frame({ gimbal: { pan: 30, tilt: 20 } }))).toBe(0);
  });

  it('maps temperatures through each thermal colour map', () => {
    const maps = THERMAL_COLOR_MAPS.map((colorMap) =>
      frame({ camera: 'thermal', thermal: { colorMap, rangeMin: 15, rangeMax: 45 } }),
    );
    for (let i = 0; i < maps.length; i++) {
      for (let j = i + 1; j < maps.length; j++) expect(differ(maps[i]!, maps[j]!)).toBeGreaterThan(5000);
    }
    // mono is grey: neutral chroma outside the overlays too.
    const mono = maps[THERMAL_COLOR_MAPS.indexOf('mono')]!;
    const uStart = 640 * 360;
    const u = mono.subarray(uStart, uStart + 320 * 180);
    expect(u.every((x) => Math.abs(x - 128) <= 1)).toBe(true);
    // The range matters.
    expect(
      differ(maps[0]!, frame({ camera: 'thermal', thermal: { colorMap: 'normal', rangeMin: 0, rangeMax: 100 } })),
    ).toBeGreaterThan(5000);
  });

  it('carries a readable stamp and the time text', () => {
    const now = 1_767_000_000_000;
    const rgba = r.renderRgba(view({ now }));
    expect(rgba.length).toBe(640 * 360 * 4);
    expect(decodeStamp(rgba, 640, 360)).toBe(now);
    // Another time changes the text and the stamp, nothing else.
    const a = frame({ now });
    const b = frame({ now: now + 1234 });
    const l = stampLayout(640, 360);
    let outside = 0;
    for (let y = 0; y < 360; y++) {
      for (let x = 0; x < 640; x++) if (a[y * 640 + x] !== b[y * 640 + x] && (y > 120 || x > 540)) outside++;
    }
    expect(differ(a, b)).toBeGreaterThan(0);
    expect(outside).toBe(0);
    expect(l.block).toBe(8);
  });

  it('copes with odd poses: outside the building, inside a wall, NaN', () => {
    const tiny = createWorld('tiny', { x0: 0, y0: 0, x1: 4, y1: 4 }, [{ x0: 0, y0: 0, x1: 4, y1: 0.2 }]);
    for (const pose of [
      { x: -50, y: -50, theta: 0 },
      { x: 2, y: 0.1, theta: 1 },
      { x: Number.NaN, y: 1, theta: Number.NaN },
      { x: 2, y: 2, theta: -Math.PI / 2 },
    ]) {
      const now = 1_767_000_000_000;
      const rgba = r.renderRgba(view({ world: tiny, pose, now }));
      expect(decodeStamp(rgba, 640, 360)).toBe(now);
    }
  });
});

describe('encodePng', () => {
  it('writes a PNG whose IDAT inflates to the filtered rows', () => {
    const [w, h] = [7, 5];
    const rgba = new Uint8ClampedArray(w * h * 4);
    for (let i = 0; i < rgba.length; i++) rgba[i] = (i * 37) & 255;
    const png = encodePng(w, h, rgba);
    expect([...png.subarray(0, 8)]).toEqual([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
    const chunks: Array<{ type: string; data: Buffer; crc: number }> = [];
    for (let p = 8; p < png.length;) {
      const len = png.readUInt32BE(p);
      chunks.push({
        type: png.toString('latin1', p + 4, p + 8),
        data: png.subarray(p + 8, p + 8 + len),
        crc: png.readUInt32BE(p + 8 + len),
      });
      p += 12 + len;
    }
    expect(chunks.map((c) => c.type)).toEqual(['IHDR', 'IDAT', 'IEND']);
    const ihdr = chunks[0]!.data;
    expect([ihdr.readUInt32BE(0), ihdr.readUInt32BE(4), ihdr[8], ihdr[9], ihdr[12]]).toEqual([w, h, 8, 6, 0]);
    expect(chunks[2]!.crc).toBe(0xae426082); // the well-known CRC of an empty IEND
    const raw = inflateSync(chunks[1]!.data);
    expect(raw.length).toBe(h * (w * 4 + 1));
    for (let y = 0; y < h; y++) {
      expect(raw[y * (w * 4 + 1)]).toBe(0);
      expect([...raw.subarray(y * (w * 4 + 1) + 1, (y + 1) * (w * 4 + 1))]).toEqual([
        ...rgba.subarray(y * w * 4, (y + 1) * w * 4),
      ]);
    }
  });

  it('encodes a rendered photo', () => {
    const r = new FrameRenderer(320, 180);
    const rgba = r.renderRgba({
      camera: 'v1',
      pose: { x: 1, y: 1, theta: 0 },
      world: worldFor('floor-2'),
      gimbal: { pan: 0, tilt: 0 },
      eyeHeight: 1.2,
      thermal: { colorMap: 'normal', rangeMin: 15, rangeMax: 45 },
      robotName: 'photo',
      now: Date.now(),
    });
    const png = encodePng(320, 180, rgba);
    expect(png.length).toBeGreaterThan(100);
    expect(png.length).toBeLessThan(320 * 180 * 4);
  });
});
