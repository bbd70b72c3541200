import { buildingOps } from '@portal/contract';
import { useQuery } from '@tanstack/react-query';
import { opQuery } from '@/lib/api-hooks';
import { queryKeys } from '@/lib/query-keys';

export const buildingQueryOptions = (id: number) =>
  opQuery(buildingOps.getBuilding, queryKeys.buildings.detail(id), { params: { id } });

export const useBuilding = (id: number) => useQuery(buildingQueryOptions(id));
