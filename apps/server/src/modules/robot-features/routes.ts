import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  consoleActionBodySchema,
  errorBodySchema,
  robotActionResultSchema,
  robotActionSchema,
  robotConsoleSchema,
  robotLogQuerySchema,
  robotLogSchema,
  robotPhotoSchema,
  robotSchema,
  robotTeleopSchema,
  thermalPresetInputSchema,
  thermalPresetSaveResultSchema,
  thermalPresetSchema,
} from '@portal/contract';
import type { AppContext } from '../../context.ts';
import { principalOf } from '../../plugins/auth.ts';
import type { TeleopService } from '../teleop/teleop-service.ts';
import { actionService } from './action-service.ts';
import { consoleService } from './console-service.ts';
import { photoAttribution } from './photo-attribution.ts';
import { PHOTO_LIST_DEFAULT, PHOTO_LIST_MAX, photoService } from './photo-service.ts';
import { robotService } from '../robots/robot-service.ts';
import { thermalPresetService } from './thermal-preset-service.ts';

const dbId = z.coerce.number().int().min(1).max(2_147_483_647);
const idParams = z.object({ id: dbId });
const presetParams = z.object({ id: dbId, presetId: dbId });
const serialParams = z.object({ serialNo: z.string().min(1).max(100) });
const photosQuery = z.object({
  limit: z.coerce.number().int().min(1).max(PHOTO_LIST_MAX).default(PHOTO_LIST_DEFAULT),
});
const errors = { '4xx': errorBodySchema };
const accepted = { 202: robotActionResultSchema, ...errors };

/**
 * Robot features of the operator screen and the console (docs/api.md "Robot features"): the robot
 * by serial number, capabilities and live teleop facts, feature actions (VDA 5050 instant
 * actions), photos, thermal presets; the console and the OS update for administrators
 * (`access: 'admin'`). Every robot is looked up within the caller's scope: another tenant's robot
 * is "not found".
 */
export const robotFeatureRoutes: FastifyPluginAsyncZod<{ ctx: AppContext; teleop: TeleopService }> = async (
  app,
  { ctx, teleop },
) => {
  const attribution = photoAttribution(ctx.clock);
  const actions = actionService(ctx, { teleop, photos: attribution });
  const consoles = consoleService(ctx);
  const photos = photoService(ctx, attribution);
  const presets = thermalPresetService(ctx);
  const robots = robotService(ctx);
  const tags = ['robot-features'];
  const admin = { access: 'admin' as const };

  // Photos arrive on the robot link; storing one never takes the server down.
  const storing = new Set<Promise<unknown>>();
  const offPhoto = ctx.robotLink.on('photo', (e) => {
    const job = photos
      .receive(e)
      .catch((err: unknown) => ctx.log.error({ err, robotId: e.robotId }, 'robot photo not stored'))
      .finally(() => storing.delete(job));
    storing.add(job);
  });
  app.addHook('onClose', async () => {
    offPhoto();
    await Promise.allSettled([...storing]);
  });

  app.get(
    '/robots/by-serial/:serialNo',
    {
      schema: {
        operationId: 'getRobotBySerial',
        tags,
        params: serialParams,
        response: { 200: robotSchema, ...errors },
      },
    },
    async (req) => robots.getBySerial(principalOf(req), req.params.serialNo),
  );
  app.get(
    '/robots/:id/teleop',
    {
      schema: {
        operationId: 'getRobotTeleop',
        tags,
        params: idParams,
        response: { 200: robotTeleopSchema, ...errors },
      },
    },
    async (req) => actions.teleop(principalOf(req), req.params.id),
  );
  app.post(
    '/robots/:id/actions',
    {
      schema: {
        operationId: 'sendRobotAction',
        tags,
        params: idParams,
        body: robotActionSchema,
        response: accepted,
      },
    },
    async (req, reply) => reply.code(202).send(await actions.send(principalOf(req), req.params.id, req.body, req.ip)),
  );
  app.get(
    '/robots/:id/photos',
    {
      schema: {
        operationId: 'listRobotPhotos',
        tags,
        params: idParams,
        querystring: photosQuery,
        response: { 200: z.array(robotPhotoSchema), ...errors },
      },
    },
    async (req) => photos.list(principalOf(req), req.params.id, req.query.limit),
  );
  app.get(
    '/robots/:id/thermal-presets',
    {
      schema: {
        operationId: 'listThermalPresets',
        tags,
        params: idParams,
        response: { 200: z.array(thermalPresetSchema), ...errors },
      },
    },
    async (req) => presets.list(principalOf(req), req.params.id),
  );
  app.post(
    '/robots/:id/thermal-presets',
    {
      schema: {
        operationId: 'saveThermalPreset',
        tags,
        params: idParams,
        body: thermalPresetInputSchema,
        response: { 200: thermalPresetSaveResultSchema, 201: thermalPresetSaveResultSchema, ...errors },
      },
    },
    async (req, reply) => {
      const result = await presets.save(principalOf(req), req.params.id, req.body, req.ip);
      return reply.code(result.overwritten ? 200 : 201).send(result);
    },
  );
  app.delete(
    '/robots/:id/thermal-presets/:presetId',
    {
      schema: {
        operationId: 'deleteThermalPreset',
        tags,
        params: presetParams,
        response: { 204: z.null(), ...errors },
      },
    },
    async (req, reply) => {
      await presets.remove(principalOf(req), req.params.id, req.params.presetId, req.ip);
      return reply.code(204).send(null);
    },
  );

  app.get(
    '/robots/:id/console',
    {
      config: admin,
      schema: {
        operationId: 'getRobotConsole',
        tags,
        params: idParams,
        response: { 200: robotConsoleSchema, ...errors },
      },
    },
    async (req) => consoles.get(principalOf(req), req.params.id),
  );
  app.get(
    '/robots/:id/console/log',
    {
      config: admin,
      schema: {
        operationId: 'getRobotConsoleLog',
        tags,
        params: idParams,
        querystring: robotLogQuerySchema,
        response: { 200: robotLogSchema, ...errors },
      },
    },
    async (req) => consoles.log(principalOf(req), req.params.id, req.query.after),
  );
  app.post(
    '/robots/:id/console/actions',
    {
      config: admin,
      schema: {
        operationId: 'sendRobotConsoleAction',
        tags,
        params: idParams,
        body: consoleActionBodySchema,
        response: accepted,
      },
    },
    async (req, reply) =>
      reply.code(202).send(await consoles.action(principalOf(req), req.params.id, req.body.action, req.ip)),
  );
  app.post(
    '/robots/:id/os-update',
    {
      config: admin,
      schema: {
        operationId: 'startRobotOsUpdate',
        tags,
        params: idParams,
        body: z.object({}).strict(),
        response: accepted,
      },
    },
    async (req, reply) => reply.code(202).send(await consoles.osUpdate(principalOf(req), req.params.id, req.ip)),
  );
};
