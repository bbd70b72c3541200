import { ARM_MODELS, ARM_TYPES, type Filter, type Where } from '@portal/contract';
import { z } from 'zod';
import { likePattern, listParam, positiveInt, urlParam, whereOf } from '@/lib/list-params';

export const POSES_PER_PAGE = 20;

/**
 * A pose or network list's state as it stands in the URL:
 * `?page=2&q=wave&model=200&type=22&building=org` (`org`: organization-wide only; a number: that building).
 */
export const poseListSchema = z.object({
  page: listParam.page(),
  q: listParam.text(),
  model: listParam.oneOf(ARM_MODELS),
  type: listParam.oneOf(ARM_TYPES),
  building: urlParam<number | 'org' | null>(
    (raw) => (raw === 'org' ? 'org' : positiveInt(raw)),
    (building) => (building === null ? undefined : String(building)),
  ),
});
export type PoseListParams = z.output<typeof poseListSchema>;

/** The LoopBack filter: name search, arm model, arm type, building (or organization-wide), paging; by name. */
export function poseListFilter(p: PoseListParams): Filter {
  const and: Where[] = [];
  if (p.q) and.push({ name: { like: likePattern(p.q) } });
  if (p.model !== null) and.push({ armModel: p.model });
  if (p.type !== null) and.push({ armType: p.type });
  if (p.building !== null) and.push({ buildingId: p.building === 'org' ? null : p.building });
  return {
    ...whereOf(and),
    order: 'name ASC',
    limit: POSES_PER_PAGE,
    skip: (p.page - 1) * POSES_PER_PAGE,
  };
}
