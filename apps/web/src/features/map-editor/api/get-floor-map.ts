import { mapOps } from '@portal/contract';
import { useQuery } from '@tanstack/react-query';
import { client } from '@/lib/api-client';
import { opQuery } from '@/lib/api-hooks';
import { queryKeys } from '@/lib/query-keys';

/** GET /floors/:id/map: the current revision with the floor's image frame. */
export const getFloorMap = (floorId: number) => client.call(mapOps.getFloorMap, { params: { id: floorId } });

/** The editor holds the map it opened: refreshed only when a write of this screen says so. */
export const floorMapQueryOptions = (floorId: number) => ({
  ...opQuery(mapOps.getFloorMap, queryKeys.maps.detail(floorId), { params: { id: floorId } }),
  staleTime: Infinity,
});

export const useFloorMap = (floorId: number) => useQuery(floorMapQueryOptions(floorId));
