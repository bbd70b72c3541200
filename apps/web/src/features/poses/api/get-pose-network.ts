import { poseNetworkOps } from '@portal/contract';
import { useQuery } from '@tanstack/react-query';
import { opQuery } from '@/lib/api-hooks';
import { queryKeys } from '@/lib/query-keys';

export const poseNetworkQueryOptions = (id: number) =>
  opQuery(poseNetworkOps.getPoseNetwork, queryKeys.poseNetworks.detail(id), { params: { id } });

export const usePoseNetwork = (id: number) => useQuery(poseNetworkQueryOptions(id));
