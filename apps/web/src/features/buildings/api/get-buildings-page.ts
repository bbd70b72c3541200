import { buildingOps } from '@portal/contract';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { opPageQuery } from '@/lib/api-hooks';
import { queryKeys } from '@/lib/query-keys';
import { buildingListFilter, type BuildingListParams } from '../list-params';

export const buildingsPageQueryOptions = (params: BuildingListParams) => {
  const filter = buildingListFilter(params);
  return {
    ...opPageQuery(buildingOps.listBuildings, queryKeys.buildings.list(filter), { query: { filter } }),
    placeholderData: keepPreviousData,
  };
};

export const useBuildingsPage = (params: BuildingListParams) => useQuery(buildingsPageQueryOptions(params));
