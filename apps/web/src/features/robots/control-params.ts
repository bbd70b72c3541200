import { ROBOT_MODEL_MAX, ROBOT_STATUS_LABELS, type FleetRobot, type RobotModel } from '@portal/contract';
import { positiveInt } from '@/lib/list-params';

export const controlSorts = ['name', 'group', 'status', 'battery', 'lastCommunication'] as const;
export type ControlSort = (typeof controlSorts)[number];

/** The robot control filters as they stand in the URL: `?q=ugo&model=pro&online=1&available=1&group=3&sort=battery`. */
export interface ControlParams {
  q: string;
  model: RobotModel | null;
  online: boolean;
  available: boolean;
  building: number | null;
  group: number | null;
  sort: ControlSort;
}

/** Any model name (the model list is open): known models and a maker's own. */
const isModel = (v: string | null): v is RobotModel => v !== null && v !== '' && v.length <= ROBOT_MODEL_MAX;
const isSort = (v: string | null): v is ControlSort => (controlSorts as readonly (string | null)[]).includes(v);

export function parseControlParams(search: URLSearchParams): ControlParams {
  const model = search.get('model');
  const sort = search.get('sort');
  return {
    q: search.get('q') ?? '',
    model: isModel(model) ? model : null,
    online: search.get('online') === '1',
    available: search.get('available') === '1',
    building: positiveInt(search.get('building')),
    group: positiveInt(search.get('group')),
    sort: isSort(sort) ? sort : 'name',
  };
}

/** Writes the control filters into the search parameters (others, such as `building`, are kept). */
export function writeControlParams(prev: URLSearchParams, p: Partial<ControlParams>): URLSearchParams {
  const out = new URLSearchParams(prev);
  const set = (k: string, v: string | null) => (v === null || v === '' ? out.delete(k) : out.set(k, v));
  if ('q' in p) set('q', p.q ?? '');
  if ('model' in p) set('model', p.model ?? null);
  if ('online' in p) set('online', p.online ? '1' : null);
  if ('available' in p) set('available', p.available ? '1' : null);
  if ('group' in p) set('group', p.group == null ? null : String(p.group));
  if ('sort' in p) set('sort', p.sort === 'name' ? null : (p.sort ?? null));
  return out;
}

const statusRank = (r: FleetRobot) => ROBOT_STATUS_LABELS.indexOf(r.live.statusLabel);
const time = (iso: string | null) => (iso ? new Date(iso).getTime() : -Infinity);

const comparators: Record<ControlSort, (a: FleetRobot, b: FleetRobot) => number> = {
  name: () => 0,
  // Robots of a group together, groups by name, robots without a group last.
  group: (a, b) =>
    (a.groupName === null ? 1 : 0) - (b.groupName === null ? 1 : 0) ||
    (a.groupName ?? '').localeCompare(b.groupName ?? ''),
  status: (a, b) => statusRank(a) - statusRank(b),
  battery: (a, b) => (a.live.battery ?? Infinity) - (b.live.battery ?? Infinity),
  lastCommunication: (a, b) => time(b.live.lastCommunicationAt) - time(a.live.lastCommunicationAt),
};

/** The robots shown: filtered, searched (name or serial) and sorted (then by name and serial). */
export function visibleRobots(robots: Iterable<FleetRobot>, p: ControlParams): FleetRobot[] {
  const q = p.q.trim().toLowerCase();
  const out: FleetRobot[] = [];
  for (const r of robots) {
    if (p.model !== null && r.model !== p.model) continue;
    if (p.online && !r.live.online) continue;
    if (p.available && r.live.statusLabel !== 'available') continue;
    if (p.building !== null && r.buildingId !== p.building) continue;
    if (p.group !== null && r.groupId !== p.group) continue;
    if (q && !r.name.toLowerCase().includes(q) && !r.serialNo.toLowerCase().includes(q)) continue;
    out.push(r);
  }
  const cmp = comparators[p.sort];
  return out.sort((a, b) => cmp(a, b) || a.name.localeCompare(b.name) || a.serialNo.localeCompare(b.serialNo));
}
