import type { FastifyPluginAsync } from 'fastify';
import { triggerOps } from '@portal/contract';
import type { AppContext } from '../../context.ts';
import { principalOf } from '../../plugins/auth.ts';
import { routes } from '../../lib/route.ts';
import { triggerService } from './trigger-service.ts';

/** Triggers of buildings and their firings (docs/api-triggers.md). */
export const triggerRoutes: FastifyPluginAsync<{ ctx: AppContext }> = async (app, { ctx }) => {
  const triggers = triggerService(ctx);
  routes(app, triggerOps, {
    listTriggers: async (req) => triggers.list(principalOf(req), req.query.filter),
    createTrigger: async (req) => triggers.create(principalOf(req), req.body, req.ip),
    getTrigger: async (req) => triggers.get(principalOf(req), req.params.id),
    updateTrigger: async (req) => triggers.update(principalOf(req), req.params.id, req.body, req.ip),
    deleteTrigger: async (req) => triggers.remove(principalOf(req), req.params.id, req.ip),
    listTriggerFirings: async (req) => triggers.firings(principalOf(req), req.query.filter),
  });
};
