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

/** An order along the stops: released nodes, straight edges between consecutive stops. */
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
