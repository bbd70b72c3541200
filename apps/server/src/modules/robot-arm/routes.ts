import type { FastifyPluginAsync } from 'fastify';
import { robotArmOps } from '@portal/contract';
import type { AppContext } from '../../context.ts';
import { principalOf } from '../../plugins/auth.ts';
import { routes } from '../../lib/route.ts';
import type { TeleopService } from '../teleop/teleop-service.ts';
import { armService } from './arm-service.ts';

/** The robot's arm and depth camera (docs/api-robot-arm.md). */
export const robotArmRoutes: FastifyPluginAsync<{ ctx: AppContext; teleop: TeleopService }> = async (
  app,
  { ctx, teleop },
) => {
  const arm = armService(ctx, { teleop });
  routes(app, robotArmOps, {
    getRobotDepthImage: async (req) => arm.depthImage(principalOf(req), req.params.id),
    pressRobotButton: async (req) => arm.press(principalOf(req), req.params.id, req.body, req.ip),
  });
};
