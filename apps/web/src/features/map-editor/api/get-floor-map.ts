import { floorMapSchema } from '@portal/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { mapKeys } from './keys';

/** GET /floors/:id/map: the current revision with the floor's image frame. */
export const getFloorMap = (floorId: number) => api.get(`/floors/${floorId}/map`, floorMapSchema);

export const floorMapQueryOptions = (floorId: number) =>
  queryOptions({ queryKey: mapKeys.map(floorId), queryFn: () => getFloorMap(floorId), staleTime: Infinity });

export const useFloorMap = (floorId: number) => useQuery(floorMapQueryOptions(floorId));
