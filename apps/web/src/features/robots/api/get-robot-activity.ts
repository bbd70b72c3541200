import { activityOps } from '@portal/contract';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { opPageQuery } from '@/lib/api-hooks';
import { resolvedZone } from '@/lib/format';
import { queryKeys } from '@/lib/query-keys';
import { activityFilter, type ActivityParams } from '../activity-params';

/** GET /robots/:id/activity?filter=: newest first, one page and the X-Total-Count total. */
export const robotActivityQueryOptions = (id: number, params: ActivityParams, timeZone: string) => ({
  ...opPageQuery(activityOps.listRobotActivity, queryKeys.robots.part(id, 'activity', { params, timeZone }), {
    params: { id },
    query: { filter: activityFilter(params, timeZone) },
  }),
  placeholderData: keepPreviousData,
});

/** `timeZone`: the building's (its days are the date filter's days); the browser's while it loads. */
export const useRobotActivity = (id: number, params: ActivityParams, timeZone: string | undefined) =>
  useQuery(robotActivityQueryOptions(id, params, resolvedZone(timeZone)));
