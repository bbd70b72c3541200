import {
  isAbnormalResult,
  REPORT_TRACK_POINTS_MAX,
  REPORT_TYPES,
  reportDetailTypeOf,
  type ReportCaller,
  type ReportType,
} from '@portal/contract';
import type { Insertable } from 'kysely';
import type { AppContext } from '../../context.ts';
import { pngThumbnailOffThread } from '../../lib/image-worker.ts';
import { isUniqueViolation } from '../organizations/admin-rules.ts';
import type { StoredFile } from '../../services/file-store.ts';
import { reportRepo, type ReportRepo } from './report-repo.ts';
import type { ReportDetailTable, ReportTrackTable } from './report-tables.ts';

type Ctx = Pick<AppContext, 'db' | 'clock' | 'fileStore' | 'log'>;

/** Thumbnails are this wide at most (PNG, the aspect kept). */
export const REPORT_THUMBNAIL_WIDTH = 320;
/** How long the writer waits for a photo still being stored when the run ended (the robot sends it as the action finishes). */
const PHOTO_WAIT_MS = 10_000;
const PHOTO_POLL_MS = 200;
/** The sweep looks for ended runs without a report among this many newest runs. */
const SWEEP_WINDOW = 5_000;
const SWEEP_EVERY_MS = 5 * 60_000;

/** Step error codes that mean "the device or marker was not found" (detail result 4). */
const NOT_FOUND_CODES = new Set(['RUN_CAPABILITY', 'RUN_DEVICE_NOT_FOUND', 'RUN_MARKER_NOT_FOUND']);
/** Step data the runner keeps for itself (not shown as a detail's values). */
const INTERNAL_KEYS = new Set([
  'track',
  'atFloorId',
  'atX',
  'atY',
  'actionId',
  'actionIds',
  'orderId',
  'orderUpdateId',
]);

type Data = Record<string, string | number | boolean | null>;

/** A report detail's result from its step record (reports/resources.ts). */
export function detailResultOf(stepResult: string, errorCode: string | null): number {
  if (stepResult === 'done') return 10;
  if (stepResult === 'cancel') return 12;
  if (errorCode && NOT_FOUND_CODES.has(errorCode)) return 4;
  if (stepResult === 'skip') return 11;
  return 9;
}

/** A report's result from its run's status and step records. */
export function reportResultOf(status: string, stepResults: string[]): number {
  if (status === 'done') return stepResults.includes('skip') ? 11 : 10;
  if (status === 'cancel') return 12;
  return 9;
}

/** Points of one floor's track, thinned evenly to at most `max` (the first and last kept). */
export function thinTrack(points: Array<[number, number]>, max = REPORT_TRACK_POINTS_MAX): Array<[number, number]> {
  if (points.length <= max) return points;
  const out: Array<[number, number]> = [];
  for (let i = 0; i < max; i++) out.push(points[Math.round((i * (points.length - 1)) / (max - 1))]!);
  return out;
}

const reportTypeOf = (definition: string | null): ReportType => {
  if (!definition) return 0;
  try {
    const t = (JSON.parse(definition) as { reportType?: unknown }).reportType;
    return (REPORT_TYPES as readonly unknown[]).includes(t) ? (t as ReportType) : 0;
  } catch {
    return 0;
  }
};

const parseData = (text: string): Data => {
  try {
    const d = JSON.parse(text) as unknown;
    return d && typeof d === 'object' && !Array.isArray(d) ? (d as Data) : {};
  } catch {
    return {};
  }
};

const num = (v: unknown): number | null => (typeof v === 'number' && Number.isFinite(v) ? v : null);

type Names = { waypoints: Map<number, string>; routes: Map<number, string> };

/** The waypoint and route names of a stored map document (an unreadable one has none). */
export function mapNamesOf(text: string | null): Names {
  const names: Names = { waypoints: new Map(), routes: new Map() };
  if (!text) return names;
  try {
    const doc = JSON.parse(text) as { waypoints?: unknown; routes?: unknown };
    for (const [list, into] of [
      [doc.waypoints, names.waypoints],
      [doc.routes, names.routes],
    ] as const) {
      if (!Array.isArray(list)) continue;
      for (const x of list as Array<{ id?: unknown; name?: unknown }>)
        if (x && typeof x.id === 'number' && typeof x.name === 'string' && x.name !== '') into.set(x.id, x.name);
    }
  } catch {
    // no names
  }
  return names;
}

