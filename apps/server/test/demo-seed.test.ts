import { inflateSync } from 'node:zlib';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  demoWorldPlan,
  floorDetailSchema,
  floorMapId,
  floorMapSchema,
  mapBounds,
  mapDocumentProblems,
  OCCUPANCY,
  planOccupancyAt,
  WaypointType,
  type FloorMap,
  type MapImage,
} from '@portal/contract';
import { encodeGrayPng, OCCUPANCY_GRAY } from '../src/lib/png.ts';
import { DEMO_BUILDING, seedDemoMaps } from '../src/seed.ts';
import { seedRepo } from '../src/seed-repo.ts';
import { createFileStore } from '../src/services/file-store.ts';
import { patrolPlan } from '../src/services/simulated-fleet.ts';
import { createTestApp, type TestApp } from './helpers.ts';

/**
 * The demo floors' real maps (issue 12): the image drawn from the simulator's world (the
 * contract's demo world) with its frame, the charger, standby and patrol waypoints and the patrol
 * route; and the default resolution an uploaded image gives a floor without one.
 */
let t: TestApp;
let orgAdmin = '';

beforeAll(async () => {
  t = await createTestApp();
  orgAdmin = (await t.as('orgadmin@demo.example')).authorization;
  const fileStore = createFileStore({ dir: join(t.config.dataDir, 'files'), db: t.db.kysely, clock: () => new Date() });
  await seedDemoMaps(t.db.kysely, { dialect: t.db.dialect, fileStore, apiBase: t.config.apiBase }, new Date());
});
afterAll(async () => {
  await t?.close();
});

/** A grayscale 8-bit PNG (as lib/png.ts writes them) back to its pixels, top row first. */
function decodeGrayPng(bytes: Buffer): { width: number; height: number; pixels: Uint8Array } {
  let offset = 8;
  let width = 0;
  let height = 0;
  const idat: Buffer[] = [];
  while (offset < bytes.length) {
    const length = bytes.readUInt32BE(offset);
    const type = bytes.toString('latin1', offset + 4, offset + 8);
    const data = bytes.subarray(offset + 8, offset + 8 + length);
    if (type === 'IHDR') {
      width = data.readUInt32BE(0);
      height = data.readUInt32BE(4);
      expect([data[8], data[9]]).toEqual([8, 0]);
    }
    if (type === 'IDAT') idat.push(data);
    offset += 12 + length;
  }
  const raw = inflateSync(Buffer.concat(idat));
  const pixels = new Uint8Array(width * height);
  for (let row = 0; row < height; row++) {
    expect(raw[row * (width + 1)]).toBe(0);
    pixels.set(raw.subarray(row * (width + 1) + 1, (row + 1) * (width + 1)), row * width);
  }
  return { width, height, pixels };
}

/** The gray level of the image pixel under a map point (undefined outside the image). */
function grayAt(image: MapImage, pixels: Uint8Array, x: number, y: number): number | undefined {
  const col = Math.floor((x - image.originX) / image.resolution);
  const row = image.height - 1 - Math.floor((y - image.originY) / image.resolution);
  if (col < 0 || row < 0 || col >= image.width || row >= image.height) return undefined;
  return pixels[row * image.width + col];
}

async function demoFloors() {
  return seedRepo(t.db.kysely).floorsOfBuildingNamed(DEMO_BUILDING);
}

async function floorMap(floorId: number): Promise<FloorMap> {
  const res = await t.call('GET', `/floors/${floorId}/map`, orgAdmin);
  expect(res.statusCode).toBe(200);
  return floorMapSchema.parse(res.json());
}

