import type { Filter } from '@portal/contract';
import { z } from 'zod';
import { likePattern, listParam, sortOrder, type Sort } from '@/lib/list-params';

export const BUILDINGS_PER_PAGE = 20;
export const buildingSortColumns = ['name', 'updatedAt'] as const;
export type BuildingSortColumn = (typeof buildingSortColumns)[number];
/** The list's order when the URL names none: last updated first. */
export const defaultBuildingSort: Sort<BuildingSortColumn> = { column: 'updatedAt', desc: true };

/** The list's state as it stands in the URL: `?page=2&sort=name&q=tower&organization=3&building=10`. */
export const buildingListSchema = z.object({
  page: listParam.page(),
  sort: listParam.sort(buildingSortColumns, defaultBuildingSort),
  q: listParam.text(),
  organization: listParam.id(),
  building: listParam.id(),
});
export type BuildingListParams = z.output<typeof buildingListSchema>;

/** The LoopBack filter of a list state: name search, organization, one building, order, page. */
export function buildingListFilter(p: BuildingListParams): Filter {
  const where: Record<string, unknown> = {};
  if (p.q) where.name = { like: likePattern(p.q) };
  if (p.organization !== null) where.organizationId = p.organization;
  if (p.building !== null) where.id = p.building;
  return {
    ...(Object.keys(where).length > 0 ? { where: where as Filter['where'] } : {}),
    order: sortOrder(p.sort, 'updatedAt DESC'),
    limit: BUILDINGS_PER_PAGE,
    skip: (p.page - 1) * BUILDINGS_PER_PAGE,
  };
}
