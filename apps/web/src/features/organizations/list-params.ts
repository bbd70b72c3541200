import type { Filter } from '@portal/contract';
import { likePattern, parseSort, positiveInt, sortOrder, sortParam, type Sort } from '@/lib/list-params';

export const ORGANIZATIONS_PER_PAGE = 20;
export const organizationSortColumns = [
  'name',
  'type',
  'level',
  'prefecture',
  'status',
  'labOption',
  'updatedAt',
] as const;
export type OrganizationSortColumn = (typeof organizationSortColumns)[number];

/** The list's state as it stands in the URL: `?page=2&sort=-updatedAt&q=tokyo`. */
export interface OrganizationListParams {
  page: number;
  sort: Sort<OrganizationSortColumn> | null;
  q: string;
}

export function parseOrganizationListParams(search: URLSearchParams): OrganizationListParams {
  return {
    page: positiveInt(search.get('page')) ?? 1,
    sort: parseSort(search.get('sort'), organizationSortColumns),
    q: (search.get('q') ?? '').trim(),
  };
}

/** The query string of a list state (page 1 and empty values left out). */
export const organizationListQuery = (p: OrganizationListParams) => ({
  page: p.page > 1 ? p.page : undefined,
  sort: sortParam(p.sort),
  q: p.q || undefined,
});

/** The LoopBack filter the server pages, sorts and searches with. */
export function organizationListFilter(p: OrganizationListParams): Filter {
  return {
    ...(p.q ? { where: { name: { like: likePattern(p.q) } } } : {}),
    order: sortOrder(p.sort, 'name ASC'),
    limit: ORGANIZATIONS_PER_PAGE,
    skip: (p.page - 1) * ORGANIZATIONS_PER_PAGE,
  };
}
