import { pendingRobotSchema } from '@portal/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { z } from 'zod';
import { api } from '@/lib/api-client';
import { robotKeys } from './keys';

/** GET /robots/pending (system administrators): robots knocking with unknown credentials. */
export const getPendingRobots = () => api.get('/robots/pending', z.array(pendingRobotSchema));

export const pendingRobotsQueryOptions = () =>
  queryOptions({ queryKey: robotKeys.pending, queryFn: getPendingRobots, refetchInterval: 30_000 });

export const usePendingRobots = (enabled: boolean) => useQuery({ ...pendingRobotsQueryOptions(), enabled });
