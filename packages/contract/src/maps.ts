import { z } from 'zod';

/**
 * Floor maps (issue 5): a floor's map is one versioned document — the map image and its metric
 * frame, waypoints, the route graph, named routes, no-go areas and partial maps. The editor saves
 * whole documents as new revisions; the waypoint API edits the current revision (each change is a
 * revision too). Coordinates are metres in the map frame (x right, y up), angles radians in [-π, π].
 * Validation messages are i18n keys under `validation.*`.
 */
const id = z.number({ error: 'validation.number' }).int('validation.integer').min(1, 'validation.range');
const finite = (msg = 'validation.number') => z.number({ error: msg }).refine(Number.isFinite, msg);
const metres = finite().refine((v) => Math.abs(v) <= 100_000, 'validation.range');
const angle = finite().refine((v) => v >= -Math.PI - 1e-9 && v <= Math.PI + 1e-9, 'validation.angle');
const name = (max: number) =>
  z
    .string({ error: 'validation.required' })
    .trim()
    .min(1, { error: 'validation.required', abort: true })
    .max(max, `validation.max${max}`);

/** Spec section 9: 0 origin, 1 normal, 2 charge, 3 standby, 10 action, 99 invisible. */
export const WAYPOINT_TYPES = [0, 1, 2, 3, 10, 99] as const;
export const WaypointType = { origin: 0, normal: 1, charge: 2, standby: 3, action: 10, invisible: 99 } as const;
export const waypointTypeSchema = z.union(
  [z.literal(0), z.literal(1), z.literal(2), z.literal(3), z.literal(10), z.literal(99)],
  { error: 'validation.required' },
);
export type WaypointTypeCode = (typeof WAYPOINT_TYPES)[number];

export const pointSchema = z.object({ x: metres, y: metres });
export type MapPoint = z.infer<typeof pointSchema>;

export const waypointInputSchema = z.object({
  name: name(40),
  x: metres,
  y: metres,
  /** Direction the robot faces at the waypoint. */
  theta: angle,
  type: waypointTypeSchema,
});
export type WaypointInput = z.infer<typeof waypointInputSchema>;
/**
 * A waypoint of the document. `updatedAt` is its version, stamped by the server whenever a revision
 * changes it (a client's value is ignored); waypoints saved before versions existed have none and take
 * their revision's `savedAt` (see `WaypointEntry`).
 */
export const waypointSchema = waypointInputSchema.extend({
  id,
  updatedAt: z.string().max(40).optional(),
});
export type Waypoint = z.infer<typeof waypointSchema>;
/** A waypoint as the waypoint API answers it: always with its version. */
export const waypointEntrySchema = waypointSchema.extend({ updatedAt: z.string() });
export type WaypointEntry = z.infer<typeof waypointEntrySchema>;
/** An edit through the waypoint API names the version it was based on (409 STALE_UPDATE when stale). */
export const updateWaypointBodySchema = waypointInputSchema.extend({
  updatedAt: z.string({ error: 'validation.required' }).min(1, 'validation.required').max(40),
});
export type UpdateWaypointBody = z.infer<typeof updateWaypointBodySchema>;

/** Robot speeds on an edge (spec section 9): normal, or slow (narrow passages, crowds). */
export const EDGE_SPEEDS = ['normal', 'slow'] as const;
export const edgeSpeedSchema = z.enum(EDGE_SPEEDS);
export type EdgeSpeed = z.infer<typeof edgeSpeedSchema>;
/** Metres per second the portal sends as an edge's maxSpeed for each speed. */
export const EDGE_SPEED_MPS: Record<EdgeSpeed, number | null> = { normal: null, slow: 0.3 };

/** A connection of the route graph. `oneWay`: only from → to. `path`: a recorded shape, else straight. */
export const edgeSchema = z.object({
  id,
  from: id,
  to: id,
  oneWay: z.boolean(),
  speed: edgeSpeedSchema,
  path: z.array(pointSchema).max(10_000).nullable(),
});
export type MapEdge = z.infer<typeof edgeSchema>;

