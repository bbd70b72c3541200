import {
  EDGE_SPEED_MPS,
  floorMapId,
  planPath,
  type ErrorDetail,
  type FloorDetail,
  type GotoBody,
  type MapDocument,
  type NavigationOrder,
  type OrderLabel,
  type RobotStatusCodeValue,
  type TrialRunBody,
  type Waypoint,
} from '@portal/contract';
import type { AppContext, Principal } from '../../context.ts';
import { AppError, notFound } from '../../lib/errors.ts';
import { robotRepo } from '../robots/robot-repo.ts';
import { orderLabels } from '../robot-link/fleet-state.ts';
import type { OrderStop } from '../robot-link/types.ts';
import { requireControls, type ControlsLock } from '../teleop/controls.ts';
import type { MapService } from './map-service.ts';
import type { AuditAction } from '@portal/contract';

type Ctx = Pick<AppContext, 'db' | 'audit' | 'robotLink'>;

export interface Plan {
  waypointIds: number[];
  edgeIds: Array<number | null>;
  goalAt: Set<number>;
}

const invalid = (message: string, details: ErrorDetail[]) => new AppError('VALIDATION_FAILED', message, details);

const noPath = (from: Waypoint, to: Waypoint) =>
  new AppError('NO_PATH', `There is no way over the route graph from waypoint "${from.name}" to "${to.name}"`, [
    { path: 'waypointId', message: 'validation.noPath', code: `${from.id}-${to.id}` },
  ]);

/**
 * The waypoint the robot starts from: the nearest one that is on the route graph (touched by an
 * edge) or is the first goal itself, so a stray waypoint beside the robot does not strand it.
 */
export function startOf(doc: MapDocument, at: { x: number; y: number }, goal: number): Waypoint {
  const onGraph = new Set<number>([goal]);
  for (const e of doc.edges) onGraph.add(e.from).add(e.to);
  let best: Waypoint | null = null;
  let bestD = Infinity;
  for (const w of doc.waypoints) {
    if (!onGraph.has(w.id)) continue;
    const d = Math.hypot(w.x - at.x, w.y - at.y);
    if (d < bestD) {
      best = w;
      bestD = d;
    }
  }
  return best!;
}

/**
 * Plans each leg through `goals` in order. Answers the waypoints, per waypoint the edge that led
 * there (null for the start), and the positions where a leg ends (the goals).
 */
export function plan(doc: MapDocument, start: Waypoint, goals: Waypoint[]): Plan {
  const waypointIds = [start.id];
  const edgeIds: Array<number | null> = [null];
  const goalAt = new Set<number>();
  let from = start;
  for (const goal of goals) {
    const leg = planPath(doc, from.id, goal.id);
    if (!leg.ok) throw noPath(from, goal);
    waypointIds.push(...leg.waypointIds.slice(1));
    edgeIds.push(...leg.edgeIds);
    goalAt.add(waypointIds.length - 1);
    from = goal;
  }
  return { waypointIds, edgeIds, goalAt };
}

/**
 * The order's stops: every waypoint of the plan. The waypoint's heading is given only where a leg
 * ends (the robot turns there; passing waypoints it keeps driving); slow edges carry maxSpeed.
 */
export function stopsOf(doc: MapDocument, floor: FloorDetail, planned: Plan): OrderStop[] {
  const byId = new Map(doc.waypoints.map((w) => [w.id, w]));
  const edges = new Map(doc.edges.map((e) => [e.id, e]));
  const mapId = floorMapId(floor.id);
  return planned.waypointIds.map((id, i) => {
    const w = byId.get(id)!;
    const edgeId = planned.edgeIds[i];
    const speed = edgeId === null || edgeId === undefined ? null : EDGE_SPEED_MPS[edges.get(edgeId)!.speed];
    return {
      nodeId: `wp-${w.id}`,
      x: w.x,
      y: w.y,
      ...(planned.goalAt.has(i) ? { theta: w.theta } : {}),
      mapId,
      ...(speed === null ? {} : { maxSpeed: speed }),
    };
  });
}

/**
 * Driving over a floor's route graph (docs/api-maps.md): "go to waypoint X" and a route's trial
 * run become one VDA 5050 order each, planned with planPath from the waypoint nearest the robot.
 * Anyone who can see the robot and the floor may send them (like other robot commands), unless
 * another operator holds the robot's controls (requireControls: TELEOP_LOCKED, 409).
 */
