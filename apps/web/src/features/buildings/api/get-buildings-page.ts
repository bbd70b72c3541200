import { buildingListSchema, type Filter } from '@portal/contract';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { apiRequest, parseWith } from '@/lib/api-client';
import { buildingKeys } from './keys';

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

/** GET /buildings?filter=: one page of buildings and the total (X-Total-Count). */
export async function getBuildingsPage(filter: Filter) {
  const res = await apiRequest('GET', '/buildings', { query: { filter: JSON.stringify(filter) } });
  const items = parseWith(buildingListSchema, res.data);
  const total = Number(res.headers.get('x-total-count') ?? items.length);
  return { items, total: Number.isFinite(total) ? total : items.length };
}

export const buildingsPageQueryOptions = (state: BuildingListState) => {
  const filter = buildingListFilter(state);
  return queryOptions({
    queryKey: buildingKeys.page(JSON.stringify(filter)),
    queryFn: () => getBuildingsPage(filter),
    placeholderData: keepPreviousData,
  });
};

export const useBuildingsPage = (state: BuildingListState) => useQuery(buildingsPageQueryOptions(state));
