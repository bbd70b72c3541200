import { ACTIVITY_KINDS, type Filter, type Where } from '@portal/contract';
import { z } from 'zod';
import { listParam, whereOf } from '@/lib/list-params';

export const ACTIVITY_PER_PAGE = 20;
const LEVELS = [0, 1, 2, 3, 4, 5, 6, 7] as const;

/**
 * The robot page's activity log in the URL (prefixed, beside the page's other parameters):
 * `?activityPage=&activityLevel=<max level>&activityKind=&activityFrom=YYYY-MM-DD&activityTo=YYYY-MM-DD`.
 */
export const activitySchema = z.object({
  activityPage: listParam.page(),
  activityLevel: listParam.oneOf(LEVELS),
  activityKind: listParam.oneOf(ACTIVITY_KINDS),
  activityFrom: listParam.day(),
  activityTo: listParam.day(),
});
export type ActivityParams = z.output<typeof activitySchema>;

/** The zone's offset from UTC (ms) at an instant. */
function zoneOffsetMs(timeZone: string, at: Date): number {
  const parts = new Intl.DateTimeFormat('en-US', {
    timeZone,
    hourCycle: 'h23',
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
  }).formatToParts(at);
  const get = (type: string) => Number(parts.find((p) => p.type === type)?.value ?? 0);
  const wall = Date.UTC(get('year'), get('month') - 1, get('day'), get('hour'), get('minute'), get('second'));
  return wall - Math.floor(at.getTime() / 1000) * 1000;
}

/** The first (or last) instant of a day in a time zone (the building's: its days are the log's days), as ISO text. */
export function dayBoundary(day: string, end: boolean, timeZone: string): string {
  const wall = Date.parse(`${day}T${end ? '23:59:59.999' : '00:00:00.000'}Z`);
  const offset = zoneOffsetMs(timeZone, new Date(wall));
  // A second look at the offset of the instant found settles a day where the offset changes (DST).
  const settled = zoneOffsetMs(timeZone, new Date(wall - offset));
  return new Date(wall - settled).toISOString();
}

/** The API filter of the log's state: newest first, a page of ACTIVITY_PER_PAGE. */
export function activityFilter(p: ActivityParams, timeZone: string): Filter {
  const and: Where[] = [];
  if (p.activityLevel !== null) and.push({ level: { lte: p.activityLevel } });
  if (p.activityKind !== null) and.push({ kind: p.activityKind });
  if (p.activityFrom) and.push({ at: { gte: dayBoundary(p.activityFrom, false, timeZone) } });
  if (p.activityTo) and.push({ at: { lte: dayBoundary(p.activityTo, true, timeZone) } });
  return {
    ...whereOf(and),
    order: 'at DESC',
    limit: ACTIVITY_PER_PAGE,
    skip: (p.activityPage - 1) * ACTIVITY_PER_PAGE,
  };
}
