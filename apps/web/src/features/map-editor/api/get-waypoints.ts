import { waypointSchema } from '@portal/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { z } from 'zod';
import { api } from '@/lib/api-client';
import { mapKeys } from './keys';

/** GET /maps/:floorId/waypoints: the waypoints of the floor's current map. */
export const getWaypoints = (floorId: number) => api.get(`/maps/${floorId}/waypoints`, z.array(waypointSchema));

export const waypointsQueryOptions = (floorId: number) =>
  queryOptions({ queryKey: mapKeys.waypoints(floorId), queryFn: () => getWaypoints(floorId) });

export const useWaypoints = (floorId: number) => useQuery(waypointsQueryOptions(floorId));
