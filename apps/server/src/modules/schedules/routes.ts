import type { FastifyPluginAsync } from 'fastify';
import { scheduleOps } from '@portal/contract';
import type { AppContext } from '../../context.ts';
import { principalOf } from '../../plugins/auth.ts';
import { routes } from '../../lib/route.ts';
import { scheduleService } from './schedule-service.ts';
import { startPositionService } from './start-position-service.ts';

/** Schedules and their log (docs/api-schedules.md). */
export const scheduleRoutes: FastifyPluginAsync<{ ctx: AppContext }> = async (app, { ctx }) => {
  const schedules = scheduleService(ctx);
  // Reference images of the start position: taken after a save (in the background) and on request.
  const references = startPositionService(ctx);
  app.addHook('onClose', async () => references.close());
  routes(app, scheduleOps, {
    listSchedules: async (req) => schedules.list(principalOf(req), req.query.filter),
    createSchedule: async (req) => {
      const entry = await schedules.create(principalOf(req), req.body, req.ip);
      if (ctx.config.scheduleStartCheck) references.refreshSoon(entry.id);
      return entry;
    },
    listScheduleOccurrences: async (req) => schedules.occurrences(principalOf(req), req.query),
    listScheduleLogs: async (req) => schedules.logs(principalOf(req), req.query.filter),
    getSchedule: async (req) => schedules.get(principalOf(req), req.params.id),
    updateSchedule: async (req) => {
      const entry = await schedules.update(principalOf(req), req.params.id, req.body, req.ip);
      if (ctx.config.scheduleStartCheck) references.refreshSoon(entry.id);
      return entry;
    },
    deleteSchedule: async (req) => {
      // The reference images go with the entry (their rows by the foreign key, their files here).
      const files = await references.fileKeys(req.params.id);
      await schedules.remove(principalOf(req), req.params.id, req.ip);
      await references.removeFiles(files);
    },
    listScheduleReferences: async (req) => {
      await schedules.get(principalOf(req), req.params.id);
      return references.list(req.params.id);
    },
    takeScheduleReferences: async (req) => {
      await schedules.get(principalOf(req), req.params.id);
      return references.take(req.params.id);
    },
  });
};
