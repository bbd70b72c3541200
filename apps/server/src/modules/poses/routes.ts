import type { FastifyPluginAsync } from 'fastify';
import { poseDefOps, poseNetworkOps } from '@portal/contract';
import type { AppContext } from '../../context.ts';
import { principalOf } from '../../plugins/auth.ts';
import { routes } from '../../lib/route.ts';
import { poseService } from './pose-service.ts';

/** Pose definitions and pose networks (docs/api-poses.md). */
export const poseRoutes: FastifyPluginAsync<{ ctx: AppContext }> = async (app, { ctx }) => {
  const poses = poseService(ctx);

  routes(app, poseDefOps, {
    listPoseDefs: async (req) => poses.listDefs(principalOf(req), req.query.filter),
    createPoseDef: async (req) => poses.createDef(principalOf(req), req.body, req.ip),
    getPoseDef: async (req) => poses.getDef(principalOf(req), req.params.id),
    updatePoseDef: async (req) => poses.updateDef(principalOf(req), req.params.id, req.body, req.ip),
    deletePoseDef: async (req) => poses.removeDef(principalOf(req), req.params.id, req.ip),
  });

  routes(app, poseNetworkOps, {
    listPoseNetworks: async (req) => poses.listNetworks(principalOf(req), req.query.filter),
    createPoseNetwork: async (req) => poses.createNetwork(principalOf(req), req.body, req.ip),
    getPoseNetwork: async (req) => poses.getNetwork(principalOf(req), req.params.id),
    updatePoseNetwork: async (req) => poses.updateNetwork(principalOf(req), req.params.id, req.body, req.ip),
    deletePoseNetwork: async (req) => poses.removeNetwork(principalOf(req), req.params.id, req.ip),
  });
};
