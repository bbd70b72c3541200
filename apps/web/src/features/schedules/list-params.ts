import { SCHEDULE_LOG_RESULTS, SCHEDULE_REPEATS, type Filter, type Where } from '@portal/contract';
import { z } from 'zod';
import { likePattern, listParam, whereOf } from '@/lib/list-params';
import { addMinutes, instantOf } from './time';

export const SCHEDULES_PER_PAGE = 20;
export const SCHEDULE_LOGS_PER_PAGE = 30;

/** `?q=patrol&building=10&robot=3&flow=7&repeat=weekly&enabled=1&page=2` */
export const scheduleListSchema = z.object({
  page: listParam.page(),
  q: listParam.text(),
  building: listParam.id(),
  robot: listParam.id(),
  flow: listParam.id(),
  repeat: listParam.oneOf(SCHEDULE_REPEATS),
  enabled: listParam.oneOf([0, 1] as const),
});
export type ScheduleListParams = z.output<typeof scheduleListSchema>;

/** The LoopBack filter of the entry list: title search, building, robot, flow, repeat, enabled; by title. */
export function scheduleListFilter(p: ScheduleListParams): Filter {
  const and: Where[] = [];
  if (p.q) and.push({ title: { like: likePattern(p.q) } });
  if (p.building !== null) and.push({ buildingId: p.building });
  if (p.robot !== null) and.push({ robotId: p.robot });
  if (p.flow !== null) and.push({ flowId: p.flow });
  if (p.repeat !== null) and.push({ repeat: p.repeat });
  if (p.enabled !== null) and.push({ enabled: p.enabled === 1 });
  return {
    ...whereOf(and),
    order: 'title ASC',
    limit: SCHEDULES_PER_PAGE,
    skip: (p.page - 1) * SCHEDULES_PER_PAGE,
  };
}

/** The log's filters (the page is in the path): `?building=10&robot=3&flow=7&result=fail&from=2026-11-01&to=2026-11-30` */
export const scheduleLogSchema = z.object({
  building: listParam.id(),
  robot: listParam.id(),
  flow: listParam.id(),
  result: listParam.oneOf(SCHEDULE_LOG_RESULTS),
  from: listParam.day(),
  to: listParam.day(),
});
export type ScheduleLogParams = z.output<typeof scheduleLogSchema>;

/**
 * The LoopBack filter of the log, newest first. The dates are days of the building's zone (the
 * browser's without a building): `from` 00:00 up to the end of `to`.
 */
export function scheduleLogFilter(p: ScheduleLogParams, page: number, timeZone: string | undefined): Filter {
  const and: Where[] = [];
  if (p.building !== null) and.push({ buildingId: p.building });
  if (p.robot !== null) and.push({ robotId: p.robot });
  if (p.flow !== null) and.push({ flowId: p.flow });
  if (p.result !== null) and.push({ result: p.result });
  if (p.from) and.push({ dueAt: { gte: instantOf(`${p.from}T00:00`, timeZone) } });
  if (p.to) and.push({ dueAt: { lt: instantOf(addMinutes(`${p.to}T00:00`, 24 * 60), timeZone) } });
  return {
    ...whereOf(and),
    order: 'dueAt DESC',
    limit: SCHEDULE_LOGS_PER_PAGE,
    skip: (page - 1) * SCHEDULE_LOGS_PER_PAGE,
  };
}
