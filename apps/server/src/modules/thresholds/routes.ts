import type { FastifyPluginAsync } from 'fastify';
import { thresholdOps } from '@portal/contract';
import type { AppContext } from '../../context.ts';
import { principalOf } from '../../plugins/auth.ts';
import { routes } from '../../lib/route.ts';
import { thresholdService } from './threshold-service.ts';

/** Threshold rules and their log (docs/api-thresholds.md). */
export const thresholdRoutes: FastifyPluginAsync<{ ctx: AppContext }> = async (app, { ctx }) => {
  const thresholds = thresholdService(ctx);
  routes(app, thresholdOps, {
    listThresholdRules: async (req) => thresholds.list(principalOf(req), req.query.filter),
    createThresholdRule: async (req) => thresholds.create(principalOf(req), req.body, req.ip),
    getThresholdRule: async (req) => thresholds.get(principalOf(req), req.params.id),
    updateThresholdRule: async (req) => thresholds.update(principalOf(req), req.params.id, req.body, req.ip),
    deleteThresholdRule: async (req) => thresholds.remove(principalOf(req), req.params.id, req.ip),
    listThresholdLogs: async (req) => thresholds.logs(principalOf(req), req.query.filter),
  });
};
