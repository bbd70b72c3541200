import { buildingOps, type Filter } from '@portal/contract';
import { useQuery } from '@tanstack/react-query';
import { opQuery } from '@/lib/api-hooks';
import { queryKeys } from '@/lib/query-keys';

/** Active buildings of the operator's scope, newest first, with groups (spec section 7). */
const activeBuildingsFilter: Filter = {
  where: { status: 1 },
  order: 'updatedAt DESC',
  include: ['groups', 'flowGroups'],
};

/** Under the buildings root: a change to any building refreshes the location switcher at once. */
export const activeBuildingsQueryOptions = () => ({
  ...opQuery(buildingOps.listBuildings, queryKeys.buildings.options('active', activeBuildingsFilter), {
    query: { filter: activeBuildingsFilter },
  }),
  staleTime: 5 * 60_000,
});

export const useActiveBuildings = () => useQuery(activeBuildingsQueryOptions());
