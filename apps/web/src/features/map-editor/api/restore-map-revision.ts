import { floorMapSchema } from '@portal/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { mapKeys } from './keys';

/** POST /floors/:id/map/revisions/:rev/restore: the old document becomes the newest revision. */
export const restoreMapRevision = (floorId: number, revision: number) =>
  api.send('POST', `/floors/${floorId}/map/revisions/${revision}/restore`, floorMapSchema);

export const useRestoreMapRevision = (floorId: number) => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (revision: number) => restoreMapRevision(floorId, revision),
    onSuccess: (map) => {
      queryClient.setQueryData(mapKeys.map(floorId), map);
      void queryClient.invalidateQueries({ queryKey: mapKeys.revisions(floorId) });
      void queryClient.invalidateQueries({ queryKey: mapKeys.waypoints(floorId) });
    },
  });
};