/** The definition's steps by id (the run's snapshot), for what a step's record does not hold (a route's id). */
function definitionSteps(definition: string): Map<string, Record<string, unknown>> {
  const out = new Map<string, Record<string, unknown>>();
  const walk = (v: unknown): void => {
    if (Array.isArray(v)) return v.forEach(walk);
    if (!v || typeof v !== 'object') return;
    const o = v as Record<string, unknown>;
    if (typeof o.id === 'string' && typeof o.kind === 'string' && !out.has(o.id)) out.set(o.id, o);
    Object.values(o).forEach(walk);
  };
  try {
    walk(JSON.parse(definition));
  } catch {
    // no steps
  }
  return out;
}

/**
 * The report writer (docs/api-reports.md "When a report is written"): every flow run makes one
 * report when it ends, written from the run's record right after the runner closes it (the runner
 * tells `runEnded`). The report's `flow_run_id` is unique, so asking twice (two servers, the sweep)
 * never doubles it; a sweep after start writes the reports of runs closed just before a crash.
 * Photos: the full image stays the robot's stored file; a thumbnail is made on the image worker.
 */
export function reportWriter(ctx: Ctx, opts: { photoWaitMs?: number } = {}) {
  const { db, clock, fileStore, log } = ctx;
  const repo = reportRepo(db);
  const pending = new Set<Promise<unknown>>();
  const writing = new Set<number>();
  let closed = false;
  let sweeper: NodeJS.Timeout | undefined;

  async function photosOf(robotId: number, actionIds: string[], waitMs: number) {
    const deadline = Date.now() + waitMs;
    for (;;) {
      const rows = await repo.photos(robotId, actionIds);
      if (rows.length >= new Set(actionIds).size || Date.now() >= deadline || closed) return rows;
      await new Promise((r) => setTimeout(r, PHOTO_POLL_MS));
    }
  }

  /** A thumbnail of a stored PNG, written (not recorded); null when it cannot be made (JPEG, broken). */
  async function thumbnailOf(key: string, organizationId: number, buildingId: number): Promise<StoredFile | null> {
    try {
      const bytes = await fileStore.read(key);
      if (!bytes) return null;
      const t = await pngThumbnailOffThread(bytes, REPORT_THUMBNAIL_WIDTH);
      return await fileStore.write({
        bytes: t.png,
        contentType: 'image/png',
        organizationId,
        buildingId,
        purpose: 'report-thumbnail',
      });
    } catch (err) {
      log.warn({ err, key }, 'report photo thumbnail not made');
      return null;
    }
  }

  /**
   * Who started the run: the schedule log line recorded with the run (runs from before migration 026:
   * the line that names the run), else the operator, else a trigger.
   */
  async function callerOf(r: ReportRepo, runId: number, scheduleLogId: number | null, startedBy: number | null) {
    const s = scheduleLogId !== null ? await r.scheduleLine(scheduleLogId) : await r.scheduleOfRun(runId);
    if (s) return { caller: 'schedule' as ReportCaller, callerName: s.title, scheduleId: s.schedule_id };
    if (startedBy !== null) {
      const o = await r.operator(startedBy);
      const name = o ? `${o.last_name} ${o.first_name ?? ''}`.trim() : null;
      return { caller: 'operator' as ReportCaller, callerName: name, scheduleId: null };
    }
    return { caller: 'trigger' as ReportCaller, callerName: null, scheduleId: null };
  }

  /** Writes the report of an ended run; answers whether this call wrote it. */
  async function write(runId: number, waitMs = opts.photoWaitMs ?? PHOTO_WAIT_MS): Promise<boolean> {
    if (await repo.existsForRun(runId)) return false;
    const run = await repo.run(runId);
    if (!run || run.status === 'running' || run.status === 'paused' || run.ended_at === null) return false;
    const steps = await repo.steps(runId);
    const datas = steps.map((s) => parseData(s.data));

    // Photos: those of takePhoto and meterCheck steps that were done, as stored by the photo service.
    const actionIds = steps.flatMap((s, i) =>
      (s.kind === 'takePhoto' || s.kind === 'meterCheck') &&
      s.result === 'done' &&
      typeof datas[i]!.actionId === 'string'
        ? [datas[i]!.actionId as string]
        : [],
    );
    const photoRows = await photosOf(run.robot_id, actionIds, waitMs);
    const photos = new Map(photoRows.map((p) => [p.action_id, p]));
    const thumbs = new Map<string, StoredFile | null>();
    for (const p of photoRows)
      thumbs.set(p.action_id, await thumbnailOf(p.file_key, run.organization_id, run.building_id));
    const written = [...thumbs.values()].filter((t): t is StoredFile => t !== null);

    // Names copied now (a later map or floor edit leaves a past report as it was): the waypoint's and
    // route's from the current map of the floor the step ran on, a floor change's floor.
    const defSteps = definitionSteps(run.definition);
    const mapNames = new Map<number, Promise<Names>>();
    const namesOn = (floorId: number) => {
      let n = mapNames.get(floorId);
      if (!n) mapNames.set(floorId, (n = repo.mapDocument(floorId).then(mapNamesOf)));
      return n;
    };
    const floorIds = new Set<number>();
    for (const d of datas) if (num(d.floorId) !== null) floorIds.add(Math.trunc(d.floorId as number));
    const floorNames = new Map((await repo.floors([...floorIds])).map((f) => [f.id, f.name]));
    let floorNow = run.floor_id;
    const named: Data[] = [];
    for (const [i, s] of steps.entries()) {
      const data = datas[i]!;
      const extra: Data = {};
      const at = num(data.atFloorId);
      const stepFloor = num(data.floorId);
      const mapFloor = stepFloor !== null ? Math.trunc(stepFloor) : at !== null ? Math.trunc(at) : floorNow;
      if (stepFloor !== null) extra.floorName = floorNames.get(Math.trunc(stepFloor)) ?? null;
      const routeId = s.kind === 'followRoute' ? num(defSteps.get(s.step_id)?.routeId) : null;
      const waypointId = num(data.waypointId);
      if (waypointId !== null || routeId !== null) {
        const names = await namesOn(mapFloor);
        if (routeId !== null) extra.routeName = names.routes.get(routeId) ?? null;
        if (waypointId !== null) extra.waypointName = names.waypoints.get(waypointId) ?? null;
      }
      named.push(extra);
      if (at !== null) floorNow = Math.trunc(at);
      else if (s.kind === 'moveToFloor' && s.result === 'done' && stepFloor !== null) floorNow = Math.trunc(stepFloor);
    }

    const details: Omit<Insertable<ReportDetailTable>, 'report_id'>[] = steps.map((s, i) => {
      const data = datas[i]!;
      const photo = typeof data.actionId === 'string' ? photos.get(data.actionId) : undefined;
      const thumb = photo ? thumbs.get(photo.action_id) : null;
      const values: Data = {};
      for (const [k, v] of Object.entries(data)) if (!INTERNAL_KEYS.has(k)) values[k] = v;
      for (const [k, v] of Object.entries(named[i]!)) if (v !== null) values[k] = v;
      const floorId = num(data.atFloorId);
      // A meter check that was done: its reading's result (0 normal, 1 abnormal, 9 not read) and code.
      const check = s.kind === 'meterCheck' && s.result === 'done' ? num(data.result) : null;
      const checkCode = check !== null && typeof data.errorCode === 'string' ? data.errorCode : null;
      return {
        seq: i + 1,
        step_id: s.step_id,
        kind: s.kind,
        type: reportDetailTypeOf(s.kind),
        result: check ?? detailResultOf(s.result, s.error_code),
        started_at: s.started_at,
        ended_at: s.ended_at,
        error_code: s.error_code ?? checkCode,
        message: s.message ?? (typeof data.message === 'string' ? data.message : null),
        values_json: JSON.stringify(values),
        photo_file_key: photo?.file_key ?? null,
        photo_thumb_key: photo ? (thumb?.key ?? photo.file_key) : null,
        photo_width: photo?.width ?? null,
        photo_height: photo?.height ?? null,
        camera: photo?.camera ?? (typeof data.camera === 'string' ? data.camera : null),
        floor_id: floorId === null ? null : Math.trunc(floorId),
        x: num(data.atX),
        y: num(data.atY),
      };
    });

    // The path per floor, in the order the floors were first visited.
    const byFloor = new Map<number, Array<[number, number]>>();
    for (const d of datas) {
      if (typeof d.track !== 'string') continue;
      let points: unknown;
      try {
        points = JSON.parse(d.track);
      } catch {
        continue;
      }
      if (!Array.isArray(points)) continue;
      for (const p of points as unknown[]) {
        if (!Array.isArray(p) || p.length !== 3 || !p.every((v) => typeof v === 'number' && Number.isFinite(v)))
          continue;
        const [f, x, y] = p as [number, number, number];
        let list = byFloor.get(f);
        if (!list) byFloor.set(f, (list = []));
        list.push([x, y]);
      }
    }
    const tracks: Omit<Insertable<ReportTrackTable>, 'report_id'>[] = [...byFloor.entries()].map(
      ([floorId, points], i) => ({ floor_id: floorId, seq: i + 1, points_json: JSON.stringify(thinTrack(points)) }),
    );

    const [building, robot, definition, floors, caller] = await Promise.all([
      repo.building(run.building_id),
      repo.robot(run.robot_id),
      run.flow_id === null ? Promise.resolve(null) : repo.flowDefinition(run.flow_id),
      repo.floors([run.floor_id]),
      callerOf(repo, run.id, run.schedule_log_id, run.started_by),
    ]);
    const firstThumb = details.find((d) => d.photo_thumb_key)?.photo_thumb_key ?? null;

    try {
      await db.transaction().execute(async (trx) => {
        for (const t of written) await fileStore.record(t, trx);
        await reportRepo(trx).insert(
          {
            flow_run_id: run.id,
            organization_id: run.organization_id,
            building_id: run.building_id,
            building_name: building?.name ?? '',
            floor_id: run.floor_id,
            floor_name: floors[0]?.name ?? '',
            robot_id: run.robot_id,
            robot_name: robot?.name ?? run.robot_name,
            robot_serial: robot?.serial_no ?? '',
            flow_id: run.flow_id,
            flow_name: run.flow_name,
            type: reportTypeOf(definition),
            caller: caller.caller,
            caller_name: caller.callerName,
            schedule_id: caller.scheduleId,
            started_at: run.started_at,
            ended_at: run.ended_at ?? clock().toISOString(),
            result: reportResultOf(
              run.status,
              steps.map((s) => s.result),
            ),
            error_code: run.error_code,
            abnormal_count: details.filter((d) => isAbnormalResult(d.result as number)).length,
            photo_count: details.filter((d) => d.photo_file_key).length,
            detail_count: details.length,
            thumbnail_file_key: firstThumb,
          },
          details,
          tracks,
        );
      });
      return true;
    } catch (err) {
      await Promise.all(written.map((t) => fileStore.discard(t.key)));
      if (isUniqueViolation(err)) return false; // written meanwhile (another server, the sweep)
      throw err;
    }
  }

  function track<T>(p: Promise<T>): Promise<T> {
    pending.add(p);
    void p.finally(() => pending.delete(p)).catch(() => undefined);
    return p;
  }

  return {
    write,
    /** The runner closed this run: its report is written in the background (once per run here). */
    runEnded(runId: number): void {
      if (closed || writing.has(runId)) return;
      writing.add(runId);
      void track(
        write(runId)
          .catch((err: unknown) => log.error({ err, runId }, 'report not written'))
          .finally(() => writing.delete(runId)),
      );
    },
    /** Writes the reports of recently ended runs that have none (a crash between closing and writing). */
    async sweep(): Promise<number> {
      let n = 0;
      // Runs that ended a while ago only: a server writing one just ended (waiting for its photos) is left to it.
      const before = new Date(clock().getTime() - 2 * (opts.photoWaitMs ?? PHOTO_WAIT_MS) - 10_000).toISOString();
      for (const runId of await repo.unreported(SWEEP_WINDOW, before, 100)) {
        if (closed || writing.has(runId)) continue;
        writing.add(runId);
        try {
          if (await write(runId, 0)) n++;
        } catch (err) {
          log.error({ err, runId }, 'report not written');
        } finally {
          writing.delete(runId);
        }
      }
      return n;
    },
    /** The sweep now in the background, then every SWEEP_EVERY_MS (a write that failed is tried again). */
    sweepSoon(): void {
      const once = () => {
        if (!closed) void track(this.sweep().catch((err: unknown) => log.error({ err }, 'report sweep failed')));
      };
      once();
      sweeper ??= setInterval(once, SWEEP_EVERY_MS);
      sweeper.unref();
    },
    /** Resolves once the reports being written are (tests; shutdown). */
    async idle(): Promise<void> {
      while (pending.size > 0) await Promise.all([...pending]);
    },
    async close(): Promise<void> {
      closed = true;
      clearInterval(sweeper);
      await this.idle();
    },
  };
}
export type ReportWriter = ReturnType<typeof reportWriter>;
