import { mapOps } from '@portal/contract';
import { useQuery } from '@tanstack/react-query';
import { opQuery } from '@/lib/api-hooks';
import { queryKeys } from '@/lib/query-keys';

/** GET /floors/:id/map/revisions/:rev: an older revision, for a read-only preview. */
export const useMapRevision = (floorId: number, revision: number | null) =>
  useQuery({
    ...opQuery(mapOps.getFloorMapRevision, queryKeys.maps.part(floorId, 'revision', revision ?? 0), {
      params: { id: floorId, rev: revision ?? 0 },
    }),
    enabled: revision !== null,
    staleTime: Infinity,
  });
