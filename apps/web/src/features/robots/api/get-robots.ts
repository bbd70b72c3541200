import { robotOps } from '@portal/contract';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { opPageQuery } from '@/lib/api-hooks';
import { queryKeys } from '@/lib/query-keys';
import { robotListFilter, type RobotListParams } from '../list-params';

/** GET /robots?filter=: one page and the X-Total-Count total. */
export const robotsQueryOptions = (params: RobotListParams) => ({
  ...opPageQuery(robotOps.listRobots, queryKeys.robots.list(params), { query: { filter: robotListFilter(params) } }),
  placeholderData: keepPreviousData,
});

export const useRobots = (params: RobotListParams) => useQuery(robotsQueryOptions(params));
