import { WORK_PLAN_TYPES, type Filter, type Where } from '@portal/contract';
import { z } from 'zod';
import { likePattern, listParam, whereOf } from '@/lib/list-params';

export const WORK_PLANS_PER_PAGE = 20;
export const TEMPLATES_PER_PAGE = 50;

/** `/workplan/settings?tab=templates&q=lift&building=10&status=1&type=0&page=2` */
export const workPlanListSchema = z.object({
  tab: z.enum(['plans', 'templates']).catch('plans'),
  page: listParam.page(),
  q: listParam.text(),
  building: listParam.id(),
  status: listParam.oneOf([0, 1] as const),
  type: listParam.oneOf(WORK_PLAN_TYPES),
});
export type WorkPlanListParams = z.output<typeof workPlanListSchema>;

/** The LoopBack filter of the work plan list: name search, building, status, type; by name. */
export function workPlanListFilter(p: WorkPlanListParams): Filter {
  const and: Where[] = [];
  if (p.q) and.push({ name: { like: likePattern(p.q) } });
  if (p.building !== null) and.push({ buildingId: p.building });
  if (p.status !== null) and.push({ status: p.status });
  if (p.type !== null) and.push({ type: p.type });
  return { ...whereOf(and), order: 'name ASC', limit: WORK_PLANS_PER_PAGE, skip: (p.page - 1) * WORK_PLANS_PER_PAGE };
}

/** Every template the caller sees (shipped first by name). */
export const templateListFilter: Filter = { order: 'name ASC', limit: TEMPLATES_PER_PAGE };
