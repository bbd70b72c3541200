import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { mapKeys } from './keys';

/** DELETE /maps/:floorId/waypoints/:id (409 IN_USE naming the routes that visit it). */
export const deleteWaypoint = (floorId: number, id: number) =>
  api.command('DELETE', `/maps/${floorId}/waypoints/${id}`);

export const useDeleteWaypoint = (floorId: number) => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => deleteWaypoint(floorId, id),
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: mapKeys.map(floorId) }),
  });
};
