import { readFileSync } from 'node:fs';
import path from 'node:path';
import { crc32, deflateSync } from 'node:zlib';
import Ajv2020 from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startRobot, type SimRobot } from '@portal/robot-sim';
import {
  emptyMapDocument,
  floorMapSchema,
  instantActionsSchema,
  mapRevisionSummarySchema,
  orderSchema,
  type CreatedRobot,
  type FloorDetail,
  type FloorMap,
  type InitData,
  type MapDocument,
  type MapEdge,
  type VdaInstantActions,
  type VdaOrder,
  type Waypoint,
  type WaypointEntry,
} from '@portal/contract';
import { observeRobot, createTestApp, type TestApp, until, errorOf } from './helpers.ts';

/**
 * Floor maps: revisions (save, stale save, overwrite, restore), the document rules, the waypoint
 * API, roles and tenancy, robots told of new revisions, and goto / trial run driven by a simulated
 * robot over the route graph.
 */
let t: TestApp;
let demoBuildingId: number;
const auth = { general: '', manager: '', orgAdmin: '', sysAdmin: '', otherAdmin: '' };

const otherData: InitData = {
  organization: { name: 'Other Maps Org', type: 0, labOption: false },
  buildings: [{ name: 'Other Maps Building', floors: [{ name: '1F', index: 1, type: 'office' }] }],
  operators: [
    {
      loginId: 'admin@other-maps.example',
      firstName: 'A',
      lastName: 'Other',
      password: 'Other-Admin-2026',
      type: 2,
      building: 0,
    },
  ],
};

// ---------------------------------------------------------------- helpers

const call: TestApp['call'] = (...args) => t.call(...args);

/** A real RGB PNG of the given size. */
function png(width: number, height: number): Buffer {
  const chunk = (type: string, data: Buffer) => {
    const length = Buffer.alloc(4);
    length.writeUInt32BE(data.length);
    const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(body) >>> 0);
    return Buffer.concat([length, body, crc]);
  };
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr.writeUInt8(8, 8);
  ihdr.writeUInt8(2, 9);
  const rows = Buffer.concat(
    Array.from({ length: height }, () => Buffer.concat([Buffer.from([0]), Buffer.alloc(width * 3, 0x80)])),
  );
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', ihdr),
    chunk('IDAT', deflateSync(rows)),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

/** A floor of the demo building; with `image`, a 400 × 200 px map at 5 cm: x −1…19 m, y −2…8 m. */
async function createFloor(name: string, index: number, image: boolean): Promise<FloorDetail> {
  const res = await call('POST', `/buildings/${demoBuildingId}/floors`, auth.orgAdmin, {
    name,
    type: 'office',
    index,
    resolution: 0.05,
    originX: -1,
    originY: -2,
  });
  expect(res.statusCode, res.body).toBe(201);
  const floor = res.json<FloorDetail>();
  if (!image) return floor;
  const boundary = '----maps-test';
  const head = `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="map.png"\r\nContent-Type: image/png\r\n\r\n`;
  const up = await t.inject({
    method: 'PUT',
    url: `/api/floors/${floor.id}/map-image`,
    headers: { authorization: auth.orgAdmin, 'content-type': `multipart/form-data; boundary=${boundary}` },
    payload: Buffer.concat([Buffer.from(head), png(400, 200), Buffer.from(`\r\n--${boundary}--\r\n`)]),
  });
  expect(up.statusCode, up.body).toBe(200);
  return up.json<FloorDetail>();
}

const wp = (id: number, x: number, y: number, name = `P${id}`, theta = 0): Waypoint => ({
  id,
  name,
  x,
  y,
  theta,
  type: 1,
});
const edge = (id: number, from: number, to: number, extra: Partial<MapEdge> = {}): MapEdge => ({
  id,
  from,
  to,
  oneWay: false,
  speed: 'normal',
  path: null,
  ...extra,
});
const doc = (waypoints: Waypoint[], edges: MapEdge[] = [], extra: Partial<MapDocument> = {}): MapDocument => ({
  ...emptyMapDocument(),
  waypoints,
  edges,
  ...extra,
});

const getMap = async (floorId: number, authorization = auth.orgAdmin): Promise<FloorMap> => {
  const res = await call('GET', `/floors/${floorId}/map`, authorization);
  expect(res.statusCode, res.body).toBe(200);
  return floorMapSchema.parse(res.json());
};
const save = (floorId: number, body: Record<string, unknown>, authorization = auth.orgAdmin) =>
  call('PUT', `/floors/${floorId}/map`, authorization, body);

beforeAll(async () => {
  t = await createTestApp();
  auth.sysAdmin = (await t.as('sysadmin@demo.example')).authorization;
  expect((await call('POST', '/init-data', auth.sysAdmin, otherData)).statusCode).toBe(201);
  auth.otherAdmin = `Bearer ${(await t.login('admin@other-maps.example', 'Other-Admin-2026')).json<{ token: string }>().token}`;
  auth.general = (await t.as('operator@demo.example')).authorization;
  auth.manager = (await t.as('manager@demo.example')).authorization;
  auth.orgAdmin = (await t.as('orgadmin@demo.example')).authorization;
  demoBuildingId = (
    await t.db.kysely.selectFrom('buildings').select('id').where('name', '=', 'Demo Tower').executeTakeFirstOrThrow()
  ).id;
});
afterAll(async () => {
  await t?.close();
});

