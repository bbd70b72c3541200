import { floorOps } from '@portal/contract';
import { useQuery } from '@tanstack/react-query';
import { opQuery } from '@/lib/api-hooks';
import { queryKeys } from '@/lib/query-keys';

/** GET /floors/:id: the map image and its geometry (resolution, origin). */
export const floorQueryOptions = (id: number) => ({
  ...opQuery(floorOps.getFloor, queryKeys.floors.detail(id), { params: { id } }),
  staleTime: 60_000,
});

export const useFloor = (id: number | null) => useQuery({ ...floorQueryOptions(id ?? 0), enabled: id !== null });
