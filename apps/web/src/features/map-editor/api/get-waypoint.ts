import { waypointSchema } from '@portal/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { mapKeys } from './keys';

export const getWaypoint = (floorId: number, id: number) => api.get(`/maps/${floorId}/waypoints/${id}`, waypointSchema);

export const waypointQueryOptions = (floorId: number, id: number) =>
  queryOptions({ queryKey: mapKeys.waypoint(floorId, id), queryFn: () => getWaypoint(floorId, id) });

export const useWaypoint = (floorId: number, id: number) => useQuery(waypointQueryOptions(floorId, id));
