import type { FastifyPluginAsync } from 'fastify';
import { mapSessionOps } from '@portal/contract';
import type { AppContext } from '../../context.ts';
import { principalOf } from '../../plugins/auth.ts';
import { routes } from '../../lib/route.ts';
import { mapSessionService } from './session-service.ts';

/**
 * Mapping by a robot and route recording (docs/api-maps.md "Mapping and route recording"). Sessions
 * live in memory on this server (one per robot).
 */
export const mapSessionRoutes: FastifyPluginAsync<{ ctx: AppContext }> = async (app, { ctx }) => {
  const sessions = mapSessionService(ctx);
  app.addHook('onClose', async () => sessions.close());

  routes(app, mapSessionOps, {
    getMapSession: async (req) => sessions.get(principalOf(req), req.params.id),

    startMapping: async (req) => sessions.startMapping(principalOf(req), req.params.id, req.body.floorId, req.ip),
    pauseMapping: async (req) => sessions.pauseResume(principalOf(req), req.params.id, 'mapping', 'pause'),
    resumeMapping: async (req) => sessions.pauseResume(principalOf(req), req.params.id, 'mapping', 'resume'),
    stopMapping: async (req) => sessions.stopMapping(principalOf(req), req.params.id, req.body.save, req.ip),

    startRouteRecording: async (req) => sessions.startRecording(principalOf(req), req.params.id, req.body, req.ip),
    pauseRouteRecording: async (req) => sessions.pauseResume(principalOf(req), req.params.id, 'recording', 'pause'),
    resumeRouteRecording: async (req) => sessions.pauseResume(principalOf(req), req.params.id, 'recording', 'resume'),
    stopRouteRecording: async (req) => sessions.stopRecording(principalOf(req), req.params.id, req.body, req.ip),
  });
};
