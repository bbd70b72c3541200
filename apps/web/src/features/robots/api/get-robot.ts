import { robotOps } from '@portal/contract';
import { useQuery } from '@tanstack/react-query';
import { opQuery } from '@/lib/api-hooks';
import { queryKeys } from '@/lib/query-keys';

export const robotQueryOptions = (id: number) =>
  opQuery(robotOps.getRobot, queryKeys.robots.detail(id), { params: { id } });

export const useRobot = (id: number) => useQuery(robotQueryOptions(id));
