import { buildingOps } from '@portal/contract';
import { useQuery } from '@tanstack/react-query';
import { opQuery } from '@/lib/api-hooks';
import { queryKeys } from '@/lib/query-keys';

/** The switch, the rules, and whether the caller's own address is on the list. */
export const ipRestrictionQueryOptions = (buildingId: number) =>
  opQuery(buildingOps.getIpRestriction, queryKeys.buildings.part(buildingId, 'ip-restriction'), {
    params: { id: buildingId },
  });

export const useIpRestriction = (buildingId: number) => useQuery(ipRestrictionQueryOptions(buildingId));
