import { CHECK_ITEM_STATUSES, CHECK_ITEM_TYPES, type Filter, type Where } from '@portal/contract';
import { z } from 'zod';
import { likePattern, listParam, whereOf } from '@/lib/list-params';

export const CHECK_ITEMS_PER_PAGE = 20;

/** `?q=boiler&building=10&status=1&type=meter&page=2` */
export const checkItemListSchema = z.object({
  page: listParam.page(),
  q: listParam.text(),
  building: listParam.id(),
  status: listParam.oneOf(CHECK_ITEM_STATUSES),
  type: listParam.oneOf(CHECK_ITEM_TYPES),
});
export type CheckItemListParams = z.output<typeof checkItemListSchema>;

/** The LoopBack filter of the list: name search, building, status, type; by name. */
export function checkItemListFilter(p: CheckItemListParams): Filter {
  const and: Where[] = [];
  if (p.q) and.push({ name: { like: likePattern(p.q) } });
  if (p.building !== null) and.push({ buildingId: p.building });
  if (p.status !== null) and.push({ status: p.status });
  if (p.type !== null) and.push({ type: p.type });
  return {
    ...whereOf(and),
    order: 'name ASC',
    limit: CHECK_ITEMS_PER_PAGE,
    skip: (p.page - 1) * CHECK_ITEMS_PER_PAGE,
  };
}
