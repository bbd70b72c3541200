import { ipRestrictionSchema } from '@portal/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { buildingKeys } from './keys';

/** The switch, the rules, and whether the caller's own address is on the list. */
export const getIpRestriction = (buildingId: number) =>
  api.get(`/buildings/${buildingId}/ip-restriction`, ipRestrictionSchema);

export const ipRestrictionQueryOptions = (buildingId: number) =>
  queryOptions({ queryKey: buildingKeys.ipRestriction(buildingId), queryFn: () => getIpRestriction(buildingId) });

export const useIpRestriction = (buildingId: number) => useQuery(ipRestrictionQueryOptions(buildingId));
