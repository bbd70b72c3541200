import { buildingOps } from '@portal/contract';
import { useQuery } from '@tanstack/react-query';
import { opQuery } from '@/lib/api-hooks';
import { queryKeys } from '@/lib/query-keys';

/** System links; secrets come back masked (or null when none is stored). */
export const linksQueryOptions = (buildingId: number) =>
  opQuery(buildingOps.getBuildingLinks, queryKeys.buildings.part(buildingId, 'links'), {
    params: { id: buildingId },
  });

export const useLinks = (buildingId: number) => useQuery(linksQueryOptions(buildingId));
