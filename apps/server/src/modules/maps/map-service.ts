import {
  emptyMapDocument,
  floorMapId,
  floorMapSchema,
  MAP_CHANGED_ACTION,
  MAP_REVISIONS_MAX,
  mapBounds,
  OperatorType,
  pointProblems,
  waypointUsage,
  type ErrorDetail,
  type FloorDetail,
  type FloorMap,
  type MapBounds,
  type MapDocument,
  type MapImage,
  type MapRevisionSummary,
  type SaveFloorMapBody,
  type UpdateWaypointBody,
  type Waypoint,
  type WaypointEntry,
  type WaypointInput,
} from '@portal/contract';
import type { AppContext, Principal } from '../../context.ts';
import { AppError, notFound } from '../../lib/errors.ts';
import { staleUpdate } from '../../lib/versioned.ts';
import { isDeepStrictEqual } from 'node:util';
import { requireManager } from '../buildings/common.ts';
import { floorService } from '../floors/floor-service.ts';
import { isUniqueViolation } from '../organizations/admin-rules.ts';
import { mapRepo, type RevisionRow } from './map-repo.ts';
import { prepareMapOffThread } from '../../lib/image-worker.ts';
import { CHECK_RESPONSES } from '../../lib/serializer.ts';
import { stampWaypoints, versionOf, type PreparedMap } from './map-document-text.ts';
import type { AuditAction } from '@portal/contract';

export { stampWaypoints } from './map-document-text.ts';

type Ctx = Pick<AppContext, 'db' | 'dialect' | 'clock' | 'audit' | 'config' | 'fileStore' | 'robotLink' | 'log'>;

/** Attempts of a write that lost a race for the next revision number (id-level edits and overwrites). */
const WRITE_ATTEMPTS = 3;

/** The image frame of a floor: only with an image, its size and a resolution. */
export function imageOf(f: FloorDetail): MapImage | null {
  if (!f.img || !f.imgWidth || !f.imgHeight || !f.resolution) return null;
  return {
    url: f.img,
    width: f.imgWidth,
    height: f.imgHeight,
    resolution: f.resolution,
    originX: f.originX ?? 0,
    originY: f.originY ?? 0,
  };
}

export const boundsOf = (f: FloorDetail): MapBounds | null => {
  const image = imageOf(f);
  return image ? mapBounds(image) : null;
};

const invalid = (details: ErrorDetail[], what = 'map') =>
  new AppError(
    'VALIDATION_FAILED',
    `The ${what} is not valid: ${details
      .slice(0, 5)
      .map((d) => `${d.path} (${d.message})`)
      .join(', ')}${details.length > 5 ? '…' : ''}`,
    details,
  );

const staleMap = () =>
  new AppError('STALE_UPDATE', 'The map was saved by someone else since you opened it; reload it, or overwrite', [
    { path: 'baseRevision', message: 'validation.staleMap' },
  ]);

/** What a write makes of the current document: the new document, its note, and the audit entry. */
interface Change<T> {
  document: MapDocument;
  note: string;
  action: AuditAction;
  detail: Record<string, unknown>;
  answer: T;
}

/**
 * Floor maps (docs/api-maps.md): one versioned document per floor. Reading: anyone who can see the
 * floor's building; writing: organization administrators (own organization) and system admins, as
 * for floors (docs/decisions/0003-data-management-roles.md). Every write is a new revision, recorded
 * in the audit log (target type `floor-map`), and robots online on the floor are told (`mapChanged`).
 */
