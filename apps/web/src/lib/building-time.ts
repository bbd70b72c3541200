import { buildingOps } from '@portal/contract';
import { useQuery } from '@tanstack/react-query';
import { opQuery } from './api-hooks';
import { queryKeys } from './query-keys';

/**
 * The IANA zone of a building (its events are shown in it), read with the building's detail query
 * (shared with the building screens, so usually already cached). Undefined while unknown (no
 * building, loading, not readable): callers then show the browser's zone, stated as such.
 */
export function useBuildingTimeZone(buildingId: number | null | undefined): string | undefined {
  const id = typeof buildingId === 'number' && buildingId > 0 ? buildingId : 0;
  const building = useQuery({
    ...opQuery(buildingOps.getBuilding, queryKeys.buildings.detail(id), { params: { id } }),
    enabled: id > 0,
    staleTime: 60_000,
  });
  return id > 0 ? building.data?.timeZone : undefined;
}
