import {
  MAP_IMAGE_MAX_BYTES,
  MAP_IMAGE_TYPES,
  floorListSchema,
  type FloorDetail,
  type FloorInput,
} from '@portal/contract';
import type { AppContext, Principal } from '../../context.ts';
import { AppError, notFound } from '../../lib/errors.ts';
import { parseFilter, toApiRow } from '../../lib/filter.ts';
import { cachedLists, type ListAnswer } from '../../lib/list-answer.ts';
import { camelRow } from '../../lib/naming.ts';
import { expectVersioned, nextVersion } from '../../lib/versioned.ts';
import { assertRowInScope, buildingInScope, recorder, requireManager } from '../buildings/common.ts';
import { fileKeyOfUrl, signFileUrl } from '../files/signed-url.ts';
import { liveRobotCount, purgeDeletedRobots } from '../buildings/placement-repo.ts';
import { floorFilter, floorRepo, type FloorRow } from './floor-repo.ts';
import { MAP_IMAGE_MAX_PIXELS, MAP_IMAGE_MAX_SIDE, readImageHeader, withinImageLimits } from './image-header.ts';

type Ctx = Pick<AppContext, 'db' | 'clock' | 'audit' | 'config' | 'fileStore'>;

/** An uploaded file as received: its bytes and the type the client declared. */
export interface Upload {
  bytes: Buffer;
  declaredType: string;
}

const unsupported = () =>
  new AppError('UNSUPPORTED_FILE_TYPE', 'The map image must be a PNG or JPEG file', [
    { path: 'file', message: 'validation.imageType' },
  ]);

/** A small file declaring a huge image (a decompression bomb) would exhaust memory wherever it is decoded. */
const tooManyPixels = ({ width, height }: { width: number; height: number }) =>
  new AppError(
    'VALIDATION_FAILED',
    `The map image is ${width}x${height} pixels; at most ${MAP_IMAGE_MAX_SIDE} pixels per side and ${MAP_IMAGE_MAX_PIXELS / 1_000_000} megapixels are accepted`,
    [{ path: 'file', message: 'validation.imageDimensions' }],
  );

/**
 * Metres per pixel given to a floor without a resolution when it gets an uploaded image (the common
 * ROS map default), so the image is used as the floor's map at once; the upload panel says so.
 */
export const DEFAULT_MAP_RESOLUTION = 0.05;

/** Floors of a building and their map images (stored through the file store). */
/** The metric frame of a map image: metres per pixel and the bottom-left pixel's position. */
export interface MapFrame {
  resolution: number;
  originX: number;
  originY: number;
}

/** The stored image URL becomes a signed one, so `<img src>` works without a bearer header. */
function signedImage({ config, clock }: Pick<AppContext, 'config' | 'clock'>, img: string | null): string | null {
  const key = fileKeyOfUrl(config.apiBase, img);
  return key ? signFileUrl(config.secretKey, config.apiBase, key, clock()) : img;
}

/** `GET /buildings/:id/floors`: a building's floors, scoped, filtered and cached like every list. */
export function floorListService(ctx: Pick<AppContext, 'db' | 'config' | 'clock' | 'caches'>) {
  const cachedList = cachedLists(ctx.caches.lists);
  const repo = floorRepo(ctx.db);
  return {
    async list(p: Principal, buildingId: number, rawFilter: string | undefined): Promise<ListAnswer> {
      const f = parseFilter(rawFilter, floorFilter);
      // Another tenant's building is "not found", not "forbidden": its existence is not disclosed.
      await buildingInScope(ctx.db, p, buildingId);
      return cachedList(`floors:${buildingId}`, p, rawFilter, floorListSchema, async () => {
        const { rows, total } = await repo.list(buildingId, f);
        const items = rows.map((r) => {
          // A new object per row: set the signed image on it (no spread per row).
          const row = toApiRow(r, floorFilter, f.fields);
          if ('img' in row) row.img = signedImage(ctx, r.img);
          return row;
        });
        return { items, total };
      });
    },
  };
}

