import type { FastifyPluginAsync } from 'fastify';
import { operatorOps } from '@portal/contract';
import type { AppContext } from '../../context.ts';
import { principalOf } from '../../plugins/auth.ts';
import { routes } from '../../lib/route.ts';
import { operatorService } from './operator-service.ts';

/** Operator management (data management): organization and system administrators only. */
export const operatorRoutes: FastifyPluginAsync<{ ctx: AppContext }> = async (app, { ctx }) => {
  const operators = operatorService(ctx);

  routes(app, operatorOps, {
    listOperators: async (req) => operators.list(principalOf(req), req.query.filter),
    getOperator: async (req) => operators.get(principalOf(req), req.params.id),
    createOperator: async (req) => operators.create(principalOf(req), req.body, req.ip),
    updateOperator: async (req) => operators.update(principalOf(req), req.params.id, req.body, req.ip),
    deleteOperator: async (req) => operators.remove(principalOf(req), req.params.id, req.ip),
    lockOperator: async (req) => operators.lock(principalOf(req), req.params.id, req.ip),
    unlockOperator: async (req) => operators.unlock(principalOf(req), req.params.id, req.ip),
    forcePasswordChange: async (req) => operators.forcePasswordChange(principalOf(req), req.params.id, req.ip),
  });
};
