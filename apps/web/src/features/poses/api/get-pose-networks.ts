import { poseNetworkOps } from '@portal/contract';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { opPageQuery } from '@/lib/api-hooks';
import { queryKeys } from '@/lib/query-keys';
import { poseListFilter, type PoseListParams } from '../list-params';

/** GET /pose-networks?filter=: one page and the X-Total-Count total. */
export const poseNetworksQueryOptions = (params: PoseListParams) => {
  const filter = poseListFilter(params);
  return {
    ...opPageQuery(poseNetworkOps.listPoseNetworks, queryKeys.poseNetworks.list(filter), { query: { filter } }),
    placeholderData: keepPreviousData,
  };
};

export const usePoseNetworks = (params: PoseListParams) => useQuery(poseNetworksQueryOptions(params));
