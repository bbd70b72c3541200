import { floorOps, type Filter } from '@portal/contract';
import { useQuery } from '@tanstack/react-query';
import { opQuery } from '@/lib/api-hooks';
import { queryKeys } from '@/lib/query-keys';

/** Spec section 7: floors of a building, top floor first. */
const floorsFilter: Filter = {
  fields: ['id', 'name', 'buildingId', 'type', 'index', 'img', 'ugomap'],
  order: 'index DESC',
};

/** The same call and cache entry as the dashboard's. */
export const floorsQueryOptions = (buildingId: number) =>
  opQuery(floorOps.listFloors, queryKeys.floors.options('building', buildingId), {
    params: { id: buildingId },
    query: { filter: floorsFilter },
  });

export const useFloors = (buildingId: number | null) =>
  useQuery({ ...floorsQueryOptions(buildingId ?? 0), enabled: buildingId !== null });