export function floorService({ db, clock, audit, config, fileStore }: Ctx) {
  const record = recorder(audit);
  const repo = floorRepo(db);

  async function find(p: Principal, id: number) {
    return assertRowInScope(p, await repo.find(id), 'Floor');
  }

  function toDetail(r: FloorRow): FloorDetail {
    return {
      ...camelRow(r, [
        'id',
        'name',
        'building_id',
        'organization_id',
        'index',
        'img_width',
        'img_height',
        'ugomap',
        'resolution',
        'origin_x',
        'origin_y',
        'created_at',
        'updated_at',
      ]),
      type: r.type as FloorDetail['type'],
      img: signedImage({ config, clock }, r.img),
    };
  }

  const columns = (body: FloorInput) => ({
    name: body.name.trim(),
    type: body.type,
    index: body.index,
    resolution: body.resolution,
    origin_x: body.originX,
    origin_y: body.originY,
  });

  /**
   * Replaces (or clears) the floor's image; the previous file is deleted once committed. `frame`:
   * the image's metric frame when it comes with one (a map a robot made, or the default resolution an
   * upload gives a floor without one); an upload otherwise keeps the floor's.
   */
  async function setImage(
    p: Principal,
    floor: FloorRow,
    image: { key: string; width: number; height: number; frame?: MapFrame; detail?: Record<string, unknown> } | null,
    ip: string,
  ): Promise<void> {
    const previous = fileKeyOfUrl(config.apiBase, floor.img);
    const frame = image?.frame;
    await db.transaction().execute(async (trx) => {
      await floorRepo(trx).update(floor.id, {
        img: image ? `${config.apiBase}/files/${image.key}` : null,
        img_width: image?.width ?? null,
        img_height: image?.height ?? null,
        ...(frame ? { resolution: frame.resolution, origin_x: frame.originX, origin_y: frame.originY } : {}),
        updated_at: nextVersion(clock(), floor.updated_at),
      });
      if (previous) await fileStore.removeRow(previous, trx);
      await record(
        p,
        ip,
        image ? 'floor.map-image' : 'floor.map-image.delete',
        { type: 'floor', id: floor.id },
        image ? { file: image.key, width: image.width, height: image.height, ...frame, ...image.detail } : undefined,
        trx,
      );
    });
    if (previous) await fileStore.discard(previous);
  }

  /** Stores the bytes and makes them the floor's image; the stored file is removed if that fails. */
  async function storeImage(
    p: Principal,
    floor: FloorRow,
    file: { bytes: Buffer; contentType: string; width: number; height: number },
    extra: { frame?: MapFrame; detail?: Record<string, unknown> },
    ip: string,
  ): Promise<void> {
    const stored = await fileStore.save({
      bytes: file.bytes,
      contentType: file.contentType,
      organizationId: floor.organization_id,
      buildingId: floor.building_id,
      purpose: 'floor-map',
    });
    try {
      await setImage(p, floor, { key: stored.key, width: file.width, height: file.height, ...extra }, ip);
    } catch (err) {
      await fileStore.removeRow(stored.key).catch(() => undefined);
      await fileStore.discard(stored.key);
      throw err;
    }
  }

  return {
    async get(p: Principal, id: number): Promise<FloorDetail> {
      return toDetail(await find(p, id));
    },

    async create(p: Principal, buildingId: number, body: FloorInput, ip: string): Promise<FloorDetail> {
      requireManager(p);
      const b = await buildingInScope(db, p, buildingId);
      const now = clock().toISOString();
      const id = await db.transaction().execute(async (trx) => {
        const floorId = await floorRepo(trx).insert({
          ...columns(body),
          organization_id: b.organizationId,
          building_id: b.id,
          img: null,
          ugomap: null,
          img_width: null,
          img_height: null,
          created_at: now,
          updated_at: now,
        });
        await record(p, ip, 'floor.create', { type: 'floor', id: floorId }, { buildingId: b.id, name: body.name }, trx);
        return floorId;
      });
      return toDetail(await find(p, id));
    },

    async update(p: Principal, id: number, body: FloorInput & { updatedAt: string }, ip: string): Promise<FloorDetail> {
      requireManager(p);
      await find(p, id);
      await db.transaction().execute(async (trx) => {
        const written = await floorRepo(trx).updateVersioned(id, body.updatedAt, {
          ...columns(body),
          updated_at: nextVersion(clock(), body.updatedAt),
        });
        await expectVersioned(
          written,
          'floor',
          async () => (await floorRepo(trx).find(id)) !== undefined,
          () => notFound('Floor'),
        );
        await record(p, ip, 'floor.update', { type: 'floor', id }, undefined, trx);
      });
      return toDetail(await find(p, id));
    },

    async remove(p: Principal, id: number, ip: string): Promise<void> {
      requireManager(p);
      const floor = await find(p, id);
      const robots = await liveRobotCount(db, { floorId: id });
      if (robots > 0) {
        throw new AppError('IN_USE', `The floor cannot be deleted: it is the initial floor of ${robots} robots`, [
          { path: 'robots', message: 'validation.inUse', code: String(robots) },
        ]);
      }
      const image = fileKeyOfUrl(config.apiBase, floor.img);
      await db.transaction().execute(async (trx) => {
        await purgeDeletedRobots(trx, { floorId: id });
        await floorRepo(trx).remove(id);
        if (image) await fileStore.removeRow(image, trx);
        await record(p, ip, 'floor.delete', { type: 'floor', id }, { name: floor.name }, trx);
      });
      if (image) await fileStore.discard(image);
    },

    /**
     * PNG or JPEG, judged by the bytes; the size comes from the image header. Permission and scope
     * are checked before the upload is read.
     */
    async setMapImage(p: Principal, id: number, read: () => Promise<Upload>, ip: string): Promise<FloorDetail> {
      requireManager(p);
      const floor = await find(p, id);
      const upload = await read();
      if (upload.bytes.length > MAP_IMAGE_MAX_BYTES) throw tooLarge();
      const header = readImageHeader(upload.bytes);
      if (!header || !(MAP_IMAGE_TYPES as readonly string[]).includes(upload.declaredType)) throw unsupported();
      if (!withinImageLimits(header)) throw tooManyPixels(header);
      // Without a resolution the image would not be used as a map: the common ROS default until changed.
      const frame: MapFrame | undefined =
        floor.resolution === null
          ? { resolution: DEFAULT_MAP_RESOLUTION, originX: floor.origin_x ?? 0, originY: floor.origin_y ?? 0 }
          : undefined;
      await storeImage(p, floor, { bytes: upload.bytes, ...header }, frame ? { frame } : {}, ip);
      return toDetail(await find(p, id));
    },

    /** A map image made elsewhere (a robot's map), with its metric frame: replaces the floor's image. */
    async setGeneratedMapImage(
      p: Principal,
      id: number,
      png: { bytes: Buffer; width: number; height: number },
      frame: MapFrame,
      detail: Record<string, unknown>,
      ip: string,
    ): Promise<void> {
      requireManager(p);
      const floor = await find(p, id);
      await storeImage(p, floor, { ...png, contentType: 'image/png' }, { frame, detail }, ip);
    },

    async deleteMapImage(p: Principal, id: number, ip: string): Promise<void> {
      requireManager(p);
      const floor = await find(p, id);
      await setImage(p, floor, null, ip);
    },
  };
}

export const tooLarge = () =>
  new AppError(
    'PAYLOAD_TOO_LARGE',
    `The map image is larger than ${MAP_IMAGE_MAX_BYTES / 1024 / 1024} MB; make it smaller and try again`,
    [{ path: 'file', message: 'validation.fileTooLarge' }],
  );
