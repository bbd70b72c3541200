import { crc32, deflateSync, inflateSync } from 'node:zlib';

const SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

function chunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body) >>> 0);
  return Buffer.concat([length, body, crc]);
}

/**
 * A grayscale 8-bit PNG (no filter, zlib from node). `pixels`: width × height bytes, row-major,
 * the image's top row first.
 */
export function encodeGrayPng(width: number, height: number, pixels: Uint8Array): Buffer {
  if (pixels.length !== width * height) throw new Error('PNG: pixel count does not match the size');
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr.writeUInt8(8, 8); // bit depth
  ihdr.writeUInt8(0, 9); // colour type 0: grayscale
  // compression 0, filter 0, interlace 0 (already zero)
  const raw = Buffer.alloc((width + 1) * height);
  for (let row = 0; row < height; row++) {
    // Each scanline starts with its filter type (0: none).
    raw.set(pixels.subarray(row * width, (row + 1) * width), row * (width + 1) + 1);
  }
  return Buffer.concat([
    SIGNATURE,
    chunk('IHDR', ihdr),
    chunk('IDAT', deflateSync(raw)),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

/** Gray levels of an occupancy grid image (the ROS map_server convention). */
export const OCCUPANCY_GRAY = { free: 255, occupied: 0, unknown: 205 } as const;

/**
 * An occupancy grid (one byte per cell, row 0 at the bottom: 0 free, 100 occupied, anything else
 * unknown) as a PNG whose top row is the map's highest y. Values 1–99 (probabilities) count as
 * occupied from 50 up, free below.
 */
export function occupancyGridPng(width: number, height: number, cells: Uint8Array): Buffer {
  const lut = new Uint8Array(256).fill(OCCUPANCY_GRAY.unknown);
  for (let v = 0; v <= 100; v++) lut[v] = v >= 50 ? OCCUPANCY_GRAY.occupied : OCCUPANCY_GRAY.free;
  const pixels = new Uint8Array(width * height);
  for (let row = 0; row < height; row++) {
    const src = (height - 1 - row) * width; // flipped: image row 0 is the grid's top row
    const dst = row * width;
    for (let x = 0; x < width; x++) pixels[dst + x] = lut[cells[src + x]!]!;
  }
  return encodeGrayPng(width, height, pixels);
}

/** Bytes per pixel of 8-bit PNG colour types: 0 gray, 2 RGB, 3 palette, 4 gray+alpha, 6 RGBA. */
const PNG_CHANNELS: Record<number, number> = { 0: 1, 2: 3, 3: 1, 4: 2, 6: 4 };

function paeth(a: number, b: number, c: number): number {
  const p = a + b - c;
  const pa = Math.abs(p - a);
  const pb = Math.abs(p - b);
  const pc = Math.abs(p - c);
  return pa <= pb && pa <= pc ? a : pb <= pc ? b : c;
}

/** What `decodePngRows` tells of a PNG before its rows. */
export interface PngInfo {
  width: number;
  height: number;
  /** 0 gray, 2 RGB, 3 palette, 4 gray+alpha, 6 RGBA. */
  colorType: number;
  /** Bytes per pixel. */
  channels: number;
  /** The palette (RGB triples) of colour type 3. */
  palette: Buffer | null;
}

/**
 * The one PNG decoder of the server (thumbnails, the schedules' start-position grids, meter photos):
 * 8-bit gray, gray+alpha, RGB, RGBA or palette, not interlaced; throws on anything else (JPEG is not
 * decoded). `onRow(y, row)` gets each row unfiltered (`info.channels` bytes a pixel; the buffer is
 * reused for the row after next, so copy what must be kept), one at a time: a 4K photo needs two rows,
 * not the whole image. `maxPixels` refuses larger images before inflating them.
 */
export function decodePngRows(
  png: Uint8Array,
  onRow: (y: number, row: Uint8Array, info: PngInfo) => void,
  maxPixels = Number.POSITIVE_INFINITY,
): PngInfo {
  const buf = Buffer.from(png.buffer, png.byteOffset, png.byteLength);
  if (buf.length < 8 || !buf.subarray(0, 8).equals(SIGNATURE)) throw new Error('not a PNG');
  let width = 0;
  let height = 0;
  let colorType = -1;
  let palette: Buffer | null = null;
  const idat: Buffer[] = [];
  for (let at = 8; at + 8 <= buf.length;) {
    const length = buf.readUInt32BE(at);
    const type = buf.toString('latin1', at + 4, at + 8);
    const data = buf.subarray(at + 8, at + 8 + length);
    if (type === 'IHDR') {
      width = data.readUInt32BE(0);
      height = data.readUInt32BE(4);
      if (data[8] !== 8) throw new Error(`PNG bit depth ${data[8]} is not supported`);
      colorType = data[9]!;
      if (data[12] !== 0) throw new Error('interlaced PNG is not supported');
    } else if (type === 'PLTE') palette = data;
    else if (type === 'IDAT') idat.push(data);
    else if (type === 'IEND') break;
    at += 12 + length;
  }
  const channels = PNG_CHANNELS[colorType];
  if (!channels || width < 1 || height < 1) throw new Error('PNG header missing or of an unknown colour type');
  if (width * height > maxPixels) throw new Error(`PNG of ${width}x${height} pixels is too large`);
  if (colorType === 3 && !palette) throw new Error('PNG palette missing');
  const raw = inflateSync(Buffer.concat(idat));
  const stride = width * channels;
  if (raw.length < (stride + 1) * height) throw new Error('PNG data too short');
  const info: PngInfo = { width, height, colorType, channels, palette };
  let prev = new Uint8Array(stride);
  let row = new Uint8Array(stride);
  for (let y = 0; y < height; y++) {
    const start = y * (stride + 1) + 1;
    const filter = raw[start - 1]!;
    if (filter > 4) throw new Error(`PNG filter ${filter} is unknown`);
    unfilter(filter, raw, start, row, prev, stride, channels);
    onRow(y, row, info);
    [prev, row] = [row, prev];
  }
  return info;
}

/**
 * Undoes one row's filter (`raw` from `start`, `stride` bytes) into `row`, `prev` being the row above
 * (zeros for the first). One loop per filter type: a branch on the type for every byte made decoding a
 * 1280 × 720 photo several times slower.
 */
function unfilter(
  filter: number,
  raw: Uint8Array,
  start: number,
  row: Uint8Array,
  prev: Uint8Array,
  stride: number,
  bpp: number,
): void {
  switch (filter) {
    case 0:
      row.set(raw.subarray(start, start + stride));
      return;
    case 1:
      for (let i = 0; i < bpp; i++) row[i] = raw[start + i]!;
      for (let i = bpp; i < stride; i++) row[i] = (raw[start + i]! + row[i - bpp]!) & 0xff;
      return;
    case 2:
      for (let i = 0; i < stride; i++) row[i] = (raw[start + i]! + prev[i]!) & 0xff;
      return;
    case 3:
      for (let i = 0; i < bpp; i++) row[i] = (raw[start + i]! + (prev[i]! >> 1)) & 0xff;
      for (let i = bpp; i < stride; i++) row[i] = (raw[start + i]! + ((row[i - bpp]! + prev[i]!) >> 1)) & 0xff;
      return;
    default:
      for (let i = 0; i < bpp; i++) row[i] = (raw[start + i]! + prev[i]!) & 0xff;
      for (let i = bpp; i < stride; i++)
        row[i] = (raw[start + i]! + paeth(row[i - bpp]!, prev[i]!, prev[i - bpp]!)) & 0xff;
  }
}

/** A PNG decoded to RGBA (`decodePngRows`; gray and palette expanded, alpha 255 where there is none). */
export function decodePngRgba(
  png: Uint8Array,
  maxPixels = 40_000_000,
): { data: Uint8ClampedArray; width: number; height: number } {
  let rgba = new Uint8ClampedArray(0);
  const info = decodePngRows(
    png,
    (y, row, { width, height, colorType, channels: ch, palette }) => {
      if (y === 0) rgba = new Uint8ClampedArray(width * height * 4);
      for (let x = 0, o = y * width * 4; x < width; x++, o += 4) {
        const i = x * ch;
        if (colorType === 0 || colorType === 4) {
          rgba[o] = rgba[o + 1] = rgba[o + 2] = row[i]!;
          rgba[o + 3] = colorType === 4 ? row[i + 1]! : 255;
        } else if (colorType === 3) {
          const q = row[i]! * 3;
          rgba[o] = palette![q] ?? 0;
          rgba[o + 1] = palette![q + 1] ?? 0;
          rgba[o + 2] = palette![q + 2] ?? 0;
          rgba[o + 3] = 255;
        } else {
          rgba[o] = row[i]!;
          rgba[o + 1] = row[i + 1]!;
          rgba[o + 2] = row[i + 2]!;
          rgba[o + 3] = colorType === 6 ? row[i + 3]! : 255;
        }
      }
    },
    maxPixels,
  );
  return { data: rgba, width: info.width, height: info.height };
}

/** An 8-bit RGB PNG (colour type 2, no filter). `rgb`: width × height × 3 bytes, top row first. */
export function encodeRgbPng(width: number, height: number, rgb: Uint8Array): Buffer {
  if (rgb.length !== width * height * 3) throw new Error('PNG: pixel count does not match the size');
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr.writeUInt8(8, 8);
  ihdr.writeUInt8(2, 9);
  const stride = width * 3;
  const raw = Buffer.alloc((stride + 1) * height);
  for (let row = 0; row < height; row++)
    raw.set(rgb.subarray(row * stride, (row + 1) * stride), row * (stride + 1) + 1);
  return Buffer.concat([
    SIGNATURE,
    chunk('IHDR', ihdr),
    chunk('IDAT', deflateSync(raw)),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

/**
 * A thumbnail of a PNG (8-bit gray, gray+alpha, RGB, RGBA or palette; not interlaced): at most
 * `maxWidth` pixels wide, the aspect kept, each pixel the average of the area it covers (alpha
 * ignored), as an RGB PNG. The image is read one row at a time: a 4K photo needs the two rows and
 * the thumbnail's sums, not the whole decoded image. Throws on anything else (JPEG is not decoded).
 */
export function pngThumbnail(png: Uint8Array, maxWidth: number): { png: Buffer; width: number; height: number } {
  let tw = 1;
  let th = 1;
  let sums = new Float64Array(0);
  let counts = new Float64Array(0);
  let cellOfX = new Int32Array(0);
  decodePngRows(png, (y, row, { width, height, colorType, channels, palette }) => {
    if (y === 0) {
      tw = Math.max(1, Math.min(maxWidth, width));
      th = Math.max(1, Math.round((height * tw) / width));
      sums = new Float64Array(tw * th * 3);
      counts = new Float64Array(tw * th);
      cellOfX = new Int32Array(width);
      for (let x = 0; x < width; x++) cellOfX[x] = Math.min(tw - 1, Math.floor((x * tw) / width));
    }
    const cy = Math.min(th - 1, Math.floor((y * th) / height)) * tw;
    for (let x = 0; x < width; x++) {
      const p = x * channels;
      let r: number;
      let g: number;
      let bl: number;
      if (colorType === 3) {
        const k = row[p]! * 3;
        r = palette![k] ?? 0;
        g = palette![k + 1] ?? 0;
        bl = palette![k + 2] ?? 0;
      } else if (channels >= 3) {
        r = row[p]!;
        g = row[p + 1]!;
        bl = row[p + 2]!;
      } else r = g = bl = row[p]!;
      const cell = cy + cellOfX[x]!;
      sums[cell * 3]! += r;
      sums[cell * 3 + 1]! += g;
      sums[cell * 3 + 2]! += bl;
      counts[cell]! += 1;
    }
  });
  const out = new Uint8Array(tw * th * 3);
  for (let i = 0; i < tw * th; i++) {
    const n = counts[i]! || 1;
    out[i * 3] = Math.round(sums[i * 3]! / n);
    out[i * 3 + 1] = Math.round(sums[i * 3 + 1]! / n);
    out[i * 3 + 2] = Math.round(sums[i * 3 + 2]! / n);
  }
  return { png: encodeRgbPng(tw, th, out), width: tw, height: th };
}
