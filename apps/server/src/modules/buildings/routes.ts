import type { FastifyPluginAsync } from 'fastify';
import { buildingOps, groupOpsByKind } from '@portal/contract';
import type { AppContext } from '../../context.ts';
import { principalOf } from '../../plugins/auth.ts';
import { routes } from '../../lib/route.ts';
import { buildingListService, buildingService } from './building-service.ts';
import { groupService } from './group-service.ts';
import { ipRestrictionService } from './ip-restriction-service.ts';
import { linksService } from './links-service.ts';
import { speechTextService } from './speech-text-service.ts';

/** Buildings and their sections: groups, speech texts, IP restriction, system links. */
export const buildingRoutes: FastifyPluginAsync<{ ctx: AppContext }> = async (app, { ctx }) => {
  const lists = buildingListService(ctx);
  const buildings = buildingService(ctx);
  const speech = speechTextService(ctx);
  const ipRestriction = ipRestrictionService(ctx);
  const links = linksService(ctx);

  routes(app, buildingOps, {
    listBuildings: async (req) => lists.list(principalOf(req), req.query.filter),
    getBuilding: async (req) => buildings.get(principalOf(req), req.params.id),
    createBuilding: async (req) => buildings.create(principalOf(req), req.body, req.ip),
    updateBuilding: async (req) => buildings.update(principalOf(req), req.params.id, req.body, req.ip),
    deleteBuilding: async (req) => buildings.remove(principalOf(req), req.params.id, req.ip),

    listSpeechTexts: async (req) => speech.list(principalOf(req), req.params.id),
    createSpeechText: async (req) => speech.create(principalOf(req), req.params.id, req.body, req.ip),
    updateSpeechText: async (req) => speech.update(principalOf(req), req.params.id, req.body, req.ip),
    deleteSpeechText: async (req) => speech.remove(principalOf(req), req.params.id, req.ip),

    getIpRestriction: async (req) => ipRestriction.get(principalOf(req), req.params.id, req.ip),
    setIpRestriction: async (req) =>
      ipRestriction.setEnabled(principalOf(req), req.params.id, req.body.enabled, req.ip),
    createIpRule: async (req) => ipRestriction.addRule(principalOf(req), req.params.id, req.body, req.ip),
    deleteIpRule: async (req) => ipRestriction.removeRule(principalOf(req), req.params.id, req.ip),

    getBuildingLinks: async (req) => links.get(principalOf(req), req.params.id),
    updateBuildingLinks: async (req) => links.update(principalOf(req), req.params.id, req.body, req.ip),
  });

  for (const kind of ['robot-group', 'flow-group'] as const) {
    const groups = groupService(ctx, kind);
    routes(app, groupOpsByKind[kind], {
      list: async (req) => groups.list(principalOf(req), req.params.id),
      create: async (req) => groups.create(principalOf(req), req.body, req.ip),
      get: async (req) => groups.get(principalOf(req), req.params.id),
      update: async (req) => groups.update(principalOf(req), req.params.id, req.body, req.ip),
      remove: async (req) => groups.remove(principalOf(req), req.params.id, req.ip),
      reorder: async (req) => groups.reorder(principalOf(req), req.params.id, req.body.ids, req.ip),
    });
  }
};