/** Route point interval (spec section 9): the spacing of recorded route points, in metres. */
export const ROUTE_POINT_INTERVAL = { min: 0.1, max: 5, default: 0.5 } as const;

/** A named route: the waypoints a robot visits in order (planned over the graph between them). */
export const routeSchema = z.object({
  id,
  name: name(40),
  waypointIds: z.array(id).min(2, 'validation.routeTooShort').max(500),
  /** A route recorded by driving: its points at `pointInterval` metres. */
  recorded: z
    .object({
      pointInterval: z
        .number({ error: 'validation.number' })
        .min(ROUTE_POINT_INTERVAL.min, 'validation.range')
        .max(ROUTE_POINT_INTERVAL.max, 'validation.range'),
      points: z.array(pointSchema).min(2, 'validation.routeTooShort').max(20_000),
    })
    .nullable(),
});
export type MapRoute = z.infer<typeof routeSchema>;

export const noGoAreaSchema = z.object({
  id,
  name: z.string().trim().max(40),
  /** A closed polygon (at least three corners). */
  points: z.array(pointSchema).min(3, 'validation.polygon').max(200),
});
export type NoGoArea = z.infer<typeof noGoAreaSchema>;

/** A named rectangular region of the floor map (spec: partial map). */
export const partialMapSchema = z.object({
  id,
  name: name(40),
  x: metres,
  y: metres,
  width: z.number().positive('validation.range').max(10_000),
  height: z.number().positive('validation.range').max(10_000),
});
export type PartialMap = z.infer<typeof partialMapSchema>;

/** The map image and its metric frame (the floor's image, resolution and origin). */
export const mapImageSchema = z.object({
  url: z.string().nullable(),
  width: z.number().int().positive(),
  height: z.number().int().positive(),
  /** Metres per pixel. */
  resolution: z.number().positive(),
  /** Map-frame position (metres) of the image's bottom-left pixel. */
  originX: z.number(),
  originY: z.number(),
});
export type MapImage = z.infer<typeof mapImageSchema>;

export const mapDocumentSchema = z.object({
  waypoints: z.array(waypointSchema).max(20_000),
  edges: z.array(edgeSchema).max(50_000),
  routes: z.array(routeSchema).max(1_000),
  noGoAreas: z.array(noGoAreaSchema).max(1_000),
  partialMaps: z.array(partialMapSchema).max(1_000),
});
export type MapDocument = z.infer<typeof mapDocumentSchema>;
export const emptyMapDocument = (): MapDocument => ({
  waypoints: [],
  edges: [],
  routes: [],
  noGoAreas: [],
  partialMaps: [],
});

/** GET /floors/{id}/map: the current revision (0 = never saved) with the floor's image frame. */
export const floorMapSchema = z.object({
  floorId: id,
  buildingId: id,
  revision: z.number().int().min(0),
  savedAt: z.string().nullable(),
  savedBy: z.string().nullable(),
  image: mapImageSchema.nullable(),
  document: mapDocumentSchema,
});
export type FloorMap = z.infer<typeof floorMapSchema>;

/**
 * PUT /floors/{id}/map: saves a new revision. `baseRevision` is the revision the edit started from;
 * when someone saved a newer one the answer is 409 STALE_UPDATE unless `overwrite` is true (the
 * editor asks the user first).
 */
export const saveFloorMapBodySchema = z.object({
  baseRevision: z.number().int().min(0),
  document: mapDocumentSchema,
  note: z.string().trim().max(200).default(''),
  overwrite: z.boolean().default(false),
});
export type SaveFloorMapBody = z.infer<typeof saveFloorMapBodySchema>;

export const mapRevisionSummarySchema = z.object({
  revision: z.number().int().min(1),
  savedAt: z.string(),
  savedBy: z.string().nullable(),
  note: z.string(),
  waypoints: z.number().int(),
  edges: z.number().int(),
});
export type MapRevisionSummary = z.infer<typeof mapRevisionSummarySchema>;