// ---------------------------------------------------------------- revisions

describe('floor map revisions', () => {
  let floor: FloorDetail;
  const first = doc([wp(1, 0, 0, 'Entrance'), wp(2, 5, 0, 'Lobby')], [edge(1, 1, 2)], {
    routes: [{ id: 1, name: 'Short', waypointIds: [1, 2], recorded: null }],
    noGoAreas: [
      {
        id: 1,
        name: 'Stairs',
        points: [
          { x: 1, y: 1 },
          { x: 2, y: 1 },
          { x: 2, y: 2 },
        ],
      },
    ],
    partialMaps: [{ id: 1, name: 'Hall', x: 0, y: 0, width: 5, height: 5 }],
  });

  beforeAll(async () => {
    floor = await createFloor('M1', 11, true);
  });

  it('answers revision 0 with an empty document and the image frame before the first save', async () => {
    const m = await getMap(floor.id);
    expect(m).toMatchObject({
      floorId: floor.id,
      buildingId: demoBuildingId,
      revision: 0,
      savedAt: null,
      savedBy: null,
      document: emptyMapDocument(),
      image: { width: 400, height: 200, resolution: 0.05, originX: -1, originY: -2 },
    });
    expect(m.image?.url).toContain('/files/');
    // A floor without an image has no frame.
    const bare = await createFloor('M-bare', 12, false);
    expect((await getMap(bare.id)).image).toBeNull();
    expect((await call('GET', `/floors/${bare.id}/map/revisions`, auth.orgAdmin)).json()).toEqual([]);
  });

  it('saves revisions, refuses a stale save unless overwriting, lists, reads and restores them', async () => {
    const r1 = await save(floor.id, { baseRevision: 0, document: first, note: 'first draft' });
    expect(r1.statusCode, r1.body).toBe(200);
    const m1 = floorMapSchema.parse(r1.json());
    expect(m1).toMatchObject({ revision: 1, savedBy: '鈴木 一郎', document: first });
    expect(await getMap(floor.id)).toEqual(m1);

    const second = { ...first, waypoints: [...first.waypoints, wp(3, 10, 5, 'Office')] };
    const r2 = await save(floor.id, { baseRevision: 1, document: second });
    expect(r2.json<FloorMap>().revision).toBe(2);

    // Someone still editing revision 1 is told, and nothing is written.
    const stale = await save(floor.id, { baseRevision: 1, document: first });
    expect(stale.statusCode).toBe(409);
    expect(errorOf(stale)).toMatchObject({
      code: 'STALE_UPDATE',
      details: [{ path: 'baseRevision', message: 'validation.staleMap' }],
    });
    expect((await getMap(floor.id)).revision).toBe(2);
    // ...and may overwrite after asking.
    const over = await save(floor.id, { baseRevision: 1, document: first, overwrite: true, note: 'mine wins' });
    expect(over.statusCode, over.body).toBe(200);
    expect(over.json<FloorMap>()).toMatchObject({ revision: 3, document: first });

    const list = await call('GET', `/floors/${floor.id}/map/revisions`, auth.general);
    expect(list.statusCode).toBe(200);
    const summaries = list.json<unknown[]>().map((s) => mapRevisionSummarySchema.parse(s));
    expect(summaries.map((s) => [s.revision, s.note, s.waypoints, s.edges, s.savedBy])).toEqual([
      [3, 'mine wins', 2, 1, '鈴木 一郎'],
      [2, '', 3, 1, '鈴木 一郎'],
      [1, 'first draft', 2, 1, '鈴木 一郎'],
    ]);
    const limited = await call('GET', `/floors/${floor.id}/map/revisions?limit=1`, auth.orgAdmin);
    expect(limited.json<unknown[]>()).toHaveLength(1);

    const old = await call('GET', `/floors/${floor.id}/map/revisions/2`, auth.general);
    expect(old.statusCode).toBe(200);
    expect(old.json<FloorMap>()).toMatchObject({ revision: 2, document: second });
    expect((await call('GET', `/floors/${floor.id}/map/revisions/99`, auth.orgAdmin)).statusCode).toBe(404);

    const restored = await call('POST', `/floors/${floor.id}/map/revisions/2/restore`, auth.orgAdmin);
    expect(restored.statusCode, restored.body).toBe(200);
    expect(restored.json<FloorMap>()).toMatchObject({ revision: 4, document: second });
    const latest = (await call('GET', `/floors/${floor.id}/map/revisions?limit=1`, auth.orgAdmin)).json<
      Array<{ note: string }>
    >();
    expect(latest[0]?.note).toBe('restored from 2');
    expect((await call('POST', `/floors/${floor.id}/map/revisions/42/restore`, auth.orgAdmin)).statusCode).toBe(404);

    const audit = await t.db.kysely
      .selectFrom('audit_logs')
      .select(['action', 'target_id', 'organization_id'])
      .where('target_type', '=', 'floor-map')
      .where('target_id', '=', String(floor.id))
      .orderBy('id')
      .execute();
    expect(audit.map((a) => a.action)).toEqual([
      'floor-map.save',
      'floor-map.save',
      'floor-map.save',
      'floor-map.restore',
    ]);
    expect(audit[0]?.organization_id).toBe(floor.organizationId);
  });

  it('enforces the document rules with paths into the document, saving nothing', async () => {
    const before = (await getMap(floor.id)).revision;
    const refused = async (document: MapDocument, expected: Array<{ path: string; message: string }>) => {
      const res = await save(floor.id, { baseRevision: before, document });
      expect(res.statusCode, res.body).toBe(400);
      const error = errorOf(res);
      expect(error.code).toBe('VALIDATION_FAILED');
      expect(error.details?.map((d) => ({ path: d.path, message: d.message }))).toEqual(expected);
    };
    // Outside the image (x −1…19, y −2…8).
    await refused(doc([wp(1, 0, 0), wp(2, 19.5, 0), wp(3, 0, 8.01)]), [
      { path: 'document.waypoints.1.x', message: 'validation.outsideMap' },
      { path: 'document.waypoints.2.y', message: 'validation.outsideMap' },
    ]);
    await refused(doc([wp(1, 0, 0)], [], { partialMaps: [{ id: 1, name: 'Big', x: 0, y: 0, width: 30, height: 1 }] }), [
      { path: 'document.partialMaps.0.width', message: 'validation.outsideMap' },
    ]);
    // A dangling edge, an edge to itself, a duplicate edge.
    await refused(doc([wp(1, 0, 0), wp(2, 1, 0)], [edge(1, 1, 7), edge(2, 2, 2), edge(3, 1, 2), edge(4, 2, 1)]), [
      { path: 'document.edges.0.to', message: 'validation.unknownWaypoint' },
      { path: 'document.edges.1.to', message: 'validation.sameWaypoint' },
      { path: 'document.edges.3', message: 'validation.duplicateEdge' },
    ]);
    // Duplicate ids, and a route through an unknown waypoint.
    await refused(
      doc([wp(1, 0, 0), wp(1, 1, 0)], [], { routes: [{ id: 4, name: 'R', waypointIds: [1, 5], recorded: null }] }),
      [
        { path: 'document.waypoints.1.id', message: 'validation.duplicate' },
        { path: 'document.routes.0.waypointIds.1', message: 'validation.unknownWaypoint' },
      ],
    );
    // Schema rules come back the same way: names required and at most 40.
    await refused(doc([wp(1, 0, 0, ' '), wp(2, 1, 0, 'x'.repeat(41))]), [
      { path: 'document.waypoints.0.name', message: 'validation.required' },
      { path: 'document.waypoints.1.name', message: 'validation.max40' },
    ]);
    expect((await getMap(floor.id)).revision).toBe(before);
    // Without an image the same far-away waypoint is fine.
    const bare = await createFloor('M-free', 13, false);
    expect((await save(bare.id, { baseRevision: 0, document: doc([wp(1, 500, -300)]) })).statusCode).toBe(200);
  });
});

