import type { FastifyPluginAsync } from 'fastify';
import { flowRunOps } from '@portal/contract';
import { principalOf } from '../../plugins/auth.ts';
import { routes } from '../../lib/route.ts';
import type { FlowRunService } from './run-service.ts';

/** Flow runs (docs/flow-runner.md). */
export const flowRunRoutes: FastifyPluginAsync<{ runs: FlowRunService }> = async (app, { runs }) => {
  routes(app, flowRunOps, {
    startFlowRun: async (req) => runs.start(principalOf(req), req.params.id, req.body.robotId),
    listFlowRuns: async (req) => runs.list(principalOf(req), req.query.filter),
    getFlowRun: async (req) => runs.get(principalOf(req), req.params.id),
    pauseFlowRun: async (req) => runs.pause(principalOf(req), req.params.id),
    resumeFlowRun: async (req) => runs.resume(principalOf(req), req.params.id),
    cancelFlowRun: async (req) => runs.cancel(principalOf(req), req.params.id),
  });
};
