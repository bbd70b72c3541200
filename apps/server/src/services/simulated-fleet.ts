import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Kysely } from 'kysely';
import type { FastifyBaseLogger } from 'fastify';
import { floorMapId, ROBOT_MODELS, WaypointType, type MapDocument, type KnownRobotModel } from '@portal/contract';
import type { Dialect } from '../db/migrator.ts';
import type { Database } from '../db/schema.ts';
import { mqttUsernameOf, newRobotPassword, ROBOT_MANUFACTURER } from '../modules/robots/credentials.ts';
import type { Clock } from '../lib/time.ts';
import { repoRoot } from '../lib/paths.ts';
import type { RobotLink } from '../modules/robot-link/types.ts';
import { orderLabels } from '../modules/robot-link/fleet-state.ts';
import { mapRepo } from '../modules/maps/map-repo.ts';
import { simulatedFleetRepo } from './simulated-fleet-repo.ts';
import {
  DEMO_ELEVATOR_BANK,
  DEMO_SECURITY_DOORS,
  startSimulatedBuilding,
  type SimulatedBuilding,
} from './simulated-building.ts';

/** The demo building the simulated robots live in (seed.ts). */
const DEMO_BUILDING = 'Demo Tower';
const PATROL_EVERY_MS = 15_000;
/** Where robot i starts and charges, and the square it patrols around it (metres): floors without a map. */
const home = (i: number) => ({ x: 2 + 4 * i, y: 2, theta: 0 });
const patrol = (i: number) => {
  const h = home(i);
  return [
    { x: h.x, y: h.y + 6 },
    { x: h.x + 3, y: h.y + 6 },
    { x: h.x + 3, y: h.y },
    { x: h.x, y: h.y },
  ];
};

/** Where a simulated robot starts and charges, and the points it patrols (metres, map frame). */
export interface PatrolPlan {
  home: { x: number; y: number; theta: number };
  stops: Array<{ x: number; y: number }>;
}

/**
 * A simulated robot's patrol: on a floor whose map has a charger and a route (the demo seed's), it
 * starts at the charger (the n-th robot of the floor 1.2 m further up) and patrols the first
 * route's waypoints, starting n points further along; else the square of robot `index`.
 */
export function patrolPlan(document: MapDocument | null, index: number, nthOnFloor: number): PatrolPlan {
  const charger = document?.waypoints.find((w) => w.type === WaypointType.charge);
  const route = document?.routes[0];
  const byId = new Map(document?.waypoints.map((w) => [w.id, w]));
  const points = route?.waypointIds.flatMap((id) => {
    const w = byId.get(id);
    return w ? [{ x: w.x, y: w.y }] : [];
  });
  if (!charger || !points || points.length < 2) return { home: home(index), stops: patrol(index) };
  const k = nthOnFloor % points.length;
  return {
    home: { x: charger.x, y: charger.y + 1.2 * nthOnFloor, theta: charger.theta },
    stops: [...points.slice(k), ...points.slice(0, k)],
  };
}

export interface SimulatedFleet {
  robots: number;
  /** The demo building's simulated elevators and doors (its T-Spider link), or null. */
  buildingSystems: string | null;
  stop(): Promise<void>;
}

/**
 * `npm start`'s small simulated fleet (SIMULATED_ROBOTS, default 3): registers SIM-0001... on the
 * demo building's floors (new credentials at every start, since only hashes are stored), runs the
 * simulator as a child process (apps never import each other), and sends the idle robots on
 * patrols, so a new user sees a live fleet at once. With `buildingSystems` the demo building also
 * gets its simulated elevator bank and security doors (simulated-building.ts), so a multi-floor flow
 * rides the elevator.
 */
