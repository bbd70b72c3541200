import { mapOps, type SaveFloorMapBody } from '@portal/contract';
import { useQueryClient, type QueryClient } from '@tanstack/react-query';
import { useOpMutation } from '@/lib/api-hooks';
import { queryKeys } from '@/lib/query-keys';

type Body = Pick<SaveFloorMapBody, 'baseRevision' | 'document'> & Partial<Pick<SaveFloorMapBody, 'note' | 'overwrite'>>;

/**
 * After a new revision: every view of the floor's map but the document itself (revisions, waypoints)
 * refreshes. The document comes with the answer; loading a large map again would only repeat it.
 */
export const refreshMapParts = (queryClient: QueryClient, floorId: number) =>
  queryClient.invalidateQueries({
    queryKey: queryKeys.maps.detail(floorId),
    predicate: (q) => q.queryKey.length > queryKeys.maps.detail(floorId).length,
  });

/** PUT /floors/:id/map: a new revision (409 STALE_UPDATE when someone saved since baseRevision). */
export const useSaveFloorMap = (floorId: number) => {
  const queryClient = useQueryClient();
  return useOpMutation(mapOps.saveFloorMap, {
    args: (body: Body) => ({ params: { id: floorId }, body: { note: '', overwrite: false, ...body } }),
    invalidates: [],
    onSuccess: (map) => {
      queryClient.setQueryData(queryKeys.maps.detail(floorId), map);
      void refreshMapParts(queryClient, floorId);
    },
  });
};
