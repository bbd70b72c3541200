import type { FastifyPluginAsync } from 'fastify';
import { scheduleOps } from '@portal/contract';
import type { AppContext } from '../../context.ts';
import { principalOf } from '../../plugins/auth.ts';
import { routes } from '../../lib/route.ts';
import { scheduleService } from './schedule-service.ts';

/** Schedules and their log (docs/api-schedules.md). */
export const scheduleRoutes: FastifyPluginAsync<{ ctx: AppContext }> = async (app, { ctx }) => {
  const schedules = scheduleService(ctx);
  routes(app, scheduleOps, {
    listSchedules: async (req) => schedules.list(principalOf(req), req.query.filter),
    createSchedule: async (req) => schedules.create(principalOf(req), req.body, req.ip),
    listScheduleOccurrences: async (req) => schedules.occurrences(principalOf(req), req.query),
    listScheduleLogs: async (req) => schedules.logs(principalOf(req), req.query.filter),
    getSchedule: async (req) => schedules.get(principalOf(req), req.params.id),
    updateSchedule: async (req) => schedules.update(principalOf(req), req.params.id, req.body, req.ip),
    deleteSchedule: async (req) => schedules.remove(principalOf(req), req.params.id, req.ip),
  });
};
