import type { FastifyPluginAsync } from 'fastify';
import { errorBodySchema, publicOps } from '@portal/contract';
import type { AppContext } from '../../context.ts';
import { routes } from '../../lib/route.ts';
import { registrationService } from './registration-service.ts';

/** Health, registration requests and keys. */
export const publicRoutes: FastifyPluginAsync<{ ctx: AppContext; isReady: () => boolean }> = async (
  app,
  { ctx, isReady },
) => {
  const registrations = registrationService(ctx);
  routes(
    app,
    publicOps,
    {
      health: async (_req, reply) => {
        if (isReady()) return { status: 'ok' as const };
        await reply.code(503).send({ error: { statusCode: 503, code: 'INTERNAL', message: 'Not ready' } });
      },
      requestRegistration: async (req) => {
        await registrations.request(req.body, req.ip);
        return null;
      },
      getSkywayKey: async () => ({ key: ctx.config.skywayKey }),
    },
    {
      health: { responses: { 503: errorBodySchema } },
      requestRegistration: { config: { rateLimit: { max: 5, timeWindow: '1 minute' } } },
    },
  );
};
