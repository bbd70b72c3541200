import { mapOps } from '@portal/contract';
import { useQuery } from '@tanstack/react-query';
import { opQuery } from '@/lib/api-hooks';
import { queryKeys } from '@/lib/query-keys';

/** GET /maps/:floorId/waypoints: the waypoints of the floor's current map. */
export const waypointsQueryOptions = (floorId: number) =>
  opQuery(mapOps.listWaypoints, queryKeys.maps.part(floorId, 'waypoints'), { params: { floorId } });

export const useWaypoints = (floorId: number) => useQuery(waypointsQueryOptions(floorId));
