import type { FastifyPluginAsync, FastifyReply } from 'fastify';
import { validatorCompiler } from 'fastify-type-provider-zod';
import { mapOps } from '@portal/contract';
import type { AppContext } from '../../context.ts';
import { principalOf } from '../../plugins/auth.ts';
import { AppError } from '../../lib/errors.ts';
import { route, routes } from '../../lib/route.ts';
import { mapService } from './map-service.ts';
import type { ControlsLock } from '../teleop/controls.ts';
import { navigationService } from './navigation-service.ts';

/** A whole map document can be large (recorded paths); other bodies keep the app's 1 MB limit. */
const MAP_BODY_LIMIT = 16 * 1024 * 1024;

/** A floor map answered as the JSON text the service wrote (its stored document is not parsed again). */
async function sendJson(reply: FastifyReply, text: Promise<string>): Promise<void> {
  const body = await text;
  await reply.type('application/json; charset=utf-8').send(body);
}

/**
 * Floor maps, their revisions, the waypoint API (spec `/waypoint/{mapId}/...`, mapId = floor id)
 * and driving over the route graph (docs/api-maps.md).
 */
export const mapRoutes: FastifyPluginAsync<{ ctx: AppContext; teleop: ControlsLock }> = async (
  app,
  { ctx, teleop },
) => {
  const maps = mapService(ctx);
  const navigation = navigationService(ctx, maps, teleop);
  const { saveFloorMap, ...others } = mapOps;

  routes(app, others, {
    getFloorMap: (req, reply) => sendJson(reply, maps.getText(principalOf(req), req.params.id)),
    listFloorMapRevisions: async (req) => maps.revisions(principalOf(req), req.params.id, req.query.limit),
    getFloorMapRevision: (req, reply) =>
      sendJson(reply, maps.revisionText(principalOf(req), req.params.id, req.params.rev)),
    restoreFloorMapRevision: (req, reply) =>
      sendJson(reply, maps.restoreText(principalOf(req), req.params.id, req.params.rev, req.ip)),

    listWaypoints: async (req) => maps.waypoints(principalOf(req), req.params.floorId),
    createWaypoint: async (req) => maps.createWaypoint(principalOf(req), req.params.floorId, req.body, req.ip),
    getWaypoint: async (req) => maps.waypoint(principalOf(req), req.params.floorId, req.params.id),
    updateWaypoint: async (req) =>
      maps.updateWaypoint(principalOf(req), req.params.floorId, req.params.id, req.body, req.ip),
    deleteWaypoint: async (req) => maps.deleteWaypoint(principalOf(req), req.params.floorId, req.params.id, req.ip),

    gotoWaypoint: async (req) => navigation.goto(principalOf(req), req.params.id, req.body, req.ip),
    trialRunRoute: async (req) => navigation.trialRun(principalOf(req), req.params.id, req.body, req.ip),
  });

  // Saving a map (issue 11): its JSON body, megabytes with recorded paths, reaches the service as bytes,
  // parsed and checked against the contract on the worker thread (map-document-text.ts) instead of by
  // Fastify on the main thread. The body schema stays on the route for the API description.
  await app.register(async (scoped) => {
    scoped.addContentTypeParser(
      'application/json',
      { parseAs: 'buffer', bodyLimit: MAP_BODY_LIMIT },
      (_req, body, done) => done(null, body),
    );
    scoped.setValidatorCompiler((req) =>
      req.httpPart === 'body'
        ? (data) => ({ value: data })
        : validatorCompiler(req as unknown as Parameters<typeof validatorCompiler>[0]),
    );
    route(
      scoped,
      saveFloorMap,
      (req, reply) => {
        // Only the JSON parser above hands over bytes; a text/plain body is not a map.
        if (!Buffer.isBuffer(req.body)) {
          throw new AppError('VALIDATION_FAILED', 'Send the map as application/json', [
            { path: 'body', message: 'validation.invalid' },
          ]);
        }
        return sendJson(reply, maps.saveText(principalOf(req), req.params.id, req.body, req.ip));
      },
      { bodyLimit: MAP_BODY_LIMIT },
    );
  });
};
