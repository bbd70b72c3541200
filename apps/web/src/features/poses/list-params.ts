import { ARM_MODELS, ARM_TYPES, type ArmModel, type ArmTypeCode, type Filter, type Where } from '@portal/contract';
import { likePattern, positiveInt } from '@/lib/list-params';

export const POSES_PER_PAGE = 20;

/**
 * A pose or network list's state as it stands in the URL:
 * `?page=2&q=wave&model=200&type=22&building=org` (`org`: organization-wide only; a number: that building).
 */
export interface PoseListParams {
  page: number;
  q: string;
  model: ArmModel | null;
  type: ArmTypeCode | null;
  building: number | 'org' | null;
}

export function parsePoseListParams(search: URLSearchParams): PoseListParams {
  const model = Number(search.get('model'));
  const type = Number(search.get('type'));
  const building = search.get('building');
  return {
    page: positiveInt(search.get('page')) ?? 1,
    q: (search.get('q') ?? '').trim(),
    model: ARM_MODELS.find((m) => m === model) ?? null,
    type: ARM_TYPES.find((t) => t === type) ?? null,
    building: building === 'org' ? 'org' : positiveInt(building),
  };
}

export const poseListQuery = (p: PoseListParams): Record<string, string | undefined> => ({
  page: p.page > 1 ? String(p.page) : undefined,
  q: p.q || undefined,
  model: p.model === null ? undefined : String(p.model),
  type: p.type === null ? undefined : String(p.type),
  building: p.building === null ? undefined : String(p.building),
});

/** The LoopBack filter: name search, arm model, arm type, building (or organization-wide), paging; by name. */
export function poseListFilter(p: PoseListParams): Filter {
  const and: Where[] = [];
  if (p.q) and.push({ name: { like: likePattern(p.q) } });
  if (p.model !== null) and.push({ armModel: p.model });
  if (p.type !== null) and.push({ armType: p.type });
  if (p.building !== null) and.push({ buildingId: p.building === 'org' ? null : p.building });
  return {
    ...(and.length > 0 ? { where: and.length === 1 ? and[0] : { and } } : {}),
    order: 'name ASC',
    limit: POSES_PER_PAGE,
    skip: (p.page - 1) * POSES_PER_PAGE,
  };
}
