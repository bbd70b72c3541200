import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  errorBodySchema,
  poseDefInputSchema,
  poseDefSchema,
  poseNetworkInputSchema,
  poseNetworkSchema,
  updatePoseDefBodySchema,
  updatePoseNetworkBodySchema,
} from '@portal/contract';
import type { AppContext } from '../../context.ts';
import { principalOf } from '../../plugins/auth.ts';
import { sendList } from '../../lib/list-answer.ts';
import { poseService } from './pose-service.ts';

const dbId = z.coerce.number().int().min(1).max(2_147_483_647);
const idParams = z.object({ id: dbId });
const filterQuery = z.object({ filter: z.string().max(10_000).optional() });
const errors = { '4xx': errorBodySchema };
const noContent = { 204: z.null(), ...errors };

/**
 * Pose definitions and pose networks (docs/api-poses.md). Reading for anyone within scope; writing
 * for organization and system administrators (`access: 'admin'` stops general operators, the
 * service area managers).
 */
export const poseRoutes: FastifyPluginAsyncZod<{ ctx: AppContext }> = async (app, { ctx }) => {
  const poses = poseService(ctx);
  const write = { access: 'admin' as const };
  const defTags = ['pose-defs'];
  const netTags = ['pose-networks'];

  app.get(
    '/pose-defs',
    {
      schema: {
        operationId: 'listPoseDefs',
        tags: defTags,
        querystring: filterQuery,
        response: { 200: z.array(poseDefSchema), ...errors },
      },
    },
    async (req, reply) => sendList(reply, await poses.listDefs(principalOf(req), req.query.filter)),
  );
  app.post(
    '/pose-defs',
    {
      config: write,
      schema: {
        operationId: 'createPoseDef',
        tags: defTags,
        body: poseDefInputSchema,
        response: { 201: poseDefSchema, ...errors },
      },
    },
    async (req, reply) => reply.code(201).send(await poses.createDef(principalOf(req), req.body, req.ip)),
  );
  app.get(
    '/pose-defs/:id',
    {
      schema: {
        operationId: 'getPoseDef',
        tags: defTags,
        params: idParams,
        response: { 200: poseDefSchema, ...errors },
      },
    },
    async (req) => poses.getDef(principalOf(req), req.params.id),
  );
  app.put(
    '/pose-defs/:id',
    {
      config: write,
      schema: {
        operationId: 'updatePoseDef',
        tags: defTags,
        params: idParams,
        body: updatePoseDefBodySchema,
        response: { 200: poseDefSchema, ...errors },
      },
    },
    async (req) => poses.updateDef(principalOf(req), req.params.id, req.body, req.ip),
  );
  app.delete(
    '/pose-defs/:id',
    { config: write, schema: { operationId: 'deletePoseDef', tags: defTags, params: idParams, response: noContent } },
    async (req, reply) => {
      await poses.removeDef(principalOf(req), req.params.id, req.ip);
      return reply.code(204).send(null);
    },
  );

  app.get(
    '/pose-networks',
    {
      schema: {
        operationId: 'listPoseNetworks',
        tags: netTags,
        querystring: filterQuery,
        response: { 200: z.array(poseNetworkSchema), ...errors },
      },
    },
    async (req, reply) => sendList(reply, await poses.listNetworks(principalOf(req), req.query.filter)),
  );
  app.post(
    '/pose-networks',
    {
      config: write,
      schema: {
        operationId: 'createPoseNetwork',
        tags: netTags,
        body: poseNetworkInputSchema,
        response: { 201: poseNetworkSchema, ...errors },
      },
    },
    async (req, reply) => reply.code(201).send(await poses.createNetwork(principalOf(req), req.body, req.ip)),
  );
  app.get(
    '/pose-networks/:id',
    {
      schema: {
        operationId: 'getPoseNetwork',
        tags: netTags,
        params: idParams,
        response: { 200: poseNetworkSchema, ...errors },
      },
    },
    async (req) => poses.getNetwork(principalOf(req), req.params.id),
  );
  app.put(
    '/pose-networks/:id',
    {
      config: write,
      schema: {
        operationId: 'updatePoseNetwork',
        tags: netTags,
        params: idParams,
        body: updatePoseNetworkBodySchema,
        response: { 200: poseNetworkSchema, ...errors },
      },
    },
    async (req) => poses.updateNetwork(principalOf(req), req.params.id, req.body, req.ip),
  );
  app.delete(
    '/pose-networks/:id',
    {
      config: write,
      schema: { operationId: 'deletePoseNetwork', tags: netTags, params: idParams, response: noContent },
    },
    async (req, reply) => {
      await poses.removeNetwork(principalOf(req), req.params.id, req.ip);
      return reply.code(204).send(null);
    },
  );
};
