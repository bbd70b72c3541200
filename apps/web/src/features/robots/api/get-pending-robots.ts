import { robotOps } from '@portal/contract';
import { useQuery } from '@tanstack/react-query';
import { opQuery } from '@/lib/api-hooks';
import { queryKeys } from '@/lib/query-keys';

/** GET /robots/pending (system administrators): robots knocking with unknown credentials. */
export const pendingRobotsQueryOptions = () => ({
  ...opQuery(robotOps.listPendingRobots, queryKeys.robots.list('pending')),
  refetchInterval: 30_000,
});

export const usePendingRobots = (enabled: boolean) => useQuery({ ...pendingRobotsQueryOptions(), enabled });
