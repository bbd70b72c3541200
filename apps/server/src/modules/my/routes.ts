import type { FastifyPluginAsync } from 'fastify';
import { APP_VERSION, myOps } from '@portal/contract';
import type { AppContext } from '../../context.ts';
import { bearerToken, principalOf } from '../../plugins/auth.ts';
import { routes } from '../../lib/route.ts';
import { profileService } from './profile-service.ts';
import { devicesService } from './devices-service.ts';
import { feedService } from './feed-service.ts';
import { contractService } from './contract-service.ts';

/** `/my/*`: the signed-in operator's own account. */
export const myRoutes: FastifyPluginAsync<{ ctx: AppContext }> = async (app, { ctx }) => {
  const profile = profileService(ctx);
  const devices = devicesService(ctx);
  const feed = feedService(ctx);
  const contract = contractService(ctx);
  const langOf = (req: { query: { lang?: 'ja' | 'en' }; principal: { language: 'ja' | 'en' | null } | null }) =>
    req.query.lang ?? req.principal?.language ?? 'en';

  routes(
    app,
    myOps,
    {
      getProfile: async (req) => profile.get(principalOf(req)),
      updateProfile: async (req) => profile.update(principalOf(req), req.body, req.ip),
      confirmEmailChange: async (req) => profile.confirmEmail(principalOf(req), req.body.code, req.ip),
      cancelEmailChange: async (req) => {
        await profile.cancelEmailChange(principalOf(req));
      },
      setLanguage: async (req) => {
        await profile.setLanguage(principalOf(req), req.body.language, req.ip);
      },
      changePassword: async (req) => {
        await profile.changePassword(principalOf(req), req.body, req.ip);
      },

      listDevices: async (req) => devices.list(principalOf(req)),
      revokeDevice: async (req) => {
        await devices.revoke(principalOf(req), req.params.id, req.ip);
      },
      revokeOtherDevices: async (req) => {
        await devices.revokeOthers(principalOf(req), req.ip);
      },

      listMessages: async (req) => feed.messages(principalOf(req), req.query),
      markMessageRead: async (req) => {
        await feed.markRead(principalOf(req), req.params.id);
      },
      listMyAuditLogs: async (req) => feed.auditLogs(principalOf(req), req.query),
      listAnnouncements: async (req) => feed.announcements(principalOf(req), langOf(req)),
      getVersions: async () => ({
        app: APP_VERSION,
        server: APP_VERSION,
        api: 'v1',
        node: process.version,
        database: await ctx.dbVersion(),
      }),

      getContract: async (req) => contract.contract(principalOf(req)),
      changeLocation: async (req) =>
        contract.changeLocation(
          principalOf(req),
          req.body.buildingId,
          req.ip,
          bearerToken(req.headers.authorization) ?? '',
        ),
      checkTermAgreements: async (req) => contract.termCheck(principalOf(req), langOf(req)),
      agreeTerms: async (req) => {
        await contract.agree(principalOf(req), req.body.documentIds, req.ip);
      },
    },
    { changePassword: { config: { rateLimit: { max: ctx.config.rateLimitLogin, timeWindow: '1 minute' } } } },
  );
};