/** The map editor states of spec section 4, as the editor shows them. */
export const MAP_EDITOR_STATES = ['recording', 'paused', 'resumed', 'saved', 'moved', 'copied', 'deleted'] as const;
export type MapEditorState = (typeof MAP_EDITOR_STATES)[number];

// ---------------------------------------------------------------- document rules

/** The metric rectangle the map image covers (metres, map frame). */
export interface MapBounds {
  minX: number;
  minY: number;
  maxX: number;
  maxY: number;
}

/** The image's rectangle: from the origin (bottom-left pixel) over width × height pixels. */
export const mapBounds = (
  image: Pick<MapImage, 'width' | 'height' | 'resolution' | 'originX' | 'originY'>,
): MapBounds => ({
  minX: image.originX,
  minY: image.originY,
  maxX: image.originX + image.width * image.resolution,
  maxY: image.originY + image.height * image.resolution,
});

/** Rounding slack when checking bounds (a waypoint placed on the image's edge is inside). */
const BOUNDS_EPS = 1e-6;
const insideX = (b: MapBounds, x: number) => x >= b.minX - BOUNDS_EPS && x <= b.maxX + BOUNDS_EPS;
const insideY = (b: MapBounds, y: number) => y >= b.minY - BOUNDS_EPS && y <= b.maxY + BOUNDS_EPS;

/** A problem of a map document: `path` into the document (`waypoints.3.x`), `message` an i18n key. */
export interface MapProblem {
  path: string;
  message: string;
}

/** Problems of one point against the bounds (each coordinate outside is one); `path` '' gives `x`, `y`. */
export function pointProblems(p: MapPoint, bounds: MapBounds | null, path = ''): MapProblem[] {
  if (!bounds) return [];
  const at = (k: string) => (path === '' ? k : `${path}.${k}`);
  const out: MapProblem[] = [];
  if (!insideX(bounds, p.x)) out.push({ path: at('x'), message: 'validation.outsideMap' });
  if (!insideY(bounds, p.y)) out.push({ path: at('y'), message: 'validation.outsideMap' });
  return out;
}

/** Points of a polyline outside the bounds: only the first one is reported (a line can have 10 000). */
function firstOutside(points: readonly MapPoint[], bounds: MapBounds | null, path: string): MapProblem[] {
  if (!bounds) return [];
  for (let i = 0; i < points.length; i++) {
    const problems = pointProblems(points[i]!, bounds, `${path}.${i}`);
    if (problems.length > 0) return problems;
  }
  return [];
}

function duplicateIds(items: ReadonlyArray<{ id: number }>, list: string): MapProblem[] {
  const seen = new Set<number>();
  const out: MapProblem[] = [];
  items.forEach((item, i) => {
    if (seen.has(item.id)) out.push({ path: `${list}.${i}.id`, message: 'validation.duplicate' });
    seen.add(item.id);
  });
  return out;
}

/**
 * The rules of a map document beyond its schema (the server enforces them on every save; the editor
 * can show them before saving). `bounds`: the map image's rectangle, or null when the floor has no
 * image with a resolution (then nothing is "outside").
 *
 * - ids unique within waypoints, edges, routes, no-go areas and partial maps;
 * - an edge joins two different existing waypoints; at most one edge per pair of waypoints, except
 *   two one-way edges in opposite directions; a recorded edge path has at least two points;
 * - a route visits existing waypoints;
 * - waypoints, recorded edge paths and recorded route points, and partial maps lie on the image.
 */