// ---------------------------------------------------------------- waypoints

describe('waypoint API', () => {
  let floor: FloorDetail;
  beforeAll(async () => {
    floor = await createFloor('W1', 21, true);
    const res = await save(floor.id, {
      baseRevision: 0,
      document: doc([wp(1, 0, 0, 'A'), wp(2, 5, 0, 'B'), wp(4, 5, 5, 'D')], [edge(1, 1, 2)], {
        routes: [
          { id: 1, name: 'Morning round', waypointIds: [1, 2, 4], recorded: null },
          { id: 2, name: 'Evening round', waypointIds: [4, 1], recorded: null },
        ],
      }),
    });
    expect(res.statusCode, res.body).toBe(200);
  });

  it('lists, creates (next id), reads, changes and deletes waypoints, each a new revision', async () => {
    const list = await call('GET', `/maps/${floor.id}/waypoints`, auth.general);
    expect(list.json<Waypoint[]>().map((w) => w.name)).toEqual(['A', 'B', 'D']);

    const created = await call('POST', `/maps/${floor.id}/waypoints`, auth.orgAdmin, {
      name: ' Charger ',
      x: 2,
      y: 3,
      theta: 1.5,
      type: 2,
    });
    expect(created.statusCode, created.body).toBe(201);
    const charger = created.json<WaypointEntry>();
    expect(charger).toEqual({ id: 5, name: 'Charger', x: 2, y: 3, theta: 1.5, type: 2, updatedAt: expect.any(String) });
    expect((await getMap(floor.id)).revision).toBe(2);

    expect((await call('GET', `/maps/${floor.id}/waypoints/5`, auth.general)).json<Waypoint>().name).toBe('Charger');
    expect((await call('GET', `/maps/${floor.id}/waypoints/9`, auth.general)).statusCode).toBe(404);

    const changed = await call('PUT', `/maps/${floor.id}/waypoints/5`, auth.orgAdmin, {
      name: 'Charger 1',
      x: 2.5,
      y: 3,
      theta: 0,
      type: 2,
      updatedAt: charger.updatedAt,
    });
    expect(changed.statusCode, changed.body).toBe(200);
    const charger1 = changed.json<WaypointEntry>();
    expect(charger1).toEqual({
      id: 5,
      name: 'Charger 1',
      x: 2.5,
      y: 3,
      theta: 0,
      type: 2,
      updatedAt: expect.any(String),
    });
    expect(charger1.updatedAt > charger.updatedAt).toBe(true);
    const m = await getMap(floor.id);
    expect(m.revision).toBe(3);
    // The rest of the document is untouched.
    expect(m.document.routes).toHaveLength(2);
    expect(m.document.edges).toEqual([edge(1, 1, 2)]);

    const outside = await call('PUT', `/maps/${floor.id}/waypoints/5`, auth.orgAdmin, {
      name: 'Charger 1',
      x: 25,
      y: 3,
      theta: 0,
      type: 2,
      updatedAt: charger1.updatedAt,
    });
    expect(outside.statusCode).toBe(400);
    expect(errorOf(outside).details).toEqual([{ path: 'x', message: 'validation.outsideMap' }]);
    expect(
      (
        await call('PUT', `/maps/${floor.id}/waypoints/77`, auth.orgAdmin, {
          ...{ name: 'n', x: 0, y: 0, theta: 0, type: 1 },
          updatedAt: charger1.updatedAt,
        })
      ).statusCode,
    ).toBe(404);

    expect((await call('DELETE', `/maps/${floor.id}/waypoints/5`, auth.orgAdmin)).statusCode).toBe(204);
    expect((await call('GET', `/maps/${floor.id}/waypoints/5`, auth.orgAdmin)).statusCode).toBe(404);
    expect((await getMap(floor.id)).revision).toBe(4);
    // The next new waypoint takes max + 1 again.
    const again = await call('POST', `/maps/${floor.id}/waypoints`, auth.orgAdmin, {
      name: 'E',
      x: 1,
      y: 1,
      theta: 0,
      type: 1,
    });
    expect(again.json<Waypoint>().id).toBe(5);

    const audit = await t.db.kysely
      .selectFrom('audit_logs')
      .select('action')
      .where('target_type', '=', 'floor-map')
      .where('target_id', '=', String(floor.id))
      .orderBy('id')
      .execute();
    expect(audit.map((a) => a.action)).toEqual([
      'floor-map.save',
      'floor-map.waypoint.create',
      'floor-map.waypoint.update',
      'floor-map.waypoint.delete',
      'floor-map.waypoint.create',
    ]);
  });

  it('reads path ids strictly: no hexadecimal, exponent or padded forms of another floor, waypoint or revision', async () => {
    for (const bad of ['0x10', '1e3', '01', '0', '%201']) {
      expect((await call('GET', `/floors/${bad}/map`, auth.general)).statusCode).toBe(400);
      expect((await call('GET', `/floors/${floor.id}/map/revisions/${bad}`, auth.general)).statusCode).toBe(400);
      expect((await call('GET', `/maps/${bad}/waypoints`, auth.general)).statusCode).toBe(400);
      expect((await call('GET', `/maps/${floor.id}/waypoints/${bad}`, auth.general)).statusCode).toBe(400);
    }
  });

  it('a waypoint edit based on an older version is refused (409), whichever way the waypoint changed since', async () => {
    const floor3 = await createFloor('W3', 23, false);
    const post = (name: string) =>
      call('POST', `/maps/${floor3.id}/waypoints`, auth.orgAdmin, { name, x: 1, y: 1, theta: 0, type: 1 });
    const a = (await post('A')).json<WaypointEntry>();
    const b = (await post('B')).json<WaypointEntry>();
    const put = (w: WaypointEntry, name: string, updatedAt = w.updatedAt) =>
      call('PUT', `/maps/${floor3.id}/waypoints/${w.id}`, auth.orgAdmin, {
        name,
        x: 1,
        y: 1,
        theta: 0,
        type: 1,
        updatedAt,
      });
    // Two editors opened A; the first saves, the second's save would overwrite it silently.
    expect((await put(a, 'A by one')).statusCode).toBe(200);
    const stale = await put(a, 'A by two');
    expect(stale.statusCode).toBe(409);
    expect(errorOf(stale).code).toBe('STALE_UPDATE');
    // Another waypoint's change (here B) does not make an edit of A stale.
    expect((await put(b, 'B1')).statusCode).toBe(200);
    const a1 = (await call('GET', `/maps/${floor3.id}/waypoints/${a.id}`, auth.general)).json<WaypointEntry>();
    expect(a1.name).toBe('A by one');
    // A whole-document save from the editor that changes A gives it a new version too.
    const m = await getMap(floor3.id);
    const saved = await call('PUT', `/floors/${floor3.id}/map`, auth.orgAdmin, {
      baseRevision: m.revision,
      note: '',
      document: { ...m.document, waypoints: m.document.waypoints.map((w) => (w.id === a.id ? { ...w, x: 2 } : w)) },
    });
    expect(saved.statusCode, saved.body).toBe(200);
    expect((await put(a1, 'A by three')).statusCode).toBe(409);
    // ...while B, untouched by that save, keeps its version.
    const b1 = (await call('GET', `/maps/${floor3.id}/waypoints/${b.id}`, auth.general)).json<WaypointEntry>();
    expect((await put(b1, 'B2')).statusCode).toBe(200);
    // A body without a version is invalid.
    const noVersion = await call('PUT', `/maps/${floor3.id}/waypoints/${b.id}`, auth.orgAdmin, {
      ...{ name: 'B3', x: 1, y: 1, theta: 0, type: 1 },
    });
    expect(noVersion.statusCode).toBe(400);
  });

  it('concurrent waypoint edits each get their own id and revision, none lost', async () => {
    const floor2 = await createFloor('W2', 22, false);
    const results = await Promise.all(
      Array.from({ length: 6 }, (_, i) =>
        call('POST', `/maps/${floor2.id}/waypoints`, auth.orgAdmin, { name: `C${i}`, x: i, y: 0, theta: 0, type: 1 }),
      ),
    );
    expect(results.map((r) => r.statusCode)).toEqual(Array(6).fill(201));
    expect(results.map((r) => r.json<Waypoint>().id).sort()).toEqual([1, 2, 3, 4, 5, 6]);
    const m = await getMap(floor2.id);
    expect(m.revision).toBe(6);
    expect(m.document.waypoints).toHaveLength(6);
  });

  it('refuses to delete a waypoint a route or an edge uses, naming the routes', async () => {
    const before = (await getMap(floor.id)).revision;
    const res = await call('DELETE', `/maps/${floor.id}/waypoints/1`, auth.orgAdmin);
    expect(res.statusCode).toBe(409);
    const error = errorOf(res);
    expect(error.code).toBe('IN_USE');
    expect(error.details).toEqual([
      { path: 'routes', message: 'Morning round', code: '1' },
      { path: 'routes', message: 'Evening round', code: '2' },
      { path: 'edges', message: 'validation.inUse', code: '1' },
    ]);
    const onlyRoute = await call('DELETE', `/maps/${floor.id}/waypoints/4`, auth.orgAdmin);
    expect(errorOf(onlyRoute).details?.map((d) => d.message)).toEqual(['Morning round', 'Evening round']);
    expect((await getMap(floor.id)).revision).toBe(before);
    expect((await call('GET', `/maps/${floor.id}/waypoints`, auth.orgAdmin)).json<unknown[]>()).toHaveLength(4);
  });
});

