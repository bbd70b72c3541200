import { floorOps, type Filter } from '@portal/contract';
import { useQuery } from '@tanstack/react-query';
import { opQuery } from '@/lib/api-hooks';
import { queryKeys } from '@/lib/query-keys';

/** Spec section 7: a building's floors, top floor first, with what pickers and labels need. */
const floorsFilter: Filter = {
  fields: ['id', 'name', 'buildingId', 'type', 'index', 'img', 'ugomap'],
  order: 'index DESC',
};

/** One call and cache entry for every screen that picks or names floors (robots, dashboard). */
export const floorsQueryOptions = (buildingId: number) =>
  opQuery(floorOps.listFloors, queryKeys.floors.options('building', buildingId), {
    params: { id: buildingId },
    query: { filter: floorsFilter },
  });

export const useFloors = (buildingId: number | null) =>
  useQuery({ ...floorsQueryOptions(buildingId ?? 0), enabled: buildingId !== null });
