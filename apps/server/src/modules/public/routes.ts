import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { errorBodySchema, registrationRequestBodySchema, skywayKeySchema } from '@portal/contract';
import type { AppContext } from '../../context.ts';
import { registrationService } from './registration-service.ts';

/** Health, registration requests and keys. */
export const publicRoutes: FastifyPluginAsyncZod<{ ctx: AppContext; isReady: () => boolean }> = async (
  app,
  { ctx, isReady },
) => {
  const registrations = registrationService(ctx);
  app.get(
    '/health',
    {
      config: { access: 'public' },
      schema: {
        operationId: 'health',
        tags: ['system'],
        response: { 200: z.object({ status: z.literal('ok') }), 503: errorBodySchema },
      },
    },
    async (_req, reply) =>
      isReady()
        ? { status: 'ok' as const }
        : reply.code(503).send({ error: { statusCode: 503, code: 'INTERNAL', message: 'Not ready' } }),
  );

  app.post(
    '/registration-requests',
    {
      config: { access: 'public', rateLimit: { max: 5, timeWindow: '1 minute' } },
      schema: {
        operationId: 'requestRegistration',
        tags: ['auth'],
        body: registrationRequestBodySchema,
        response: { 202: z.null(), '4xx': errorBodySchema },
      },
    },
    async (req, reply) => {
      await registrations.request(req.body, req.ip);
      return reply.code(202).send(null);
    },
  );

  app.get(
    '/keys/skyway',
    {
      schema: {
        operationId: 'getSkywayKey',
        tags: ['keys'],
        response: { 200: skywayKeySchema, '4xx': errorBodySchema },
      },
    },
    async () => ({ key: ctx.config.skywayKey }),
  );
};
