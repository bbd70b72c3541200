import {
  REPORT_RESULTS,
  REPORT_TYPES,
  type Filter,
  type ReportSelection,
  type ReportType,
  type Where,
} from '@portal/contract';
import { z } from 'zod';
import { listParam, whereOf } from '@/lib/list-params';
import { dayEndInstant, dayStartInstant } from './time';

export const REPORTS_PER_PAGE = 30;
export const EXPORTS_PER_PAGE = 30;
export const TEMPLATES_PER_PAGE = 30;

/**
 * The report list's filters (the page is in the path):
 * `?building=10&floor=2&robot=3&type=0&result=9&abnormal=1&from=2026-11-01&to=2026-11-30`
 */
export const reportListSchema = z.object({
  building: listParam.id(),
  floor: listParam.id(),
  robot: listParam.id(),
  type: listParam.oneOf(REPORT_TYPES),
  result: listParam.oneOf(REPORT_RESULTS),
  abnormal: listParam.oneOf([1] as const),
  from: listParam.day(),
  to: listParam.day(),
});
export type ReportListParams = z.output<typeof reportListSchema>;

/**
 * The reports the filters select, as an export's `selection` (the contract's names). The dates are
 * days of the building's zone (the browser's without a building): `from` 00:00 up to the end of `to`.
 */
export function reportSelection(p: ReportListParams, timeZone: string | undefined): ReportSelection {
  const s: ReportSelection = {};
  if (p.building !== null) s.buildingId = p.building;
  if (p.floor !== null) s.floorId = p.floor;
  if (p.robot !== null) s.robotId = p.robot;
  if (p.type !== null) s.type = p.type as ReportType;
  if (p.result !== null) s.result = p.result;
  if (p.abnormal === 1) s.abnormal = true;
  if (p.from) s.from = dayStartInstant(p.from, timeZone);
  if (p.to) s.to = dayEndInstant(p.to, timeZone);
  return s;
}

/** The LoopBack filter of the list page, newest first: the same selection as an export's. */
export function reportListFilter(p: ReportListParams, page: number, timeZone: string | undefined): Filter {
  const s = reportSelection(p, timeZone);
  const and: Where[] = [];
  if (s.buildingId !== undefined) and.push({ buildingId: s.buildingId });
  if (s.floorId !== undefined) and.push({ floorId: s.floorId });
  if (s.robotId !== undefined) and.push({ robotId: s.robotId });
  if (s.type !== undefined) and.push({ type: s.type });
  if (s.result !== undefined) and.push({ result: s.result });
  if (s.abnormal) and.push({ abnormal: true });
  if (s.from) and.push({ startedAt: { gte: s.from } });
  if (s.to) and.push({ startedAt: { lt: s.to } });
  return {
    ...whereOf(and),
    order: 'startedAt DESC',
    limit: REPORTS_PER_PAGE,
    skip: (page - 1) * REPORTS_PER_PAGE,
  };
}

/** A page of a list paged in its path, newest first. */
export const pageFilter = (page: number, perPage: number, order = 'createdAt DESC'): Filter => ({
  order,
  limit: perPage,
  skip: (page - 1) * perPage,
});
