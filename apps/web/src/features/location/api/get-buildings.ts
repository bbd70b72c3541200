import { buildingListSchema, type Filter } from '@portal/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';

/** Active buildings of the operator's scope, newest first, with groups (spec section 7). */
const activeBuildingsFilter: Filter = {
  where: { status: 1 },
  order: 'updatedAt DESC',
  include: ['groups', 'flowGroups'],
};

export const getActiveBuildings = () =>
  api.get('/buildings', buildingListSchema, { query: { filter: JSON.stringify(activeBuildingsFilter) } });

export const activeBuildingsQueryOptions = () =>
  queryOptions({ queryKey: ['buildings', 'active'], queryFn: getActiveBuildings, staleTime: 5 * 60_000 });

export const useActiveBuildings = () => useQuery(activeBuildingsQueryOptions());
