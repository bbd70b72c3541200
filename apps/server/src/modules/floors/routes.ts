import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { FastifyRequest } from 'fastify';
import { z } from 'zod';
import { errorBodySchema, floorDetailSchema, floorInputSchema, updateFloorBodySchema } from '@portal/contract';
import type { AppContext } from '../../context.ts';
import { AppError } from '../../lib/errors.ts';
import { principalOf } from '../../plugins/auth.ts';
import { floorService, tooLarge, type Upload } from './floor-service.ts';

const idParams = z.object({ id: z.coerce.number().int().min(1).max(2_147_483_647) });
const errors = { '4xx': errorBodySchema };

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

/** Floors and their map images. Lists of a building's floors are in the directory module. */
export const floorRoutes: FastifyPluginAsyncZod<{ ctx: AppContext }> = async (app, { ctx }) => {
  const floors = floorService(ctx);
  const tags = ['floors'];
  const write = { access: 'admin' as const };

  app.get(
    '/floors/:id',
    { schema: { operationId: 'getFloor', tags, params: idParams, response: { 200: floorDetailSchema, ...errors } } },
    async (req) => floors.get(principalOf(req), req.params.id),
  );
  app.post(
    '/buildings/:id/floors',
    {
      config: write,
      schema: {
        operationId: 'createFloor',
        tags,
        params: idParams,
        body: floorInputSchema,
        response: { 201: floorDetailSchema, ...errors },
      },
    },
    async (req, reply) => reply.code(201).send(await floors.create(principalOf(req), req.params.id, req.body, req.ip)),
  );
  app.patch(
    '/floors/:id',
    {
      config: write,
      schema: {
        operationId: 'updateFloor',
        tags,
        params: idParams,
        body: updateFloorBodySchema,
        response: { 200: floorDetailSchema, ...errors },
      },
    },
    async (req) => floors.update(principalOf(req), req.params.id, req.body, req.ip),
  );
  app.delete(
    '/floors/:id',
    {
      config: write,
      schema: { operationId: 'deleteFloor', tags, params: idParams, response: { 204: z.null(), ...errors } },
    },
    async (req, reply) => {
      await floors.remove(principalOf(req), req.params.id, req.ip);
      return reply.code(204).send(null);
    },
  );
  app.put(
    '/floors/:id/map-image',
    {
      config: write,
      schema: {
        operationId: 'uploadFloorMapImage',
        tags,
        description: 'multipart/form-data with one file field `file` (PNG or JPEG, at most 10 MB)',
        consumes: ['multipart/form-data'],
        params: idParams,
        response: { 200: floorDetailSchema, ...errors },
      },
    },
    async (req) => floors.setMapImage(principalOf(req), req.params.id, () => readUpload(req), req.ip),
  );
  app.delete(
    '/floors/:id/map-image',
    {
      config: write,
      schema: { operationId: 'deleteFloorMapImage', tags, params: idParams, response: { 204: z.null(), ...errors } },
    },
    async (req, reply) => {
      await floors.deleteMapImage(principalOf(req), req.params.id, req.ip);
      return reply.code(204).send(null);
    },
  );
};
