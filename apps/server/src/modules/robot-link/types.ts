import type {
  FleetRobot,
  MappingMessage,
  RobotCommand,
  RobotLive,
  RobotLog,
  RobotPhotoMessage,
  RobotStatusCodeValue,
  RobotTeleopInfo,
  TeleopReplyMessage,
  TeleopRobotMessage,
  VdaFactsheet,
  VdaOrder,
  VdaState,
  VideoMode,
} from '@portal/contract';
import type { TenantScope } from '../../lib/scope.ts';
import type { BrokerAuthority } from './broker.ts';

/** One node of an order the portal sends (issue 5 builds them from the route graph). */
export interface OrderStop {
  nodeId: string;
  x: number;
  y: number;
  theta?: number;
  mapId: string;
  /** Speed limit (m/s) on the edge from the previous stop to this one (slow edges). */
  maxSpeed?: number;
}

/** What a registry change means for the link. */
export type RegistryChange =
  | { kind: 'created'; robotId: number }
  /** Name, building, group, status...: the live view is refreshed. */
  | { kind: 'updated'; robotId: number }
  /** Old credentials stop working at once: the robot's broker session is closed. */
  | { kind: 'credentials'; robotId: number }
  | { kind: 'deleted'; robotId: number };

/**
 * The robot link (VDA 5050 over MQTT) as the rest of the server sees it. REST routes read live
 * state and send commands through it; the WebSocket gateway listens to its events.
 */
