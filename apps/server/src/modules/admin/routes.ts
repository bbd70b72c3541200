import type { FastifyPluginAsync } from 'fastify';
import { adminOps } from '@portal/contract';
import type { AppContext } from '../../context.ts';
import { principalOf } from '../../plugins/auth.ts';
import { routes } from '../../lib/route.ts';
import { deliveryLog } from '../../services/delivery-log.ts';
import { initDataService } from './init-data-service.ts';

/** System administration of the foundation: the delivery log and the initial data import. */
export const adminRoutes: FastifyPluginAsync<{ ctx: AppContext }> = async (app, { ctx }) => {
  const initData = initDataService(ctx);
  const deliveries = deliveryLog(ctx);

  routes(
    app,
    adminOps,
    {
      listDeliveries: async (req) => deliveries.page(req.query.page, req.query.perPage),
      importInitData: async (req) => initData.import(principalOf(req), req.body, req.ip),
    },
    { importInitData: { bodyLimit: 5 * 1024 * 1024 } },
  );
};
