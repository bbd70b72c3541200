import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  errorBodySchema,
  groupInputSchema,
  groupSchema,
  reorderBodySchema,
  updateGroupBodySchema,
} from '@portal/contract';
import type { AppContext } from '../../context.ts';
import { principalOf } from '../../plugins/auth.ts';
import { groupService, type GroupKind } from './group-service.ts';

const idParams = z.object({ id: z.coerce.number().int().min(1).max(2_147_483_647) });
const errors = { '4xx': errorBodySchema };

/** `/robot-groups` or `/flow-groups`, and the building's list and order of them. */
export const groupRoutes: FastifyPluginAsyncZod<{ ctx: AppContext; kind: GroupKind }> = async (app, { ctx, kind }) => {
  const service = groupService(ctx, kind);
  const path = `${kind}s`;
  // operationIds: listRobotGroups, createFlowGroup, ...
  const noun = kind === 'robot-group' ? 'RobotGroup' : 'FlowGroup';
  const tags = ['buildings'];
  const write = { access: 'admin' as const };

  app.get(
    `/buildings/:id/${path}`,
    {
      schema: {
        operationId: `list${noun}s`,
        tags,
        params: idParams,
        response: { 200: z.array(groupSchema), ...errors },
      },
    },
    async (req) => service.list(principalOf(req), req.params.id),
  );
  app.post(
    `/${path}`,
    {
      config: write,
      schema: { operationId: `create${noun}`, tags, body: groupInputSchema, response: { 201: groupSchema, ...errors } },
    },
    async (req, reply) => reply.code(201).send(await service.create(principalOf(req), req.body, req.ip)),
  );
  app.get(
    `/${path}/:id`,
    { schema: { operationId: `get${noun}`, tags, params: idParams, response: { 200: groupSchema, ...errors } } },
    async (req) => service.get(principalOf(req), req.params.id),
  );
  app.patch(
    `/${path}/:id`,
    {
      config: write,
      schema: {
        operationId: `update${noun}`,
        tags,
        params: idParams,
        body: updateGroupBodySchema,
        response: { 200: groupSchema, ...errors },
      },
    },
    async (req) => service.update(principalOf(req), req.params.id, req.body, req.ip),
  );
  app.delete(
    `/${path}/:id`,
    {
      config: write,
      schema: { operationId: `delete${noun}`, tags, params: idParams, response: { 204: z.null(), ...errors } },
    },
    async (req, reply) => {
      await service.remove(principalOf(req), req.params.id, req.ip);
      return reply.code(204).send(null);
    },
  );
  app.put(
    `/buildings/:id/${path}/order`,
    {
      config: write,
      schema: {
        operationId: `reorder${noun}s`,
        tags,
        params: idParams,
        body: reorderBodySchema,
        response: { 200: z.array(groupSchema), ...errors },
      },
    },
    async (req) => service.reorder(principalOf(req), req.params.id, req.body.ids, req.ip),
  );
};
