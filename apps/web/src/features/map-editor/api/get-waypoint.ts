import { mapOps } from '@portal/contract';
import { useQuery } from '@tanstack/react-query';
import { opQuery } from '@/lib/api-hooks';
import { queryKeys } from '@/lib/query-keys';

/** GET /maps/:floorId/waypoints/:id. */
export const waypointQueryOptions = (floorId: number, id: number) =>
  opQuery(mapOps.getWaypoint, queryKeys.maps.part(floorId, 'waypoint', id), { params: { floorId, id } });

export const useWaypoint = (floorId: number, id: number) => useQuery(waypointQueryOptions(floorId, id));
