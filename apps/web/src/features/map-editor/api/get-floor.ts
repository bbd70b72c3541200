import { floorDetailSchema } from '@portal/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { mapKeys } from './keys';

/** GET /floors/:id: the floor's name for the editor's title. */
export const getFloor = (id: number) => api.get(`/floors/${id}`, floorDetailSchema);

export const floorQueryOptions = (id: number) =>
  queryOptions({ queryKey: mapKeys.floor(id), queryFn: () => getFloor(id), staleTime: 60_000 });

export const useFloor = (id: number) => useQuery(floorQueryOptions(id));