export function mapService(ctx: Ctx) {
  const { db, dialect, clock, audit, robotLink, log } = ctx;
  const floors = floorService(ctx);
  const repo = mapRepo(db, dialect);

  const parse = (row: RevisionRow | undefined): MapDocument =>
    row ? (JSON.parse(row.document) as MapDocument) : emptyMapDocument();

  function toFloorMap(floor: FloorDetail, row: RevisionRow | undefined): FloorMap {
    return {
      floorId: floor.id,
      buildingId: floor.buildingId,
      revision: row?.revision ?? 0,
      savedAt: row?.savedAt ?? null,
      savedBy: row?.savedBy ?? null,
      image: imageOf(floor),
      document: parse(row),
    };
  }

  /**
   * The answer of GET (and of a save or restore) as JSON text, with the stored document text as it is:
   * parsing a document of megabytes and writing it again took seconds of the main thread. The stored
   * text was written from a checked document (`prepareMap`), so it is what the schema would write.
   * Outside production the answer is still checked against the schema, as every other answer is.
   */
  function floorMapJson(floor: FloorDetail, row: RevisionRow | undefined): string {
    const head: Omit<FloorMap, 'document'> = {
      floorId: floor.id,
      buildingId: floor.buildingId,
      revision: row?.revision ?? 0,
      savedAt: row?.savedAt ?? null,
      savedBy: row?.savedBy ?? null,
      image: imageOf(floor),
    };
    const text = `${JSON.stringify(head).slice(0, -1)},"document":${row ? row.document : JSON.stringify(emptyMapDocument())}}`;
    if (CHECK_RESPONSES) {
      const value: unknown = JSON.parse(text);
      if (!isDeepStrictEqual(floorMapSchema.parse(value), value)) {
        throw new Error(`The stored map of floor ${floor.id} is not what the schema writes`);
      }
    }
    return text;
  }

  /** After the commit: each robot online on the floor hears of the new revision. Failures are only logged. */
  async function tellRobots(floor: FloorDetail, revision: number): Promise<void> {
    const scope = { type: OperatorType.orgAdmin, organizationId: floor.organizationId, buildingId: null };
    // Only robots that announce mapChanged in their factsheet: a standard robot would answer an error.
    const onFloor = robotLink
      .fleet(scope, null)
      .filter((r) => r.live.online && r.live.floorId === floor.id && robotLink.announces(r.id, MAP_CHANGED_ACTION));
    const params = { mapId: floorMapId(floor.id), mapRevision: String(revision) };
    const results = await Promise.allSettled(
      onFloor.map((r) => robotLink.instantAction(r.id, MAP_CHANGED_ACTION, params)),
    );
    results.forEach((r, i) => {
      if (r.status === 'rejected') {
        log.warn({ err: r.reason, robotId: onFloor[i]!.id, floorId: floor.id }, 'mapChanged not sent');
      }
    });
  }

  /**
   * Writes current + 1 from what `change` makes of the current revision. Writers of one floor queue
   * on its row (PostgreSQL; SQLite runs one transaction at a time); should one still lose the race
   * for the number, the current revision is read again and `change` asked again (which may then
   * find the edit stale).
   */
  async function write<T>(
    p: Principal,
    floor: FloorDetail,
    ip: string,
    change: (current: { revision: number; document: MapDocument; savedAt: string | undefined }) => Change<T>,
  ): Promise<{ revision: number; answer: T; document: MapDocument }> {
    for (let attempt = 1; ; attempt++) {
      let done: { revision: number; answer: T; document: MapDocument };
      try {
        done = await db.transaction().execute(async (trx) => {
          if (!(await repo.lockFloor(floor.id, trx))) throw notFound('Floor');
          const row = await repo.current(floor.id, trx);
          const revision = (row?.revision ?? 0) + 1;
          const previous = parse(row);
          const c = change({ revision: row?.revision ?? 0, document: previous, savedAt: row?.savedAt });
          const now = clock();
          const document = stampWaypoints(previous, row?.savedAt, c.document, now);
          await repo.insert(
            {
              organizationId: floor.organizationId,
              buildingId: floor.buildingId,
              floorId: floor.id,
              revision,
              document,
              note: c.note,
              savedBy: p.operatorId,
              savedAt: now.toISOString(),
            },
            trx,
          );
          await audit.record(
            {
              operatorId: p.operatorId,
              organizationId: floor.organizationId,
              action: c.action,
              targetType: 'floor-map',
              targetId: floor.id,
              ip,
              detail: { revision, ...c.detail },
            },
            trx,
          );
          return { revision, answer: c.answer, document };
        });
      } catch (err) {
        if (!isUniqueViolation(err) || attempt >= WRITE_ATTEMPTS) throw err;
        continue;
      }
      // Saved: telling the robots must not turn the answer into an error.
      await tellRobots(floor, done.revision).catch((err: unknown) =>
        log.error({ err, floorId: floor.id }, 'robots not told of the new map revision'),
      );
      return done;
    }
  }

  /**
   * A whole-document write (save, restore) with its heavy part on the worker thread: the current
   * revision is read, the new document parsed, checked and stamped against it off the main thread
   * (`prepareMap`), and stored as that text when the current revision is still the one it was
   * prepared against; else it is prepared again (which may then find the save stale).
   */
  async function writeDocument(
    p: Principal,
    floor: FloorDetail,
    ip: string,
    source: { kind: 'body' | 'document'; text: Uint8Array | string },
    describe: (
      prepared: Extract<PreparedMap, { ok: true }>,
      current: number,
    ) => { note: string; action: AuditAction; detail: Record<string, unknown> },
  ): Promise<{ revision: number; documentText: string }> {
    // The bytes go to the worker (moved, not copied); a second attempt starts from the prepared text.
    let text = source.text;
    for (let attempt = 1; ; attempt++) {
      const row = await repo.current(floor.id);
      const base = row?.revision ?? 0;
      const now = clock();
      const prepared = await prepareMapOffThread({
        source: source.kind,
        text,
        bounds: boundsOf(floor),
        previous: row?.document ?? null,
        previousSavedAt: row?.savedAt ?? null,
        now: now.getTime(),
      });
      if (!prepared.ok) throw notPrepared(prepared);
      text =
        source.kind === 'document'
          ? prepared.documentText
          : `{"baseRevision":${prepared.baseRevision},"overwrite":${prepared.overwrite},"note":${JSON.stringify(prepared.note)},"document":${prepared.documentText}}`;
      const c = describe(prepared, base);
      let revision: number | null;
      try {
        revision = await db.transaction().execute(async (trx) => {
          if (!(await repo.lockFloor(floor.id, trx))) throw notFound('Floor');
          // Someone saved since the document was prepared: prepare it again against theirs.
          if (((await repo.head(floor.id, trx))?.revision ?? 0) !== base) return null;
          const next = base + 1;
          await repo.insertText(
            {
              organizationId: floor.organizationId,
              buildingId: floor.buildingId,
              floorId: floor.id,
              revision: next,
              documentText: prepared.documentText,
              waypoints: prepared.waypoints,
              edges: prepared.edges,
              note: c.note,
              savedBy: p.operatorId,
              savedAt: now.toISOString(),
            },
            trx,
          );
          await audit.record(
            {
              operatorId: p.operatorId,
              organizationId: floor.organizationId,
              action: c.action,
              targetType: 'floor-map',
              targetId: floor.id,
              ip,
              detail: { revision: next, ...c.detail },
            },
            trx,
          );
          return next;
        });
      } catch (err) {
        if (!isUniqueViolation(err) || attempt >= WRITE_ATTEMPTS) throw err;
        continue;
      }
      if (revision === null) {
        if (attempt >= WRITE_ATTEMPTS) throw staleMap();
        continue;
      }
      await tellRobots(floor, revision).catch((err: unknown) =>
        log.error({ err, floorId: floor.id }, 'robots not told of the new map revision'),
      );
      return { revision, documentText: prepared.documentText };
    }
  }

  /** The answer of a write: the new revision's details with the document text in hand (not read again). */
  async function writtenJson(floor: FloorDetail, written: { revision: number; documentText: string }) {
    const summary = await repo.summary(floor.id, written.revision);
    if (!summary) throw notFound('Map revision');
    return floorMapJson(floor, { ...summary, document: written.documentText });
  }

  /** A document the worker refused, as the 400 the same problem always gave. */
  function notPrepared(prepared: Exclude<PreparedMap, { ok: true }>): AppError {
    if (prepared.kind === 'json') {
      return new AppError('VALIDATION_FAILED', "Body is not valid JSON but content-type is set to 'application/json'");
    }
    if (prepared.kind === 'schema')
      return new AppError('VALIDATION_FAILED', 'The request is not valid', prepared.details);
    return invalid(prepared.details.map((d) => ({ ...d, path: `document.${d.path}` })));
  }

  const current = async (floorId: number) => parse(await repo.current(floorId));

  function checkWaypoint(floor: FloorDetail, w: WaypointInput): void {
    const problems = pointProblems(w, boundsOf(floor));
    if (problems.length > 0) throw invalid(problems, 'waypoint');
  }

  const findWaypoint = (doc: MapDocument, id: number): Waypoint => {
    const w = doc.waypoints.find((x) => x.id === id);
    if (!w) throw notFound('Waypoint');
    return w;
  };

  /** The waypoints of the current revision, each with its version. */
  async function currentEntries(floorId: number): Promise<WaypointEntry[]> {
    const row = await repo.current(floorId);
    const savedAt = row?.savedAt ?? new Date(0).toISOString();
    return parse(row).waypoints.map((w) => ({ ...w, updatedAt: versionOf(w, savedAt) ?? savedAt }));
  }
  const entryOf = (doc: MapDocument, id: number): WaypointEntry => {
    const w = findWaypoint(doc, id);
    return { ...w, updatedAt: w.updatedAt ?? '' };
  };

  /**
   * Saves the body of PUT /floors/{id}/map, given as its JSON bytes: parsed and checked against the
   * contract (`saveFloorMapBodySchema`) and the map rules on the worker thread. Answers the saved
   * revision as JSON text.
   */
  async function saveText(p: Principal, floorId: number, body: Uint8Array | string, ip: string): Promise<string> {
    requireManager(p);
    const floor = await floors.get(p, floorId);
    const written = await writeDocument(p, floor, ip, { kind: 'body', text: body }, (saved, current) => {
      if (saved.baseRevision < current && !saved.overwrite) throw staleMap();
      return {
        note: saved.note,
        action: 'floor-map.save',
        detail: {
          baseRevision: saved.baseRevision,
          ...(saved.overwrite && saved.baseRevision < current ? { overwritten: current } : {}),
          waypoints: saved.waypoints,
          edges: saved.edges,
        },
      };
    });
    return writtenJson(floor, written);
  }

  return {
    /** The floor (scope checked: another tenant's floor is "not found"). */
    floor: (p: Principal, floorId: number) => floors.get(p, floorId),
    current,
    toFloorMap,

    /** The current revision (GET answers it as text: `getText`). */
    async get(p: Principal, floorId: number): Promise<FloorMap> {
      const floor = await floors.get(p, floorId);
      return toFloorMap(floor, await repo.current(floorId));
    },

    /** The current revision as JSON text (`floorMapJson`). */
    async getText(p: Principal, floorId: number): Promise<string> {
      const floor = await floors.get(p, floorId);
      return floorMapJson(floor, await repo.current(floorId));
    },

    /** `saveText` of a body the server made itself (a recorded route), answered as an object. */
    async save(p: Principal, floorId: number, body: SaveFloorMapBody, ip: string): Promise<FloorMap> {
      return JSON.parse(await saveText(p, floorId, JSON.stringify(body), ip)) as FloorMap;
    },

    saveText,

    async revisions(p: Principal, floorId: number, limit: number): Promise<MapRevisionSummary[]> {
      await floors.get(p, floorId);
      return repo.list(floorId, Math.min(limit, MAP_REVISIONS_MAX));
    },

    async revisionText(p: Principal, floorId: number, revision: number): Promise<string> {
      const floor = await floors.get(p, floorId);
      const row = await repo.revision(floorId, revision);
      if (!row) throw notFound('Map revision');
      return floorMapJson(floor, row);
    },

    /** The document of an older revision becomes the newest (checked against today's image). */
    async restoreText(p: Principal, floorId: number, revision: number, ip: string): Promise<string> {
      requireManager(p);
      const floor = await floors.get(p, floorId);
      const row = await repo.revision(floorId, revision);
      if (!row) throw notFound('Map revision');
      const saved = await writeDocument(p, floor, ip, { kind: 'document', text: row.document }, () => ({
        note: `restored from ${revision}`,
        action: 'floor-map.restore',
        detail: { restoredFrom: revision },
      }));
      return writtenJson(floor, saved);
    },

    // ------------------------------------------------------------ waypoints (id-level edits)

    async waypoints(p: Principal, floorId: number): Promise<WaypointEntry[]> {
      await floors.get(p, floorId);
      return currentEntries(floorId);
    },

    async waypoint(p: Principal, floorId: number, id: number): Promise<WaypointEntry> {
      await floors.get(p, floorId);
      const w = (await currentEntries(floorId)).find((x) => x.id === id);
      if (!w) throw notFound('Waypoint');
      return w;
    },

    async createWaypoint(p: Principal, floorId: number, body: WaypointInput, ip: string): Promise<WaypointEntry> {
      requireManager(p);
      const floor = await floors.get(p, floorId);
      checkWaypoint(floor, body);
      const done = await write(p, floor, ip, ({ document }) => {
        const id = document.waypoints.reduce((max, w) => Math.max(max, w.id), 0) + 1;
        const waypoint: Waypoint = { id, ...body };
        return {
          document: { ...document, waypoints: [...document.waypoints, waypoint] },
          note: `waypoint ${id} created`,
          action: 'floor-map.waypoint.create',
          detail: { waypointId: id, name: body.name },
          answer: id,
        };
      });
      return entryOf(done.document, done.answer);
    },

    async updateWaypoint(
      p: Principal,
      floorId: number,
      id: number,
      body: UpdateWaypointBody,
      ip: string,
    ): Promise<WaypointEntry> {
      requireManager(p);
      const floor = await floors.get(p, floorId);
      findWaypoint(await current(floorId), id);
      const { updatedAt, ...input } = body;
      checkWaypoint(floor, input);
      const done = await write(p, floor, ip, ({ document, savedAt }) => {
        const old = findWaypoint(document, id);
        // The version names what the edit was based on: a waypoint changed since is not overwritten.
        if (versionOf(old, savedAt) !== updatedAt) throw staleUpdate('waypoint');
        const waypoint: Waypoint = { id, ...input };
        return {
          document: { ...document, waypoints: document.waypoints.map((w) => (w.id === id ? waypoint : w)) },
          note: `waypoint ${id} changed`,
          action: 'floor-map.waypoint.update',
          detail: { waypointId: id, name: input.name },
          answer: id,
        };
      });
      return entryOf(done.document, done.answer);
    },

    /** A waypoint a route or an edge uses stays: 409 IN_USE naming the routes and counting the edges. */
    async deleteWaypoint(p: Principal, floorId: number, id: number, ip: string): Promise<void> {
      requireManager(p);
      const floor = await floors.get(p, floorId);
      await write(p, floor, ip, ({ document }) => {
        const w = findWaypoint(document, id);
        const used = waypointUsage(document, id);
        if (used.routes.length > 0 || used.edges.length > 0) {
          throw new AppError(
            'IN_USE',
            `The waypoint is used by ${used.routes.length} routes and ${used.edges.length} edges; remove it from those first`,
            [
              ...used.routes.map((r) => ({ path: 'routes', message: r.name, code: String(r.id) })),
              ...(used.edges.length > 0
                ? [{ path: 'edges', message: 'validation.inUse', code: String(used.edges.length) }]
                : []),
            ],
          );
        }
        return {
          document: { ...document, waypoints: document.waypoints.filter((x) => x.id !== id) },
          note: `waypoint ${id} deleted`,
          action: 'floor-map.waypoint.delete',
          detail: { waypointId: id, name: w.name },
          answer: null,
        };
      });
    },
  };
}

export type MapService = ReturnType<typeof mapService>;
