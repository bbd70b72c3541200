import type { FastifyPluginAsync } from 'fastify';
import { auditOps } from '@portal/contract';
import type { AppContext } from '../../context.ts';
import { principalOf } from '../../plugins/auth.ts';
import { routes } from '../../lib/route.ts';
import { auditLogService } from './audit-log-service.ts';

/** The audit log of an administrator's scope. */
export const auditRoutes: FastifyPluginAsync<{ ctx: AppContext }> = async (app, { ctx }) => {
  const service = auditLogService(ctx);
  routes(app, auditOps, {
    listAuditLogs: async (req) => service.list(principalOf(req), req.query.filter),
  });
};
