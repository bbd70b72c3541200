import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { errorBodySchema, loginIdSchema, personNameSchema, skywayKeySchema } from '@portal/contract';
import type { AppContext } from '../../context.ts';

export const registrationBodySchema = z.object({
  lastName: personNameSchema,
  firstName: personNameSchema,
  email: loginIdSchema,
  organizationName: z.string().trim().min(1, 'validation.required').max(48, 'validation.max48'),
  message: z.string().trim().max(1000, 'validation.tooLong').default(''),
});

/** Health, registration requests and keys. */
export const publicRoutes: FastifyPluginAsyncZod<{ ctx: AppContext; isReady: () => boolean }> = async (
  app,
  { ctx, isReady },
) => {
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
        body: registrationBodySchema,
        response: { 202: z.null(), '4xx': errorBodySchema },
      },
    },
    async (req, reply) => {
      const b = req.body;
      const now = ctx.clock().toISOString();
      await ctx.db
        .insertInto('registration_requests')
        .values({
          email: b.email.toLowerCase(),
          first_name: b.firstName,
          last_name: b.lastName,
          organization_name: b.organizationName,
          message: b.message,
          ip: req.ip,
          created_at: now,
        })
        .execute();
      const admins = await ctx.db
        .selectFrom('operators')
        .select(['email'])
        .where('type', '=', 9)
        .where('deleted_at', 'is', null)
        .where('status', '=', 1)
        .execute();
      for (const a of admins) {
        await ctx.mailer.deliver({
          channel: 'email',
          to: a.email,
          purpose: 'registration-request',
          organizationId: null,
          subject: `[Robot Portal] Registration request from ${b.lastName} ${b.firstName}`,
          body: `Name: ${b.lastName} ${b.firstName}\nEmail: ${b.email}\nOrganization: ${b.organizationName}\n\n${b.message}`,
        });
      }
      await ctx.audit.record({
        operatorId: null,
        organizationId: null,
        action: 'registration.request',
        targetType: 'email',
        targetId: b.email.toLowerCase().slice(0, 64),
        ip: req.ip,
      });
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
