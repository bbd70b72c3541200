import { ROBOT_MODELS, robotStatusCodeSchema, type Filter, type Where } from '@portal/contract';
import { z } from 'zod';
import { likePattern, listParam, sortOrder, whereOf } from '@/lib/list-params';

export const ROBOTS_PER_PAGE = 20;
export const robotSortColumns = [
  'serialNo',
  'name',
  'model',
  'buildingId',
  'floorId',
  'groupId',
  'status',
  'lastCommunicationAt',
] as const;
export type RobotSortColumn = (typeof robotSortColumns)[number];

/** The registry list's state as it stands in the URL: `?page=2&sort=-name&q=ugo&building=10&group=3&model=pro&status=1`. */
export const robotListSchema = z.object({
  page: listParam.page(),
  sort: listParam.sort(robotSortColumns),
  q: listParam.text(),
  building: listParam.id(),
  group: listParam.id(),
  model: listParam.oneOf(ROBOT_MODELS),
  status: listParam.code(robotStatusCodeSchema),
});
export type RobotListParams = z.output<typeof robotListSchema>;

/** The LoopBack filter: serial or name search, building, group, model and status, paging and order. */
export function robotListFilter(p: RobotListParams): Filter {
  const and: Where[] = [];
  const like = { like: likePattern(p.q) };
  if (p.q) and.push({ or: [{ serialNo: like }, { name: like }] });
  if (p.building !== null) and.push({ buildingId: p.building });
  if (p.group !== null) and.push({ groupId: p.group });
  if (p.model !== null) and.push({ model: p.model });
  if (p.status !== null) and.push({ status: p.status });
  return {
    ...whereOf(and),
    order: sortOrder(p.sort, 'serialNo ASC'),
    limit: ROBOTS_PER_PAGE,
    skip: (p.page - 1) * ROBOTS_PER_PAGE,
  };
}
