import type { RobotCommand, VdaInstantActions, VdaOrder } from '@portal/contract';
import type { OrderStop } from './types.ts';

/**
 * The messages the portal sends to robots (orders, instant actions), as pure builders: the caller
 * gives the header (with its counter) and the ids.
 */

const COMMAND_ACTIONS: Record<RobotCommand, string> = {
  pause: 'startPause',
  resume: 'stopPause',
  cancel: 'cancelOrder',
};

/** VDA 5050 wants orientations in [-π, π]. */
export const normalizeAngle = (a: number) => Math.atan2(Math.sin(a), Math.cos(a));

export interface MessageHeader {
  headerId: number;
  timestamp: string;
  version: string;
  manufacturer: string;
  serialNumber: string;
}

/** What a header needs of the robot; `headerIds` counts per topic (incremented here). */
export interface HeaderTarget {
  manufacturer: string;
  serialNo: string;
  protocolVersion: string | null;
  headerIds: { order: number; instantActions: number };
}

/** The next header of the robot's topic: 2.0 robots get 2.0.0 messages, all others 2.1.0. */
export const nextHeader = (e: HeaderTarget, topic: 'order' | 'instantActions', timestamp: string): MessageHeader => ({
  headerId: e.headerIds[topic]++,
  timestamp,
  version: e.protocolVersion?.startsWith('2.0') ? '2.0.0' : '2.1.0',
  manufacturer: e.manufacturer,
  serialNumber: e.serialNo,
});

/** One instant action; the official 2.0 schema names the field actionName, so 2.0 robots get both. */
function instantActions(
  h: MessageHeader,
  action: { actionId: string; actionType: string; blockingType: 'NONE' | 'HARD'; params?: Record<string, string> },
): VdaInstantActions {
  return {
    ...h,
    actions: [
      {
        actionId: action.actionId,
        actionType: action.actionType,
        ...(h.version === '2.0.0' ? { actionName: action.actionType } : {}),
        blockingType: action.blockingType,
        ...(action.params
          ? { actionParameters: Object.entries(action.params).map(([key, value]) => ({ key, value })) }
          : {}),
      },
    ],
  };
}

/** A standard command (pause, resume, cancel) as a HARD instant action; `uniqueId` makes the action id. */
export const commandMessage = (h: MessageHeader, command: RobotCommand, uniqueId: string): VdaInstantActions =>
  instantActions(h, { actionId: `${command}-${uniqueId}`, actionType: COMMAND_ACTIONS[command], blockingType: 'HARD' });

/** A custom instant action (blocking type NONE) with these parameters. */
export const customActionMessage = (
  h: MessageHeader,
  actionId: string,
  actionType: string,
  params: Record<string, string>,
): VdaInstantActions => instantActions(h, { actionId, actionType, blockingType: 'NONE', params });

/** The direction of travel at stop `i`: towards the next stop, or from the previous one at the end. */
function travelDirection(stops: OrderStop[], i: number): number {
  const from = stops[i + 1] ? stops[i]! : stops[i - 1];
  const to = stops[i + 1] ?? stops[i]!;
  return from ? Math.atan2(to.y - from.y, to.x - from.x) : 0;
}

/**
 * How far (m) the robot may stand from an order's first node (its allowedDeviationXY): VDA 5050 robots
 * accept a new order only when they stand on its first node, within this deviation.
 */
export const ORDER_START_DEVIATION_XY = 0.5;

/**
 * The stops of an order that starts where the robot is (VDA 5050: the first node must be trivially
 * reachable). When the robot stands farther than ORDER_START_DEVIATION_XY from the first stop (on
 * the same map), say stopped mid-edge after a cancel, a stop at its position is put first, so the
 * robot drives from there to the first stop. `startId` names that stop's node.
 */
export function startingAt(
  stops: OrderStop[],
  at: { x: number; y: number; mapId: string } | null,
  startId: string,
): OrderStop[] {
  const first = stops[0];
  if (!first || !at || at.mapId !== first.mapId) return stops;
  if (Math.hypot(first.x - at.x, first.y - at.y) <= ORDER_START_DEVIATION_XY) return stops;
  return [{ nodeId: startId, x: at.x, y: at.y, mapId: at.mapId }, ...stops];
}

/**
 * An order along the stops: released nodes, straight edges between consecutive stops. The first
 * node carries allowedDeviationXY (ORDER_START_DEVIATION_XY): the robot stands on it when it stands
 * that close.
 */
export function orderMessage(h: MessageHeader, orderId: string, stops: OrderStop[]): VdaOrder {
  return {
    ...h,
    orderId,
    orderUpdateId: 0,
    nodes: stops.map((s, i) => ({
      nodeId: s.nodeId,
      sequenceId: i * 2,
      released: true,
      nodePosition: {
        x: s.x,
        y: s.y,
        // 2.0 robots copy node positions into their state, where the 2.0.0 schema requires theta. A
        // stop without a heading gets the direction of travel and any orientation is allowed there.
        theta: normalizeAngle(s.theta ?? travelDirection(stops, i)),
        ...(i === 0 ? { allowedDeviationXY: ORDER_START_DEVIATION_XY } : {}),
        ...(s.theta === undefined ? { allowedDeviationTheta: Math.PI } : {}),
        mapId: s.mapId,
      },
      actions: [],
    })),
    edges: stops.slice(1).map((s, i) => ({
      edgeId: `${stops[i]!.nodeId}--${s.nodeId}`,
      sequenceId: i * 2 + 1,
      released: true,
      startNodeId: stops[i]!.nodeId,
      endNodeId: s.nodeId,
      ...(s.maxSpeed === undefined ? {} : { maxSpeed: s.maxSpeed }),
      actions: [],
    })),
  };
}
