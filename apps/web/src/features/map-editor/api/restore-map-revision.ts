import { mapOps } from '@portal/contract';
import { useQueryClient } from '@tanstack/react-query';
import { useOpMutation } from '@/lib/api-hooks';
import { queryKeys } from '@/lib/query-keys';
import { refreshMapParts } from './save-floor-map';

/** POST /floors/:id/map/revisions/:rev/restore: the old document becomes the newest revision. */
export const useRestoreMapRevision = (floorId: number) => {
  const queryClient = useQueryClient();
  return useOpMutation(mapOps.restoreFloorMapRevision, {
    args: (revision: number) => ({ params: { id: floorId, rev: revision } }),
    invalidates: [],
    onSuccess: (map) => {
      queryClient.setQueryData(queryKeys.maps.detail(floorId), map);
      void refreshMapParts(queryClient, floorId);
    },
  });
};
