import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  createdRobotSchema,
  errorBodySchema,
  fleetRobotSchema,
  pendingRobotSchema,
  robotCommandBodySchema,
  robotCredentialsSchema,
  robotInputSchema,
  robotSchema,
  robotSettingChangeSchema,
  updateRobotBodySchema,
} from '@portal/contract';
import type { AppContext } from '../../context.ts';
import { principalOf } from '../../plugins/auth.ts';
import { sendList } from '../../lib/list-answer.ts';
import { robotService } from './robot-service.ts';

const dbId = z.coerce.number().int().min(1).max(2_147_483_647);
const idParams = z.object({ id: dbId });
const filterQuery = z.object({ filter: z.string().max(10_000).optional() });
const fleetQuery = z.object({ buildingId: dbId.optional() });
const errors = { '4xx': errorBodySchema };
const noContent = { 204: z.null(), ...errors };

/**
 * The robot registry (docs/api-robots.md, docs/decisions/0004-robot-roles.md). Reading and commands
 * for any operator within scope; registering, changing, deleting and issuing credentials for
 * organization and system administrators (`access: 'admin'` stops general operators, the service
 * area managers); robots awaiting registration for system administrators.
 */
export const robotRoutes: FastifyPluginAsyncZod<{ ctx: AppContext }> = async (app, { ctx }) => {
  const robots = robotService(ctx);
  const tags = ['robots'];
  const write = { access: 'admin' as const };
  const system = { access: 'system' as const };

  app.get(
    '/robots',
    {
      schema: {
        operationId: 'listRobots',
        tags,
        querystring: filterQuery,
        response: { 200: z.array(robotSchema), ...errors },
      },
    },
    async (req, reply) => sendList(reply, await robots.list(principalOf(req), req.query.filter)),
  );
  // Static paths before `/robots/:id` (the router prefers them anyway; ids are numeric).
  app.get(
    '/robots/fleet',
    {
      schema: {
        operationId: 'listFleet',
        tags,
        querystring: fleetQuery,
        response: { 200: z.array(fleetRobotSchema), ...errors },
      },
    },
    async (req) => robots.fleet(principalOf(req), req.query.buildingId),
  );
  app.get(
    '/robots/pending',
    {
      config: system,
      schema: { operationId: 'listPendingRobots', tags, response: { 200: z.array(pendingRobotSchema), ...errors } },
    },
    async () => robots.pending(),
  );
  app.delete(
    '/robots/pending/:id',
    { config: system, schema: { operationId: 'deletePendingRobot', tags, params: idParams, response: noContent } },
    async (req, reply) => {
      await robots.dismissPending(principalOf(req), req.params.id, req.ip);
      return reply.code(204).send(null);
    },
  );
  app.post(
    '/robots',
    {
      config: write,
      schema: {
        operationId: 'createRobot',
        tags,
        body: robotInputSchema,
        response: { 201: createdRobotSchema, ...errors },
      },
    },
    async (req, reply) => reply.code(201).send(await robots.create(principalOf(req), req.body, req.ip)),
  );
  app.get(
    '/robots/:id',
    { schema: { operationId: 'getRobot', tags, params: idParams, response: { 200: robotSchema, ...errors } } },
    async (req) => robots.get(principalOf(req), req.params.id),
  );
  app.put(
    '/robots/:id',
    {
      config: write,
      schema: {
        operationId: 'updateRobot',
        tags,
        params: idParams,
        body: updateRobotBodySchema,
        response: { 200: robotSchema, ...errors },
      },
    },
    async (req) => robots.update(principalOf(req), req.params.id, req.body, req.ip),
  );
  app.delete(
    '/robots/:id',
    { config: write, schema: { operationId: 'deleteRobot', tags, params: idParams, response: noContent } },
    async (req, reply) => {
      await robots.remove(principalOf(req), req.params.id, req.ip);
      return reply.code(204).send(null);
    },
  );
  app.post(
    '/robots/:id/credentials',
    {
      config: write,
      schema: {
        operationId: 'rotateRobotCredentials',
        tags,
        params: idParams,
        response: { 200: robotCredentialsSchema, ...errors },
      },
    },
    async (req) => robots.rotateCredentials(principalOf(req), req.params.id, req.ip),
  );
  app.get(
    '/robots/:id/setting-history',
    {
      schema: {
        operationId: 'listRobotSettingHistory',
        tags,
        params: idParams,
        querystring: filterQuery,
        response: { 200: z.array(robotSettingChangeSchema), ...errors },
      },
    },
    async (req, reply) =>
      sendList(reply, await robots.settingHistory(principalOf(req), req.params.id, req.query.filter)),
  );
  app.post(
    '/robots/:id/commands',
    {
      schema: {
        operationId: 'sendRobotCommand',
        tags,
        params: idParams,
        body: robotCommandBodySchema,
        response: { 202: z.object({ ok: z.literal(true) }), ...errors },
      },
    },
    async (req, reply) => {
      await robots.command(principalOf(req), req.params.id, req.body.command, req.ip);
      return reply.code(202).send({ ok: true as const });
    },
  );
};
