import type { FastifyPluginAsync } from 'fastify';
import { workPlanOps, workPlanRunOps } from '@portal/contract';
import type { AppContext } from '../../context.ts';
import type { ControlsLock } from '../teleop/controls.ts';
import { principalOf } from '../../plugins/auth.ts';
import { routes } from '../../lib/route.ts';
import { workPlanRunService } from './run-service.ts';
import { workPlanService } from './work-plan-service.ts';

/** Work plans and their templates (docs/api-work-plans.md). */
export const workPlanRoutes: FastifyPluginAsync<{ ctx: AppContext; teleop: ControlsLock }> = async (
  app,
  { ctx, teleop },
) => {
  const plans = workPlanService(ctx);
  const runs = workPlanRunService(ctx, teleop);

  routes(app, workPlanOps, {
    listWorkPlans: async (req) => plans.list(principalOf(req), req.query.filter),
    createWorkPlan: async (req) => plans.create(principalOf(req), req.body, req.ip),
    getWorkPlan: async (req) => plans.get(principalOf(req), req.params.id),
    updateWorkPlan: async (req) => plans.update(principalOf(req), req.params.id, req.body, req.ip),
    deleteWorkPlan: async (req) => plans.remove(principalOf(req), req.params.id, req.ip),
    listWorkPlanTemplates: async (req) => plans.listTemplates(principalOf(req), req.query.filter),
    createWorkPlanTemplate: async (req) => plans.createTemplate(principalOf(req), req.body, req.ip),
    getWorkPlanTemplate: async (req) => plans.getTemplate(principalOf(req), req.params.id),
    updateWorkPlanTemplate: async (req) => plans.updateTemplate(principalOf(req), req.params.id, req.body, req.ip),
    deleteWorkPlanTemplate: async (req) => plans.removeTemplate(principalOf(req), req.params.id, req.ip),
  });

  routes(app, workPlanRunOps, {
    listWorkPlanRuns: async (req) => runs.list(principalOf(req), req.query.filter),
    startWorkPlanRun: async (req) => runs.start(principalOf(req), req.body),
    getWorkPlanRun: async (req) => runs.get(principalOf(req), req.params.id),
    confirmWorkPlanStep: async (req) => runs.confirm(principalOf(req), req.params.id, req.body.stepId),
    moveWorkPlanStep: async (req) => runs.move(principalOf(req), req.params.id, req.body.stepId, req.ip),
    closeWorkPlanRun: async (req) => runs.close(principalOf(req), req.params.id),
  });
};
