import { waypointSchema, type WaypointInput } from '@portal/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { mapKeys } from './keys';

/** POST /maps/:floorId/waypoints (id null) or PUT /maps/:floorId/waypoints/:id. */
export const saveWaypoint = (floorId: number, id: number | null, body: WaypointInput) =>
  id === null
    ? api.send('POST', `/maps/${floorId}/waypoints`, waypointSchema, { body })
    : api.send('PUT', `/maps/${floorId}/waypoints/${id}`, waypointSchema, { body });

export const useSaveWaypoint = (floorId: number, id: number | null) => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: WaypointInput) => saveWaypoint(floorId, id, body),
    onSuccess: (w) => {
      queryClient.setQueryData(mapKeys.waypoint(floorId, w.id), w);
      void queryClient.invalidateQueries({ queryKey: mapKeys.map(floorId) });
    },
  });
};