export interface RobotLink {
  /** Live state of a registered robot ("unknown" until it has spoken to this portal). */
  live(robot: { id: number; status: RobotStatusCodeValue }): RobotLive;
  /** The fleet the scope may see (optionally one building), from the link's in-memory registry. */
  fleet(scope: TenantScope, buildingId: number | null): FleetRobot[];
  /** The registry facts of one robot, or null when unknown or deleted. */
  robot(robotId: number): { id: number; organizationId: number; buildingId: number; videoMode: VideoMode } | null;
  /** Who may sign in to the broker and as whom (the embedded broker and external brokers' auth hooks). */
  authority: BrokerAuthority;
  /** The broker address robots are told to connect to (in their credentials). */
  robotBrokerUrl(): string;
  /** Tell the link the registry changed (call after the database change is committed). */
  registryChanged(change: RegistryChange): Promise<void>;
  /** Sends a standard instant action (pause, resume, cancel). Throws AppError ROBOT_OFFLINE when offline. */
  command(robotId: number, command: RobotCommand): Promise<void>;
  /**
   * Sends an order along these stops (straight edges between them), starting where the robot is (a
   * node at its position comes first when it stands away from the first stop). Answers the order id.
   */
  /** `orderId`: the order's id when the caller names it (a work plan's move: docs/api-work-plans.md), else a new UUID. */
  sendOrder(robotId: number, stops: OrderStop[], orderId?: string): Promise<string>;
  /**
   * Publishes an order or order update built by the caller (the flow runner: nodes, edges, node
   * actions, orderUpdateId), with the robot's next header. Throws AppError ROBOT_OFFLINE when offline.
   * Answers the protocol version of the header (2.0.0 robots want `actionName` too).
   */
  publishOrder(robotId: number, body: Pick<VdaOrder, 'orderId' | 'orderUpdateId' | 'nodes' | 'edges'>): Promise<string>;
  /**
   * The robot may not be given a new order: it holds an unfinished one (its state names an order
   * with nodes or edges left, whether it drives, waits at a node or stands before an obstacle),
   * drives, or has not yet answered the order the portal just sent.
   */
  busy(robotId: number): boolean;
  /** The robot's last factsheet announces this instant action (`protocolFeatures.agvActions`, scope INSTANT). */
  announces(robotId: number, actionType: string): boolean;
  /**
   * Sends one custom instant action (docs/robot-protocol.md section 6), blocking type NONE, with
   * these parameters. Answers the action id. Throws AppError ROBOT_OFFLINE when offline and
   * CAPABILITY_MISSING when the robot's factsheet does not announce the action.
   */
  instantAction(robotId: number, actionType: string, params: Record<string, string>): Promise<string>;
  /**
   * Publishes a teleop signalling message on the robot's `teleop` topic. Throws AppError
   * ROBOT_OFFLINE when offline (except `close`, which is sent whenever the robot is known).
   */
  publishTeleop(robotId: number, message: TeleopRobotMessage): Promise<void>;
  /** This server instance's id (messages between servers name their origin). */
  readonly instanceId: string;
  /** Sends a teleop lock message to the other server instances (they get it as `teleopShared`). */
  shareTeleop(message: unknown): Promise<void>;
  /** Tells the other server instances that an operator changed (they get it as `operatorChanged`). */
  shareOperatorChange(operatorId: number): Promise<void>;
  /** What the robot last said of itself (console, capabilities); null when unknown. */
  details(robotId: number): RobotDetails | null;
  /**
   * The robot's message log after `after` (sequence number). The first call starts keeping it (in
   * memory, the last ROBOT_LOG_SIZE messages); it stops 10 minutes after the last call.
   */
  watchLog(robotId: number, after?: number): RobotLog;
  /** Events for the realtime gateway. */
  on(event: 'live', listener: (e: LiveEvent) => void): () => void;
  on(event: 'pose', listener: (e: PoseEvent) => void): () => void;
  on(event: 'registry', listener: (e: RegistryEvent) => void): () => void;
  /** A valid `mapping` message of a robot (custom topic, docs/robot-protocol.md section 6). */
  on(event: 'mapping', listener: (e: MappingEvent) => void): () => void;
  /** A valid `teleopReply` message (WebRTC answer, candidate, closed). */
  on(event: 'teleopReply', listener: (e: TeleopReplyEvent) => void): () => void;
  /** A valid `photo` message (the answer to a takePhoto action). */
  on(event: 'photo', listener: (e: PhotoEvent) => void): () => void;
  /**
   * News of the robot's link, before the live event it causes: a `connection` message (ONLINE,
   * OFFLINE, CONNECTIONBROKEN: the broker's last will) or the end of its broker sessions (SESSION_ENDED).
   */
  on(event: 'connection', listener: (e: ConnectionEvent) => void): () => void;
  /** Another server instance's teleop lock message (unchecked: the teleop service parses it). */
  on(event: 'teleopShared', listener: (e: { origin: string; message: unknown }) => void): () => void;
  /** Each valid state message (after it was applied to the live view). */
  on(event: 'state', listener: (e: { robotId: number; state: VdaState }) => void): () => void;
  /** Another server instance's "operator changed" (modules/realtime). */
  on(event: 'operatorChanged', listener: (operatorId: number) => void): () => void;
  close(): Promise<void>;
}

export interface RobotRef {
  robotId: number;
  organizationId: number;
  buildingId: number;
}
export interface LiveEvent extends RobotRef {
  live: RobotLive;
}
export interface PoseEvent extends RobotRef {
  position: NonNullable<RobotLive['position']>;
  at: string;
}
export interface MappingEvent extends RobotRef {
  /** Checked: `cells` is base64 of exactly width × height bytes. */
  message: MappingMessage;
}
export interface TeleopReplyEvent extends RobotRef {
  message: TeleopReplyMessage;
}
export interface ConnectionEvent extends RobotRef {
  state: 'ONLINE' | 'OFFLINE' | 'CONNECTIONBROKEN' | 'SESSION_ENDED';
  /** The message's timestamp (null for SESSION_ENDED). */
  timestamp: string | null;
}
export interface PhotoEvent extends RobotRef {
  message: RobotPhotoMessage;
}
export interface RobotDetails {
  online: boolean;
  protocolVersion: string | null;
  state: VdaState | null;
  factsheet: VdaFactsheet | null;
  teleop: RobotTeleopInfo | null;
  battery: number | null;
}
export interface RegistryEvent {
  robotId: number;
  organizationId: number;
  /** Buildings whose fleet changed (old and new building of a moved robot). */
  buildingIds: number[];
}
