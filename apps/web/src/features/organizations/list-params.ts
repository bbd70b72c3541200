import type { Filter } from '@portal/contract';
import { z } from 'zod';
import { likePattern, listParam, sortOrder } from '@/lib/list-params';

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
export const organizationListSchema = z.object({
  page: listParam.page(),
  sort: listParam.sort(organizationSortColumns),
  q: listParam.text(),
});
export type OrganizationListParams = z.output<typeof organizationListSchema>;

/** The LoopBack filter the server pages, sorts and searches with. */
export function organizationListFilter(p: OrganizationListParams): Filter {
  return {
    ...(p.q ? { where: { name: { like: likePattern(p.q) } } } : {}),
    order: sortOrder(p.sort, 'name ASC'),
    limit: ORGANIZATIONS_PER_PAGE,
    skip: (p.page - 1) * ORGANIZATIONS_PER_PAGE,
  };
}
