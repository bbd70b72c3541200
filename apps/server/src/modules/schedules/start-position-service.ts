import type {
  CameraId,
  RobotPhotoMessage,
  ScheduleLogDetailCode,
  ScheduleLogDetailParams,
  ScheduleReference,
} from '@portal/contract';
import type { AppContext } from '../../context.ts';
import { AppError } from '../../lib/errors.ts';
import { compareWithReferenceGridOffThread, startPositionGridOffThread } from '../../lib/image-worker.ts';
import { signFileUrl } from '../files/signed-url.ts';
import { camerasOf } from '../robot-features/capabilities.ts';
import { decodePhoto } from '../robot-features/photo-service.ts';
import { capabilityMissing } from '../robot-features/robot-access.ts';
import { referenceRepo, type ScheduleReferenceRow } from './reference-repo.ts';
import { START_POSITION_THRESHOLD } from './start-position.ts';

type Ctx = Pick<AppContext, 'db' | 'clock' | 'log' | 'robotLink' | 'fileStore' | 'config'>;

/** The cameras whose reference images are taken (v1: the front camera every robot has). */
export const REFERENCE_CAMERAS: readonly CameraId[] = ['v1'];
/**
 * The width (pixels) of the photo a start-position check asks for: the comparison's grid is 64 cells
 * wide, so a 320-pixel photo gives it all it uses, at a 16th of a 1280 × 720 photo's pixels to render,
 * send and decode. The reference images are taken at the robot's full size (people look at them).
 */
export const START_PHOTO_WIDTH = 320;
/** How long a robot has to send a photo it was asked for. */
export const START_PHOTO_TIMEOUT_MS = 30_000;
/** The detail of a log line whose entry has no reference images (the run starts). */
export const NOT_CHECKED_NO_REFERENCES = 'start position not checked: no reference images';

/** What the dispatcher does with the start-position check: start (pass) or log START_POSITION. */
export interface StartPositionCheck {
  pass: boolean;
  /** false: nothing was compared (no reference images...); the flow starts. */
  checked: boolean;
  score: number | null;
  /** For the log line's detail: English words, and a code with parameters (log-details.ts). */
  detail: string;
  code: ScheduleLogDetailCode;
  params: ScheduleLogDetailParams;
}

/** The part of a log line the check needs. */
export interface StartPositionLine {
  schedule_id: number | null;
  robot_id: number | null;
  flow_id: number | null;
}

const fixed = (n: number) => n.toFixed(3);

/**
 * Reference images of schedule entries and the start-position check (docs/api-schedules.md "Start
 * position"). A photo is asked of the robot with a takePhoto instant action and awaited on the robot
 * link's `photo` events (every server sees them; the robot-features module also stores each in the
 * robot's photos). References are stored through the file store (purpose `schedule-reference`).
 * A reference's comparison grid is computed once on the image worker and stored with it; a check
 * compares the robot's current photo, taken START_PHOTO_WIDTH wide, with it on the image worker.
 */
