import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import { floorOps } from '@portal/contract';
import type { AppContext } from '../../context.ts';
import { AppError } from '../../lib/errors.ts';
import { routes } from '../../lib/route.ts';
import { principalOf } from '../../plugins/auth.ts';
import { floorListService, floorService, tooLarge, type Upload } from './floor-service.ts';

/** The one file of a multipart upload, in the field `file`; transport problems become client errors. */
async function readUpload(req: FastifyRequest): Promise<Upload> {
  if (!req.isMultipart()) {
    throw new AppError('UNSUPPORTED_FILE_TYPE', 'Send the image as multipart/form-data in a field named "file"');
  }
  const missing = () =>
    new AppError('VALIDATION_FAILED', 'Send the image in a field named "file"', [
      { path: 'file', message: 'validation.required' },
    ]);
  try {
    const part = await req.file();
    if (!part || part.fieldname !== 'file') throw missing();
    const bytes = await part.toBuffer();
    return { bytes, declaredType: part.mimetype };
  } catch (err) {
    if (err instanceof AppError) throw err;
    const e = err as { code?: string; statusCode?: number };
    if (e.code === 'FST_REQ_FILE_TOO_LARGE' || e.statusCode === 413) throw tooLarge();
    throw new AppError('VALIDATION_FAILED', 'The upload could not be read', [
      { path: 'file', message: 'validation.invalid' },
    ]);
  }
}

/** Floors of a building and their map images. */
export const floorRoutes: FastifyPluginAsync<{ ctx: AppContext }> = async (app, { ctx }) => {
  const floors = floorService(ctx);
  const lists = floorListService(ctx);

  routes(app, floorOps, {
    listFloors: async (req) => lists.list(principalOf(req), req.params.id, req.query.filter),
    getFloor: async (req) => floors.get(principalOf(req), req.params.id),
    createFloor: async (req) => floors.create(principalOf(req), req.params.id, req.body, req.ip),
    updateFloor: async (req) => floors.update(principalOf(req), req.params.id, req.body, req.ip),
    deleteFloor: async (req) => floors.remove(principalOf(req), req.params.id, req.ip),
    uploadFloorMapImage: async (req) =>
      floors.setMapImage(principalOf(req), req.params.id, () => readUpload(req), req.ip),
    deleteFloorMapImage: async (req) => floors.deleteMapImage(principalOf(req), req.params.id, req.ip),
  });
};
