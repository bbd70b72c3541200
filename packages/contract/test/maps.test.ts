import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  edgeLength,
  emptyMapDocument,
  errorStatus,
  floorMapSchema,
  gotoBodySchema,
  mapBounds,
  mapDocumentProblems,
  mapDocumentSchema,
  planPath,
  pointProblems,
  saveFloorMapBodySchema,
  waypointInputSchema,
  waypointUsage,
  type MapDocument,
  type MapEdge,
  type Waypoint,
} from '../src/index.ts';

const wp = (id: number, x: number, y: number, name = `P${id}`): Waypoint => ({ id, name, x, y, theta: 0, type: 1 });
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

/**
 *   1 ---- 2 ---- 3        a square with a diagonal shortcut 1–5 and a long way round
 *   |             |
 *   4 ----------- 5        (4 a little lower: the way round below is longer)
 */
const square = () =>
  doc(
    [wp(1, 0, 0), wp(2, 5, 0), wp(3, 10, 0), wp(4, 0, -12), wp(5, 10, -10)],
    [edge(1, 1, 2), edge(2, 2, 3), edge(3, 1, 4), edge(4, 4, 5), edge(5, 3, 5)],
  );

describe('planPath', () => {
  it('finds the shortest way by length, not by the number of edges', () => {
    const d = square();
    expect(planPath(d, 1, 5)).toEqual({ ok: true, waypointIds: [1, 2, 3, 5], edgeIds: [1, 2, 5], length: 20 });
    // A shortcut with more hops but less length wins.
    d.waypoints.push(wp(6, 5, -5), wp(7, 8, -8));
    d.edges.push(edge(6, 1, 6), edge(7, 6, 7), edge(8, 7, 5));
    const r = planPath(d, 1, 5);
    expect(r.ok && r.waypointIds).toEqual([1, 6, 7, 5]);
    expect(r.ok && r.length).toBeCloseTo(Math.hypot(10, 10), 6);
  });

  it('goes nowhere for the same waypoint', () => {
    expect(planPath(square(), 3, 3)).toEqual({ ok: true, waypointIds: [3], edgeIds: [], length: 0 });
  });

  it('drives one-way edges only forward, in both directions of the question', () => {
    const d = doc(
      [wp(1, 0, 0), wp(2, 1, 0), wp(3, 0, 5)],
      [edge(1, 1, 2, { oneWay: true }), edge(2, 2, 3), edge(3, 3, 1)],
    );
    // 1 → 2 straight on the one-way edge.
    expect(planPath(d, 1, 2)).toMatchObject({ ok: true, waypointIds: [1, 2] });
    // 2 → 1 must go round through 3.
    expect(planPath(d, 2, 1)).toMatchObject({ ok: true, waypointIds: [2, 3, 1], edgeIds: [2, 3] });
    // Without the way round, 2 → 1 has no path while 1 → 2 still has.
    const oneWayOnly = doc([wp(1, 0, 0), wp(2, 1, 0)], [edge(1, 1, 2, { oneWay: true })]);
    expect(planPath(oneWayOnly, 2, 1)).toEqual({ ok: false, reason: 'noPath' });
    expect(planPath(oneWayOnly, 1, 2).ok).toBe(true);
  });

  it('answers noPath between disconnected parts and unknownWaypoint for ids not on the map', () => {
    const d = doc([wp(1, 0, 0), wp(2, 1, 0), wp(3, 5, 5)], [edge(1, 1, 2)]);
    expect(planPath(d, 1, 3)).toEqual({ ok: false, reason: 'noPath' });
    expect(planPath(d, 1, 99)).toEqual({ ok: false, reason: 'unknownWaypoint' });
    expect(planPath(d, 99, 1)).toEqual({ ok: false, reason: 'unknownWaypoint' });
  });

  it('uses the length of a recorded edge path instead of the straight line', () => {
    // Straight 1–2 is 10 m but its recorded path is a 30 m detour; 1–3–2 is 2 × √50 ≈ 14.1 m.
    const detour = [
      { x: 0, y: 0 },
      { x: 0, y: 10 },
      { x: 10, y: 10 },
      { x: 10, y: 0 },
    ];
    const d = doc(
      [wp(1, 0, 0), wp(2, 10, 0), wp(3, 5, -5)],
      [edge(1, 1, 2, { path: detour }), edge(2, 1, 3), edge(3, 3, 2)],
    );
    const byId = new Map(d.waypoints.map((w) => [w.id, w]));
    expect(edgeLength(d.edges[0]!, byId)).toBe(30);
    expect(planPath(d, 1, 2)).toMatchObject({ ok: true, waypointIds: [1, 3, 2] });
    expect(planPath(d, 2, 1)).toMatchObject({ ok: true, waypointIds: [2, 3, 1] });
    // Without the detour the direct edge wins.
    d.edges[0]!.path = null;
    expect(planPath(d, 1, 2)).toMatchObject({ ok: true, waypointIds: [1, 2], length: 10 });
  });

  it('agrees with a brute-force search on random graphs (property)', () => {
    const graph = fc.integer({ min: 2, max: 7 }).chain((n) =>
      fc.record({
        points: fc.array(fc.record({ x: fc.integer({ min: -20, max: 20 }), y: fc.integer({ min: -20, max: 20 }) }), {
          minLength: n,
          maxLength: n,
        }),
        edges: fc.array(
          fc.record({ a: fc.integer({ min: 1, max: n }), b: fc.integer({ min: 1, max: n }), oneWay: fc.boolean() }),
          {
            maxLength: 14,
          },
        ),
      }),
    );
    fc.assert(
      fc.property(graph, ({ points, edges }) => {
        const d = doc(
          points.map((p, i) => wp(i + 1, p.x, p.y)),
          edges.filter((e) => e.a !== e.b).map((e, i) => edge(i + 1, e.a, e.b, { oneWay: e.oneWay })),
        );
        // Floyd–Warshall over the same graph.
        const n = points.length;
        const dist = Array.from({ length: n + 1 }, (_, i) =>
          Array.from({ length: n + 1 }, (_, j) => (i === j ? 0 : Infinity)),
        );
        for (const e of d.edges) {
          const len = Math.hypot(
            points[e.from - 1]!.x - points[e.to - 1]!.x,
            points[e.from - 1]!.y - points[e.to - 1]!.y,
          );
          dist[e.from]![e.to] = Math.min(dist[e.from]![e.to]!, len);
          if (!e.oneWay) dist[e.to]![e.from] = Math.min(dist[e.to]![e.from]!, len);
        }
        for (let k = 1; k <= n; k++)
          for (let i = 1; i <= n; i++)
            for (let j = 1; j <= n; j++) dist[i]![j] = Math.min(dist[i]![j]!, dist[i]![k]! + dist[k]![j]!);
        for (let i = 1; i <= n; i++) {
          for (let j = 1; j <= n; j++) {
            const r = planPath(d, i, j);
            if (dist[i]![j] === Infinity) expect(r).toEqual({ ok: false, reason: 'noPath' });
            else {
              expect(r.ok).toBe(true);
              if (!r.ok) continue;
              expect(r.length).toBeCloseTo(dist[i]![j]!, 6);
              expect(r.waypointIds[0]).toBe(i);
              expect(r.waypointIds.at(-1)).toBe(j);
              expect(r.edgeIds).toHaveLength(r.waypointIds.length - 1);
              // Each step uses its edge in an allowed direction.
              r.edgeIds.forEach((id, s) => {
                const e = d.edges.find((x) => x.id === id)!;
                const [a, b] = [r.waypointIds[s], r.waypointIds[s + 1]];
                expect((e.from === a && e.to === b) || (!e.oneWay && e.from === b && e.to === a)).toBe(true);
              });
            }
          }
        }
      }),
      { numRuns: 150 },
    );
  });
});

