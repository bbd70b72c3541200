import type { FastifyPluginAsync } from 'fastify';
import { mapOps } from '@portal/contract';
import type { AppContext } from '../../context.ts';
import { principalOf } from '../../plugins/auth.ts';
import { routes } from '../../lib/route.ts';
import { mapService } from './map-service.ts';
import type { ControlsLock } from '../teleop/controls.ts';
import { navigationService } from './navigation-service.ts';

/** A whole map document can be large (recorded paths); other bodies keep the app's 1 MB limit. */
const MAP_BODY_LIMIT = 16 * 1024 * 1024;

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

  routes(
    app,
    mapOps,
    {
      getFloorMap: async (req) => maps.get(principalOf(req), req.params.id),
      saveFloorMap: async (req) => maps.save(principalOf(req), req.params.id, req.body, req.ip),
      listFloorMapRevisions: async (req) => maps.revisions(principalOf(req), req.params.id, req.query.limit),
      getFloorMapRevision: async (req) => maps.revision(principalOf(req), req.params.id, req.params.rev),
      restoreFloorMapRevision: async (req) => maps.restore(principalOf(req), req.params.id, req.params.rev, req.ip),

      listWaypoints: async (req) => maps.waypoints(principalOf(req), req.params.floorId),
      createWaypoint: async (req) => maps.createWaypoint(principalOf(req), req.params.floorId, req.body, req.ip),
      getWaypoint: async (req) => maps.waypoint(principalOf(req), req.params.floorId, req.params.id),
      updateWaypoint: async (req) =>
        maps.updateWaypoint(principalOf(req), req.params.floorId, req.params.id, req.body, req.ip),
      deleteWaypoint: async (req) => maps.deleteWaypoint(principalOf(req), req.params.floorId, req.params.id, req.ip),

      gotoWaypoint: async (req) => navigation.goto(principalOf(req), req.params.id, req.body, req.ip),
      trialRunRoute: async (req) => navigation.trialRun(principalOf(req), req.params.id, req.body, req.ip),
    },
    { saveFloorMap: { bodyLimit: MAP_BODY_LIMIT } },
  );
};
