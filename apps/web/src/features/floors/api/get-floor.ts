import { floorDetailSchema } from '@portal/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { floorKeys } from './keys';

export const getFloor = (id: number) => api.get(`/floors/${id}`, floorDetailSchema);

export const floorQueryOptions = (id: number) =>
  queryOptions({ queryKey: floorKeys.detail(id), queryFn: () => getFloor(id) });

export const useFloor = (id: number) => useQuery(floorQueryOptions(id));
