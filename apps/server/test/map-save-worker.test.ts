import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { emptyMapDocument, floorMapSchema, type FloorDetail, type MapDocument, type Waypoint } from '@portal/contract';
import { closeImageWorker, imageWorkerJobs } from '../src/lib/image-worker.ts';
import { prepareMap, type PrepareMapJob } from '../src/modules/maps/map-document-text.ts';
import { createTestApp, errorOf, type TestApp } from './helpers.ts';

/**
 * Issue 11: a 9 MB map save blocked the event loop for seconds. The document is now parsed, checked,
 * stamped and written as text on the worker thread (`prepareMap`), and answers carry the stored text
 * without parsing it again. Tests never measure time: they check the worker's result and that the
 * service hands its work to the worker.
 */
const wp = (id: number, x: number, y: number, extra: Partial<Waypoint> = {}): Waypoint => ({
  id,
  name: `P${id}`,
  x,
  y,
  theta: 0,
  type: 1,
  ...extra,
});
const doc = (waypoints: Waypoint[], extra: Partial<MapDocument> = {}): MapDocument => ({
  ...emptyMapDocument(),
  waypoints,
  ...extra,
});
const job = (text: string, extra: Partial<PrepareMapJob> = {}): PrepareMapJob => ({
  source: 'body',
  text,
  bounds: null,
  previous: null,
  previousSavedAt: null,
  now: Date.parse('2026-05-01T00:00:00.000Z'),
  ...extra,
});

describe('prepareMap (the worker thread’s part of a map write)', () => {
  it('parses, checks and stamps a body, keeping the versions of unchanged waypoints', () => {
    const previous = doc([wp(1, 0, 0, { updatedAt: '2026-04-01T00:00:00.000Z' }), wp(2, 1, 1)]);
    const next = doc([wp(1, 0, 0, { updatedAt: 'a client value' }), wp(2, 2, 2), wp(3, 3, 3)], {
      edges: [{ id: 1, from: 1, to: 2, oneWay: false, speed: 'normal', path: null }],
    });
    const body = { baseRevision: 4, document: next, note: ' moved P2 ', overwrite: true, unknown: 1 };
    const out = prepareMap(
      job(JSON.stringify(body), { previous: JSON.stringify(previous), previousSavedAt: '2026-04-02T00:00:00.000Z' }),
    );
    expect(out).toMatchObject({ ok: true, baseRevision: 4, overwrite: true, note: 'moved P2', waypoints: 3, edges: 1 });
    if (!out.ok) return;
    const stored = JSON.parse(out.documentText) as MapDocument;
    // Unchanged P1 keeps its version whatever the client sent; changed P2 and new P3 get the new time.
    expect(stored.waypoints.map((w) => w.updatedAt)).toEqual([
      '2026-04-01T00:00:00.000Z',
      '2026-05-01T00:00:00.000Z',
      '2026-05-01T00:00:00.000Z',
    ]);
    // The text is the checked document: keys the contract does not name are gone.
    expect(stored).toEqual({ ...next, waypoints: stored.waypoints });
    expect(out.documentText).not.toContain('unknown');
  });

  it('takes UTF-8 bytes as well as a string', () => {
    const text = JSON.stringify({ baseRevision: 0, document: doc([wp(1, 0, 0, { name: '受付' })]) });
    const out = prepareMap(job(text, { text: new TextEncoder().encode(text) }));
    expect(out.ok && (JSON.parse(out.documentText) as MapDocument).waypoints[0]!.name).toBe('受付');
  });

  it('answers malformed JSON, a body against the contract and a document against the map rules as problems', () => {
    expect(prepareMap(job('{"baseRevision": 0, "document": '))).toMatchObject({ ok: false, kind: 'json' });
    const schema = prepareMap(job(JSON.stringify({ baseRevision: -1, document: doc([wp(1, 'x' as never, 0)]) })));
    expect(schema.ok === false && schema.kind === 'schema' && schema.details.map((d) => d.path)).toEqual([
      'baseRevision',
      'document.waypoints.0.x',
    ]);
    const rules = prepareMap(
      job(JSON.stringify({ baseRevision: 0, document: doc([wp(1, 50, 0)]) }), {
        bounds: { minX: 0, minY: 0, maxX: 10, maxY: 10 },
      }),
    );
    expect(rules).toEqual({
      ok: false,
      kind: 'rules',
      details: [expect.objectContaining({ path: 'waypoints.0.x', message: 'validation.outsideMap' })],
    });
    // A stored document (a restore) is checked as a document; its problems are named under `document`.
    const stored = prepareMap(job(JSON.stringify({ ...doc([]), waypoints: 'none' }), { source: 'document' }));
    expect(stored.ok === false && stored.kind === 'schema' && stored.details[0]!.path).toBe('document.waypoints');
  });
});

