import { robotSchema } from '@portal/contract';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { z } from 'zod';
import { apiRequest, parseWith } from '@/lib/api-client';
import { totalOf } from '@/lib/list-params';
import { robotListFilter, type RobotListParams } from '../list-params';
import { robotKeys } from './keys';

/** GET /robots?filter=: one page and the X-Total-Count total. */
export async function getRobots(params: RobotListParams) {
  const res = await apiRequest('GET', '/robots', { query: { filter: JSON.stringify(robotListFilter(params)) } });
  const items = parseWith(z.array(robotSchema), res.data);
  return { items, total: totalOf(res.headers, items.length) };
}

export const robotsQueryOptions = (params: RobotListParams) =>
  queryOptions({
    queryKey: robotKeys.list(params),
    queryFn: () => getRobots(params),
    placeholderData: keepPreviousData,
  });

export const useRobots = (params: RobotListParams) => useQuery(robotsQueryOptions(params));
