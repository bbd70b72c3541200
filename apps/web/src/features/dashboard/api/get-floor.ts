import { floorDetailSchema } from '@portal/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';

/** GET /floors/:id: the map image and its geometry (resolution, origin). */
export const getFloor = (id: number) => api.get(`/floors/${id}`, floorDetailSchema);

export const floorQueryOptions = (id: number) =>
  queryOptions({ queryKey: ['floors', id], queryFn: () => getFloor(id), staleTime: 60_000 });

export const useFloor = (id: number | null) => useQuery({ ...floorQueryOptions(id ?? 0), enabled: id !== null });