describe('map document rules', () => {
  const bounds = mapBounds({ width: 200, height: 100, resolution: 0.05, originX: -1, originY: -2 }); // x −1…9, y −2…3

  it('accepts a good document', () => {
    const d = doc([wp(1, 0, 0), wp(2, 9, 3), wp(3, -1, -2)], [edge(1, 1, 2), edge(2, 2, 3, { oneWay: true })], {
      routes: [{ id: 1, name: 'Patrol', waypointIds: [1, 2, 3], recorded: null }],
      partialMaps: [{ id: 1, name: 'Lobby', x: 0, y: 0, width: 9, height: 3 }],
    });
    expect(mapDocumentProblems(d, bounds)).toEqual([]);
  });

  it('reports duplicate ids, dangling and self edges, duplicate edges and unknown route waypoints', () => {
    const d = doc(
      [wp(1, 0, 0), wp(2, 1, 0), wp(2, 2, 0), wp(3, 3, 0)],
      [
        edge(1, 1, 2),
        edge(1, 2, 3), // duplicate id
        edge(3, 1, 9), // dangling
        edge(4, 3, 3), // self
        edge(5, 2, 1), // same pair as edge 1 (two-way)
        edge(6, 1, 3, { oneWay: true }),
        edge(7, 3, 1, { oneWay: true }), // opposite one-way: allowed
        edge(8, 1, 3, { oneWay: true }), // same direction again
        edge(9, 2, 3, { path: [{ x: 0, y: 0 }] }), // one point: not a path
      ],
      { routes: [{ id: 1, name: 'R', waypointIds: [1, 42], recorded: null }] },
    );
    expect(mapDocumentProblems(d, null)).toEqual([
      { path: 'waypoints.2.id', message: 'validation.duplicate' },
      { path: 'edges.1.id', message: 'validation.duplicate' },
      { path: 'edges.2.to', message: 'validation.unknownWaypoint' },
      { path: 'edges.3.to', message: 'validation.sameWaypoint' },
      { path: 'edges.4', message: 'validation.duplicateEdge' },
      { path: 'edges.7', message: 'validation.duplicateEdge' },
      { path: 'edges.8.path', message: 'validation.pathTooShort' },
      { path: 'edges.8', message: 'validation.duplicateEdge' },
      { path: 'routes.0.waypointIds.1', message: 'validation.unknownWaypoint' },
    ]);
  });

  it('a one-way edge clashes with a two-way edge on the same pair', () => {
    const d = doc([wp(1, 0, 0), wp(2, 1, 0)], [edge(1, 1, 2, { oneWay: true }), edge(2, 2, 1)]);
    expect(mapDocumentProblems(d, null)).toEqual([{ path: 'edges.1', message: 'validation.duplicateEdge' }]);
  });

  it('keeps waypoints, recorded points and partial maps on the image', () => {
    const d = doc(
      [wp(1, 0, 0), wp(2, 9.5, 0), wp(3, 0, -3)],
      [
        edge(1, 1, 3, {
          path: [
            { x: 0, y: 0 },
            { x: 20, y: 0 },
          ],
        }),
      ],
      {
        routes: [
          {
            id: 1,
            name: 'R',
            waypointIds: [1, 3],
            recorded: {
              pointInterval: 0.5,
              points: [
                { x: 0, y: 0 },
                { x: 0, y: 30 },
              ],
            },
          },
        ],
        partialMaps: [
          { id: 1, name: 'too wide', x: 0, y: 0, width: 10, height: 1 },
          { id: 2, name: 'starts below', x: 0, y: -5, width: 1, height: 1 },
        ],
      },
    );
    expect(mapDocumentProblems(d, bounds)).toEqual([
      { path: 'waypoints.1.x', message: 'validation.outsideMap' },
      { path: 'waypoints.2.y', message: 'validation.outsideMap' },
      { path: 'edges.0.path.1.x', message: 'validation.outsideMap' },
      { path: 'routes.0.recorded.points.1.y', message: 'validation.outsideMap' },
      { path: 'partialMaps.0.width', message: 'validation.outsideMap' },
      { path: 'partialMaps.1.y', message: 'validation.outsideMap' },
    ]);
    // Without an image nothing is outside.
    expect(mapDocumentProblems(d, null)).toEqual([]);
    expect(pointProblems({ x: 100, y: 0 }, bounds)).toEqual([{ path: 'x', message: 'validation.outsideMap' }]);
  });

  it('finds what uses a waypoint', () => {
    const d = square();
    d.routes.push({ id: 1, name: 'A', waypointIds: [1, 3], recorded: null });
    expect(waypointUsage(d, 1).routes.map((r) => r.name)).toEqual(['A']);
    expect(waypointUsage(d, 1).edges.map((e) => e.id)).toEqual([1, 3]);
    expect(waypointUsage(d, 2)).toEqual({ routes: [], edges: [edge(1, 1, 2), edge(2, 2, 3)] });
  });
});