// ---------------------------------------------------------------- roles and tenancy

describe('who may read and change maps', () => {
  let floor: FloorDetail;
  let otherFloorId: number;
  beforeAll(async () => {
    floor = await createFloor('R1', 31, false);
    expect((await save(floor.id, { baseRevision: 0, document: doc([wp(1, 0, 0)]) })).statusCode).toBe(200);
    const b = await t.db.kysely
      .selectFrom('buildings')
      .select('id')
      .where('name', '=', 'Other Maps Building')
      .executeTakeFirstOrThrow();
    otherFloorId = (
      await t.db.kysely.selectFrom('floors').select('id').where('building_id', '=', b.id).executeTakeFirstOrThrow()
    ).id;
  });

  const writes = (floorId: number) =>
    [
      ['PUT', `/floors/${floorId}/map`, { baseRevision: 1, document: doc([wp(1, 1, 1)]) }],
      ['POST', `/floors/${floorId}/map/revisions/1/restore`, undefined],
      ['POST', `/maps/${floorId}/waypoints`, { name: 'N', x: 0, y: 0, theta: 0, type: 1 }],
      ['PUT', `/maps/${floorId}/waypoints/1`, { name: 'N', x: 0, y: 0, theta: 0, type: 1, updatedAt: 'x' }],
      ['DELETE', `/maps/${floorId}/waypoints/1`, undefined],
    ] as const;
  const reads = (floorId: number) => [
    `/floors/${floorId}/map`,
    `/floors/${floorId}/map/revisions`,
    `/floors/${floorId}/map/revisions/1`,
    `/maps/${floorId}/waypoints`,
    `/maps/${floorId}/waypoints/1`,
  ];

  it('general operators and area managers read but may not change (403, nothing written)', async () => {
    for (const who of [auth.general, auth.manager]) {
      for (const url of reads(floor.id)) expect((await call('GET', url, who)).statusCode, url).toBe(200);
      for (const [method, url, body] of writes(floor.id)) {
        const res = await call(method, url, who, body);
        expect({ url, method, status: res.statusCode }).toEqual({ url, method, status: 403 });
        expect(errorOf(res).code).toBe('FORBIDDEN');
      }
    }
    expect((await getMap(floor.id)).revision).toBe(1);
  });

  it("another organization's floor is not found, for reading and writing; system admins may change any", async () => {
    expect(
      (await save(otherFloorId, { baseRevision: 0, document: doc([wp(1, 0, 0)]) }, auth.sysAdmin)).statusCode,
    ).toBe(200);
    for (const url of reads(otherFloorId)) expect((await call('GET', url, auth.orgAdmin)).statusCode, url).toBe(404);
    for (const [method, url, body] of writes(otherFloorId)) {
      expect((await call(method, url, auth.orgAdmin, body)).statusCode, `${method} ${url}`).toBe(404);
    }
    // And the other organization cannot see ours.
    expect((await call('GET', `/floors/${floor.id}/map`, auth.otherAdmin)).statusCode).toBe(404);
    expect((await getMap(otherFloorId, auth.otherAdmin)).revision).toBe(1);
    const sys = await call('POST', `/maps/${floor.id}/waypoints`, auth.sysAdmin, {
      name: 'By sysadmin',
      x: 0,
      y: 0,
      theta: 0,
      type: 1,
    });
    expect(sys.statusCode, sys.body).toBe(201);
    const audit = await t.db.kysely
      .selectFrom('audit_logs')
      .select('organization_id')
      .where('action', '=', 'floor-map.waypoint.create')
      .where('target_id', '=', String(floor.id))
      .executeTakeFirstOrThrow();
    // Recorded under the floor's organization, so its administrators see it in their audit log.
    expect(audit.organization_id).toBe(floor.organizationId);
  });
});

