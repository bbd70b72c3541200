/**
 * What `npm run bench:flows` sets up through the API: one organization with its buildings (one floor
 * each), each floor's map (a patrol loop of six waypoints), one looping patrol flow per building and
 * the robots.
 */
import {
  adminOps,
  buildingOps,
  buildingSchema,
  floorMapId,
  floorOps,
  flowOps,
  initDataSchema,
  mapOps,
  robotOps,
  ROBOT_MODELS,
  saveFloorMapBodySchema,
  WaypointType,
  type FlowStep,
} from '@portal/contract';
import { BenchError, benchApi, pool } from './fleet-server.ts';
import type { FlowSimRobotSpec } from './flows-protocol.ts';

/**
 * The patrol loop: a 12 × 7 m rectangle in the open hall of the simulator's demo world, six points,
 * legs of 6 and 7 m (1.2 to 2.3 s each at speedScale 5, depending on the model's top speed).
 */
export const PATROL = [
  { x: 6, y: 3 },
  { x: 12, y: 3 },
  { x: 18, y: 3 },
  { x: 18, y: 10 },
  { x: 12, y: 10 },
  { x: 6, y: 10 },
] as const;

export interface SeededBuilding {
  id: number;
  floorId: number;
  flowId: number;
}

export function patrolMapDocument() {
  const n = PATROL.length;
  const waypoints = PATROL.map((p, i) => {
    const next = PATROL[(i + 1) % n]!;
    return {
      id: i + 1,
      name: `Patrol ${i + 1}`,
      x: p.x,
      y: p.y,
      theta: Math.atan2(next.y - p.y, next.x - p.x),
      type: WaypointType.normal,
    };
  });
  return {
    waypoints,
    edges: waypoints.map((w, k) => ({
      id: k + 1,
      from: w.id,
      to: (k + 1) % n === 0 ? 1 : w.id + 1,
      oneWay: false,
      speed: 'normal' as const,
      path: null,
    })),
    routes: [{ id: 1, name: 'Patrol', waypointIds: waypoints.map((w) => w.id), recorded: null }],
    noGoAreas: [],
    partialMaps: [],
  };
}

/**
 * The flow: `loop` (until cancelled) of, for each point, move there, take a photo, say something
 * (`photos` false: no photo, for diagnosis).
 */
export function patrolFlowSteps(photos = true): FlowStep[] {
  return [
    {
      kind: 'loop',
      id: 'patrol',
      count: null,
      steps: PATROL.flatMap((_, i): FlowStep[] => [
        { kind: 'moveToWaypoint', id: `go-${i + 1}`, waypointId: i + 1 },
        ...(photos
          ? [
              {
                kind: 'takePhoto',
                id: `photo-${i + 1}`,
                camera: 'v1',
                resolution: '1080p',
                saveAsTaskImage: false,
              } satisfies FlowStep,
            ]
          : []),
        { kind: 'speak', id: `say-${i + 1}`, text: `Patrol point ${i + 1}, all clear.`, language: 'en' },
      ]),
    },
  ];
}

/** One organization, `buildings` buildings with one floor, its map and the patrol flow each. */
export async function seedBuildings(
  base: string,
  token: string,
  buildings: number,
  photos = true,
): Promise<SeededBuilding[]> {
  const api = benchApi(base);
  const body = initDataSchema.parse({
    organization: { name: 'Flows Bench Organization' },
    buildings: Array.from({ length: buildings }, (_, b) => ({
      name: `Flows Bench Building ${String(b + 1).padStart(2, '0')}`,
      floors: [{ name: '1F', index: 1 }],
    })),
  });
  const { organizationId } = await api.call(adminOps.importInitData, { token, body });
  const filter = { where: { organizationId }, order: 'name ASC', limit: 100 };
  const list = buildingSchema.array().parse(await api.call(buildingOps.listBuildings, { token, query: { filter } }));
  if (list.length !== buildings) throw new BenchError(`organization ${organizationId} has ${list.length} buildings`);
  const out: SeededBuilding[] = [];
  for (const building of list) {
    const floors = await api.call(floorOps.listFloors, { token, params: { id: building.id } });
    const floorId = floors[0]?.id;
    if (!floorId) throw new BenchError(`building ${building.id} has no floor`);
    await api.call(mapOps.saveFloorMap, {
      token,
      params: { id: floorId },
      body: saveFloorMapBodySchema.parse({ baseRevision: 0, document: patrolMapDocument(), note: 'bench:flows' }),
    });
    const flow = await api.call(flowOps.createFlow, {
      token,
      body: {
        name: `Patrol ${out.length + 1}`,
        description: 'bench:flows',
        buildingId: building.id,
        floorId,
        flowGroupId: null,
        enabled: true,
        definition: { version: 1, steps: patrolFlowSteps(photos) },
      },
    });
    out.push({ id: building.id, floorId, flowId: flow.id });
  }
  return out;
}

export interface BenchRobot extends FlowSimRobotSpec {
  flowId: number;
}

/**
 * `perBuilding` robots per building through POST /api/robots (models in turn), each starting on one
 * of the patrol points (robots overlap: the simulator has no collisions).
 */
export async function registerRobots(
  base: string,
  token: string,
  buildings: SeededBuilding[],
  perBuilding: number,
  concurrency: number,
): Promise<BenchRobot[]> {
  const plan = buildings.flatMap((b, bi) => Array.from({ length: perBuilding }, (_, r) => ({ b, bi, r })));
  return pool(plan, concurrency, async ({ b, bi, r }) => {
    const model = ROBOT_MODELS[r % ROBOT_MODELS.length]!;
    const created = await benchApi(base).call(robotOps.createRobot, {
      token,
      body: {
        serialNo: `flows-${String(bi + 1).padStart(2, '0')}-${String(r + 1).padStart(3, '0')}`,
        name: `Flows robot ${bi + 1}-${r + 1}`,
        model,
        version: '',
        hardwareRevision: '',
        buildingId: b.id,
        floorId: b.floorId,
        groupId: null,
        status: 1,
        longTermRecordingAutoStart: false,
        videoMode: 'high',
        notes: '',
      },
    });
    const c = created.credentials;
    const at = PATROL[r % PATROL.length]!;
    return {
      robotId: created.robot.id,
      flowId: b.flowId,
      brokerUrl: c.mqttUrl,
      username: c.username,
      password: c.password,
      manufacturer: c.manufacturer,
      serialNumber: c.serialNumber,
      model,
      mapId: floorMapId(b.floorId),
      x: at.x,
      y: at.y,
      theta: 0,
    };
  });
}
