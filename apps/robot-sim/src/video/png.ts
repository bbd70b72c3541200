import { deflateSync } from 'node:zlib';

/** PNG encoding of RGBA images (photos): 8-bit RGBA, filter type 0 on every row, zlib deflate. */

const SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

/** CRC-32 (ISO-HDLC, reflected polynomial 0xEDB88320) lookup table. */
const CRC_TABLE: Uint32Array = (() => {
  const t = new Uint32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    t[n] = c >>> 0;
  }
  return t;
})();

function crc32(bytes: Uint8Array, crc = 0xffffffff): number {
  let c = crc;
  for (let i = 0; i < bytes.length; i++) c = CRC_TABLE[(c ^ bytes[i]!) & 0xff]! ^ (c >>> 8);
  return c;
}

/** One chunk: length, type, data, CRC over type and data. */
function chunk(type: string, data: Uint8Array): Buffer {
  const out = Buffer.alloc(12 + data.length);
  out.writeUInt32BE(data.length, 0);
  out.write(type, 4, 'latin1');
  out.set(data, 8);
  out.writeUInt32BE((crc32(out.subarray(4, 8 + data.length)) ^ 0xffffffff) >>> 0, 8 + data.length);
  return out;
}

/** Encodes width × height RGBA pixels (width × height × 4 bytes) as a PNG file. */
export function encodePng(width: number, height: number, rgba: Uint8Array | Uint8ClampedArray): Buffer {
  if (!Number.isInteger(width) || !Number.isInteger(height) || width < 1 || height < 1) {
    throw new RangeError(`image size ${width}x${height}: positive integers expected`);
  }
  const stride = width * 4;
  if (rgba.length < stride * height) throw new RangeError(`${rgba.length} bytes for ${width}x${height} RGBA`);
  const src = new Uint8Array(rgba.buffer, rgba.byteOffset, stride * height);
  const raw = Buffer.alloc((stride + 1) * height);
  for (let r = 0; r < height; r++) {
    // raw[r * (stride + 1)] = 0: filter type None
    raw.set(src.subarray(r * stride, (r + 1) * stride), r * (stride + 1) + 1);
  }
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr[8] = 8; // bit depth
  ihdr[9] = 6; // colour type RGBA
  ihdr[10] = 0; // compression: deflate
  ihdr[11] = 0; // filter method 0
  ihdr[12] = 0; // no interlace
  return Buffer.concat([
    SIGNATURE,
    chunk('IHDR', ihdr),
    chunk('IDAT', deflateSync(raw, { level: 6 })),
    chunk('IEND', new Uint8Array(0)),
  ]);
}