describe('map schemas', () => {
  it('waypoints: name required and at most 40, known type, angle in [-π, π], finite metres', () => {
    const ok = { name: ' Lobby ', x: 1.5, y: -2, theta: Math.PI, type: 2 };
    expect(waypointInputSchema.parse(ok)).toEqual({ ...ok, name: 'Lobby' });
    const messages = (v: unknown) =>
      waypointInputSchema.safeParse(v).error?.issues.map((i) => `${i.path.join('.')}:${i.message}`);
    expect(messages({ ...ok, name: '  ' })).toEqual(['name:validation.required']);
    expect(messages({ ...ok, name: 'x'.repeat(41) })).toEqual(['name:validation.max40']);
    expect(messages({ ...ok, type: 4 })).toEqual(['type:validation.required']);
    expect(messages({ ...ok, theta: 4 })).toEqual(['theta:validation.angle']);
    expect(messages({ ...ok, x: 'a' })).toEqual(['x:validation.number']);
    expect(messages({ ...ok, y: 1e6 })).toEqual(['y:validation.range']);
  });

  it('documents: edges, routes, no-go areas and partial maps', () => {
    const d = { ...square(), routes: [{ id: 1, name: 'R', waypointIds: [1], recorded: null }] };
    expect(mapDocumentSchema.safeParse(d).error?.issues[0]).toMatchObject({
      path: ['routes', 0, 'waypointIds'],
      message: 'validation.routeTooShort',
    });
    expect(
      mapDocumentSchema.safeParse({
        ...emptyMapDocument(),
        noGoAreas: [{ id: 1, name: '', points: [{ x: 0, y: 0 }] }],
      }).error?.issues[0]?.message,
    ).toBe('validation.polygon');
    expect(
      mapDocumentSchema
        .safeParse({
          ...emptyMapDocument(),
          routes: [{ id: 1, name: 'R', waypointIds: [1, 2], recorded: { pointInterval: 9, points: [] } }],
        })
        .error?.issues.map((i) => i.message),
    ).toEqual(['validation.range', 'validation.routeTooShort']);
    expect(mapDocumentSchema.safeParse({ ...square(), edges: [{ ...edge(1, 1, 2), speed: 'fast' }] }).success).toBe(
      false,
    );
    expect(mapDocumentSchema.safeParse({ ...emptyMapDocument(), waypoints: [{ ...wp(0, 0, 0) }] }).success).toBe(false);
  });

  it('save body defaults and map answers', () => {
    expect(saveFloorMapBodySchema.parse({ baseRevision: 0, document: emptyMapDocument() })).toEqual({
      baseRevision: 0,
      document: emptyMapDocument(),
      note: '',
      overwrite: false,
    });
    expect(saveFloorMapBodySchema.safeParse({ baseRevision: -1, document: emptyMapDocument() }).success).toBe(false);
    expect(
      floorMapSchema.safeParse({
        floorId: 1,
        buildingId: 1,
        revision: 0,
        savedAt: null,
        savedBy: null,
        image: null,
        document: emptyMapDocument(),
      }).success,
    ).toBe(true);
    expect(gotoBodySchema.safeParse({ floorId: 1, waypointId: 0 }).success).toBe(false);
    expect(errorStatus.NO_PATH).toBe(409);
  });
});
