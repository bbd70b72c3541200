import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { auditLogEntrySchema, errorBodySchema } from '@portal/contract';
import type { AppContext } from '../../context.ts';
import { principalOf } from '../../plugins/auth.ts';
import { auditLogService } from './audit-log-service.ts';

const filterQuery = z.object({ filter: z.string().max(10_000).optional() });

/** The audit log of an administrator's scope. */
export const auditRoutes: FastifyPluginAsyncZod<{ ctx: AppContext }> = async (app, { ctx }) => {
  const service = auditLogService(ctx);

  app.get(
    '/audit-logs',
    {
      config: { access: 'admin' },
      schema: {
        operationId: 'listAuditLogs',
        tags: ['audit'],
        querystring: filterQuery,
        response: { 200: z.array(auditLogEntrySchema), '4xx': errorBodySchema },
      },
    },
    async (req, reply) => {
      const { items, total } = await service.list(principalOf(req), req.query.filter);
      return reply.header('x-total-count', total).send(items);
    },
  );
};
