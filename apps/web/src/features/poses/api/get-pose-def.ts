import { poseDefSchema } from '@portal/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { poseKeys } from './keys';

export const getPoseDef = (id: number) => api.get(`/pose-defs/${id}`, poseDefSchema);

export const poseDefQueryOptions = (id: number) =>
  queryOptions({ queryKey: poseKeys.def(id), queryFn: () => getPoseDef(id) });

export const usePoseDef = (id: number) => useQuery(poseDefQueryOptions(id));
