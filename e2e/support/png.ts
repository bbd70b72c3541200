import { deflateSync } from 'node:zlib';

/** CRC-32 (ISO-HDLC, as PNG uses it) of `data`. */
export function crc32(data: Uint8Array): number {
  let crc = 0xffffffff;
  for (const byte of data) {
    crc ^= byte;
    for (let k = 0; k < 8; k++) crc = crc & 1 ? (crc >>> 1) ^ 0xedb88320 : crc >>> 1;
  }
  return (crc ^ 0xffffffff) >>> 0;
}

function chunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const typeAndData = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(typeAndData));
  return Buffer.concat([length, typeAndData, crc]);
}

/**
 * A valid RGB PNG of `width` × `height` pixels: a grid on a light floor, so a map preview visibly
 * shows something. Made here, so the tests need no binary fixture.
 */
export function makePng(width: number, height: number): Buffer {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header[8] = 8; // bit depth
  header[9] = 2; // colour type: truecolour (RGB)
  header[10] = 0; // compression
  header[11] = 0; // filter
  header[12] = 0; // no interlace
  const rowLength = 1 + width * 3;
  const raw = Buffer.alloc(rowLength * height);
  for (let y = 0; y < height; y++) {
    raw[y * rowLength] = 0; // filter type "none"
    for (let x = 0; x < width; x++) {
      const wall = x % 16 === 0 || y % 16 === 0 || x === width - 1 || y === height - 1;
      const at = y * rowLength + 1 + x * 3;
      raw[at] = wall ? 40 : 225;
      raw[at + 1] = wall ? 70 : 235;
      raw[at + 2] = wall ? 120 : 245;
    }
  }
  const signature = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  return Buffer.concat([
    signature,
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(raw)),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}
