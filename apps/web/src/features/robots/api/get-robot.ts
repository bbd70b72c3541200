import { robotSchema } from '@portal/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { robotKeys } from './keys';

export const getRobot = (id: number) => api.get(`/robots/${id}`, robotSchema);

export const robotQueryOptions = (id: number) =>
  queryOptions({ queryKey: robotKeys.detail(id), queryFn: () => getRobot(id) });

export const useRobot = (id: number) => useQuery(robotQueryOptions(id));
