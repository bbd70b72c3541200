import { crc32, deflateSync } from 'node:zlib';

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
