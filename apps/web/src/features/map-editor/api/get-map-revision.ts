import { floorMapSchema } from '@portal/contract';
import { useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { mapKeys } from './keys';

/** GET /floors/:id/map/revisions/:rev: an older revision, for a read-only preview. */
export const getMapRevision = (floorId: number, revision: number) =>
  api.get(`/floors/${floorId}/map/revisions/${revision}`, floorMapSchema);

export const useMapRevision = (floorId: number, revision: number | null) =>
  useQuery({
    queryKey: mapKeys.revision(floorId, revision ?? 0),
    queryFn: () => getMapRevision(floorId, revision!),
    enabled: revision !== null,
    staleTime: Infinity,
  });
