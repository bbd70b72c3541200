import { poseDefOps, type ArmModel, type ArmTypeCode, type Filter } from '@portal/contract';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { opPageQuery, opQuery } from '@/lib/api-hooks';
import { queryKeys } from '@/lib/query-keys';
import { poseListFilter, type PoseListParams } from '../list-params';

/** GET /pose-defs?filter=: one page and the X-Total-Count total. */
export const poseDefsQueryOptions = (params: PoseListParams) => {
  const filter = poseListFilter(params);
  return {
    ...opPageQuery(poseDefOps.listPoseDefs, queryKeys.poses.list(filter), { query: { filter } }),
    placeholderData: keepPreviousData,
  };
};

export const usePoseDefs = (params: PoseListParams) => useQuery(poseDefsQueryOptions(params));

/** Every pose of one arm model and type (the choices of a network), by name. */
export const poseOptionsQueryOptions = (armModel: ArmModel, armType: ArmTypeCode) => {
  const filter: Filter = { where: { armModel, armType }, order: 'name ASC', limit: 1000 };
  return opQuery(poseDefOps.listPoseDefs, queryKeys.poses.options('arm', { armModel, armType }), {
    query: { filter },
  });
};

export const usePoseOptions = (armModel: ArmModel | undefined, armType: ArmTypeCode | undefined) =>
  useQuery({
    ...poseOptionsQueryOptions(armModel ?? 100, armType ?? 1),
    enabled: armModel !== undefined && armType !== undefined,
  });
