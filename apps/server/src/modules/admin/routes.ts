import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  deliverySchema,
  errorBodySchema,
  initDataResultSchema,
  initDataSchema,
  paged,
  pageQuerySchema,
} from '@portal/contract';
import type { AppContext } from '../../context.ts';
import { principalOf } from '../../plugins/auth.ts';
import { deliveryLog } from '../../services/delivery-log.ts';
import { initDataService } from './init-data-service.ts';

/** System administration of the foundation: the delivery log and the initial data import. */
export const adminRoutes: FastifyPluginAsyncZod<{ ctx: AppContext }> = async (app, { ctx }) => {
  const initData = initDataService(ctx);
  const deliveries = deliveryLog(ctx);
  const tags = ['system'];

  app.get(
    '/deliveries',
    {
      config: { access: 'system' },
      schema: {
        operationId: 'listDeliveries',
        tags,
        querystring: pageQuerySchema,
        response: { 200: paged(deliverySchema), '4xx': errorBodySchema },
      },
    },
    async (req) => deliveries.page(req.query.page, req.query.perPage),
  );

  app.post(
    '/init-data',
    {
      config: { access: 'system' },
      bodyLimit: 5 * 1024 * 1024,
      schema: {
        operationId: 'importInitData',
        tags,
        body: initDataSchema,
        response: { 201: initDataResultSchema, '4xx': errorBodySchema },
      },
    },
    async (req, reply) => reply.code(201).send(await initData.import(principalOf(req), req.body, req.ip)),
  );
};