describe('map saves through the API', () => {
  let t: TestApp;
  let auth: string;
  let floor: FloorDetail;

  beforeAll(async () => {
    t = await createTestApp();
    auth = (await t.as('orgadmin@demo.example')).authorization;
    const building = await t.db.kysely
      .selectFrom('buildings')
      .select('id')
      .where('name', '=', 'Demo Tower')
      .executeTakeFirstOrThrow();
    const res = await t.call('POST', `/buildings/${building.id}/floors`, auth, {
      name: 'Worker floor',
      type: 'office',
      index: 61,
      resolution: null,
      originX: null,
      originY: null,
    });
    expect(res.statusCode, res.body).toBe(201);
    floor = res.json<FloorDetail>();
  });
  afterAll(async () => {
    await t?.close();
    await closeImageWorker();
  });

  it('hands a save and a restore to the worker thread, and answers the stored document as saved', async () => {
    // A document of recorded paths: 200 edges of 500 points each (about 3 MB of JSON).
    const waypoints = Array.from({ length: 201 }, (_, i) => wp(i + 1, i, i % 7));
    const edges = Array.from({ length: 200 }, (_, i) => ({
      id: i + 1,
      from: i + 1,
      to: i + 2,
      oneWay: false,
      speed: 'normal' as const,
      path: Array.from({ length: 500 }, (_, k) => ({ x: i + k / 500, y: (k % 13) / 3 })),
    }));
    const big = doc(waypoints, { edges });
    const before = imageWorkerJobs('prepareMap');
    const saved = await t.call('PUT', `/floors/${floor.id}/map`, auth, { baseRevision: 0, document: big, note: 'big' });
    expect(saved.statusCode, saved.body).toBe(200);
    expect(imageWorkerJobs('prepareMap')).toBe(before + 1);
    expect(saved.headers['content-type']).toMatch(/^application\/json/);
    const answer = floorMapSchema.parse(saved.json());
    expect(answer).toMatchObject({ revision: 1, floorId: floor.id });
    expect(answer.document.edges).toEqual(edges);
    expect(answer.document.waypoints.map(({ updatedAt: _u, ...w }) => w)).toEqual(waypoints);

    // GET answers the same text; reading needs no worker.
    const read = await t.call('GET', `/floors/${floor.id}/map`, auth);
    expect(read.statusCode).toBe(200);
    expect(read.json()).toEqual(saved.json());
    expect(imageWorkerJobs('prepareMap')).toBe(before + 1);

    const second = await t.call('PUT', `/floors/${floor.id}/map`, auth, { baseRevision: 1, document: doc([]) });
    expect(second.statusCode, second.body).toBe(200);
    const restored = await t.call('POST', `/floors/${floor.id}/map/revisions/1/restore`, auth);
    expect(restored.statusCode, restored.body).toBe(200);
    expect(imageWorkerJobs('prepareMap')).toBe(before + 3);
    expect(floorMapSchema.parse(restored.json()).document.edges).toEqual(edges);
  });

  it('prepares again a save that another save overtook while it was on the worker', async () => {
    const base = floorMapSchema.parse((await t.call('GET', `/floors/${floor.id}/map`, auth)).json()).revision;
    const docs = [1, 2, 3].map((n) => doc([wp(1, n, 0, { name: `Moved ${n}` })]));
    // Started together, all read the same current revision; the later ones find it moved on, prepare
    // again (from their prepared text: their bytes went to the worker) and save on top.
    const answers = await Promise.all(
      docs.map((document) =>
        t.call('PUT', `/floors/${floor.id}/map`, auth, { baseRevision: base, document, overwrite: true }),
      ),
    );
    expect(answers.map((a) => a.statusCode)).toEqual([200, 200, 200]);
    const saved = answers.map((a) => floorMapSchema.parse(a.json()));
    expect(saved.map((m) => m.revision).sort()).toEqual([base + 1, base + 2, base + 3]);
    for (const [i, m] of saved.entries()) expect(m.document.waypoints[0]!.name).toBe(`Moved ${i + 1}`);
    // Without overwrite, only one of two saves from the same revision wins.
    const racing = await Promise.all(
      docs
        .slice(0, 2)
        .map((document) => t.call('PUT', `/floors/${floor.id}/map`, auth, { baseRevision: base + 3, document })),
    );
    expect(racing.map((a) => a.statusCode).sort()).toEqual([200, 409]);
  });

  it('answers a malformed or invalid body with the 400 a schema check gives', async () => {
    const malformed = await t.inject({
      method: 'PUT',
      url: `/api/floors/${floor.id}/map`,
      headers: { authorization: auth, 'content-type': 'application/json' },
      payload: '{"baseRevision": 0, "document": {',
    });
    expect(malformed.statusCode).toBe(400);
    expect(errorOf(malformed).code).toBe('VALIDATION_FAILED');
    const invalid = await t.call('PUT', `/floors/${floor.id}/map`, auth, { baseRevision: 'x', document: doc([]) });
    expect(invalid.statusCode).toBe(400);
    expect(errorOf(invalid)).toMatchObject({
      code: 'VALIDATION_FAILED',
      details: [expect.objectContaining({ path: 'baseRevision' })],
    });
    // A text body is not a map, even when it reads as one.
    const text = await t.inject({
      method: 'PUT',
      url: `/api/floors/${floor.id}/map`,
      headers: { authorization: auth, 'content-type': 'text/plain' },
      payload: JSON.stringify({ baseRevision: 0, document: doc([]) }),
    });
    expect(text.statusCode).toBe(400);
    expect(errorOf(text).details).toEqual([{ path: 'body', message: 'validation.invalid' }]);
  });
});
