import { floorOps } from '@portal/contract';
import { useQuery } from '@tanstack/react-query';
import { opQuery } from '@/lib/api-hooks';
import { queryKeys } from '@/lib/query-keys';

export const floorQueryOptions = (id: number) =>
  opQuery(floorOps.getFloor, queryKeys.floors.detail(id), { params: { id } });

export const useFloor = (id: number) => useQuery(floorQueryOptions(id));
