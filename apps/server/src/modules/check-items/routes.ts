import type { FastifyPluginAsync } from 'fastify';
import { checkItemOps } from '@portal/contract';
import type { AppContext } from '../../context.ts';
import { principalOf } from '../../plugins/auth.ts';
import { routes } from '../../lib/route.ts';
import { checkItemService } from './check-item-service.ts';

/** Check items (docs/api-check-items.md). */
export const checkItemRoutes: FastifyPluginAsync<{ ctx: AppContext }> = async (app, { ctx }) => {
  const items = checkItemService(ctx);

  routes(app, checkItemOps, {
    listCheckItems: async (req) => items.list(principalOf(req), req.query.filter),
    createCheckItem: async (req) => items.create(principalOf(req), req.body, req.ip),
    getCheckItem: async (req) => items.get(principalOf(req), req.params.id),
    updateCheckItem: async (req) => items.update(principalOf(req), req.params.id, req.body, req.ip),
    deleteCheckItem: async (req) => items.remove(principalOf(req), req.params.id, req.ip),
  });
};