export function navigationService(ctx: Ctx, maps: MapService, lock: ControlsLock) {
  const { db, audit, robotLink } = ctx;
  const robots = robotRepo(db);

  /** The robot in scope, online, standing on the floor and not busy with other work. */
  async function robotOnFloor(p: Principal, robotId: number, floor: FloorDetail) {
    const robot = await robots.find(p, robotId);
    if (!robot) throw notFound('Robot');
    const live = robotLink.live({ id: robot.id, status: robot.status as RobotStatusCodeValue });
    if (!live.online) throw new AppError('ROBOT_OFFLINE', 'The robot is offline');
    requireControls(lock, robot.id, p);
    const position = live.position;
    if (!position) {
      throw invalid('The robot has not reported its position yet', [
        { path: 'robot', message: 'validation.positionUnknown' },
      ]);
    }
    if (position.mapId !== floorMapId(floor.id)) {
      throw invalid(`The robot is on another floor (map ${position.mapId}), not on floor ${floor.id}`, [
        { path: 'floorId', message: 'validation.robotOnOtherFloor', code: position.mapId },
      ]);
    }
    // Busy: it holds an unfinished order (driving, paused, waiting at a node or before an
    // obstacle), or has not answered the one just sent: a second order would be refused by it.
    if (robotLink.busy(robot.id)) {
      throw new AppError('CONFLICT', 'The robot is busy with an order; cancel it first', [
        { path: 'robot', message: 'validation.robotBusy' },
      ]);
    }
    return { robot, position };
  }

  async function send(
    p: Principal,
    robot: { id: number; organization_id: number },
    stops: OrderStop[],
    ip: string,
    action: AuditAction,
    detail: Record<string, unknown>,
    label: OrderLabel,
    named?: string,
  ): Promise<string> {
    const orderId = await robotLink.sendOrder(robot.id, stops, named);
    orderLabels.remember(orderId, label);
    await audit.record({
      operatorId: p.operatorId,
      organizationId: robot.organization_id,
      action,
      targetType: 'robot',
      targetId: robot.id,
      ip,
      detail: { ...detail, orderId },
    });
    return orderId;
  }

  return {
    /**
     * `opts.orderId`: the order's id (a work plan's movement step names its orders so any server tells
     * them from the robot's state); `opts.detail`: more for the audit record.
     */
    async goto(
      p: Principal,
      robotId: number,
      body: GotoBody,
      ip: string,
      opts: { orderId?: string; detail?: Record<string, unknown> } = {},
    ): Promise<NavigationOrder> {
      const floor = await maps.floor(p, body.floorId);
      const { robot, position } = await robotOnFloor(p, robotId, floor);
      const doc = await maps.current(floor.id);
      const target = doc.waypoints.find((w) => w.id === body.waypointId);
      if (!target) {
        throw invalid('No such waypoint on this floor', [{ path: 'waypointId', message: 'validation.notFound' }]);
      }
      const planned = plan(doc, startOf(doc, position, target.id), [target]);
      const orderId = await send(
        p,
        robot,
        stopsOf(doc, floor, planned),
        ip,
        'robot.goto',
        {
          floorId: floor.id,
          waypointId: target.id,
          ...opts.detail,
        },
        { kind: 'goto', name: target.name },
        opts.orderId,
      );
      return { orderId, waypointIds: planned.waypointIds };
    },

    async trialRun(p: Principal, robotId: number, body: TrialRunBody, ip: string): Promise<NavigationOrder> {
      const floor = await maps.floor(p, body.floorId);
      const { robot, position } = await robotOnFloor(p, robotId, floor);
      const doc = await maps.current(floor.id);
      const route = doc.routes.find((r) => r.id === body.routeId);
      if (!route) throw invalid('No such route on this floor', [{ path: 'routeId', message: 'validation.notFound' }]);
      const byId = new Map(doc.waypoints.map((w) => [w.id, w]));
      const goals = route.waypointIds.map((id) => byId.get(id)!);
      const planned = plan(doc, startOf(doc, position, goals[0]!.id), goals);
      const stops = stopsOf(doc, floor, planned);
      const orderId = await send(
        p,
        robot,
        stops,
        ip,
        'robot.trial-run',
        {
          floorId: floor.id,
          routeId: route.id,
          name: route.name,
        },
        { kind: 'trialRun', name: route.name },
      );
      return { orderId, waypointIds: planned.waypointIds };
    },
  };
}
