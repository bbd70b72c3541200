import { floorMapSchema, type SaveFloorMapBody } from '@portal/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { mapKeys } from './keys';

type Body = Pick<SaveFloorMapBody, 'baseRevision' | 'document'> & Partial<Pick<SaveFloorMapBody, 'note' | 'overwrite'>>;

/** PUT /floors/:id/map: a new revision (409 STALE_UPDATE when someone saved since baseRevision). */
export const saveFloorMap = (floorId: number, body: Body) =>
  api.send('PUT', `/floors/${floorId}/map`, floorMapSchema, {
    body: { note: '', overwrite: false, ...body },
  });

export const useSaveFloorMap = (floorId: number) => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: Body) => saveFloorMap(floorId, body),
    onSuccess: (map) => {
      queryClient.setQueryData(mapKeys.map(floorId), map);
      void queryClient.invalidateQueries({ queryKey: mapKeys.revisions(floorId) });
      void queryClient.invalidateQueries({ queryKey: mapKeys.waypoints(floorId) });
    },
  });
};
