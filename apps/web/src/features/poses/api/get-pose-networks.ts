import { poseNetworkSchema } from '@portal/contract';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { z } from 'zod';
import { apiRequest, parseWith } from '@/lib/api-client';
import { totalOf } from '@/lib/list-params';
import { poseListFilter, type PoseListParams } from '../list-params';
import { poseKeys } from './keys';

/** GET /pose-networks?filter=: one page and the X-Total-Count total. */
export async function getPoseNetworks(params: PoseListParams) {
  const res = await apiRequest('GET', '/pose-networks', { query: { filter: JSON.stringify(poseListFilter(params)) } });
  const items = parseWith(z.array(poseNetworkSchema), res.data);
  return { items, total: totalOf(res.headers, items.length) };
}

export const poseNetworksQueryOptions = (params: PoseListParams) =>
  queryOptions({
    queryKey: poseKeys.networkList(params),
    queryFn: () => getPoseNetworks(params),
    placeholderData: keepPreviousData,
  });

export const usePoseNetworks = (params: PoseListParams) => useQuery(poseNetworksQueryOptions(params));
