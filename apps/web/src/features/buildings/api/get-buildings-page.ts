import { buildingOps, type Filter } from '@portal/contract';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { opPageQuery } from '@/lib/api-hooks';
import { queryKeys } from '@/lib/query-keys';

export const BUILDINGS_PER_PAGE = 20;
export const buildingSorts = ['-updatedAt', 'updatedAt', 'name', '-name'] as const;
export type BuildingSort = (typeof buildingSorts)[number];

export interface BuildingListState {
  page: number;
  sort: BuildingSort;
  q: string;
  organizationId: number | null;
  buildingId: number | null;
}

/** The LoopBack filter of a list state: name search, organization, one building, order, page. */
export function buildingListFilter(s: BuildingListState): Filter {
  const where: Record<string, unknown> = {};
  // The server refuses backslashes in like patterns; % and _ stay wildcards.
  const q = s.q.trim().replace(/\\/g, '');
  if (q) where.name = { like: `%${q}%` };
  if (s.organizationId !== null) where.organizationId = s.organizationId;
  if (s.buildingId !== null) where.id = s.buildingId;
  const desc = s.sort.startsWith('-');
  return {
    ...(Object.keys(where).length > 0 ? { where: where as Filter['where'] } : {}),
    order: `${desc ? s.sort.slice(1) : s.sort} ${desc ? 'DESC' : 'ASC'}`,
    limit: BUILDINGS_PER_PAGE,
    skip: (s.page - 1) * BUILDINGS_PER_PAGE,
  };
}

export const buildingsPageQueryOptions = (state: BuildingListState) => {
  const filter = buildingListFilter(state);
  return {
    ...opPageQuery(buildingOps.listBuildings, queryKeys.buildings.list(filter), { query: { filter } }),
    placeholderData: keepPreviousData,
  };
};

export const useBuildingsPage = (state: BuildingListState) => useQuery(buildingsPageQueryOptions(state));
