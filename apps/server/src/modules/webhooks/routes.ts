import type { FastifyPluginAsync } from 'fastify';
import { webhookOps } from '@portal/contract';
import type { AppContext } from '../../context.ts';
import type { Outbound } from '../../lib/outbound.ts';
import { routes } from '../../lib/route.ts';
import { principalOf } from '../../plugins/auth.ts';
import { webhookService } from './webhook-service.ts';

/** Webhooks: system administrators only (the route's access and the service both check). */
export const webhookRoutes: FastifyPluginAsync<{ ctx: AppContext; outbound?: Outbound }> = async (
  app,
  { ctx, outbound },
) => {
  const webhooks = webhookService(ctx, outbound ? { outbound } : {});

  routes(app, webhookOps, {
    listWebhooks: async (req) => webhooks.list(principalOf(req)),
    getWebhook: async (req) => webhooks.get(principalOf(req), req.params.id),
    createWebhook: async (req) => webhooks.create(principalOf(req), req.body, req.ip),
    updateWebhook: async (req) => webhooks.update(principalOf(req), req.params.id, req.body, req.ip),
    deleteWebhook: async (req) => webhooks.remove(principalOf(req), req.params.id, req.ip),
    rotateWebhookSecret: async (req) => webhooks.rotateSecret(principalOf(req), req.params.id, req.ip),
    testWebhook: async (req) => webhooks.test(principalOf(req), req.params.id, req.ip),
  });
};
