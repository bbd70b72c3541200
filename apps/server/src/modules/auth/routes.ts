import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  assertAuthCodeBodySchema,
  errorBodySchema,
  loginBodySchema,
  loginChallengeSchema,
  sessionSchema,
} from '@portal/contract';
import type { AppContext } from '../../context.ts';
import { principalOf } from '../../plugins/auth.ts';
import { loginService } from './login-service.ts';

const clientOf = (req: { ip: string; headers: Record<string, string | string[] | undefined> }) => ({
  ip: req.ip,
  device: String(req.headers['user-agent'] ?? '').slice(0, 255),
});

export const authRoutes: FastifyPluginAsyncZod<{ ctx: AppContext }> = async (app, { ctx }) => {
  const service = loginService(ctx);

  app.post(
    '/operators/login',
    {
      config: {
        access: 'public',
        rateLimit: { max: ctx.config.rateLimitLogin, timeWindow: '1 minute' },
      },
      schema: {
        operationId: 'login',
        tags: ['auth'],
        body: loginBodySchema,
        response: { 200: sessionSchema, 202: loginChallengeSchema, '4xx': errorBodySchema },
      },
    },
    async (req, reply) => {
      const result = await service.login(req.body.loginId, req.body.loginPw, clientOf(req));
      return reply.code(result.status).send(result.body);
    },
  );

  app.post(
    '/operators/assertAuthCode',
    {
      config: { access: 'pending', rateLimit: { max: ctx.config.rateLimitLogin, timeWindow: '1 minute' } },
      schema: {
        operationId: 'assertAuthCode',
        tags: ['auth'],
        body: assertAuthCodeBodySchema,
        response: { 200: sessionSchema, '4xx': errorBodySchema },
      },
    },
    async (req) => service.assertAuthCode(principalOf(req).sessionId, req.body.authDigits, clientOf(req)),
  );

  app.post(
    '/operators/logout',
    {
      config: { allowDuringPasswordChange: true },
      schema: { operationId: 'logout', tags: ['auth'], response: { 204: z.null(), '4xx': errorBodySchema } },
    },
    async (req, reply) => {
      await service.logout(principalOf(req), req.ip);
      return reply.code(204).send(null);
    },
  );
};
