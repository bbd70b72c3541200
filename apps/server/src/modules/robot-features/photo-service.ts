import { DEPTH_CAMERA, PHOTO_MAX_BYTES, type CameraId, type RobotPhoto } from '@portal/contract';
import type { AppContext, Principal } from '../../context.ts';
import { signFileUrl } from '../files/signed-url.ts';
import { isUniqueViolation } from '../organizations/admin-rules.ts';
import type { PhotoEvent } from '../robot-link/types.ts';
import { robotService } from '../robots/robot-service.ts';
import type { PhotoAttribution } from './photo-attribution.ts';
import { photoRepo } from './photo-repo.ts';

type Ctx = Pick<AppContext, 'db' | 'clock' | 'audit' | 'caches' | 'log' | 'robotLink' | 'config' | 'fileStore'>;

const PNG_MAGIC = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
const JPEG_MAGIC = Buffer.from([0xff, 0xd8, 0xff]);
const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

/** The photo's bytes, or why they are refused (size, encoding, bytes that are not the stated type). */
export function decodePhoto(data: string, contentType: 'image/png' | 'image/jpeg'): Buffer | string {
  if (data.length % 4 !== 0 || !BASE64.test(data)) return 'data is not base64';
  const bytes = Buffer.from(data, 'base64');
  if (bytes.length === 0) return 'empty photo';
  if (bytes.length > PHOTO_MAX_BYTES) return `photo larger than ${PHOTO_MAX_BYTES} bytes`;
  const magic = contentType === 'image/png' ? PNG_MAGIC : JPEG_MAGIC;
  if (!bytes.subarray(0, magic.length).equals(magic)) return `bytes are not ${contentType}`;
  return bytes;
}

/**
 * Photos robots take (answers to takePhoto, custom `photo` topic): checked, stored through the file
 * store (purpose `robot-photo`, the robot's organization and building) and listed per robot with a
 * signed URL an `<img>` can load. Attributed to the operator who sent the action when this server
 * remembers it.
 */
export function photoService(ctx: Ctx, attribution: PhotoAttribution) {
  const { db, clock, config, fileStore, log } = ctx;
  const robots = robotService(ctx);
  const repo = photoRepo(db);

  /** The operator of a photo that was stored first without one (another server saw it first). */
  async function attribute(robotId: number, actionId: string, operatorId: number | null): Promise<void> {
    if (operatorId !== null) await repo.attribute(robotId, actionId, operatorId);
  }

  return {
    /** Stores one photo message; a bad one is logged and dropped. Never throws for the robot's data. */
    async receive(e: PhotoEvent): Promise<'stored' | 'duplicate' | 'refused'> {
      const m = e.message;
      // Depth stills answer the arm's aiming (modules/robot-arm), they are not kept as photos.
      if (m.camera === DEPTH_CAMERA) return 'refused';
      const bytes = decodePhoto(m.data, m.contentType);
      if (typeof bytes === 'string') {
        log.warn({ robotId: e.robotId, actionId: m.actionId, reason: bytes }, 'robot photo dropped');
        return 'refused';
      }
      const operatorId = attribution.take(m.actionId, e.robotId);
      if (await repo.exists(e.robotId, m.actionId)) {
        await attribute(e.robotId, m.actionId, operatorId);
        return 'duplicate';
      }
      // The bytes are hashed and written before the transaction, which then holds the database only
      // for the two rows (a photo a second arrives from every patrolling robot). Bytes of a
      // transaction that did not commit are removed again.
      const written: string[] = [];
      try {
        const stored = await fileStore.write({
          bytes,
          contentType: m.contentType,
          organizationId: e.organizationId,
          buildingId: e.buildingId,
          purpose: 'robot-photo',
        });
        written.push(stored.key);
        await db.transaction().execute(async (trx) => {
          await fileStore.record(stored, trx);
          await photoRepo(trx).insert({
            robot_id: e.robotId,
            organization_id: e.organizationId,
            building_id: e.buildingId,
            camera: m.camera,
            file_key: stored.key,
            width: m.width,
            height: m.height,
            // When it reached the portal: one clock for every robot, so "newest first" holds.
            taken_at: clock().toISOString(),
            operator_id: operatorId,
            action_id: m.actionId,
          });
        });
      } catch (err) {
        await Promise.all(written.map((key) => fileStore.discard(key)));
        // The same photo stored meanwhile (a second server, a redelivery).
        if (isUniqueViolation(err)) {
          await attribute(e.robotId, m.actionId, operatorId);
          return 'duplicate';
        }
        throw err;
      }
      return 'stored';
    },

    async list(p: Principal, robotId: number, limit: number): Promise<RobotPhoto[]> {
      await robots.get(p, robotId);
      // The photo's own organization and building: one taken before the robot moved stays there.
      const rows = await repo.list(p, robotId, limit);
      const now = clock();
      return rows.map((r) => ({
        id: r.id,
        robotId: r.robot_id,
        camera: r.camera as CameraId,
        url: signFileUrl(config.secretKey, config.apiBase, r.file_key, now),
        width: r.width,
        height: r.height,
        takenAt: r.taken_at,
        operatorId: r.operator_id,
        operatorName: r.last_name === null ? null : `${r.last_name} ${r.first_name ?? ''}`.trim(),
      }));
    },
  };
}
