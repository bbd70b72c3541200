import { poseNetworkSchema } from '@portal/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { poseKeys } from './keys';

export const getPoseNetwork = (id: number) => api.get(`/pose-networks/${id}`, poseNetworkSchema);

export const poseNetworkQueryOptions = (id: number) =>
  queryOptions({ queryKey: poseKeys.network(id), queryFn: () => getPoseNetwork(id) });

export const usePoseNetwork = (id: number) => useQuery(poseNetworkQueryOptions(id));
