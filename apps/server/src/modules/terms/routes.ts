import type { FastifyPluginAsync } from 'fastify';
import { termOps } from '@portal/contract';
import type { AppContext } from '../../context.ts';
import { principalOf } from '../../plugins/auth.ts';
import { routes } from '../../lib/route.ts';
import { termsService } from './terms-service.ts';

/** System administration of the terms of service and the privacy policy. */
export const termRoutes: FastifyPluginAsync<{ ctx: AppContext }> = async (app, { ctx }) => {
  const service = termsService(ctx);
  routes(app, termOps, {
    getTermTexts: async () => service.get(),
    updateTermText: async (req, reply) => {
      const { status, text } = await service.update(principalOf(req), req.params.kind, req.body, req.ip);
      reply.code(status);
      return text;
    },
  });
};
