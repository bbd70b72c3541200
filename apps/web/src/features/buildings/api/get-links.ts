import { buildingLinksSchema } from '@portal/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { buildingKeys } from './keys';

/** System links; secrets come back masked (or null when none is stored). */
export const getLinks = (buildingId: number) => api.get(`/buildings/${buildingId}/links`, buildingLinksSchema);

export const linksQueryOptions = (buildingId: number) =>
  queryOptions({ queryKey: buildingKeys.links(buildingId), queryFn: () => getLinks(buildingId) });

export const useLinks = (buildingId: number) => useQuery(linksQueryOptions(buildingId));