describe('demo floor maps', () => {
  it('gives each demo floor a map image with a frame, and charger, standby and patrol waypoints on a route', async () => {
    const floors = await demoFloors();
    expect(floors).toHaveLength(3);
    for (const floor of floors) {
      const map = await floorMap(floor.id);
      expect(map.revision).toBe(1);
      expect(map.image).toMatchObject({ resolution: 0.05, originX: -2.5, originY: -2.5, width: 820, height: 620 });
      const doc = map.document;
      const types = doc.waypoints.map((w) => w.type);
      expect(types.filter((x) => x === WaypointType.charge)).toHaveLength(1);
      expect(types.filter((x) => x === WaypointType.standby)).toHaveLength(1);
      const patrol = doc.waypoints.filter((w) => w.type === WaypointType.normal);
      expect(patrol.length).toBeGreaterThanOrEqual(4);
      expect(patrol.length).toBeLessThanOrEqual(6);
      expect(doc.routes).toHaveLength(1);
      expect(doc.routes[0]!.waypointIds).toEqual(patrol.map((w) => w.id));
      expect(mapDocumentProblems(doc, mapBounds(map.image!))).toEqual([]);
    }
  });

  it('draws the image from the simulator world: waypoints and patrol legs in free space, walls dark', async () => {
    for (const floor of await demoFloors()) {
      const map = await floorMap(floor.id);
      const image = map.image!;
      // The signed URL serves the PNG without a bearer header.
      const res = await t.inject({ method: 'GET', url: image.url! });
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toBe('image/png');
      const png = decodeGrayPng(res.rawPayload);
      expect({ width: png.width, height: png.height }).toEqual({ width: image.width, height: image.height });

      const plan = demoWorldPlan(floorMapId(floor.id));
      const free = (x: number, y: number) =>
        planOccupancyAt(plan, x, y) === OCCUPANCY.free && grayAt(image, png.pixels, x, y) === OCCUPANCY_GRAY.free;
      // 30 cm clearance around every waypoint: a robot standing there touches no wall or pillar.
      for (const w of map.document.waypoints) {
        for (const [dx, dy] of [
          [0, 0],
          [0.3, 0],
          [-0.3, 0],
          [0, 0.3],
          [0, -0.3],
        ] as const) {
          expect(free(w.x + dx, w.y + dy), `${w.name} on floor ${floor.id}`).toBe(true);
        }
      }
      // Every straight leg of the patrol (and of the graph) crosses free space only.
      const byId = new Map(map.document.waypoints.map((w) => [w.id, w]));
      for (const e of map.document.edges) {
        const a = byId.get(e.from)!;
        const b = byId.get(e.to)!;
        const steps = Math.ceil(Math.hypot(b.x - a.x, b.y - a.y) / 0.1);
        for (let k = 0; k <= steps; k++) {
          const x = a.x + ((b.x - a.x) * k) / steps;
          const y = a.y + ((b.y - a.y) * k) / steps;
          expect(free(x, y), `edge ${a.name}–${b.name} at (${x}, ${y})`).toBe(true);
        }
      }
      // The image is aligned with the world: its walls and pillars are where the world has them.
      for (const r of [...plan.walls, ...plan.pillars]) {
        const cx = (r.x0 + r.x1) / 2;
        const cy = (r.y0 + r.y1) / 2;
        expect(grayAt(image, png.pixels, cx, cy), `wall at (${cx}, ${cy})`).toBe(OCCUPANCY_GRAY.occupied);
      }
    }
  });

  it('starts simulated robots on the charger inside the image and patrols the route', async () => {
    for (const floor of await demoFloors()) {
      const map = await floorMap(floor.id);
      const bounds = mapBounds(map.image!);
      const charger = map.document.waypoints.find((w) => w.type === WaypointType.charge)!;
      for (const nth of [0, 1, 2]) {
        const plan = patrolPlan(map.document, nth, nth);
        const { x, y } = plan.home;
        expect(x >= bounds.minX && x <= bounds.maxX && y >= bounds.minY && y <= bounds.maxY).toBe(true);
        expect(planOccupancyAt(demoWorldPlan(floorMapId(floor.id)), x, y)).toBe(OCCUPANCY.free);
        expect(plan.stops).toHaveLength(map.document.routes[0]!.waypointIds.length);
      }
      expect(patrolPlan(map.document, 5, 0).home).toEqual({ x: charger.x, y: charger.y, theta: charger.theta });
    }
    // A floor without a map: the square patrol of before.
    expect(patrolPlan(null, 1, 0).home).toEqual({ x: 6, y: 2, theta: 0 });
  });

  it('seeds once: a floor that has an image keeps it and its map', async () => {
    const [floor] = await demoFloors();
    const before = await floorMap(floor!.id);
    const fileStore = createFileStore({
      dir: join(t.config.dataDir, 'files'),
      db: t.db.kysely,
      clock: () => new Date(),
    });
    await seedDemoMaps(t.db.kysely, { dialect: t.db.dialect, fileStore, apiBase: t.config.apiBase }, new Date());
    const after = await floorMap(floor!.id);
    expect(after.revision).toBe(1);
    expect(after.image!.url!.split('?')[0]).toBe(before.image!.url!.split('?')[0]);
  });
});

describe('uploading a map image to a floor without a resolution', () => {
  const upload = (floorId: number, bytes: Buffer) => {
    const boundary = '----demo-seed-boundary';
    const head = `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="map.png"\r\nContent-Type: image/png\r\n\r\n`;
    return t.inject({
      method: 'PUT',
      url: `/api/floors/${floorId}/map-image`,
      headers: { authorization: orgAdmin, 'content-type': `multipart/form-data; boundary=${boundary}` },
      payload: Buffer.concat([Buffer.from(head), bytes, Buffer.from(`\r\n--${boundary}--\r\n`)]),
    });
  };
  const newFloor = async (
    name: string,
    index: number,
    frame: { resolution: number | null; originX: number | null },
  ) => {
    const [demo] = await demoFloors();
    const res = await t.call('POST', `/buildings/${demo!.building_id}/floors`, orgAdmin, {
      name,
      type: 'office',
      index,
      originY: null,
      ...frame,
    });
    expect(res.statusCode).toBe(201);
    return floorDetailSchema.parse(res.json());
  };

  it('gives the floor 0.05 m/px (origin 0, 0 unless set), so the map endpoint serves the image', async () => {
    const floor = await newFloor('9F', 9, { resolution: null, originX: null });
    expect(floor.resolution).toBeNull();
    const res = await upload(floor.id, encodeGrayPng(4, 3, new Uint8Array(12).fill(255)));
    expect(res.statusCode).toBe(200);
    expect(floorDetailSchema.parse(res.json())).toMatchObject({ resolution: 0.05, originX: 0, originY: 0 });
    const map = await floorMap(floor.id);
    expect(map.image).toMatchObject({ width: 4, height: 3, resolution: 0.05, originX: 0, originY: 0 });
    expect((await t.inject({ method: 'GET', url: map.image!.url! })).statusCode).toBe(200);
  });

  it('keeps a resolution the floor already has, and a set origin', async () => {
    const withRes = await newFloor('10F', 10, { resolution: 0.1, originX: -3 });
    const a = await upload(withRes.id, encodeGrayPng(2, 2, new Uint8Array(4).fill(0)));
    expect(floorDetailSchema.parse(a.json())).toMatchObject({ resolution: 0.1, originX: -3 });
    const originOnly = await newFloor('11F', 11, { resolution: null, originX: -3 });
    const b = await upload(originOnly.id, encodeGrayPng(2, 2, new Uint8Array(4).fill(0)));
    expect(floorDetailSchema.parse(b.json())).toMatchObject({ resolution: 0.05, originX: -3, originY: 0 });
  });
});
