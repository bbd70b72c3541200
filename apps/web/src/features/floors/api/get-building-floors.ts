import { floorListSchema, type Filter } from '@portal/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { floorKeys } from './keys';

/** Spec section 7: a building's floors, top floor first. */
const filter: Filter = {
  fields: ['id', 'name', 'buildingId', 'type', 'index', 'img', 'updatedAt'],
  order: 'index DESC',
  limit: 1000,
};

export const getBuildingFloors = (buildingId: number) =>
  api.get(`/buildings/${buildingId}/floors`, floorListSchema, { query: { filter: JSON.stringify(filter) } });

export const buildingFloorsQueryOptions = (buildingId: number) =>
  queryOptions({ queryKey: floorKeys.table(buildingId), queryFn: () => getBuildingFloors(buildingId) });

export const useBuildingFloors = (buildingId: number) => useQuery(buildingFloorsQueryOptions(buildingId));
