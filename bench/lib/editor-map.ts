/**
 * The large floor map `npm run bench:editor` edits: a generated grayscale floor plan image (PNG, made
 * here so the bench needs no binary fixture) and a map document with thousands of waypoints and edges
 * spread over it. Deterministic (a fixed-seed PRNG), so runs compare.
 */
import { deflateSync } from 'node:zlib';
import type { MapDocument, MapEdge, NoGoArea, PartialMap, Waypoint, WaypointTypeCode } from '@portal/contract';

/** Metres per pixel and the origin of the image's bottom-left pixel. */
export interface ImageFrame {
  width: number;
  height: number;
  resolution: number;
  originX: number;
  originY: number;
}

const CRC_TABLE = (() => {
  const t = new Uint32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    t[n] = c >>> 0;
  }
  return t;
})();

function crc32(data: Uint8Array): number {
  let c = 0xffffffff;
  for (let i = 0; i < data.length; i++) c = CRC_TABLE[(c ^ data[i]!) & 0xff]! ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
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
 * A grayscale occupancy-grid-like floor plan (as SLAM maps look): unknown grey outside, free white
 * rooms on a 400 px raster with 6 px black walls, door gaps, and scattered obstacles.
 */
export function makeFloorPlanPng(width: number, height: number): Buffer {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header[8] = 8; // bit depth
  header[9] = 0; // colour type: grayscale
  const row = 1 + width;
  const raw = Buffer.alloc(row * height);
  const margin = Math.round(Math.min(width, height) * 0.02);
  const room = 400;
  for (let y = 0; y < height; y++) {
    raw[y * row] = 0; // filter "none"
    const inY = y >= margin && y < height - margin;
    for (let x = 0; x < width; x++) {
      const inside = inY && x >= margin && x < width - margin;
      let v = 205; // unknown
      if (inside) {
        const rx = (x - margin) % room;
        const ry = (y - margin) % room;
        const wallX = rx < 6;
        const wallY = ry < 6;
        const doorX = ry > 170 && ry < 230;
        const doorY = rx > 170 && rx < 230;
        v = (wallX && !doorX) || (wallY && !doorY) ? 0 : 254;
        // Furniture: a few dark blocks per room.
        if (v === 254 && rx > 60 && rx < 120 && ry > 260 && ry < 340) v = 30;
        if (v === 254 && (((x * 7919) ^ (y * 104729)) & 4095) === 0) v = 0; // sensor speckle
      } else if (inY && (x === margin - 1 || x === width - margin)) v = 0;
      raw[y * row + 1 + x] = v;
    }
  }
  const signature = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  return Buffer.concat([
    signature,
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(raw, { level: 6 })),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

/** mulberry32: a small deterministic PRNG. */
function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const round3 = (v: number) => Math.round(v * 1000) / 1000;

/**
 * `waypoints` waypoints on a jittered grid over the image (types mixed like a real site: mostly
 * normal, some charge, standby, action and invisible ones), `edges` edges between grid neighbours
 * (some one-way, some slow), a few routes, no-go areas and partial maps.
 */
export function makeMapDocument(frame: ImageFrame, waypoints: number, edges: number, seed = 5): MapDocument {
  const rand = prng(seed);
  const w = frame.width * frame.resolution;
  const h = frame.height * frame.resolution;
  const cols = Math.ceil(Math.sqrt((waypoints * w) / h));
  const rows = Math.ceil(waypoints / cols);
  const dx = w / (cols + 1);
  const dy = h / (rows + 1);
  const typeOf = (i: number): WaypointTypeCode => {
    const r = (i * 2654435761) % 100;
    return r < 80 ? 1 : r < 85 ? 2 : r < 90 ? 3 : r < 96 ? 10 : r < 99 ? 99 : 0;
  };
  const wps: Waypoint[] = [];
  const at = new Map<string, number>();
  for (let i = 0; i < waypoints; i++) {
    const c = i % cols;
    const r = Math.floor(i / cols);
    const id = i + 1;
    const type = typeOf(i);
    wps.push({
      id,
      name: `${type === 2 ? 'Charge' : type === 3 ? 'Standby' : 'WP'} ${id}`,
      x: round3(frame.originX + (c + 1) * dx + (rand() - 0.5) * dx * 0.4),
      y: round3(frame.originY + (r + 1) * dy + (rand() - 0.5) * dy * 0.4),
      theta: round3((rand() * 2 - 1) * 3.1),
      type,
    });
    at.set(`${c},${r}`, id);
  }
  // Candidate edges: right and up neighbours; a deterministic shuffle picks `edges` of them.
  const candidates: Array<[number, number]> = [];
  for (const [key, id] of at) {
    const [c, r] = key.split(',').map(Number) as [number, number];
    const right = at.get(`${c + 1},${r}`);
    const up = at.get(`${c},${r + 1}`);
    if (right) candidates.push([id, right]);
    if (up) candidates.push([id, up]);
  }
  for (let i = candidates.length - 1; i > 0; i--) {
    const j = Math.floor(rand() * (i + 1));
    [candidates[i], candidates[j]] = [candidates[j]!, candidates[i]!];
  }
  const es: MapEdge[] = candidates.slice(0, edges).map(([from, to], i) => ({
    id: i + 1,
    from,
    to,
    oneWay: i % 10 === 0,
    speed: i % 7 === 0 ? 'slow' : 'normal',
    path: null,
  }));
  const routes = Array.from({ length: 10 }, (_, i) => {
    const r = 2 + i * 4;
    return {
      id: i + 1,
      name: `Patrol ${i + 1}`,
      waypointIds: Array.from({ length: 12 }, (_, k) => at.get(`${k * 3},${r}`)!).filter(Boolean),
      recorded: null,
    };
  });
  const noGoAreas: NoGoArea[] = Array.from({ length: 12 }, (_, i) => {
    const cx = frame.originX + w * (0.1 + 0.8 * rand());
    const cy = frame.originY + h * (0.1 + 0.8 * rand());
    const s = 2 + rand() * 4;
    return {
      id: i + 1,
      name: `No-go ${i + 1}`,
      points: [
        { x: round3(cx - s), y: round3(cy - s) },
        { x: round3(cx + s), y: round3(cy - s * 0.6) },
        { x: round3(cx + s * 0.8), y: round3(cy + s) },
        { x: round3(cx - s * 0.7), y: round3(cy + s * 0.9) },
      ],
    };
  });
  const partialMaps: PartialMap[] = Array.from({ length: 4 }, (_, i) => ({
    id: i + 1,
    name: `Zone ${String.fromCharCode(65 + i)}`,
    x: round3(frame.originX + (i % 2) * (w / 2) + 1),
    y: round3(frame.originY + Math.floor(i / 2) * (h / 2) + 1),
    width: round3(w / 2 - 2),
    height: round3(h / 2 - 2),
  }));
  return { waypoints: wps, edges: es, routes, noGoAreas, partialMaps };
}
