import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { errorBodySchema, floorListSchema, organizationListSchema } from '@portal/contract';
import type { AppContext } from '../../context.ts';
import { principalOf } from '../../plugins/auth.ts';
import { sendList } from '../../lib/list-answer.ts';
import { directoryService } from './service.ts';

const filterQuery = z.object({ filter: z.string().max(10_000).optional() });
const idParams = z.object({ id: z.coerce.number().int().min(1).max(2_147_483_647) });
const errors = { '4xx': errorBodySchema };

/** The read calls of spec section 7: buildings, organizations and floors, each scoped and filtered. */
export const directoryRoutes: FastifyPluginAsyncZod<{ ctx: AppContext }> = async (app, { ctx }) => {
  const service = directoryService(ctx);

  app.get(
    '/organizations',
    {
      schema: {
        operationId: 'listOrganizations',
        tags: ['organizations'],
        querystring: filterQuery,
        response: { 200: organizationListSchema, ...errors },
      },
    },
    async (req, reply) => {
      return sendList(reply, await service.organizations(principalOf(req), req.query.filter));
    },
  );

  app.get(
    '/buildings/:id/floors',
    {
      schema: {
        operationId: 'listFloors',
        tags: ['buildings'],
        params: idParams,
        querystring: filterQuery,
        response: { 200: floorListSchema, ...errors },
      },
    },
    async (req, reply) => {
      return sendList(reply, await service.floors(principalOf(req), req.params.id, req.query.filter));
    },
  );
};
