import { floorListSchema, type Filter } from '@portal/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';

/** A building's floors, top floor first (the same call and cache entry as the robot screens). */
const floorsFilter: Filter = {
  fields: ['id', 'name', 'buildingId', 'type', 'index', 'img', 'ugomap'],
  order: 'index DESC',
};

export const getFloors = (buildingId: number) =>
  api.get(`/buildings/${buildingId}/floors`, floorListSchema, { query: { filter: JSON.stringify(floorsFilter) } });

export const floorsQueryOptions = (buildingId: number) =>
  queryOptions({ queryKey: ['buildings', buildingId, 'floors'], queryFn: () => getFloors(buildingId) });

export const useFloors = (buildingId: number | null) =>
  useQuery({ ...floorsQueryOptions(buildingId ?? 0), enabled: buildingId !== null });
