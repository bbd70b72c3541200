import { buildingSchema } from '@portal/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { buildingKeys } from './keys';

export const getBuilding = (id: number) => api.get(`/buildings/${id}`, buildingSchema);

export const buildingQueryOptions = (id: number) =>
  queryOptions({ queryKey: buildingKeys.detail(id), queryFn: () => getBuilding(id) });

export const useBuilding = (id: number) => useQuery(buildingQueryOptions(id));
