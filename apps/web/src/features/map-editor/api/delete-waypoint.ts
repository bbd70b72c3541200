import { mapOps } from '@portal/contract';
import { useOpMutation } from '@/lib/api-hooks';

/** DELETE /maps/:floorId/waypoints/:id (409 IN_USE naming the routes that visit it): a new map revision. */
export const useDeleteWaypoint = (floorId: number) =>
  useOpMutation(mapOps.deleteWaypoint, {
    args: (id: number) => ({ params: { floorId, id } }),
    invalidates: ['maps'],
  });
