import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  agreeTermsBodySchema,
  announcementSchema,
  APP_VERSION,
  auditLogSchema,
  changePasswordBodySchema,
  contractSchema,
  deviceSchema,
  errorBodySchema,
  languageBodySchema,
  languageSchema,
  locationBodySchema,
  messageSchema,
  paged,
  pageQuerySchema,
  profileSchema,
  sessionSchema,
  termCheckSchema,
  updateProfileBodySchema,
  versionsSchema,
} from '@portal/contract';
import type { AppContext } from '../../context.ts';
import { bearerToken, principalOf } from '../../plugins/auth.ts';
import { profileService } from './profile-service.ts';
import { devicesService } from './devices-service.ts';
import { feedService } from './feed-service.ts';
import { contractService } from './contract-service.ts';

const errors = { '4xx': errorBodySchema };
const idParams = z.object({ id: z.coerce.number().int().min(1).max(2_147_483_647) });
const langQuery = z.object({ lang: languageSchema.optional() });

/** `/my/*`: the signed-in operator's own account. */
export const myRoutes: FastifyPluginAsyncZod<{ ctx: AppContext }> = async (app, { ctx }) => {
  const profile = profileService(ctx);
  const devices = devicesService(ctx);
  const feed = feedService(ctx);
  const contract = contractService(ctx);
  const tags = ['my'];
  const langOf = (req: { query: { lang?: 'ja' | 'en' }; principal: { language: 'ja' | 'en' | null } | null }) =>
    req.query.lang ?? req.principal?.language ?? 'en';

  app.get(
    '/my/profile',
    {
      config: { allowDuringPasswordChange: true },
      schema: { operationId: 'getProfile', tags, response: { 200: profileSchema, ...errors } },
    },
    async (req) => profile.get(principalOf(req)),
  );
  app.patch(
    '/my/profile',
    {
      schema: {
        operationId: 'updateProfile',
        tags,
        body: updateProfileBodySchema,
        response: { 200: profileSchema, ...errors },
      },
    },
    async (req) => profile.update(principalOf(req), req.body, req.ip),
  );
  app.put(
    '/my/language',
    {
      config: { allowDuringPasswordChange: true },
      schema: { operationId: 'setLanguage', tags, body: languageBodySchema, response: { 204: z.null(), ...errors } },
    },
    async (req, reply) => {
      await profile.setLanguage(principalOf(req), req.body.language, req.ip);
      return reply.code(204).send(null);
    },
  );
  app.post(
    '/my/password',
    {
      config: {
        allowDuringPasswordChange: true,
        rateLimit: { max: ctx.config.rateLimitLogin, timeWindow: '1 minute' },
      },
      schema: {
        operationId: 'changePassword',
        tags,
        body: changePasswordBodySchema,
        response: { 204: z.null(), ...errors },
      },
    },
    async (req, reply) => {
      await profile.changePassword(principalOf(req), req.body, req.ip);
      return reply.code(204).send(null);
    },
  );

  app.get(
    '/my/devices',
    { schema: { operationId: 'listDevices', tags, response: { 200: z.array(deviceSchema), ...errors } } },
    async (req) => devices.list(principalOf(req)),
  );
  app.delete(
    '/my/devices/:id',
    { schema: { operationId: 'revokeDevice', tags, params: idParams, response: { 204: z.null(), ...errors } } },
    async (req, reply) => {
      await devices.revoke(principalOf(req), req.params.id, req.ip);
      return reply.code(204).send(null);
    },
  );
  app.delete(
    '/my/devices',
    { schema: { operationId: 'revokeOtherDevices', tags, response: { 204: z.null(), ...errors } } },
    async (req, reply) => {
      await devices.revokeOthers(principalOf(req), req.ip);
      return reply.code(204).send(null);
    },
  );

  app.get(
    '/my/messages',
    {
      schema: {
        operationId: 'listMessages',
        tags,
        querystring: pageQuerySchema,
        response: { 200: paged(messageSchema), ...errors },
      },
    },
    async (req) => feed.messages(principalOf(req), req.query),
  );
  app.post(
    '/my/messages/:id/read',
    { schema: { operationId: 'markMessageRead', tags, params: idParams, response: { 204: z.null(), ...errors } } },
    async (req, reply) => {
      await feed.markRead(principalOf(req), req.params.id);
      return reply.code(204).send(null);
    },
  );
  app.get(
    '/my/audit-logs',
    {
      schema: {
        operationId: 'listMyAuditLogs',
        tags,
        querystring: pageQuerySchema,
        response: { 200: paged(auditLogSchema), ...errors },
      },
    },
    async (req) => feed.auditLogs(principalOf(req), req.query),
  );
  app.get(
    '/my/announcements',
    {
      schema: {
        operationId: 'listAnnouncements',
        tags,
        querystring: langQuery,
        response: { 200: z.array(announcementSchema), ...errors },
      },
    },
    async (req) => feed.announcements(principalOf(req), langOf(req)),
  );
  app.get(
    '/my/versions',
    { schema: { operationId: 'getVersions', tags, response: { 200: versionsSchema, ...errors } } },
    async () => ({
      app: APP_VERSION,
      server: APP_VERSION,
      api: 'v1',
      node: process.version,
      database: await ctx.dbVersion(),
    }),
  );

  app.get(
    '/my/contract',
    {
      config: { allowDuringPasswordChange: true },
      schema: { operationId: 'getContract', tags, response: { 200: contractSchema, ...errors } },
    },
    async (req) => contract.contract(principalOf(req)),
  );
  app.post(
    '/my/location',
    {
      schema: {
        operationId: 'changeLocation',
        tags,
        body: locationBodySchema,
        response: { 200: sessionSchema, ...errors },
      },
    },
    async (req) =>
      contract.changeLocation(
        principalOf(req),
        req.body.buildingId,
        req.ip,
        bearerToken(req.headers.authorization) ?? '',
      ),
  );
  app.get(
    '/my/term-agreements/check',
    {
      config: { allowDuringPasswordChange: true },
      schema: {
        operationId: 'checkTermAgreements',
        tags,
        querystring: langQuery,
        response: { 200: termCheckSchema, ...errors },
      },
    },
    async (req) => contract.termCheck(principalOf(req), langOf(req)),
  );
  app.post(
    '/my/term-agreements',
    { schema: { operationId: 'agreeTerms', tags, body: agreeTermsBodySchema, response: { 204: z.null(), ...errors } } },
    async (req, reply) => {
      await contract.agree(principalOf(req), req.body.documentIds, req.ip);
      return reply.code(204).send(null);
    },
  );
};
