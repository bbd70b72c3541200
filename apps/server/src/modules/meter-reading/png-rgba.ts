import { inflateSync } from 'node:zlib';

const SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
const CHANNELS: Record<number, number> = { 0: 1, 2: 3, 3: 1, 4: 2, 6: 4 };

/**
 * A PNG decoded to RGBA (8-bit gray, gray+alpha, RGB, RGBA or palette; not interlaced), for the QR
 * decoder. Throws on anything else.
 */
export function decodePngRgba(png: Uint8Array): { data: Uint8ClampedArray; width: number; height: number } {
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
  const ch = CHANNELS[colorType];
  if (!ch || width < 1 || height < 1 || width * height > 40_000_000)
    throw new Error('PNG header missing or unsupported');
  if (colorType === 3 && !palette) throw new Error('PNG palette missing');
  const raw = inflateSync(Buffer.concat(idat));
  const stride = width * ch;
  if (raw.length < (stride + 1) * height) throw new Error('PNG data too short');
  const out = new Uint8ClampedArray(width * height * 4);
  let prev = new Uint8Array(stride);
  let row = new Uint8Array(stride);
  for (let y = 0; y < height; y++) {
    const start = y * (stride + 1);
    const filter = raw[start]!;
    if (filter > 4) throw new Error(`PNG filter ${filter} is unknown`);
    for (let i = 0; i < stride; i++) {
      const v = raw[start + 1 + i]!;
      const a = i >= ch ? row[i - ch]! : 0;
      const b = prev[i]!;
      const c = i >= ch ? prev[i - ch]! : 0;
      let p = v;
      if (filter === 1) p = v + a;
      else if (filter === 2) p = v + b;
      else if (filter === 3) p = v + ((a + b) >> 1);
      else if (filter === 4) {
        const e = a + b - c;
        const pa = Math.abs(e - a);
        const pb = Math.abs(e - b);
        const pc = Math.abs(e - c);
        p = v + (pa <= pb && pa <= pc ? a : pb <= pc ? b : c);
      }
      row[i] = p & 255;
    }
    for (let x = 0, o = y * width * 4; x < width; x++, o += 4) {
      const i = x * ch;
      if (colorType === 0 || colorType === 4) {
        out[o] = out[o + 1] = out[o + 2] = row[i]!;
        out[o + 3] = colorType === 4 ? row[i + 1]! : 255;
      } else if (colorType === 3) {
        const q = row[i]! * 3;
        out[o] = palette![q] ?? 0;
        out[o + 1] = palette![q + 1] ?? 0;
        out[o + 2] = palette![q + 2] ?? 0;
        out[o + 3] = 255;
      } else {
        out[o] = row[i]!;
        out[o + 1] = row[i + 1]!;
        out[o + 2] = row[i + 2]!;
        out[o + 3] = colorType === 6 ? row[i + 3]! : 255;
      }
    }
    [prev, row] = [row, prev];
  }
  return { data: out, width, height };
}