export async function startSimulatedFleet(opts: {
  db: Kysely<Database>;
  dialect: Dialect;
  link: Pick<RobotLink, 'robotBrokerUrl' | 'registryChanged' | 'live' | 'sendOrder'>;
  log: FastifyBaseLogger;
  clock: Clock;
  count: number;
  dataDir: string;
  /**
   * Start the demo building's simulated elevators and doors and link the building to them; `admit`
   * lets the flow runner's outbound calls reach them (simulated-building.ts). Default off.
   */
  buildingSystems?: { admit?: (url: string) => void } | undefined;
}): Promise<SimulatedFleet | null> {
  const { link, log } = opts;
  const repo = simulatedFleetRepo(opts.db);
  const cli = join(repoRoot, 'apps/robot-sim/src/cli.ts');
  if (!existsSync(cli)) {
    log.warn({ cli }, 'simulated robots skipped: the simulator is not installed');
    return null;
  }
  const building = await repo.buildingNamed(DEMO_BUILDING);
  const floors = building ? await repo.floorsOf(building.id) : [];
  if (!building || floors.length === 0) {
    log.info('simulated robots skipped: no demo building with floors (SEED_DEMO=0?)');
    return null;
  }

  const maps = mapRepo(opts.db, opts.dialect);
  const documents = new Map<number, MapDocument | null>();
  /** The floor's current map (the seed's waypoints and route), read once. */
  const documentOf = async (floorId: number): Promise<MapDocument | null> => {
    if (!documents.has(floorId)) {
      const row = await maps.current(floorId);
      documents.set(floorId, row ? (JSON.parse(row.document) as MapDocument) : null);
    }
    return documents.get(floorId)!;
  };
  // Started before the robots: the arm's button presses of a robot reach them (building.url below).
  let systems: SimulatedBuilding | null = null;
  if (opts.buildingSystems) {
    systems = await startSimulatedBuilding({
      db: opts.db,
      log,
      clock: opts.clock,
      building,
      floorIndexes: floors.map((f) => f.index),
      admit: opts.buildingSystems.admit,
    }).catch((err: unknown) => {
      log.warn({ err }, 'simulated building systems did not start');
      return null;
    });
  }
  const onFloor = new Map<number, number>();

  const robots: Array<{ id: number; index: number; plan: PatrolPlan; entry: Record<string, unknown> }> = [];
  const brokerUrl = link.robotBrokerUrl();
  for (let i = 0; i < opts.count; i++) {
    const serial = `SIM-${String(i + 1).padStart(4, '0')}`;
    const username = mqttUsernameOf(serial);
    const { password, hash } = newRobotPassword();
    const floor = floors[i % floors.length]!;
    const model: KnownRobotModel = ROBOT_MODELS[i % ROBOT_MODELS.length]!;
    const at = opts.clock().toISOString();
    const existing = await repo.liveRobotBySerial(serial);
    let id: number;
    let floorId = floor.id;
    const name = existing?.name ?? `Demo robot ${i + 1}`;
    if (existing) {
      id = existing.id;
      floorId = existing.floor_id;
      await repo.setPasswordHash(id, hash);
      await link.registryChanged({ kind: 'credentials', robotId: id });
    } else {
      id = await repo.insertRobot({
        organizationId: building.organization_id,
        buildingId: building.id,
        floorId: floor.id,
        serialNo: serial,
        name,
        model,
        notes: 'Simulated robot started by npm start (SIMULATED_ROBOTS).',
        manufacturer: ROBOT_MANUFACTURER,
        mqttUsername: username,
        mqttPasswordHash: hash,
        at,
      });
      await link.registryChanged({ kind: 'created', robotId: id });
    }
    const nth = onFloor.get(floorId) ?? 0;
    onFloor.set(floorId, nth + 1);
    const plan = patrolPlan(await documentOf(floorId), i, nth);
    const start = plan.home;
    robots.push({
      id,
      index: i,
      plan,
      entry: {
        brokerUrl,
        username,
        password,
        manufacturer: ROBOT_MANUFACTURER,
        serialNumber: serial,
        name,
        model,
        mapId: floorMapId(floorId),
        start,
        chargers: [{ x: start.x, y: start.y }],
        ...(systems
          ? {
              building: {
                url: systems.url,
                bank: DEMO_ELEVATOR_BANK,
                door: DEMO_SECURITY_DOORS[0],
                floor: floors.find((f) => f.id === floorId)?.index ?? 1,
              },
            }
          : {}),
      },
    });
  }

  // Read by the child only; the passwords are fresh each start.
  const file = join(opts.dataDir, 'simulated-robots.json');
  writeFileSync(file, JSON.stringify(robots.map((r) => r.entry)), { mode: 0o600 });
  const child: ChildProcess = spawn(process.execPath, ['--import', 'tsx', cli, '--credentials', file], {
    cwd: repoRoot,
    stdio: ['ignore', 'ignore', 'pipe'],
    env: { ...process.env, NODE_ENV: process.env.NODE_ENV ?? 'production' },
  });
  child.stderr?.on('data', (d: Buffer) => log.warn({ simulator: d.toString('utf8').trim() }, 'simulator'));
  child.on('exit', (code, signal) => {
    if (!stopping) log.warn({ code, signal }, 'the simulated robots stopped');
  });
  let stopping = false;

  // Idle robots go on patrol; a robot low on battery goes home to charge. A robot running a flow
  // (idle between its steps, or waiting) is left to it.
  const patrolRound = async () => {
    const inFlows = await repo.robotsInFlows(robots.map((r) => r.id));
    for (const r of robots) {
      if (inFlows.has(r.id)) continue;
      const live = link.live({ id: r.id, status: 1 });
      if (!live.online || live.issues.length > 0) continue;
      if (live.activity !== 'idle' && live.activity !== 'charging') continue;
      const battery = live.battery ?? 100;
      // On the charger until 80 %; home to charge below 40 %.
      if (live.activity === 'charging' && battery < 80) continue;
      const mapId = live.position?.mapId ?? String(r.entry.mapId);
      const h = r.plan.home;
      const atHome = live.position && Math.hypot(live.position.x - h.x, live.position.y - h.y) < 0.3;
      if (battery < 40) {
        if (!atHome) {
          void link
            .sendOrder(r.id, [{ nodeId: 'home', ...h, mapId }])
            .then((orderId) => orderLabels.remember(orderId, { kind: 'charge', name: null }))
            .catch(() => undefined);
        }
        continue;
      }
      const stops = r.plan.stops.map((p, k) => ({ nodeId: `p${k}`, ...p, mapId }));
      void link
        .sendOrder(r.id, stops)
        .then((orderId) => orderLabels.remember(orderId, { kind: 'patrol', name: null }))
        .catch(() => undefined);
    }
  };
  const timer = setInterval(() => {
    patrolRound().catch((err: unknown) => log.warn({ err }, 'simulated patrol round failed'));
  }, PATROL_EVERY_MS);
  timer.unref();

  log.info({ robots: robots.length }, 'simulated robots started');
  return {
    robots: robots.length,
    buildingSystems: systems?.url ?? null,
    async stop() {
      stopping = true;
      clearInterval(timer);
      await systems?.stop();
      if (child.exitCode !== null || child.signalCode !== null) return;
      const exited = new Promise<void>((ok) => child.once('exit', () => ok()));
      child.kill('SIGTERM');
      const timeout = setTimeout(() => child.kill('SIGKILL'), 3_000);
      await exited;
      clearTimeout(timeout);
    },
  };
}

/**
 * The demo building's simulated elevators and doors without simulated robots
 * (SIMULATED_BUILDING_SYSTEMS=1 with SIMULATED_ROBOTS=0, as the e2e tests run the server): the same
 * as `startSimulatedFleet`'s `buildingSystems`. Null when there is no demo building or they do not start.
 */
export async function startDemoBuildingSystems(opts: {
  db: Kysely<Database>;
  log: FastifyBaseLogger;
  clock: Clock;
  admit?: ((url: string) => void) | undefined;
}): Promise<SimulatedBuilding | null> {
  const repo = simulatedFleetRepo(opts.db);
  const building = await repo.buildingNamed(DEMO_BUILDING);
  const floors = building ? await repo.floorsOf(building.id) : [];
  if (!building || floors.length === 0) {
    opts.log.info('simulated building systems skipped: no demo building with floors (SEED_DEMO=0?)');
    return null;
  }
  return startSimulatedBuilding({ ...opts, building, floorIndexes: floors.map((f) => f.index) }).catch(
    (err: unknown) => {
      opts.log.warn({ err }, 'simulated building systems did not start');
      return null;
    },
  );
}
