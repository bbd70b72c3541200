import type { FastifyPluginAsync } from 'fastify';
import { robotFeatureOps } from '@portal/contract';
import type { AppContext } from '../../context.ts';
import { principalOf } from '../../plugins/auth.ts';
import { routes } from '../../lib/route.ts';
import type { TeleopService } from '../teleop/teleop-service.ts';
import { actionService } from './action-service.ts';
import { consoleService } from './console-service.ts';
import { photoAttribution } from './photo-attribution.ts';
import { photoService } from './photo-service.ts';
import { robotService } from '../robots/robot-service.ts';
import { thermalPresetService } from './thermal-preset-service.ts';

/**
 * Robot features of the operator screen and the console (docs/api.md "Robot features"): the robot
 * by serial number, capabilities and live teleop facts, feature actions (VDA 5050 instant
 * actions), photos, thermal presets; the console and the OS update for administrators
 * (`access: 'admin'`). Every robot is looked up within the caller's scope: another tenant's robot
 * is "not found".
 */
export const robotFeatureRoutes: FastifyPluginAsync<{ ctx: AppContext; teleop: TeleopService }> = async (
  app,
  { ctx, teleop },
) => {
  const attribution = photoAttribution(ctx.clock);
  const actions = actionService(ctx, { teleop, photos: attribution });
  const consoles = consoleService(ctx);
  const photos = photoService(ctx, attribution);
  const presets = thermalPresetService(ctx);
  const robots = robotService(ctx);

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

  routes(app, robotFeatureOps, {
    getRobotBySerial: async (req) => robots.getBySerial(principalOf(req), req.params.serialNo),
    getRobotTeleop: async (req) => actions.teleop(principalOf(req), req.params.id),
    sendRobotAction: async (req) => actions.send(principalOf(req), req.params.id, req.body, req.ip),
    listRobotPhotos: async (req) => photos.list(principalOf(req), req.params.id, req.query.limit),
    listThermalPresets: async (req) => presets.list(principalOf(req), req.params.id),
    saveThermalPreset: async (req, reply) => {
      const result = await presets.save(principalOf(req), req.params.id, req.body, req.ip);
      if (!result.overwritten) reply.code(201);
      return result;
    },
    deleteThermalPreset: async (req) => presets.remove(principalOf(req), req.params.id, req.params.presetId, req.ip),

    getRobotConsole: async (req) => consoles.get(principalOf(req), req.params.id),
    getRobotConsoleLog: async (req) => consoles.log(principalOf(req), req.params.id, req.query.after),
    sendRobotConsoleAction: async (req) => consoles.action(principalOf(req), req.params.id, req.body.action, req.ip),
    startRobotOsUpdate: async (req) => consoles.osUpdate(principalOf(req), req.params.id, req.ip),
  });
};