export function mapDocumentProblems(doc: MapDocument, bounds: MapBounds | null): MapProblem[] {
  const out: MapProblem[] = [
    ...duplicateIds(doc.waypoints, 'waypoints'),
    ...duplicateIds(doc.edges, 'edges'),
    ...duplicateIds(doc.routes, 'routes'),
    ...duplicateIds(doc.noGoAreas, 'noGoAreas'),
    ...duplicateIds(doc.partialMaps, 'partialMaps'),
  ];
  const waypointIds = new Set(doc.waypoints.map((w) => w.id));
  doc.waypoints.forEach((w, i) => out.push(...pointProblems(w, bounds, `waypoints.${i}`)));

  // Edges between the same two waypoints, by the unordered pair.
  const pairs = new Map<string, MapEdge[]>();
  doc.edges.forEach((e, i) => {
    const at = `edges.${i}`;
    const before = out.length;
    if (!waypointIds.has(e.from)) out.push({ path: `${at}.from`, message: 'validation.unknownWaypoint' });
    if (!waypointIds.has(e.to)) out.push({ path: `${at}.to`, message: 'validation.unknownWaypoint' });
    if (e.from === e.to) out.push({ path: `${at}.to`, message: 'validation.sameWaypoint' });
    const ok = out.length === before;
    if (e.path) {
      if (e.path.length < 2) out.push({ path: `${at}.path`, message: 'validation.pathTooShort' });
      out.push(...firstOutside(e.path, bounds, `${at}.path`));
    }
    if (!ok) return;
    const key = e.from < e.to ? `${e.from}-${e.to}` : `${e.to}-${e.from}`;
    const same = pairs.get(key) ?? [];
    // Allowed together: only two one-way edges in opposite directions.
    const clash = same.some((o) => !e.oneWay || !o.oneWay || o.from === e.from);
    if (clash) out.push({ path: at, message: 'validation.duplicateEdge' });
    same.push(e);
    pairs.set(key, same);
  });

  doc.routes.forEach((r, i) => {
    r.waypointIds.forEach((w, j) => {
      if (!waypointIds.has(w))
        out.push({ path: `routes.${i}.waypointIds.${j}`, message: 'validation.unknownWaypoint' });
    });
    if (r.recorded) out.push(...firstOutside(r.recorded.points, bounds, `routes.${i}.recorded.points`));
  });

  if (bounds) {
    doc.partialMaps.forEach((m, i) => {
      const at = `partialMaps.${i}`;
      if (!insideX(bounds, m.x)) out.push({ path: `${at}.x`, message: 'validation.outsideMap' });
      else if (!insideX(bounds, m.x + m.width)) out.push({ path: `${at}.width`, message: 'validation.outsideMap' });
      if (!insideY(bounds, m.y)) out.push({ path: `${at}.y`, message: 'validation.outsideMap' });
      else if (!insideY(bounds, m.y + m.height)) out.push({ path: `${at}.height`, message: 'validation.outsideMap' });
    });
  }
  return out;
}

/** What uses a waypoint: the routes that visit it and the edges that touch it. */
export function waypointUsage(doc: MapDocument, waypointId: number): { routes: MapRoute[]; edges: MapEdge[] } {
  return {
    routes: doc.routes.filter((r) => r.waypointIds.includes(waypointId)),
    edges: doc.edges.filter((e) => e.from === waypointId || e.to === waypointId),
  };
}

// ---------------------------------------------------------------- navigation

/** Custom instant action telling a robot its floor's map has a new revision (docs/robot-protocol.md §6). */
export const MAP_CHANGED_ACTION = 'mapChanged';

/** POST /robots/{id}/goto: drive to a waypoint over the floor's route graph. */
export const gotoBodySchema = z.object({ floorId: id, waypointId: id });
export type GotoBody = z.infer<typeof gotoBodySchema>;

/** POST /robots/{id}/trial-run: drive a named route (spec: trial run). */
export const trialRunBodySchema = z.object({ floorId: id, routeId: id });
export type TrialRunBody = z.infer<typeof trialRunBodySchema>;

/** 202 answer of goto and trial-run: the VDA 5050 order sent and the waypoints it visits in order. */
export const navigationOrderSchema = z.object({ orderId: z.string(), waypointIds: z.array(id) });
export type NavigationOrder = z.infer<typeof navigationOrderSchema>;

// ---------------------------------------------------------------- path planning

