import type { FastifyPluginAsync } from 'fastify';
import { robotOps } from '@portal/contract';
import type { AppContext } from '../../context.ts';
import { principalOf } from '../../plugins/auth.ts';
import { routes } from '../../lib/route.ts';
import type { ControlsLock } from '../teleop/controls.ts';
import { robotService } from './robot-service.ts';

/**
 * The robot registry (docs/api-robots.md, docs/decisions/0004-robot-roles.md). Reading and commands
 * for any operator within scope; registering, changing, deleting and issuing credentials for
 * organization and system administrators (`access: 'admin'` stops general operators, the service
 * area managers); robots awaiting registration for system administrators. Commands change what
 * the robot does: they follow the teleop controls lock (requireControls).
 */
export const robotRoutes: FastifyPluginAsync<{ ctx: AppContext; teleop: ControlsLock }> = async (
  app,
  { ctx, teleop },
) => {
  const robots = robotService(ctx);

  routes(app, robotOps, {
    listRobots: async (req) => robots.list(principalOf(req), req.query.filter),
    listFleet: async (req) => robots.fleet(principalOf(req), req.query.buildingId),
    listPendingRobots: async () => robots.pending(),
    deletePendingRobot: async (req) => robots.dismissPending(principalOf(req), req.params.id, req.ip),
    createRobot: async (req) => robots.create(principalOf(req), req.body, req.ip),
    getRobot: async (req) => robots.get(principalOf(req), req.params.id),
    updateRobot: async (req) => robots.update(principalOf(req), req.params.id, req.body, req.ip),
    deleteRobot: async (req) => robots.remove(principalOf(req), req.params.id, req.ip),
    rotateRobotCredentials: async (req) => robots.rotateCredentials(principalOf(req), req.params.id, req.ip),
    listRobotSettingHistory: async (req) => robots.settingHistory(principalOf(req), req.params.id, req.query.filter),
    sendRobotCommand: async (req) => {
      await robots.command(principalOf(req), req.params.id, req.body.command, req.ip, teleop);
      return { ok: true as const };
    },
  });
};
