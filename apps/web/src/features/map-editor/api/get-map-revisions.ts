import { mapOps } from '@portal/contract';
import { useQuery } from '@tanstack/react-query';
import { opQuery } from '@/lib/api-hooks';
import { queryKeys } from '@/lib/query-keys';

/** GET /floors/:id/map/revisions: newest first. */
export const mapRevisionsQueryOptions = (floorId: number) =>
  opQuery(mapOps.listFloorMapRevisions, queryKeys.maps.part(floorId, 'revisions'), { params: { id: floorId } });

export const useMapRevisions = (floorId: number, enabled: boolean) =>
  useQuery({ ...mapRevisionsQueryOptions(floorId), enabled });
