import { floorOps, type Filter } from '@portal/contract';
import { useQuery } from '@tanstack/react-query';
import { opQuery } from '@/lib/api-hooks';
import { queryKeys } from '@/lib/query-keys';

/** Spec section 7: a building's floors, top floor first. */
const filter: Filter = {
  fields: ['id', 'name', 'buildingId', 'type', 'index', 'img', 'updatedAt'],
  order: 'index DESC',
  limit: 1000,
};

export const buildingFloorsQueryOptions = (buildingId: number) =>
  opQuery(floorOps.listFloors, queryKeys.floors.list({ buildingId, filter }), {
    params: { id: buildingId },
    query: { filter },
  });

export const useBuildingFloors = (buildingId: number) => useQuery(buildingFloorsQueryOptions(buildingId));
