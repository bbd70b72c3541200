import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  buildingInputSchema,
  buildingLinksBodySchema,
  buildingLinksSchema,
  buildingSchema,
  errorBodySchema,
  ipRestrictionBodySchema,
  ipRestrictionSchema,
  ipRuleInputSchema,
  ipRuleSchema,
  speechTextInputSchema,
  speechTextSchema,
  updateBuildingBodySchema,
} from '@portal/contract';
import type { AppContext } from '../../context.ts';
import { principalOf } from '../../plugins/auth.ts';
import { buildingService } from './building-service.ts';
import { groupRoutes } from './group-routes.ts';
import { ipRestrictionService } from './ip-restriction-service.ts';
import { linksService } from './links-service.ts';
import { speechTextService } from './speech-text-service.ts';

const idParams = z.object({ id: z.coerce.number().int().min(1).max(2_147_483_647) });
const errors = { '4xx': errorBodySchema };
const noContent = { 204: z.null(), ...errors };

/**
 * Buildings and their sections: groups, speech texts, IP restriction, system links. Reading is for
 * any operator within scope; writing for organization administrators and system administrators
 * (`access: 'admin'` stops general operators, the services stop area managers).
 */
export const buildingRoutes: FastifyPluginAsyncZod<{ ctx: AppContext }> = async (app, { ctx }) => {
  const buildings = buildingService(ctx);
  const speech = speechTextService(ctx);
  const ipRestriction = ipRestrictionService(ctx);
  const links = linksService(ctx);
  const tags = ['buildings'];
  const write = { access: 'admin' as const };

  app.get(
    '/buildings/:id',
    { schema: { operationId: 'getBuilding', tags, params: idParams, response: { 200: buildingSchema, ...errors } } },
    async (req) => buildings.get(principalOf(req), req.params.id),
  );
  app.post(
    '/buildings',
    {
      config: write,
      schema: {
        operationId: 'createBuilding',
        tags,
        body: buildingInputSchema,
        response: { 201: buildingSchema, ...errors },
      },
    },
    async (req, reply) => reply.code(201).send(await buildings.create(principalOf(req), req.body, req.ip)),
  );
  app.patch(
    '/buildings/:id',
    {
      config: write,
      schema: {
        operationId: 'updateBuilding',
        tags,
        params: idParams,
        body: updateBuildingBodySchema,
        response: { 200: buildingSchema, ...errors },
      },
    },
    async (req) => buildings.update(principalOf(req), req.params.id, req.body, req.ip),
  );
  app.delete(
    '/buildings/:id',
    { config: write, schema: { operationId: 'deleteBuilding', tags, params: idParams, response: noContent } },
    async (req, reply) => {
      await buildings.remove(principalOf(req), req.params.id, req.ip);
      return reply.code(204).send(null);
    },
  );

  await app.register(groupRoutes, { ctx, kind: 'robot-group' });
  await app.register(groupRoutes, { ctx, kind: 'flow-group' });

  app.get(
    '/buildings/:id/speech-texts',
    {
      schema: {
        operationId: 'listSpeechTexts',
        tags,
        params: idParams,
        response: { 200: z.array(speechTextSchema), ...errors },
      },
    },
    async (req) => speech.list(principalOf(req), req.params.id),
  );
  app.post(
    '/buildings/:id/speech-texts',
    {
      config: write,
      schema: {
        operationId: 'createSpeechText',
        tags,
        params: idParams,
        body: speechTextInputSchema,
        response: { 201: speechTextSchema, ...errors },
      },
    },
    async (req, reply) => reply.code(201).send(await speech.create(principalOf(req), req.params.id, req.body, req.ip)),
  );
  app.patch(
    '/speech-texts/:id',
    {
      config: write,
      schema: {
        operationId: 'updateSpeechText',
        tags,
        params: idParams,
        body: speechTextInputSchema,
        response: { 200: speechTextSchema, ...errors },
      },
    },
    async (req) => speech.update(principalOf(req), req.params.id, req.body, req.ip),
  );
  app.delete(
    '/speech-texts/:id',
    { config: write, schema: { operationId: 'deleteSpeechText', tags, params: idParams, response: noContent } },
    async (req, reply) => {
      await speech.remove(principalOf(req), req.params.id, req.ip);
      return reply.code(204).send(null);
    },
  );

  app.get(
    '/buildings/:id/ip-restriction',
    {
      schema: {
        operationId: 'getIpRestriction',
        tags,
        params: idParams,
        response: { 200: ipRestrictionSchema, ...errors },
      },
    },
    async (req) => ipRestriction.get(principalOf(req), req.params.id, req.ip),
  );
  app.put(
    '/buildings/:id/ip-restriction',
    {
      config: write,
      schema: {
        operationId: 'setIpRestriction',
        tags,
        params: idParams,
        body: ipRestrictionBodySchema,
        response: { 200: ipRestrictionSchema, ...errors },
      },
    },
    async (req) => ipRestriction.setEnabled(principalOf(req), req.params.id, req.body.enabled, req.ip),
  );
  app.post(
    '/buildings/:id/ip-rules',
    {
      config: write,
      schema: {
        operationId: 'createIpRule',
        tags,
        params: idParams,
        body: ipRuleInputSchema,
        response: { 201: ipRuleSchema, ...errors },
      },
    },
    async (req, reply) =>
      reply.code(201).send(await ipRestriction.addRule(principalOf(req), req.params.id, req.body, req.ip)),
  );
  app.delete(
    '/ip-rules/:id',
    { config: write, schema: { operationId: 'deleteIpRule', tags, params: idParams, response: noContent } },
    async (req, reply) => {
      await ipRestriction.removeRule(principalOf(req), req.params.id, req.ip);
      return reply.code(204).send(null);
    },
  );

  app.get(
    '/buildings/:id/links',
    {
      schema: {
        operationId: 'getBuildingLinks',
        tags,
        params: idParams,
        response: { 200: buildingLinksSchema, ...errors },
      },
    },
    async (req) => links.get(principalOf(req), req.params.id),
  );
  app.put(
    '/buildings/:id/links',
    {
      config: write,
      schema: {
        operationId: 'updateBuildingLinks',
        tags,
        params: idParams,
        body: buildingLinksBodySchema,
        response: { 200: buildingLinksSchema, ...errors },
      },
    },
    async (req) => links.update(principalOf(req), req.params.id, req.body, req.ip),
  );
};
