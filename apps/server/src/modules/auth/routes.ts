import type { FastifyPluginAsync } from 'fastify';
import { authOps } from '@portal/contract';
import type { AppContext } from '../../context.ts';
import { principalOf } from '../../plugins/auth.ts';
import { routes } from '../../lib/route.ts';
import { loginService } from './login-service.ts';
import { requestLanguage } from '../../lib/language.ts';

const clientOf = (req: { ip: string; headers: Record<string, string | string[] | undefined> }) => ({
  ip: req.ip,
  device: String(req.headers['user-agent'] ?? '').slice(0, 255),
  language: requestLanguage(req.headers['accept-language']),
});

/** Sign-in and sign-out. */
export const authRoutes: FastifyPluginAsync<{ ctx: AppContext }> = async (app, { ctx }) => {
  const service = loginService(ctx);
  const loginRate = { rateLimit: { max: ctx.config.rateLimitLogin, timeWindow: '1 minute' } };

  routes(
    app,
    authOps,
    {
      login: async (req, reply) => {
        const result = await service.login(req.body.loginId, req.body.loginPw, clientOf(req));
        reply.code(result.status);
        return result.body;
      },
      assertAuthCode: async (req) =>
        service.assertAuthCode(principalOf(req).sessionId, req.body.authDigits, clientOf(req)),
      logout: async (req) => {
        await service.logout(principalOf(req), req.ip);
      },
    },
    {
      login: { config: loginRate },
      assertAuthCode: { config: loginRate },
    },
  );
};