export type PlanResult =
  | { ok: true; waypointIds: number[]; edgeIds: number[]; length: number }
  | { ok: false; reason: 'unknownWaypoint' | 'noPath' };

/** Length of an edge: its recorded path when it has one (two points at least), else the straight line. */
export const edgeLength = (e: MapEdge, byId: ReadonlyMap<number, MapPoint>): number => {
  const pts = e.path && e.path.length >= 2 ? e.path : [byId.get(e.from)!, byId.get(e.to)!];
  let len = 0;
  for (let i = 1; i < pts.length; i++) len += Math.hypot(pts[i]!.x - pts[i - 1]!.x, pts[i]!.y - pts[i - 1]!.y);
  return len;
};

/** A binary min-heap of (distance, node); stale entries are skipped when popped. */
class MinHeap {
  private readonly items: Array<[number, number]> = [];
  get size(): number {
    return this.items.length;
  }
  push(d: number, n: number): void {
    const a = this.items;
    a.push([d, n]);
    for (let i = a.length - 1; i > 0;) {
      const p = (i - 1) >> 1;
      if (a[p]![0] <= a[i]![0]) break;
      [a[p], a[i]] = [a[i]!, a[p]!];
      i = p;
    }
  }
  pop(): [number, number] {
    const a = this.items;
    const top = a[0]!;
    const last = a.pop()!;
    if (a.length > 0) {
      a[0] = last;
      for (let i = 0; ;) {
        const l = 2 * i + 1;
        const r = l + 1;
        let m = i;
        if (l < a.length && a[l]![0] < a[m]![0]) m = l;
        if (r < a.length && a[r]![0] < a[m]![0]) m = r;
        if (m === i) break;
        [a[m], a[i]] = [a[i]!, a[m]!];
        i = m;
      }
    }
    return top;
  }
}

/**
 * Shortest path over the route graph (Dijkstra on edge length; one-way edges only forward).
 * Used to turn "go to waypoint X" into a VDA 5050 order.
 */
export function planPath(doc: MapDocument, fromId: number, toId: number): PlanResult {
  const byId = new Map(doc.waypoints.map((w) => [w.id, w]));
  if (!byId.has(fromId) || !byId.has(toId)) return { ok: false, reason: 'unknownWaypoint' };
  if (fromId === toId) return { ok: true, waypointIds: [fromId], edgeIds: [], length: 0 };
  const out = new Map<number, Array<{ to: number; edge: number; cost: number }>>();
  const link = (from: number, to: number, edge: number, cost: number) => {
    const list = out.get(from);
    if (list) list.push({ to, edge, cost });
    else out.set(from, [{ to, edge, cost }]);
  };
  for (const e of doc.edges) {
    if (!byId.has(e.from) || !byId.has(e.to) || e.from === e.to) continue;
    const cost = edgeLength(e, byId);
    link(e.from, e.to, e.id, cost);
    if (!e.oneWay) link(e.to, e.from, e.id, cost);
  }
  const dist = new Map<number, number>([[fromId, 0]]);
  const prev = new Map<number, { node: number; edge: number }>();
  const done = new Set<number>();
  const open = new MinHeap();
  open.push(0, fromId);
  while (open.size > 0) {
    const [d, u] = open.pop();
    if (done.has(u)) continue;
    done.add(u);
    if (u === toId) break;
    for (const { to, edge, cost } of out.get(u) ?? []) {
      if (done.has(to)) continue;
      const nd = d + cost;
      if (nd < (dist.get(to) ?? Infinity)) {
        dist.set(to, nd);
        prev.set(to, { node: u, edge });
        open.push(nd, to);
      }
    }
  }
  if (!done.has(toId)) return { ok: false, reason: 'noPath' };
  const waypointIds = [toId];
  const edgeIds: number[] = [];
  for (let n = toId; n !== fromId;) {
    const p = prev.get(n)!;
    edgeIds.unshift(p.edge);
    waypointIds.unshift(p.node);
    n = p.node;
  }
  return { ok: true, waypointIds, edgeIds, length: dist.get(toId)! };
}
