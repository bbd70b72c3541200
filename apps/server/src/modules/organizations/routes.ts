import type { FastifyPluginAsync } from 'fastify';
import { organizationOps } from '@portal/contract';
import type { AppContext } from '../../context.ts';
import { principalOf } from '../../plugins/auth.ts';
import { routes } from '../../lib/route.ts';
import { organizationService } from './organization-service.ts';
import { notifTargetService } from './notif-target-service.ts';

/**
 * Organizations and their notification targets (data management). The list is any operator's own
 * scope; the rest is for organization and system administrators (the services check the role first
 * and scope every query).
 */
export const organizationRoutes: FastifyPluginAsync<{ ctx: AppContext }> = async (app, { ctx }) => {
  const organizations = organizationService(ctx);
  const targets = notifTargetService(ctx);

  routes(app, organizationOps, {
    listOrganizations: async (req) => organizations.list(principalOf(req), req.query.filter),
    getOrganization: async (req) => organizations.get(principalOf(req), req.params.id),
    createOrganization: async (req) => organizations.create(principalOf(req), req.body, req.ip),
    updateOrganization: async (req) => organizations.update(principalOf(req), req.params.id, req.body, req.ip),
    deleteOrganization: async (req) => organizations.remove(principalOf(req), req.params.id, req.ip),

    listNotifTargets: async (req) => targets.list(principalOf(req), req.params.id),
    getNotifTarget: async (req) => targets.get(principalOf(req), req.params.id, req.params.ntid),
    createNotifTarget: async (req) => targets.create(principalOf(req), req.params.id, req.body, req.ip),
    updateNotifTarget: async (req) =>
      targets.update(principalOf(req), req.params.id, req.params.ntid, req.body, req.ip),
    deleteNotifTarget: async (req) => targets.remove(principalOf(req), req.params.id, req.params.ntid, req.ip),
    testNotifTarget: async (req) => targets.test(principalOf(req), req.params.id, req.params.ntid, req.ip),
  });
};
