import { poseDefSchema, type ArmModel, type ArmTypeCode, type Filter } from '@portal/contract';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { z } from 'zod';
import { api, apiRequest, parseWith } from '@/lib/api-client';
import { totalOf } from '@/lib/list-params';
import { poseListFilter, type PoseListParams } from '../list-params';
import { poseKeys } from './keys';

/** GET /pose-defs?filter=: one page and the X-Total-Count total. */
export async function getPoseDefs(params: PoseListParams) {
  const res = await apiRequest('GET', '/pose-defs', { query: { filter: JSON.stringify(poseListFilter(params)) } });
  const items = parseWith(z.array(poseDefSchema), res.data);
  return { items, total: totalOf(res.headers, items.length) };
}

export const poseDefsQueryOptions = (params: PoseListParams) =>
  queryOptions({
    queryKey: poseKeys.defList(params),
    queryFn: () => getPoseDefs(params),
    placeholderData: keepPreviousData,
  });

export const usePoseDefs = (params: PoseListParams) => useQuery(poseDefsQueryOptions(params));

/** Every pose of one arm model and type (the choices of a network), by name. */
export const getPoseOptions = (armModel: ArmModel, armType: ArmTypeCode) => {
  const filter: Filter = { where: { armModel, armType }, order: 'name ASC', limit: 1000 };
  return api.get('/pose-defs', z.array(poseDefSchema), { query: { filter: JSON.stringify(filter) } });
};

export const usePoseOptions = (armModel: ArmModel | undefined, armType: ArmTypeCode | undefined) =>
  useQuery({
    queryKey: poseKeys.defOptions(armModel ?? 0, armType ?? 0),
    queryFn: () => getPoseOptions(armModel!, armType!),
    enabled: armModel !== undefined && armType !== undefined,
  });
