import {
  mapDocumentProblems,
  mapDocumentSchema,
  saveFloorMapBodySchema,
  type ErrorDetail,
  type MapBounds,
  type MapDocument,
  type Waypoint,
} from '@portal/contract';
import { nextVersion } from '../../lib/versioned.ts';

/**
 * The CPU-heavy part of a map write, as text in and text out, so it can run on the worker thread
 * (lib/image-worker.ts; issue 11: a 9 MB map save blocked the event loop for seconds). A document of
 * recorded paths is megabytes of JSON: parsing it, checking it against the contract and the map rules,
 * and writing it back as text each take hundreds of milliseconds. The main thread keeps only the
 * small parts (revision numbers, the note, counts) and stores and answers the text as it is.
 */

/** What to prepare: a PUT body (`body`) or a stored revision's document (`document`, for a restore). */
export interface PrepareMapJob {
  source: 'body' | 'document';
  /** The JSON text (UTF-8 bytes or a string). */
  text: Uint8Array | string;
  /** The floor image's rectangle: points must lie inside it (null: the floor has no image). */
  bounds: MapBounds | null;
  /** The current revision's document text (its waypoints' versions carry over), or null. */
  previous: string | null;
  /** The current revision's save time (versions of waypoints saved before versions existed). */
  previousSavedAt: string | null;
  /** The new revision's time, milliseconds (ISO strings do not survive a clock with offsets any better). */
  now: number;
}

export type PreparedMap =
  | {
      ok: true;
      /** From the body; a restored document keeps 0, false and ''. */
      baseRevision: number;
      overwrite: boolean;
      note: string;
      /** The stamped document as stored and answered. */
      documentText: string;
      waypoints: number;
      edges: number;
    }
  /** Not JSON: the same 400 Fastify gives for a malformed JSON body. */
  | { ok: false; kind: 'json'; message: string }
  /** Against the contract: the details of a schema validation error (paths from the body's root). */
  | { ok: false; kind: 'schema'; details: ErrorDetail[] }
  /** Against the map rules (`mapDocumentProblems`): paths from the document's root. */
  | { ok: false; kind: 'rules'; details: ErrorDetail[] };

const sameWaypoint = (a: Waypoint, b: Waypoint) =>
  a.name === b.name && a.x === b.x && a.y === b.y && a.theta === b.theta && a.type === b.type;

/** A waypoint's version: its own stamp, or (saved before stamps existed) its revision's time. */
export const versionOf = (w: Waypoint, savedAt: string | undefined): string | undefined => w.updatedAt ?? savedAt;

/**
 * Stamps the waypoints of a new revision with their versions: an unchanged waypoint keeps the version
 * it had in the current revision, a new or changed one gets a version later than that (`nextVersion`),
 * whatever a client sent. So a waypoint edit based on an older version is found stale (lost updates).
 */
export function stampWaypoints(
  previous: Pick<MapDocument, 'waypoints'>,
  previousSavedAt: string | undefined,
  next: MapDocument,
  now: Date,
): MapDocument {
  const before = new Map(previous.waypoints.map((w) => [w.id, w]));
  return {
    ...next,
    waypoints: next.waypoints.map((w) => {
      const old = before.get(w.id);
      const oldVersion = old ? versionOf(old, previousSavedAt) : undefined;
      const updatedAt = old && sameWaypoint(old, w) && oldVersion ? oldVersion : nextVersion(now, oldVersion);
      return { ...w, updatedAt };
    }),
  };
}

const decoder = new TextDecoder('utf-8', { fatal: false });

/** Parses, checks and stamps a map document; pure, so the worker thread and tests run the same code. */
export function prepareMap(job: PrepareMapJob): PreparedMap {
  let raw: unknown;
  try {
    raw = JSON.parse(typeof job.text === 'string' ? job.text : decoder.decode(job.text));
  } catch (err) {
    return { ok: false, kind: 'json', message: (err as Error).message };
  }
  let body: { baseRevision: number; overwrite: boolean; note: string; document: MapDocument };
  if (job.source === 'body') {
    const parsed = saveFloorMapBodySchema.safeParse(raw);
    if (!parsed.success) return { ok: false, kind: 'schema', details: issueDetails(parsed.error.issues) };
    body = parsed.data;
  } else {
    const parsed = mapDocumentSchema.safeParse(raw);
    if (!parsed.success) {
      return { ok: false, kind: 'schema', details: issueDetails(parsed.error.issues, ['document']) };
    }
    body = { baseRevision: 0, overwrite: false, note: '', document: parsed.data };
  }
  const problems = mapDocumentProblems(body.document, job.bounds);
  if (problems.length > 0) return { ok: false, kind: 'rules', details: problems };
  // Only the previous waypoints matter; an unreadable previous document keeps no versions.
  let previousWaypoints: Waypoint[] = [];
  if (job.previous !== null) {
    try {
      previousWaypoints = (JSON.parse(job.previous) as MapDocument).waypoints ?? [];
    } catch {
      previousWaypoints = [];
    }
  }
  const document = stampWaypoints(
    { waypoints: previousWaypoints },
    job.previousSavedAt ?? undefined,
    body.document,
    new Date(job.now),
  );
  return {
    ok: true,
    baseRevision: body.baseRevision,
    overwrite: body.overwrite,
    note: body.note,
    documentText: JSON.stringify(document),
    waypoints: document.waypoints.length,
    edges: document.edges.length,
  };
}

/** Zod issues as the error handler writes a body's validation errors (plugins/errors.ts). */
function issueDetails(
  issues: ReadonlyArray<{ path: PropertyKey[]; message: string; code: string }>,
  prefix: string[] = [],
): ErrorDetail[] {
  return issues.map((i) => ({
    path: [...prefix, ...i.path.map(String)].join('.') || 'body',
    message: i.message,
    code: i.code,
  }));
}
