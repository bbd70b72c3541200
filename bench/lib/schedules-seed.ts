/**
 * What `npm run bench:schedules` sets up through the API: one organization with its buildings (Tokyo
 * time, one floor each, the patrol map of bench:flows), one short flow per building whose first step is
 * a move (two moves: a run takes a few seconds, so it has ended before the robot's next due instant),
 * the robots (bench/lib/flows-seed.ts), and the schedule entries.
 */
import {
  adminOps,
  buildingOps,
  buildingSchema,
  floorOps,
  flowOps,
  initDataSchema,
  mapOps,
  saveFloorMapBodySchema,
  scheduleOps,
  type ScheduleRepeat,
} from '@portal/contract';
import { BenchError, benchApi, pool } from './fleet-server.ts';
import { patrolMapDocument, type SeededBuilding } from './flows-seed.ts';

/** The buildings' time zone: UTC+9 all year (no daylight saving), so wall clock = UTC + 9 h. */
export const TIME_ZONE = 'Asia/Tokyo';
const OFFSET_MS = 9 * 3600_000;

/** The Tokyo wall clock (`YYYY-MM-DDTHH:mm`) of an instant. */
export const wallClock = (ms: number) => new Date(ms + OFFSET_MS).toISOString().slice(0, 16);
/** The Tokyo weekday (0 Sunday) of an instant. */
export const weekday = (ms: number) => new Date(ms + OFFSET_MS).getUTCDay();

export async function seedScheduleBuildings(base: string, token: string, buildings: number): Promise<SeededBuilding[]> {
  const api = benchApi(base);
  const body = initDataSchema.parse({
    organization: { name: 'Schedules Bench Organization' },
    buildings: Array.from({ length: buildings }, (_, b) => ({
      name: `Schedules Bench Building ${String(b + 1).padStart(2, '0')}`,
      timeZone: TIME_ZONE,
      floors: [{ name: '1F', index: 1 }],
    })),
  });
  const { organizationId } = await api.call(adminOps.importInitData, { token, body });
  const filter = { where: { organizationId }, order: 'name ASC', limit: 100 };
  const list = buildingSchema.array().parse(await api.call(buildingOps.listBuildings, { token, query: { filter } }));
  if (list.length !== buildings) throw new BenchError(`organization ${organizationId} has ${list.length} buildings`);
  const out: SeededBuilding[] = [];
  for (const building of list) {
    if (building.timeZone !== TIME_ZONE) throw new BenchError(`building ${building.id} is in ${building.timeZone}`);
    const floors = await api.call(floorOps.listFloors, { token, params: { id: building.id } });
    const floorId = floors[0]?.id;
    if (!floorId) throw new BenchError(`building ${building.id} has no floor`);
    await api.call(mapOps.saveFloorMap, {
      token,
      params: { id: floorId },
      body: saveFloorMapBodySchema.parse({ baseRevision: 0, document: patrolMapDocument(), note: 'bench:schedules' }),
    });
    const flow = await api.call(flowOps.createFlow, {
      token,
      body: {
        name: `Scheduled round ${out.length + 1}`,
        description: 'bench:schedules',
        buildingId: building.id,
        floorId,
        flowGroupId: null,
        enabled: true,
        definition: {
          version: 1,
          steps: [
            { kind: 'moveToWaypoint', id: 'go-2', waypointId: 2 },
            { kind: 'moveToWaypoint', id: 'go-1', waypointId: 1 },
          ],
        },
      },
    });
    out.push({ id: building.id, floorId, flowId: flow.id });
  }
  return out;
}

/** One planned entry on `robotId`, due at the `instant`-th due instant of the bench. */
export interface PlannedEntry {
  key: number;
  robotId: number;
  flowId: number;
  instant: number;
  repeat: ScheduleRepeat;
  priority: boolean;
}

export interface CreatedEntry extends PlannedEntry {
  scheduleId: number;
  /** The due instant (a minute boundary, epoch ms). */
  dueMs: number;
  /** The entry's first occurrence is the planned one (false: saved too late, it is not due in the bench). */
  onTime: boolean;
}

const REPEATS: ScheduleRepeat[] = ['none', 'daily', 'weekly', 'monthly'];

/**
 * `perRobot` entries on each robot, spread over the due instants in turn (entry j on instant j mod
 * count), repeats mixed (none, daily, weekly, monthly in turn); on every other robot the last entry of
 * each instant is a priority entry.
 */
export function planEntries(
  robots: Array<{ robotId: number; flowId: number }>,
  perRobot: number,
  instants: number,
): PlannedEntry[] {
  const plan: PlannedEntry[] = [];
  robots.forEach((r, ri) => {
    for (let j = 0; j < perRobot; j++) {
      const instant = j % instants;
      const lastOfInstant = j + instants >= perRobot;
      plan.push({
        key: plan.length,
        robotId: r.robotId,
        flowId: r.flowId,
        instant,
        repeat: REPEATS[(ri + j) % REPEATS.length]!,
        priority: ri % 2 === 1 && lastOfInstant,
      });
    }
  });
  return plan.sort((a, b) => a.instant - b.instant || a.key - b.key);
}

/** POST /api/schedules for each planned entry, due at `dueMs` (through the given servers in turn). */
export async function createEntries(
  bases: string[],
  token: string,
  plan: PlannedEntry[],
  dueMs: number,
  concurrency: number,
): Promise<CreatedEntry[]> {
  return pool(plan, concurrency, async (p, i) => {
    const start = wallClock(dueMs);
    const day = weekday(dueMs);
    const created = await benchApi(bases[i % bases.length]!).call(scheduleOps.createSchedule, {
      token,
      body: {
        title: `Bench ${p.key + 1}`,
        description: 'bench:schedules',
        flowId: p.flowId,
        robotId: p.robotId,
        start,
        end: wallClock(dueMs + 10 * 60_000),
        repeat: p.repeat,
        weekdays: p.repeat === 'daily' ? [0, 1, 2, 3, 4, 5, 6] : [day, (day + 3) % 7],
        repeatUntil: null,
        priority: p.priority,
        skipHolidays: false,
        enabled: true,
        exceptions: [],
      },
    });
    return {
      ...p,
      scheduleId: created.id,
      dueMs,
      onTime: created.nextAt !== null && Date.parse(created.nextAt) === dueMs,
    };
  });
}
