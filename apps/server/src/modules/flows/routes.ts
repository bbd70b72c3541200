import type { FastifyPluginAsync } from 'fastify';
import { commandOps, flowOps } from '@portal/contract';
import type { AppContext } from '../../context.ts';
import { principalOf } from '../../plugins/auth.ts';
import { routes } from '../../lib/route.ts';
import { commandService } from './command-service.ts';
import { flowService } from './flow-service.ts';

/** The command library and flows (docs/api-flows.md). */
export const flowRoutes: FastifyPluginAsync<{ ctx: AppContext }> = async (app, { ctx }) => {
  const commands = commandService(ctx);
  const flows = flowService(ctx);

  routes(app, commandOps, {
    listCommands: async (req) => commands.list(principalOf(req), req.query.filter),
    createCommand: async (req) => commands.create(principalOf(req), req.body, req.ip),
    getCommand: async (req) => commands.get(principalOf(req), req.params.id),
    updateCommand: async (req) => commands.update(principalOf(req), req.params.id, req.body, req.ip),
    deleteCommand: async (req) => commands.remove(principalOf(req), req.params.id, req.ip),
    getCommandUsage: async (req) => commands.usage(principalOf(req), req.params.id),
  });

  routes(app, flowOps, {
    listFlows: async (req) => flows.list(principalOf(req), req.query.filter),
    createFlow: async (req) => flows.create(principalOf(req), req.body, req.ip),
    reorderFlows: async (req) => flows.reorder(principalOf(req), req.body, req.ip),
    getFlow: async (req) => flows.get(principalOf(req), req.params.id),
    updateFlow: async (req) => flows.update(principalOf(req), req.params.id, req.body, req.ip),
    setFlowEnabled: async (req) => flows.setEnabled(principalOf(req), req.params.id, req.body.enabled, req.ip),
    deleteFlow: async (req) => flows.remove(principalOf(req), req.params.id, req.ip),
  });
};
