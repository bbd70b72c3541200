import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  errorBodySchema,
  notifTargetInputSchema,
  notifTargetSchema,
  organizationInputSchema,
  organizationSchema,
  testNotificationResultSchema,
  updateNotifTargetBodySchema,
  updateOrganizationBodySchema,
} from '@portal/contract';
import type { AppContext } from '../../context.ts';
import { principalOf } from '../../plugins/auth.ts';
import { organizationService } from './organization-service.ts';
import { notifTargetService } from './notif-target-service.ts';

const dbId = z.coerce.number().int().min(1).max(2_147_483_647);
const idParams = z.object({ id: dbId });
const targetParams = z.object({ id: dbId, ntid: dbId });
const errors = { '4xx': errorBodySchema };

/**
 * Organizations and their notification targets (data management). Organization and system
 * administrators only; the services check the role first and scope every query. The list
 * (`GET /organizations`) is in modules/directory.
 */
export const organizationRoutes: FastifyPluginAsyncZod<{ ctx: AppContext }> = async (app, { ctx }) => {
  const organizations = organizationService(ctx);
  const targets = notifTargetService(ctx);
  const tags = ['organizations'];
  const admin = { access: 'admin' as const };

  app.get(
    '/organizations/:id',
    {
      config: admin,
      schema: {
        operationId: 'getOrganization',
        tags,
        params: idParams,
        response: { 200: organizationSchema, ...errors },
      },
    },
    async (req) => organizations.get(principalOf(req), req.params.id),
  );
  app.post(
    '/organizations',
    {
      config: { access: 'system' },
      schema: {
        operationId: 'createOrganization',
        tags,
        body: organizationInputSchema,
        response: { 201: organizationSchema, ...errors },
      },
    },
    async (req, reply) => reply.code(201).send(await organizations.create(principalOf(req), req.body, req.ip)),
  );
  app.patch(
    '/organizations/:id',
    {
      config: admin,
      schema: {
        operationId: 'updateOrganization',
        tags,
        params: idParams,
        body: updateOrganizationBodySchema,
        response: { 200: organizationSchema, ...errors },
      },
    },
    async (req) => organizations.update(principalOf(req), req.params.id, req.body, req.ip),
  );
  app.delete(
    '/organizations/:id',
    {
      config: { access: 'system' },
      schema: { operationId: 'deleteOrganization', tags, params: idParams, response: { 204: z.null(), ...errors } },
    },
    async (req, reply) => {
      await organizations.remove(principalOf(req), req.params.id, req.ip);
      return reply.code(204).send(null);
    },
  );

  app.get(
    '/organizations/:id/notif-targets',
    {
      config: admin,
      schema: {
        operationId: 'listNotifTargets',
        tags,
        params: idParams,
        response: { 200: z.array(notifTargetSchema), ...errors },
      },
    },
    async (req) => targets.list(principalOf(req), req.params.id),
  );
  app.get(
    '/organizations/:id/notif-targets/:ntid',
    {
      config: admin,
      schema: {
        operationId: 'getNotifTarget',
        tags,
        params: targetParams,
        response: { 200: notifTargetSchema, ...errors },
      },
    },
    async (req) => targets.get(principalOf(req), req.params.id, req.params.ntid),
  );
  app.post(
    '/organizations/:id/notif-targets',
    {
      config: admin,
      schema: {
        operationId: 'createNotifTarget',
        tags,
        params: idParams,
        body: notifTargetInputSchema,
        response: { 201: notifTargetSchema, ...errors },
      },
    },
    async (req, reply) => reply.code(201).send(await targets.create(principalOf(req), req.params.id, req.body, req.ip)),
  );
  app.patch(
    '/organizations/:id/notif-targets/:ntid',
    {
      config: admin,
      schema: {
        operationId: 'updateNotifTarget',
        tags,
        params: targetParams,
        body: updateNotifTargetBodySchema,
        response: { 200: notifTargetSchema, ...errors },
      },
    },
    async (req) => targets.update(principalOf(req), req.params.id, req.params.ntid, req.body, req.ip),
  );
  app.delete(
    '/organizations/:id/notif-targets/:ntid',
    {
      config: admin,
      schema: { operationId: 'deleteNotifTarget', tags, params: targetParams, response: { 204: z.null(), ...errors } },
    },
    async (req, reply) => {
      await targets.remove(principalOf(req), req.params.id, req.params.ntid, req.ip);
      return reply.code(204).send(null);
    },
  );
  app.post(
    '/organizations/:id/notif-targets/:ntid/test',
    {
      config: admin,
      schema: {
        operationId: 'testNotifTarget',
        tags,
        params: targetParams,
        response: { 200: testNotificationResultSchema, ...errors },
      },
    },
    async (req) => targets.test(principalOf(req), req.params.id, req.params.ntid, req.ip),
  );
};