// ---------------------------------------------------------------- robots

const SCHEMA_DIR = path.resolve(import.meta.dirname, '../../../packages/contract/vda5050');
const officialSchema = (topic: 'order' | 'instantActions') => {
  const file = path.join(SCHEMA_DIR, '2.1.0', `${topic}.schema`);
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  addFormats(ajv);
  return ajv.compile(JSON.parse(readFileSync(file, 'utf8')) as object);
};

describe('robots on the map: told of new revisions, goto and trial run', () => {
  let floor: FloorDetail;
  let created: CreatedRobot;
  let robot: SimRobot;
  let observer: Awaited<ReturnType<typeof observeRobot>>;
  const orders: VdaOrder[] = [];
  const instant: VdaInstantActions[] = [];
  let revision = 0;

  /**
   *   4 (1,5) ←oneway── 3 (6,5)        9 (18,7): far away, on no edge
   *   │ (4 → 1 one-way)  ║ slow
   *   1 (1,1) ───────── 2 (6,1)
   */
  const graph = doc(
    [
      wp(1, 1, 1, 'Home'),
      wp(2, 6, 1, 'Corner'),
      wp(3, 6, 5, 'Desk', Math.PI / 2),
      wp(4, 1, 5, 'Window', Math.PI),
      wp(9, 18, 7, 'Island'),
    ],
    [edge(1, 1, 2), edge(2, 2, 3, { speed: 'slow' }), edge(3, 3, 4, { oneWay: true }), edge(4, 4, 1, { oneWay: true })],
    { routes: [{ id: 1, name: 'Loop', waypointIds: [3, 4, 1], recorded: null }] },
  );

  beforeAll(async () => {
    floor = await createFloor('D1', 41, true);
    const res = await call('POST', '/robots', auth.orgAdmin, {
      serialNo: 'MAPS-001',
      name: 'Map runner',
      model: 'pro',
      version: '',
      hardwareRevision: '',
      buildingId: demoBuildingId,
      floorId: floor.id,
      groupId: null,
      status: 1,
      longTermRecordingAutoStart: false,
      videoMode: 'medium',
      notes: '',
    });
    expect(res.statusCode, res.body).toBe(201);
    created = res.json<CreatedRobot>();
    const c = created.credentials;
    // What the robot is sent, as the robot receives it (a second session with the robot's credentials).
    observer = await observeRobot(created, orders, instant);
    robot = await startRobot({
      brokerUrl: c.mqttUrl,
      username: c.username,
      password: c.password,
      manufacturer: c.manufacturer,
      serialNumber: c.serialNumber,
      model: 'pro',
      mapId: `floor-${floor.id}`,
      start: { x: 1.2, y: 1.1, theta: 0 },
      speedScale: 8,
      visualizationHz: 5,
      actionTypes: ['mapChanged'],
    });
    await until(() => {
      const live = t.link.live({ id: created.robot.id, status: 1 });
      return live.online && live.position !== null;
    });
  });
  afterAll(async () => {
    await robot?.stop().catch(() => undefined);
    await observer?.close().catch(() => undefined);
  });

  it('tells robots on the floor of a new revision with the custom instant action mapChanged', async () => {
    const res = await save(floor.id, { baseRevision: 0, document: graph });
    expect(res.statusCode, res.body).toBe(200);
    revision = res.json<FloorMap>().revision;
    const message = await until(() => instant.find((m) => m.actions[0]?.actionType === 'mapChanged'));
    expect(instantActionsSchema.safeParse(message).success).toBe(true);
    const validate = officialSchema('instantActions');
    expect(validate(message), JSON.stringify(validate.errors)).toBe(true);
    const action = message.actions[0]!;
    expect(action).toMatchObject({ blockingType: 'NONE' });
    expect(action.actionParameters).toEqual([
      { key: 'mapId', value: `floor-${floor.id}` },
      { key: 'mapRevision', value: String(revision) },
    ]);
    // The robot answers with actionStates as usual.
    await robot.waitFor((s) =>
      s.actionStates.some((a) => a.actionId === action.actionId && a.actionStatus === 'FINISHED'),
    );
    // A waypoint edit is a revision too.
    const count = instant.length;
    const island = (await call('GET', `/maps/${floor.id}/waypoints/9`, auth.orgAdmin)).json<WaypointEntry>();
    await call('PUT', `/maps/${floor.id}/waypoints/9`, auth.orgAdmin, {
      ...wp(9, 18, 7, 'Island 2'),
      id: undefined,
      updatedAt: island.updatedAt,
    });
    const next = await until(() => instant.slice(count).find((m) => m.actions[0]?.actionType === 'mapChanged'));
    expect(next.actions[0]?.actionParameters).toContainEqual({ key: 'mapRevision', value: String(revision + 1) });
  });

  it('refuses to plan for an offline robot, a robot on another floor, an unknown waypoint and an unreachable one', async () => {
    const offline = await call('POST', '/robots', auth.orgAdmin, {
      serialNo: 'MAPS-OFF',
      name: 'Never connected',
      model: 'pro',
      version: '',
      hardwareRevision: '',
      buildingId: demoBuildingId,
      floorId: floor.id,
      groupId: null,
      status: 1,
      longTermRecordingAutoStart: false,
      videoMode: 'medium',
      notes: '',
    });
    const offlineId = offline.json<CreatedRobot>().robot.id;
    const off = await call('POST', `/robots/${offlineId}/goto`, auth.general, { floorId: floor.id, waypointId: 3 });
    expect(off.statusCode).toBe(409);
    expect(errorOf(off).code).toBe('ROBOT_OFFLINE');

    const otherFloor = await createFloor('D2', 42, false);
    const elsewhere = await call('POST', `/robots/${created.robot.id}/goto`, auth.general, {
      floorId: otherFloor.id,
      waypointId: 1,
    });
    expect(elsewhere.statusCode).toBe(400);
    expect(errorOf(elsewhere)).toMatchObject({
      code: 'VALIDATION_FAILED',
      details: [{ path: 'floorId', message: 'validation.robotOnOtherFloor', code: `floor-${floor.id}` }],
    });

    const unknown = await call('POST', `/robots/${created.robot.id}/goto`, auth.general, {
      floorId: floor.id,
      waypointId: 77,
    });
    expect(errorOf(unknown)).toMatchObject({
      code: 'VALIDATION_FAILED',
      details: [{ path: 'waypointId', message: 'validation.notFound' }],
    });
    const noRoute = await call('POST', `/robots/${created.robot.id}/trial-run`, auth.general, {
      floorId: floor.id,
      routeId: 5,
    });
    expect(errorOf(noRoute).details).toEqual([{ path: 'routeId', message: 'validation.notFound' }]);

    const island = await call('POST', `/robots/${created.robot.id}/goto`, auth.general, {
      floorId: floor.id,
      waypointId: 9,
    });
    expect(island.statusCode).toBe(409);
    expect(errorOf(island).code).toBe('NO_PATH');
    expect(orders).toHaveLength(0);
    // Another organization does not see the robot at all.
    const other = await call('POST', `/robots/${created.robot.id}/goto`, auth.otherAdmin, {
      floorId: floor.id,
      waypointId: 3,
    });
    expect(other.statusCode).toBe(404);
  });

  it('refuses goto and trial run while another operator holds the robot’s controls (TELEOP_LOCKED)', async () => {
    const { token } = await t.as('manager@demo.example');
    const ws = await t.app.injectWS('/api/ws');
    const messages: Array<{ type: string; role?: string; sessionId?: string }> = [];
    ws.on('message', (data: Buffer) => messages.push(JSON.parse(data.toString('utf8')) as (typeof messages)[number]));
    const next = (type: string) => until(() => messages.find((m) => m.type === type));
    ws.send(JSON.stringify({ type: 'auth', token }));
    await next('ready');
    ws.send(JSON.stringify({ type: 'teleop.join', robotId: created.robot.id, want: 'control' }));
    const joined = await next('teleop.joined');
    expect(joined.role).toBe('controller');
    try {
      for (const [what, body] of [
        ['goto', { floorId: floor.id, waypointId: 3 }],
        ['trial-run', { floorId: floor.id, routeId: 1 }],
      ] as const) {
        const res = await call('POST', `/robots/${created.robot.id}/${what}`, auth.general, body);
        expect(res.statusCode, what).toBe(409);
        expect(errorOf(res).code).toBe('TELEOP_LOCKED');
      }
    } finally {
      ws.send(JSON.stringify({ type: 'teleop.leave', sessionId: joined.sessionId }));
      await next('teleop.closed');
      ws.terminate();
    }
  });

  it('goto: plans from the nearest waypoint and the robot drives the planned path, slowly on the slow edge', async () => {
    const res = await call('POST', `/robots/${created.robot.id}/goto`, auth.general, {
      floorId: floor.id,
      waypointId: 3,
    });
    expect(res.statusCode, res.body).toBe(202);
    const { orderId, waypointIds } = res.json<{ orderId: string; waypointIds: number[] }>();
    expect(waypointIds).toEqual([1, 2, 3]);

    const order = await until(() => orders.find((o) => o.orderId === orderId));
    expect(orderSchema.safeParse(order).success).toBe(true);
    const validate = officialSchema('order');
    expect(validate(order), JSON.stringify(validate.errors)).toBe(true);
    expect(order.nodes.map((n) => n.nodeId)).toEqual(['wp-1', 'wp-2', 'wp-3']);
    // Stops without a heading carry the direction of travel and allow any orientation; Desk keeps its own.
    expect(order.nodes.map((n) => n.nodePosition?.allowedDeviationTheta)).toEqual([Math.PI, Math.PI, undefined]);
    expect(order.nodes[2]?.nodePosition?.theta).toBe(Math.PI / 2);
    expect(order.edges.map((e) => [e.startNodeId, e.endNodeId, e.maxSpeed])).toEqual([
      ['wp-1', 'wp-2', undefined],
      ['wp-2', 'wp-3', 0.3],
    ]);

    // While it drives, another order is refused: cancel first.
    await robot.waitFor((s) => s.orderId === orderId && s.driving, 10_000);
    await until(() => t.link.live({ id: created.robot.id, status: 1 }).activity === 'driving');
    // The live state names the order the portal sent (the operator screen shows it, not the id).
    expect(t.link.live({ id: created.robot.id, status: 1 }).orderLabel).toEqual({ kind: 'goto', name: 'Desk' });
    const busy = await call('POST', `/robots/${created.robot.id}/goto`, auth.general, {
      floorId: floor.id,
      waypointId: 1,
    });
    expect(busy.statusCode).toBe(409);
    expect(errorOf(busy)).toMatchObject({
      code: 'CONFLICT',
      details: [{ path: 'robot', message: 'validation.robotBusy' }],
    });

    await robot.waitFor(
      (s) => s.orderId === orderId && s.lastNodeId === 'wp-3' && !s.driving && s.nodeStates.length === 0,
      30_000,
    );
    await until(() => Math.abs(robot.position().theta - Math.PI / 2) < 0.01 || undefined, 10_000);
    const p = robot.position();
    expect(Math.hypot(p.x - 6, p.y - 5)).toBeLessThan(0.05);
    const live = await until(() => {
      const l = t.link.live({ id: created.robot.id, status: 1 });
      return l.position && Math.hypot(l.position.x - 6, l.position.y - 5) < 0.1 ? l : undefined;
    });
    expect(live.position?.floorId).toBe(floor.id);
    const audit = await t.db.kysely
      .selectFrom('audit_logs')
      .select(['target_type', 'detail'])
      .where('action', '=', 'robot.goto')
      .executeTakeFirstOrThrow();
    expect(audit.target_type).toBe('robot');
    expect(JSON.parse(audit.detail ?? '{}')).toMatchObject({ floorId: floor.id, waypointId: 3, orderId });
  });

  it('trial run: drives a route through its waypoints in order, one order with all nodes', async () => {
    // From Desk (3): Window (4) over the one-way 3 → 4, then Home (1) over the one-way 4 → 1.
    const res = await call('POST', `/robots/${created.robot.id}/trial-run`, auth.general, {
      floorId: floor.id,
      routeId: 1,
    });
    expect(res.statusCode, res.body).toBe(202);
    const { orderId, waypointIds } = res.json<{ orderId: string; waypointIds: number[] }>();
    expect(waypointIds).toEqual([3, 4, 1]);
    const order = await until(() => orders.find((o) => o.orderId === orderId));
    expect(order.nodes.map((n) => n.nodeId)).toEqual(['wp-3', 'wp-4', 'wp-1']);
    // Every stop of the route carries its heading (Desk is the route's first stop as well as the start).
    expect(order.nodes.map((n) => n.nodePosition?.theta)).toEqual([Math.PI / 2, Math.PI, 0]);
    await robot.waitFor(
      (s) => s.orderId === orderId && s.lastNodeId === 'wp-1' && !s.driving && s.nodeStates.length === 0,
      30_000,
    );
    const p = robot.position();
    expect(Math.hypot(p.x - 1, p.y - 1)).toBeLessThan(0.05);

    // Back at Home, Window (4) is one edge away but only against its one-way direction: round by 2 and 3.
    const toWindow = await call('POST', `/robots/${created.robot.id}/goto`, auth.general, {
      floorId: floor.id,
      waypointId: 4,
    });
    expect(toWindow.json<{ waypointIds: number[] }>().waypointIds).toEqual([1, 2, 3, 4]);
    await call('POST', `/robots/${created.robot.id}/commands`, auth.general, { command: 'cancel' });
  });
});
