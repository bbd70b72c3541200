import { operatorTypeSchema, type Filter, type Where } from '@portal/contract';
import { z } from 'zod';
import { likePattern, listParam, sortOrder, whereOf } from '@/lib/list-params';

export const OPERATORS_PER_PAGE = 20;
export const operatorSortColumns = ['lastName', 'loginId', 'type', 'buildingId', 'status', 'lastLoginAt'] as const;
export type OperatorSortColumn = (typeof operatorSortColumns)[number];

/** The list's state as it stands in the URL: `?page=2&sort=-lastLoginAt&q=yamada&type=0&building=10`. */
export const operatorListSchema = z.object({
  page: listParam.page(),
  sort: listParam.sort(operatorSortColumns),
  q: listParam.text(),
  type: listParam.code(operatorTypeSchema),
  building: listParam.id(),
});
export type OperatorListParams = z.output<typeof operatorListSchema>;

const like = (q: string) => ({ like: likePattern(q) });

/** The LoopBack filter: name or login ID search (`or` + like), type and building, paging and order. */
export function operatorListFilter(p: OperatorListParams): Filter {
  const and: Where[] = [];
  if (p.q) and.push({ or: [{ lastName: like(p.q) }, { firstName: like(p.q) }, { loginId: like(p.q) }] });
  if (p.type !== null) and.push({ type: p.type });
  if (p.building !== null) and.push({ buildingId: p.building });
  const order = sortOrder(p.sort, 'lastName ASC');
  return {
    ...whereOf(and),
    order: p.sort?.column === 'lastName' ? [order, `firstName ${p.sort.desc ? 'DESC' : 'ASC'}`] : order,
    limit: OPERATORS_PER_PAGE,
    skip: (p.page - 1) * OPERATORS_PER_PAGE,
  };
}
