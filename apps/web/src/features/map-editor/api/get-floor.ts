import { floorOps } from '@portal/contract';
import { useQuery } from '@tanstack/react-query';
import { opQuery } from '@/lib/api-hooks';
import { queryKeys } from '@/lib/query-keys';

/** GET /floors/:id: the floor's name for the editor's title. */
export const floorQueryOptions = (id: number) => ({
  ...opQuery(floorOps.getFloor, queryKeys.floors.detail(id), { params: { id } }),
  staleTime: 60_000,
});

export const useFloor = (id: number) => useQuery(floorQueryOptions(id));
