import { operatorTypeSchema, type Filter, type OperatorTypeCode, type Where } from '@portal/contract';
import { likePattern, parseSort, positiveInt, sortOrder, sortParam, type Sort } from '@/lib/list-params';

export const OPERATORS_PER_PAGE = 20;
export const operatorSortColumns = ['lastName', 'loginId', 'type', 'buildingId', 'status', 'lastLoginAt'] as const;
export type OperatorSortColumn = (typeof operatorSortColumns)[number];

/** The list's state as it stands in the URL: `?page=2&sort=-lastLoginAt&q=yamada&type=0&building=10`. */
export interface OperatorListParams {
  page: number;
  sort: Sort<OperatorSortColumn> | null;
  q: string;
  type: OperatorTypeCode | null;
  building: number | null;
}

export function parseOperatorListParams(search: URLSearchParams): OperatorListParams {
  const type = operatorTypeSchema.safeParse(search.get('type') === null ? NaN : Number(search.get('type')));
  return {
    page: positiveInt(search.get('page')) ?? 1,
    sort: parseSort(search.get('sort'), operatorSortColumns),
    q: (search.get('q') ?? '').trim(),
    type: type.success ? type.data : null,
    building: positiveInt(search.get('building')),
  };
}

/** URL parameters of a list state; the others of the URL are kept by the caller. */
export const operatorListQuery = (p: OperatorListParams): Record<string, string | undefined> => ({
  page: p.page > 1 ? String(p.page) : undefined,
  sort: sortParam(p.sort),
  q: p.q || undefined,
  type: p.type === null ? undefined : String(p.type),
  building: p.building === null ? undefined : String(p.building),
});

const like = (q: string) => ({ like: likePattern(q) });

/** The LoopBack filter: name or login ID search (`or` + like), type and building, paging and order. */
export function operatorListFilter(p: OperatorListParams): Filter {
  const and: Where[] = [];
  if (p.q) and.push({ or: [{ lastName: like(p.q) }, { firstName: like(p.q) }, { loginId: like(p.q) }] });
  if (p.type !== null) and.push({ type: p.type });
  if (p.building !== null) and.push({ buildingId: p.building });
  const order = sortOrder(p.sort, 'lastName ASC');
  return {
    ...(and.length > 0 ? { where: and.length === 1 ? and[0] : { and } } : {}),
    order: p.sort?.column === 'lastName' ? [order, `firstName ${p.sort.desc ? 'DESC' : 'ASC'}`] : order,
    limit: OPERATORS_PER_PAGE,
    skip: (p.page - 1) * OPERATORS_PER_PAGE,
  };
}
