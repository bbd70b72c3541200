import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  errorBodySchema,
  floorMapSchema,
  gotoBodySchema,
  mapRevisionSummarySchema,
  navigationOrderSchema,
  saveFloorMapBodySchema,
  trialRunBodySchema,
  waypointInputSchema,
  waypointSchema,
} from '@portal/contract';
import type { AppContext } from '../../context.ts';
import { principalOf } from '../../plugins/auth.ts';
import { MAP_REVISIONS_MAX, mapService } from './map-service.ts';
import { navigationService } from './navigation-service.ts';

const dbId = z.coerce.number().int().min(1).max(2_147_483_647);
const idParams = z.object({ id: dbId });
const revisionParams = z.object({ id: dbId, rev: dbId });
const floorParams = z.object({ floorId: dbId });
const waypointParams = z.object({ floorId: dbId, id: dbId });
const revisionsQuery = z.object({ limit: z.coerce.number().int().min(1).max(MAP_REVISIONS_MAX).default(100) });
const errors = { '4xx': errorBodySchema };
/** A whole map document can be large (recorded paths); other bodies keep the app's 1 MB limit. */
const MAP_BODY_LIMIT = 16 * 1024 * 1024;

/**
 * Floor maps, their revisions, the waypoint API (spec `/waypoint/{mapId}/...`, mapId = floor id)
 * and driving over the route graph (docs/api-maps.md). Writes to maps are for organization and
 * system administrators (`access: 'admin'` stops general operators, the service area managers).
 */
export const mapRoutes: FastifyPluginAsyncZod<{ ctx: AppContext }> = async (app, { ctx }) => {
  const maps = mapService(ctx);
  const navigation = navigationService(ctx, maps);
  const tags = ['maps'];
  const write = { access: 'admin' as const };

  app.get(
    '/floors/:id/map',
    { schema: { operationId: 'getFloorMap', tags, params: idParams, response: { 200: floorMapSchema, ...errors } } },
    async (req) => maps.get(principalOf(req), req.params.id),
  );
  app.put(
    '/floors/:id/map',
    {
      config: write,
      bodyLimit: MAP_BODY_LIMIT,
      schema: {
        operationId: 'saveFloorMap',
        tags,
        params: idParams,
        body: saveFloorMapBodySchema,
        response: { 200: floorMapSchema, ...errors },
      },
    },
    async (req) => maps.save(principalOf(req), req.params.id, req.body, req.ip),
  );
  app.get(
    '/floors/:id/map/revisions',
    {
      schema: {
        operationId: 'listFloorMapRevisions',
        tags,
        params: idParams,
        querystring: revisionsQuery,
        response: { 200: z.array(mapRevisionSummarySchema), ...errors },
      },
    },
    async (req) => maps.revisions(principalOf(req), req.params.id, req.query.limit),
  );
  app.get(
    '/floors/:id/map/revisions/:rev',
    {
      schema: {
        operationId: 'getFloorMapRevision',
        tags,
        params: revisionParams,
        response: { 200: floorMapSchema, ...errors },
      },
    },
    async (req) => maps.revision(principalOf(req), req.params.id, req.params.rev),
  );
  app.post(
    '/floors/:id/map/revisions/:rev/restore',
    {
      config: write,
      schema: {
        operationId: 'restoreFloorMapRevision',
        tags,
        params: revisionParams,
        response: { 200: floorMapSchema, ...errors },
      },
    },
    async (req) => maps.restore(principalOf(req), req.params.id, req.params.rev, req.ip),
  );

  // ---------------------------------------------------------------- waypoints
  app.get(
    '/maps/:floorId/waypoints',
    {
      schema: {
        operationId: 'listWaypoints',
        tags,
        params: floorParams,
        response: { 200: z.array(waypointSchema), ...errors },
      },
    },
    async (req) => maps.waypoints(principalOf(req), req.params.floorId),
  );
  app.post(
    '/maps/:floorId/waypoints',
    {
      config: write,
      schema: {
        operationId: 'createWaypoint',
        tags,
        params: floorParams,
        body: waypointInputSchema,
        response: { 201: waypointSchema, ...errors },
      },
    },
    async (req, reply) =>
      reply.code(201).send(await maps.createWaypoint(principalOf(req), req.params.floorId, req.body, req.ip)),
  );
  app.get(
    '/maps/:floorId/waypoints/:id',
    {
      schema: {
        operationId: 'getWaypoint',
        tags,
        params: waypointParams,
        response: { 200: waypointSchema, ...errors },
      },
    },
    async (req) => maps.waypoint(principalOf(req), req.params.floorId, req.params.id),
  );
  app.put(
    '/maps/:floorId/waypoints/:id',
    {
      config: write,
      schema: {
        operationId: 'updateWaypoint',
        tags,
        params: waypointParams,
        body: waypointInputSchema,
        response: { 200: waypointSchema, ...errors },
      },
    },
    async (req) => maps.updateWaypoint(principalOf(req), req.params.floorId, req.params.id, req.body, req.ip),
  );
  app.delete(
    '/maps/:floorId/waypoints/:id',
    {
      config: write,
      schema: { operationId: 'deleteWaypoint', tags, params: waypointParams, response: { 204: z.null(), ...errors } },
    },
    async (req, reply) => {
      await maps.deleteWaypoint(principalOf(req), req.params.floorId, req.params.id, req.ip);
      return reply.code(204).send(null);
    },
  );

  // ---------------------------------------------------------------- driving over the graph
  app.post(
    '/robots/:id/goto',
    {
      schema: {
        operationId: 'gotoWaypoint',
        tags: ['robots', ...tags],
        params: idParams,
        body: gotoBodySchema,
        response: { 202: navigationOrderSchema, ...errors },
      },
    },
    async (req, reply) =>
      reply.code(202).send(await navigation.goto(principalOf(req), req.params.id, req.body, req.ip)),
  );
  app.post(
    '/robots/:id/trial-run',
    {
      schema: {
        operationId: 'trialRunRoute',
        tags: ['robots', ...tags],
        params: idParams,
        body: trialRunBodySchema,
        response: { 202: navigationOrderSchema, ...errors },
      },
    },
    async (req, reply) =>
      reply.code(202).send(await navigation.trialRun(principalOf(req), req.params.id, req.body, req.ip)),
  );
};
