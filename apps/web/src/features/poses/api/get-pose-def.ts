import { poseDefOps } from '@portal/contract';
import { useQuery } from '@tanstack/react-query';
import { opQuery } from '@/lib/api-hooks';
import { queryKeys } from '@/lib/query-keys';

export const poseDefQueryOptions = (id: number) =>
  opQuery(poseDefOps.getPoseDef, queryKeys.poses.detail(id), { params: { id } });

export const usePoseDef = (id: number) => useQuery(poseDefQueryOptions(id));
