import { mapOps, type WaypointInput } from '@portal/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { client } from '@/lib/api-client';
import { useInvalidate } from '@/lib/api-hooks';
import { queryKeys } from '@/lib/query-keys';

/**
 * POST /maps/:floorId/waypoints (id null) or PUT /maps/:floorId/waypoints/:id: a new map revision. An
 * edit names the version it was based on (`updatedAt`), so a waypoint changed since is 409 STALE_UPDATE.
 */
const saveWaypoint = (floorId: number, id: number | null, version: string | undefined, body: WaypointInput) =>
  id === null
    ? client.call(mapOps.createWaypoint, { params: { floorId }, body })
    : client.call(mapOps.updateWaypoint, { params: { floorId, id }, body: { ...body, updatedAt: version ?? '' } });

export const useSaveWaypoint = (floorId: number, id: number | null, version?: string) => {
  const queryClient = useQueryClient();
  const invalidate = useInvalidate();
  return useMutation({
    mutationFn: (body: WaypointInput) => saveWaypoint(floorId, id, version, body),
    onSuccess: (w) => {
      void invalidate('maps');
      queryClient.setQueryData(queryKeys.maps.part(floorId, 'waypoint', w.id), w);
    },
  });
};
