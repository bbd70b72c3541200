import type { FastifyPluginAsync } from 'fastify';
import { commandMappingOps } from '@portal/contract';
import type { AppContext } from '../../context.ts';
import { principalOf } from '../../plugins/auth.ts';
import { routes } from '../../lib/route.ts';
import { commandMappingService } from './command-mapping-service.ts';

/** Command mappings (docs/api-command-mappings.md). */
export const commandMappingRoutes: FastifyPluginAsync<{ ctx: AppContext }> = async (app, { ctx }) => {
  const mappings = commandMappingService(ctx);

  routes(app, commandMappingOps, {
    listCommandMappings: async (req) => mappings.list(principalOf(req), req.query.filter),
    createCommandMapping: async (req) => mappings.create(principalOf(req), req.body, req.ip),
    getCommandMapping: async (req) => mappings.get(principalOf(req), req.params.id),
    updateCommandMapping: async (req) => mappings.update(principalOf(req), req.params.id, req.body, req.ip),
    deleteCommandMapping: async (req) => mappings.remove(principalOf(req), req.params.id, req.ip),
    getRobotCommandMapping: async (req) => mappings.forRobot(principalOf(req), req.params.id, req.query.mode),
  });
};
