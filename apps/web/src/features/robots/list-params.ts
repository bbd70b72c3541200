import {
  ROBOT_MODELS,
  robotStatusCodeSchema,
  type Filter,
  type RobotModel,
  type RobotStatusCodeValue,
  type Where,
} from '@portal/contract';
import { likePattern, parseSort, positiveInt, sortOrder, sortParam, type Sort } from '@/lib/list-params';

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
export interface RobotListParams {
  page: number;
  sort: Sort<RobotSortColumn> | null;
  q: string;
  building: number | null;
  group: number | null;
  model: RobotModel | null;
  status: RobotStatusCodeValue | null;
}

const isModel = (v: string | null): v is RobotModel => (ROBOT_MODELS as readonly (string | null)[]).includes(v);

export function parseRobotListParams(search: URLSearchParams): RobotListParams {
  const rawStatus = search.get('status');
  const status = robotStatusCodeSchema.safeParse(rawStatus === null || rawStatus === '' ? NaN : Number(rawStatus));
  const model = search.get('model');
  return {
    page: positiveInt(search.get('page')) ?? 1,
    sort: parseSort(search.get('sort'), robotSortColumns),
    q: (search.get('q') ?? '').trim(),
    building: positiveInt(search.get('building')),
    group: positiveInt(search.get('group')),
    model: isModel(model) ? model : null,
    status: status.success ? status.data : null,
  };
}

export const robotListQuery = (p: RobotListParams): Record<string, string | undefined> => ({
  page: p.page > 1 ? String(p.page) : undefined,
  sort: sortParam(p.sort),
  q: p.q || undefined,
  building: p.building === null ? undefined : String(p.building),
  group: p.group === null ? undefined : String(p.group),
  model: p.model ?? undefined,
  status: p.status === null ? undefined : String(p.status),
});

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
    ...(and.length > 0 ? { where: and.length === 1 ? and[0] : { and } } : {}),
    order: sortOrder(p.sort, 'serialNo ASC'),
    limit: ROBOTS_PER_PAGE,
    skip: (p.page - 1) * ROBOTS_PER_PAGE,
  };
}
