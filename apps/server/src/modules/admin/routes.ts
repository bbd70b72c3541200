import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  deliverySchema,
  errorBodySchema,
  initDataResultSchema,
  initDataSchema,
  paged,
  pageQuerySchema,
  type Delivery,
} from '@portal/contract';
import type { AppContext } from '../../context.ts';
import { principalOf } from '../../plugins/auth.ts';
import { toOffset } from '../../lib/pagination.ts';
import { initDataService } from './init-data-service.ts';

/** System administration of the foundation: the delivery log and the initial data import. */
export const adminRoutes: FastifyPluginAsyncZod<{ ctx: AppContext }> = async (app, { ctx }) => {
  const initData = initDataService(ctx);
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
    async (req) => {
      const { page, perPage } = req.query;
      const { limit, offset } = toOffset(page, perPage);
      const [rows, total] = await Promise.all([
        ctx.db.selectFrom('outbox').selectAll().orderBy('id', 'desc').limit(limit).offset(offset).execute(),
        ctx.db
          .selectFrom('outbox')
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .executeTakeFirstOrThrow(),
      ]);
      const items: Delivery[] = rows.map((r) => ({
        id: r.id,
        channel: r.channel as Delivery['channel'],
        recipient: r.recipient,
        subject: r.subject,
        body: r.body,
        status: r.status as Delivery['status'],
        error: r.error,
        purpose: r.purpose,
        createdAt: r.created_at,
      }));
      return { items, total: Number(total.n), page, perPage };
    },
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
