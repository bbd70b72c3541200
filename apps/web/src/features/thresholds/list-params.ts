import { isDataAdmin, THRESHOLD_LEVELS, THRESHOLD_STATUSES, type Filter, type Where } from '@portal/contract';
import { z } from 'zod';
import { likePattern, listParam, whereOf } from '@/lib/list-params';

export const THRESHOLD_RULES_PER_PAGE = 20;
export const THRESHOLD_LOGS_PER_PAGE = 50;

/** The rule list's state as it stands in the URL: `?page=2&q=boiler&status=1&level=9`. */
export const thresholdListSchema = z.object({
  page: listParam.page(),
  q: listParam.text(),
  status: listParam.oneOf(THRESHOLD_STATUSES),
  level: listParam.oneOf(THRESHOLD_LEVELS),
});
export type ThresholdListParams = z.output<typeof thresholdListSchema>;

/** The LoopBack filter of the rule list: name search, status, level, paging; by name. */
export function thresholdListFilter(p: ThresholdListParams): Filter {
  const and: Where[] = [];
  if (p.q) and.push({ name: { like: likePattern(p.q) } });
  if (p.status !== null) and.push({ status: p.status });
  if (p.level !== null) and.push({ level: p.level });
  return {
    ...whereOf(and),
    order: 'name ASC',
    limit: THRESHOLD_RULES_PER_PAGE,
    skip: (p.page - 1) * THRESHOLD_RULES_PER_PAGE,
  };
}

/** The log's filters (the page is in the path): `?rule=3&level=9&from=2026-11-01&to=2026-11-30`. */
export const thresholdLogSchema = z.object({
  rule: listParam.id(),
  level: listParam.oneOf(THRESHOLD_LEVELS),
  from: listParam.day(),
  to: listParam.day(),
});
export type ThresholdLogParams = z.output<typeof thresholdLogSchema>;

/** The start of a day of the browser's zone, as an instant. */
const dayStart = (day: string, plusDays = 0): string => {
  const [y, m, d] = day.split('-').map(Number) as [number, number, number];
  return new Date(y, m - 1, d + plusDays).toISOString();
};

/** The LoopBack filter of the log, newest first: `from` 00:00 up to the end of `to` (browser's zone). */
export function thresholdLogFilter(p: ThresholdLogParams, page: number): Filter {
  const and: Where[] = [];
  if (p.rule !== null) and.push({ ruleId: p.rule });
  if (p.level !== null) and.push({ level: p.level });
  if (p.from) and.push({ at: { gte: dayStart(p.from) } });
  if (p.to) and.push({ at: { lt: dayStart(p.to, 1) } });
  return {
    ...whereOf(and),
    order: 'at DESC',
    limit: THRESHOLD_LOGS_PER_PAGE,
    skip: (page - 1) * THRESHOLD_LOGS_PER_PAGE,
  };
}

/**
 * Organization and system administrators manage threshold rules (spec §1, §6; docs/api-thresholds.md);
 * area managers and general operators read them.
 */
export const canManageThresholds = (type: number | undefined): boolean => type !== undefined && isDataAdmin(type);
