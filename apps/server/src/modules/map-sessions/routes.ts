import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  errorBodySchema,
  floorMapSchema,
  mapSessionSchema,
  startMappingBodySchema,
  startRecordingBodySchema,
  stopMappingBodySchema,
  stopRecordingBodySchema,
} from '@portal/contract';
import type { AppContext } from '../../context.ts';
import { principalOf } from '../../plugins/auth.ts';
import { mapSessionService } from './session-service.ts';

const idParams = z.object({ id: z.coerce.number().int().min(1).max(2_147_483_647) });
const errors = { '4xx': errorBodySchema };

/**
 * Mapping by a robot and route recording (docs/api-maps.md "Mapping and route recording"). Sessions
 * live in memory on this server (one per robot). Everything but reading is for organization and
 * system administrators, as for editing floor maps (`access: 'admin'` stops general operators; the
 * service stops area managers).
 */
export const mapSessionRoutes: FastifyPluginAsyncZod<{ ctx: AppContext }> = async (app, { ctx }) => {
  const sessions = mapSessionService(ctx);
  app.addHook('onClose', async () => sessions.close());
  const tags = ['robots', 'maps'];
  const write = { access: 'admin' as const };
  const sessionAnswer = { 200: mapSessionSchema, ...errors };

  app.get(
    '/robots/:id/map-session',
    // 200 with null when the robot has no session: polling for one is not an error.
    {
      schema: {
        operationId: 'getMapSession',
        tags,
        params: idParams,
        response: { 200: mapSessionSchema.nullable(), ...errors },
      },
    },
    async (req) => sessions.get(principalOf(req), req.params.id),
  );

  // ---------------------------------------------------------------- mapping
  app.post(
    '/robots/:id/mapping',
    {
      config: write,
      schema: {
        operationId: 'startMapping',
        tags,
        params: idParams,
        body: startMappingBodySchema,
        response: { 202: mapSessionSchema, ...errors },
      },
    },
    async (req, reply) =>
      reply.code(202).send(await sessions.startMapping(principalOf(req), req.params.id, req.body.floorId, req.ip)),
  );
  for (const what of ['pause', 'resume'] as const) {
    app.post(
      `/robots/:id/mapping/${what}`,
      {
        config: write,
        schema: { operationId: `${what}Mapping`, tags, params: idParams, response: sessionAnswer },
      },
      async (req) => sessions.pauseResume(principalOf(req), req.params.id, 'mapping', what),
    );
  }
  app.post(
    '/robots/:id/mapping/stop',
    {
      config: write,
      schema: {
        operationId: 'stopMapping',
        tags,
        params: idParams,
        body: stopMappingBodySchema,
        response: sessionAnswer,
      },
    },
    async (req) => sessions.stopMapping(principalOf(req), req.params.id, req.body.save, req.ip),
  );

  // ---------------------------------------------------------------- route recording
  app.post(
    '/robots/:id/route-recording',
    {
      config: write,
      schema: {
        operationId: 'startRouteRecording',
        tags,
        params: idParams,
        body: startRecordingBodySchema,
        response: { 202: mapSessionSchema, ...errors },
      },
    },
    async (req, reply) =>
      reply.code(202).send(await sessions.startRecording(principalOf(req), req.params.id, req.body, req.ip)),
  );
  for (const what of ['pause', 'resume'] as const) {
    app.post(
      `/robots/:id/route-recording/${what}`,
      {
        config: write,
        schema: { operationId: `${what}RouteRecording`, tags, params: idParams, response: sessionAnswer },
      },
      async (req) => sessions.pauseResume(principalOf(req), req.params.id, 'recording', what),
    );
  }
  app.post(
    '/robots/:id/route-recording/stop',
    {
      config: write,
      schema: {
        operationId: 'stopRouteRecording',
        tags,
        description: 'With `save`: answers the new floor map (the route and its two waypoints); else the session.',
        params: idParams,
        body: stopRecordingBodySchema,
        response: { 200: z.union([floorMapSchema, mapSessionSchema]), ...errors },
      },
    },
    async (req) => sessions.stopRecording(principalOf(req), req.params.id, req.body, req.ip),
  );
};