export function startPositionService(ctx: Ctx, opts: { photoTimeoutMs?: number } = {}) {
  const { db, clock, log, robotLink, fileStore, config } = ctx;
  const repo = referenceRepo(db);
  const timeoutMs = opts.photoTimeoutMs ?? START_PHOTO_TIMEOUT_MS;
  const waiters = new Map<string, { ok: (m: RobotPhotoMessage) => void; fail: (err: Error) => void }>();
  /** Photos that arrived before their waiter was registered (a robot answering at once), briefly. */
  const early = new Map<string, { message: RobotPhotoMessage; until: number }>();
  const tasks = new Set<Promise<void>>();
  let off: (() => void) | null = null;
  let closed = false;
  /** Photos asked for whose action id is not known yet. */
  let asking = 0;

  /**
   * Asks the robot for a photo of `camera` (at most `width` pixels wide when given: the robot scales
   * it; one that ignores the parameter sends its full size) and waits for it (throws when it does not
   * come).
   */
  async function photo(
    robotId: number,
    camera: CameraId,
    width?: number,
  ): Promise<{ bytes: Buffer; message: RobotPhotoMessage }> {
    if (closed) throw new Error('closing');
    const details = robotLink.details(robotId);
    if (!details?.online) throw new AppError('ROBOT_OFFLINE', 'The robot is offline');
    if (!camerasOf(details.factsheet).includes(camera)) throw capabilityMissing(`takePhoto ${camera}`);
    off ??= robotLink.on('photo', (e) => {
      const key = `${e.robotId}|${e.message.actionId}`;
      const w = waiters.get(key);
      waiters.delete(key);
      if (w) w.ok(e.message);
      else if (asking > 0) {
        // Only while this server waits for a photo being asked for; a few, for a few seconds.
        const now = Date.now();
        for (const [k, v] of early) if (v.until < now || early.size > 20) early.delete(k);
        early.set(key, { message: e.message, until: now + 5000 });
      }
    });
    asking++;
    let actionId: string;
    try {
      actionId = await robotLink.instantAction(
        robotId,
        'takePhoto',
        width === undefined ? { camera } : { camera, width: String(width) },
      );
    } finally {
      asking--;
    }
    const key = `${robotId}|${actionId}`;
    const arrived = early.get(key);
    early.delete(key);
    const message = arrived
      ? arrived.message
      : await new Promise<RobotPhotoMessage>((ok, fail) => {
          const timer = setTimeout(() => {
            waiters.delete(key);
            fail(new AppError('ROBOT_OFFLINE', `The robot sent no photo within ${Math.round(timeoutMs / 1000)} s`));
          }, timeoutMs);
          timer.unref();
          waiters.set(key, {
            ok: (m) => {
              clearTimeout(timer);
              ok(m);
            },
            fail: (err) => {
              clearTimeout(timer);
              fail(err);
            },
          });
        });
    const bytes = decodePhoto(message.data, message.contentType);
    if (typeof bytes === 'string') throw new Error(`the robot's photo was refused: ${bytes}`);
    return { bytes, message };
  }

  /** A PNG's comparison grid as stored (base64), or null when it cannot be decoded. */
  async function gridOf(png: Uint8Array): Promise<string | null> {
    try {
      return Buffer.from(await startPositionGridOffThread(png)).toString('base64');
    } catch (err) {
      log.warn({ err }, 'schedule reference image: no comparison grid');
      return null;
    }
  }

  const toReference = (r: ScheduleReferenceRow): ScheduleReference => ({
    camera: r.camera as CameraId,
    url: signFileUrl(config.secretKey, config.apiBase, r.file_key, clock()),
    width: r.width,
    height: r.height,
    takenAt: r.taken_at,
    robotId: r.robot_id,
    flowId: r.flow_id,
    pose:
      r.pose_x === null || r.pose_y === null || r.map_id === null
        ? null
        : { x: r.pose_x, y: r.pose_y, theta: r.pose_theta ?? 0, mapId: r.map_id },
  });

  /** Takes the entry's reference images now with its robot where it stands, replacing the old ones. */
  async function take(scheduleId: number): Promise<ScheduleReference[]> {
    const entry = await repo.entry(scheduleId);
    if (!entry) return [];
    for (const camera of REFERENCE_CAMERAS) {
      const { bytes, message } = await photo(entry.robot_id, camera);
      const pos = robotLink.details(entry.robot_id)?.state?.agvPosition;
      const grid = message.contentType === 'image/png' ? await gridOf(bytes) : null;
      const stored = await fileStore.write({
        bytes,
        contentType: message.contentType,
        organizationId: entry.organization_id,
        buildingId: entry.building_id,
        purpose: 'schedule-reference',
      });
      let replaced: string | null = null;
      try {
        await db.transaction().execute(async (trx) => {
          await fileStore.record(stored, trx);
          replaced = await referenceRepo(trx).replace(
            {
              schedule_id: scheduleId,
              robot_id: entry.robot_id,
              flow_id: entry.flow_id,
              camera,
              file_key: stored.key,
              width: message.width,
              height: message.height,
              pose_x: pos?.x ?? null,
              pose_y: pos?.y ?? null,
              pose_theta: pos?.theta ?? null,
              map_id: pos?.mapId ?? null,
              taken_at: clock().toISOString(),
              grid,
            },
            trx,
          );
          if (replaced) await fileStore.removeRow(replaced, trx);
        });
      } catch (err) {
        await fileStore.discard(stored.key);
        throw err;
      }
      if (replaced) await fileStore.discard(replaced);
    }
    return (await repo.of(scheduleId)).map(toReference);
  }

  const notChecked = (
    detail: string,
    code: ScheduleLogDetailCode,
    params: ScheduleLogDetailParams = {},
  ): StartPositionCheck => ({ pass: true, checked: false, score: null, detail, code, params });

  return {
    take,

    async list(scheduleId: number): Promise<ScheduleReference[]> {
      return (await repo.of(scheduleId)).map(toReference);
    },

    /**
     * After an entry was saved: takes its reference images in the background when it has none for
     * its robot and flow (new entry, robot or flow changed) and the robot is online. Never throws.
     */
    refreshSoon(scheduleId: number): void {
      if (closed) return;
      const job = (async () => {
        const entry = await repo.entry(scheduleId);
        if (!entry || !robotLink.details(entry.robot_id)?.online) return;
        const refs = await repo.of(scheduleId);
        if (refs.length > 0 && refs.every((r) => r.robot_id === entry.robot_id && r.flow_id === entry.flow_id)) return;
        await take(scheduleId);
      })()
        .catch((err: unknown) => {
          if (!closed) log.warn({ err, scheduleId }, 'schedule reference images not taken');
        })
        .finally(() => tasks.delete(job));
      tasks.add(job);
    },

    /** The start-position check of a due occurrence (its robot is online). */
    async check(line: StartPositionLine): Promise<StartPositionCheck> {
      if (line.schedule_id === null || line.robot_id === null)
        return notChecked(NOT_CHECKED_NO_REFERENCES, 'startPositionNoReferences');
      const refs = (await repo.of(line.schedule_id)).filter(
        (r) => r.robot_id === line.robot_id && r.flow_id === line.flow_id,
      );
      if (refs.length === 0) return notChecked(NOT_CHECKED_NO_REFERENCES, 'startPositionNoReferences');
      const notes: string[] = [];
      let lowest: number | null = null;
      let lowestParams: ScheduleLogDetailParams = {};
      for (const ref of refs) {
        // The reference's grid, computed when it was taken (or at its first check, then kept).
        let grid = ref.grid;
        if (grid === null) {
          const reference = await fileStore.read(ref.file_key);
          if (!reference)
            return notChecked(
              `start position not checked: the reference image of ${ref.camera} is gone`,
              'startPositionReferenceGone',
              { camera: ref.camera },
            );
          if (!reference.subarray(1, 4).equals(Buffer.from('PNG')))
            return notChecked('start position not checked: only PNG photos are compared', 'startPositionNotPng');
          grid = await gridOf(reference);
          if (grid === null)
            return notChecked('start position not checked: only PNG photos are compared', 'startPositionNotPng');
          await repo.setGrid(ref.id, grid);
        }
        let current: { bytes: Buffer; message: RobotPhotoMessage };
        try {
          current = await photo(line.robot_id, ref.camera as CameraId, START_PHOTO_WIDTH);
        } catch (err) {
          return {
            pass: false,
            checked: true,
            score: null,
            detail: `no photo from camera ${ref.camera} to check the start position: ${(err as Error).message}`,
            code: 'startPositionNoPhoto',
            params: { camera: ref.camera, error: (err as Error).message },
          };
        }
        if (current.message.contentType !== 'image/png')
          return notChecked('start position not checked: only PNG photos are compared', 'startPositionNotPng');
        const s = await compareWithReferenceGridOffThread(Buffer.from(grid, 'base64'), current.bytes);
        const pos = robotLink.details(line.robot_id)?.state?.agvPosition;
        const distance =
          pos && ref.pose_x !== null && ref.pose_y !== null && pos.mapId === ref.map_id
            ? Math.hypot(pos.x - ref.pose_x, pos.y - ref.pose_y)
            : null;
        const away = distance !== null ? `; reported position ${distance.toFixed(2)} m from the reference's` : '';
        const params: ScheduleLogDetailParams = {
          camera: ref.camera,
          score: Number(fixed(s.score)),
          threshold: START_POSITION_THRESHOLD,
          takenAt: ref.taken_at,
          ...(distance !== null ? { distance: Number(distance.toFixed(2)) } : {}),
        };
        if (lowest === null || s.score < lowest) lowestParams = params;
        lowest = lowest === null ? s.score : Math.min(lowest, s.score);
        notes.push(
          `camera ${ref.camera} score ${fixed(s.score)} (pass ≥ ${START_POSITION_THRESHOLD}) against the reference taken ${ref.taken_at}${away}`,
        );
        if (!s.pass)
          return {
            pass: false,
            checked: true,
            score: s.score,
            detail: `not at the start position: ${notes.join('; ')}`,
            code: 'startPositionFailed',
            params,
          };
      }
      return {
        pass: true,
        checked: true,
        score: lowest,
        detail: `start position checked: ${notes.join('; ')}`,
        code: 'startPositionChecked',
        params: lowestParams,
      };
    },

    /** The files of the entry's reference images (read before the entry is deleted). */
    async fileKeys(scheduleId: number): Promise<string[]> {
      return (await repo.of(scheduleId)).map((r) => r.file_key);
    },

    /** Removes the files of a deleted entry's reference images (rows and bytes); never throws. */
    async removeFiles(keys: string[]): Promise<void> {
      for (const key of keys) {
        try {
          await fileStore.removeRow(key);
          await fileStore.discard(key);
        } catch (err) {
          log.warn({ err, key }, 'schedule reference image not removed');
        }
      }
    },

    /** Stops waiting for photos and lets the background work end (server shutdown). */
    async close(): Promise<void> {
      closed = true;
      for (const w of waiters.values()) w.fail(new Error('closing'));
      waiters.clear();
      off?.();
      off = null;
      await Promise.allSettled([...tasks]);
    },
  };
}
export type StartPositionService = ReturnType<typeof startPositionService>;
