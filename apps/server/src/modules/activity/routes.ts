import type { FastifyPluginAsync } from 'fastify';
import { activityOps } from '@portal/contract';
import type { AppContext } from '../../context.ts';
import { principalOf } from '../../plugins/auth.ts';
import { routes } from '../../lib/route.ts';
import type { ActivityService } from './activity-service.ts';
import { startActivityWatcher } from './activity-watcher.ts';

/**
 * The robot activity log (docs/api-activity.md): `GET /robots/:id/activity`, and the watcher that
 * writes what the robot link hears (connection, errors, emergency stop, battery, OS version) with
 * the periodic retention. Stops with the app.
 */
export const activityRoutes: FastifyPluginAsync<{ ctx: AppContext; activity: ActivityService }> = async (
  app,
  { ctx, activity },
) => {
  const watcher = startActivityWatcher({ link: ctx.robotLink, activity, log: ctx.log });
  app.addHook('onClose', async () => watcher.stop());

  routes(app, activityOps, {
    listRobotActivity: async (req) => activity.list(principalOf(req), req.params.id, req.query.filter),
  });
};
