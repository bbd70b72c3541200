import type { FastifyPluginAsync } from 'fastify';
import { WS_PATH } from '@portal/contract';
import type { AppContext } from '../../context.ts';
import { AppError } from '../../lib/errors.ts';
import { sessionResolver } from '../auth/resolve-session.ts';
import { createGateway } from './gateway.ts';
import { realtimeRepo } from './realtime-repo.ts';
import type { TeleopService } from '../teleop/teleop-service.ts';

/**
 * `GET {API_BASE}/ws`: the browsers' WebSocket (docs/architecture-decisions.md "Browsers: one WebSocket per
 * tab"). Public at the HTTP level: the first message carries the session token.
 */
export const realtimeRoutes: FastifyPluginAsync<{ ctx: AppContext; teleop: TeleopService }> = async (
  app,
  { ctx, teleop },
) => {
  const gateway = createGateway(
    ctx,
    realtimeRepo(ctx.db),
    sessionResolver(ctx.db, ctx.clock, ctx.caches.sessions),
    teleop,
  );
  app.addHook('onClose', async () => gateway.close());
  app.route({
    method: 'GET',
    url: WS_PATH,
    config: { access: 'public' },
    schema: { hide: true },
    // A plain HTTP request here is told to upgrade.
    handler: async () => {
      throw new AppError('VALIDATION_FAILED', 'This address takes WebSocket connections only (Upgrade: websocket)');
    },
    wsHandler: (socket, request) => gateway.accept(socket, request.ip),
  });
};
