import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  createOperatorBodySchema,
  errorBodySchema,
  operatorListSchema,
  operatorSchema,
  updateOperatorBodySchema,
} from '@portal/contract';
import type { AppContext } from '../../context.ts';
import { principalOf } from '../../plugins/auth.ts';
import { sendList } from '../../lib/list-answer.ts';
import { operatorService } from './operator-service.ts';

const idParams = z.object({ id: z.coerce.number().int().min(1).max(2_147_483_647) });
const filterQuery = z.object({ filter: z.string().max(10_000).optional() });
const errors = { '4xx': errorBodySchema };

/** Operator management (data management): organization and system administrators only. */
export const operatorRoutes: FastifyPluginAsyncZod<{ ctx: AppContext }> = async (app, { ctx }) => {
  const operators = operatorService(ctx);
  const tags = ['operators'];
  const config = { access: 'admin' as const };

  app.get(
    '/operators',
    {
      config,
      schema: {
        operationId: 'listOperators',
        tags,
        querystring: filterQuery,
        response: { 200: operatorListSchema, ...errors },
      },
    },
    async (req, reply) => {
      return sendList(reply, await operators.list(principalOf(req), req.query.filter));
    },
  );
  app.get(
    '/operators/:id',
    {
      config,
      schema: { operationId: 'getOperator', tags, params: idParams, response: { 200: operatorSchema, ...errors } },
    },
    async (req) => operators.get(principalOf(req), req.params.id),
  );
  app.post(
    '/operators',
    {
      config,
      schema: {
        operationId: 'createOperator',
        tags,
        body: createOperatorBodySchema,
        response: { 201: operatorSchema, ...errors },
      },
    },
    async (req, reply) => reply.code(201).send(await operators.create(principalOf(req), req.body, req.ip)),
  );
  app.patch(
    '/operators/:id',
    {
      config,
      schema: {
        operationId: 'updateOperator',
        tags,
        params: idParams,
        body: updateOperatorBodySchema,
        response: { 200: operatorSchema, ...errors },
      },
    },
    async (req) => operators.update(principalOf(req), req.params.id, req.body, req.ip),
  );
  app.delete(
    '/operators/:id',
    {
      config,
      schema: { operationId: 'deleteOperator', tags, params: idParams, response: { 204: z.null(), ...errors } },
    },
    async (req, reply) => {
      await operators.remove(principalOf(req), req.params.id, req.ip);
      return reply.code(204).send(null);
    },
  );
  app.post(
    '/operators/:id/lock',
    {
      config,
      schema: { operationId: 'lockOperator', tags, params: idParams, response: { 200: operatorSchema, ...errors } },
    },
    async (req) => operators.lock(principalOf(req), req.params.id, req.ip),
  );
  app.post(
    '/operators/:id/unlock',
    {
      config,
      schema: { operationId: 'unlockOperator', tags, params: idParams, response: { 200: operatorSchema, ...errors } },
    },
    async (req) => operators.unlock(principalOf(req), req.params.id, req.ip),
  );
  app.post(
    '/operators/:id/force-password-change',
    {
      config,
      schema: {
        operationId: 'forcePasswordChange',
        tags,
        params: idParams,
        response: { 200: operatorSchema, ...errors },
      },
    },
    async (req) => operators.forcePasswordChange(principalOf(req), req.params.id, req.ip),
  );
};
