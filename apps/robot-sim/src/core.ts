import {
  instantActionsSchema,
  OCCUPANCY,
  TELEOP_INFO_TYPE,
  teleopInfoReferences,
  LOW_BATTERY_PERCENT,
  MAPPING_RESOLUTION,
  MappingAction,
  orderSchema,
  RobotErrorType,
  type ActionState,
  type MappingState,
  type OrderEdge,
  type OrderNode,
  type RobotModel,
  type VdaAction,
  type VdaError,
  type VdaOrder,
  type VdaState,
  type VdaVersion,
} from '@portal/contract';
import {
  connectionMessage,
  factsheetMessage,
  headerTailJson,
  isoNow,
  nodeStateOf,
  stateMessage,
  visualizationJson,
  type ConnectionState,
  type Header,
} from './messages.ts';
import { MappingSession, resolutionProblem } from './mapping.ts';
import { RobotFeatures } from './features.ts';
import { capturePhoto } from './photo.ts';
import { MODEL_SPECS, SIM_ORDER_ACTIONS, type ModelSpec } from './models.ts';
import { worldFor, type World } from './world.ts';

/** Faults a test (or the CLI) can inject; each becomes an entry of `state.errors`. */
export type Fault = 'emergencyStop' | 'obstacle' | 'lowBattery' | 'hardwareError' | 'motorTemperatureHigh';
export const FAULTS: readonly Fault[] = [
  'emergencyStop',
  'obstacle',
  'lowBattery',
  'hardwareError',
  'motorTemperatureHigh',
];

export interface Pose {
  x: number;
  y: number;
  theta: number;
}

export interface CoreOptions {
  manufacturer: string;
  serialNumber: string;
  model: RobotModel;
  version: VdaVersion;
  mapId: string;
  start: Pose;
  /** percent */
  battery: number;
  /** 0 = no visualization messages */
  visualizationHz: number;
  /** Longest gap between two state messages (real time). */
  stateIntervalMs: number;
  chargers: ReadonlyArray<{ x: number; y: number }>;
  /** Simulated seconds per real second (physics, battery, action durations). */
  speedScale: number;
  /** Node/edge action types the robot executes; others FAIL. */
  actionTypes: readonly string[];
  /** What a mapping robot's sensor sees on a map: default `worldFor(mapId)`; one World for every map. */
  world?: World | ((mapId: string) => World) | undefined;
  /** Simulated OS update: the MQTT layer takes the link down now and back up after `downMs`. */
  onRestart?: ((downMs: number) => void) | undefined;
}

/** The VDA 5050 topics a robot publishes. */
export type OutTopic = 'state' | 'visualization' | 'connection' | 'factsheet';
/** Every topic a robot publishes: the VDA ones and the portal's custom `mapping`, `photo` and `teleopReply`. */
export type PublishTopic = OutTopic | 'mapping' | 'photo' | 'teleopReply';
/** Where the core sends its messages: the MQTT link, or a test that collects them. */
export type Emit = (topic: PublishTopic, payload: string, retain: boolean) => void;

// Physics and battery constants (simulated time).
const ARRIVE_EPS = 0.005; // m
const HEADING_TOL = 0.02; // rad: closer than this, the robot drives instead of turning in place
const DEFAULT_DEVIATION_XY = 0.5; // m: the first node of an order counts as reached within this
const CHARGER_RADIUS = 0.3; // m
const ACTION_SECONDS = 0.5; // how long a simulated node/edge action runs
const DRAIN_DRIVE_PER_M = 1 / 60; // %/m: about 1 %/min at 1 m/s
const DRAIN_TURN_PER_S = 0.5 / 60; // %/s
const DRAIN_IDLE_PER_S = 0.1 / 60; // %/s
const CHARGE_PER_S = 5 / 60; // %/s: about 5 %/min
const MOTOR_HOT_SPEED_FACTOR = 0.5;
const REJECTION_TTL_MS = 30_000; // rejection errors (validationError...) disappear after this
const MAX_INSTANT_STATES = 20; // instant action states kept in actionStates

const FAULT_ERRORS: Record<Exclude<Fault, 'lowBattery'>, VdaError> = {
  emergencyStop: {
    errorType: RobotErrorType.emergencyStop,
    errorLevel: 'FATAL',
    errorDescription: 'Emergency stop pressed',
  },
  obstacle: {
    errorType: RobotErrorType.obstacleOnRoute,
    errorLevel: 'WARNING',
    errorDescription: 'Obstacle on the route: waiting for it to clear',
  },
  hardwareError: {
    errorType: RobotErrorType.hardwareError,
    errorLevel: 'FATAL',
    errorDescription: 'Hardware error',
  },
  motorTemperatureHigh: {
    errorType: RobotErrorType.motorTemperatureHigh,
    errorLevel: 'WARNING',
    errorDescription: 'Motor temperature high: speed reduced',
  },
};
const LOW_BATTERY_ERROR: VdaError = {
  errorType: RobotErrorType.lowBattery,
  errorLevel: 'WARNING',
  errorDescription: 'Battery low',
};
const EMPTY_BATTERY_ERROR: VdaError = {
  errorType: RobotErrorType.lowBattery,
  errorLevel: 'FATAL',
  errorDescription: 'Battery empty',
};

const MANUAL_OBSTACLE_ERROR: VdaError = {
  errorType: 'F0005',
  errorLevel: 'WARNING',
  errorDescription: 'Obstacle in the specified direction: manual driving stopped',
};
/** Manual driving stops this far (m) in front of the robot's outline when a wall is ahead. */
const MANUAL_SAFETY_MARGIN = 0.15;

const round3 = (v: number): number => Math.round(v * 1000) / 1000;
const round4 = (v: number): number => Math.round(v * 10000) / 10000;
/** Angle into (-π, π]. */
const wrap = (a: number): number => {
  let r = a % (2 * Math.PI);
  if (r > Math.PI) r -= 2 * Math.PI;
  else if (r <= -Math.PI) r += 2 * Math.PI;
  return r;
};

interface Running {
  st: ActionState;
  until: number; // simulated seconds
}

interface Rejection {
  error: VdaError;
  until: number; // real ms
}

/**
 * One simulated robot without any I/O: order execution, physics, battery and faults. The MQTT layer
 * (robot.ts) feeds it messages and ticks; it answers through `emit`.
 */
export class RobotCore {
  readonly spec: ModelSpec;
  private readonly headerTail: string;
  private readonly known: Set<string>;
  private readonly headerIds: Record<PublishTopic, number> = {
    state: 0,
    visualization: 0,
    connection: 0,
    factsheet: 0,
    mapping: 0,
    photo: 0,
    teleopReply: 0,
  };

  // Pose and motion.
  x: number;
  y: number;
  theta: number;
  mapId: string;
  private mapIdJson: string;
  private v = 0;
  private omega = 0;
  private driving = false;
  private thetaTarget: number | null = null;
  /** Distance driven since the last battery step (m). */
  private distance = 0;

  // Battery.
  private batteryLevel: number;
  private reportedBattery: number;
  private charging = false;
  private batteryBeforeLowFault: number | null = null;

  private readonly faults = new Set<Fault>();
  private paused = false;
  private rejections: Rejection[] = [];

  // Order.
  private orderId = '';
  private orderUpdateId = 0;
  private zoneSetId: string | undefined;
  private lastNodeId = '';
  private lastNodeSequenceId = 0;
  /** Nodes still to traverse (the reached node is removed), then edges, sorted by sequenceId. */
  private nodes: OrderNode[] = [];
  private edges: OrderEdge[] = [];
  private nodeStates: VdaState['nodeStates'] = [];
  private edgeStates: VdaState['edgeStates'] = [];
  private actionStates: ActionState[] = [];
  private readonly actionById = new Map<string, ActionState>();
  private instantIds: string[] = [];
  /** Node actions in progress: the robot stands still until they finish. */
  private running: Running[] = [];
  private edgeRunning: ActionState[] = [];
  private enteredEdgeSeq: number | null = null;

  /** Map creation in progress (startMapping until stopMapping). */
  private mapping: MappingSession | null = null;

  /** Teleoperation features: speech, recording, photos, gimbal, lights... (features.ts). */
  readonly features: RobotFeatures;
  /** Manual drive command from the teleop controller (m/s, rad/s), null when none. */
  private manual: { v: number; omega: number } | null = null;
  /** Manual driving is stopped short of a wall (F0005 while the operator pushes into it). */
  private manualObstacle = false;

  // Time.
  private simTime = 0; // s
  private lastTick: number | null = null; // real ms
  private lastStateAt = 0;
  private nextVisAt = 0;
  private readonly visPeriod: number;
  private dirty = false;

  constructor(
    readonly opts: CoreOptions,
    private readonly emit: Emit,
  ) {
    this.spec = MODEL_SPECS[opts.model];
    this.headerTail = headerTailJson(opts.version, opts.manufacturer, opts.serialNumber);
    this.known = new Set([...SIM_ORDER_ACTIONS, ...opts.actionTypes]);
    this.x = opts.start.x;
    this.y = opts.start.y;
    this.theta = wrap(opts.start.theta);
    this.mapId = opts.mapId;
    this.mapIdJson = JSON.stringify(opts.mapId);
    this.batteryLevel = Math.min(100, Math.max(0, opts.battery));
    this.reportedBattery = Math.round(this.batteryLevel);
    this.visPeriod = opts.visualizationHz > 0 ? 1000 / opts.visualizationHz : 0;
    this.charging = this.onCharger();
    this.features = new RobotFeatures(opts.model, {
      battery: () => this.batteryLevel,
      capture: (camera) =>
        capturePhoto({
          camera,
          pose: { x: this.x, y: this.y, theta: this.theta },
          world: this.worldOf(this.mapId),
          robotName: opts.serialNumber,
          now: Date.now(),
          ...this.features.view(),
        }),
      publishPhoto: (payload) => this.emit('photo', payload, false),
      header: () => this.header('photo', true),
      restart: (downMs) => this.opts.onRestart?.(downMs),
      changed: () => {
        this.dirty = true;
      },
    });
  }

  // ------------------------------------------------------------------ messages

  private header(topic: PublishTopic, bump: boolean): Header {
    if (bump) this.headerIds[topic] += 1;
    return {
      headerId: this.headerIds[topic],
      timestamp: isoNow(),
      version: this.opts.version,
      manufacturer: this.opts.manufacturer,
      serialNumber: this.opts.serialNumber,
    };
  }

  connectionPayload(state: ConnectionState): string {
    return JSON.stringify(connectionMessage(this.header('connection', true), state));
  }

  publishConnection(state: ConnectionState): void {
    this.emit('connection', this.connectionPayload(state), true);
  }

  publishFactsheet(): void {
    const msg = factsheetMessage(this.header('factsheet', true), this.opts.model, [...this.known], {
      actions: this.features.actions,
      cameras: this.features.cameras,
    });
    this.emit('factsheet', JSON.stringify(msg), true);
  }

  /** The state as the next message would report it (without taking a headerId). */
  state(): VdaState {
    return this.buildState(this.header('state', false));
  }

  publishState(): void {
    this.dirty = false;
    if (this.lastTick !== null) this.lastStateAt = this.lastTick;
    this.emit('state', JSON.stringify(this.buildState(this.header('state', true))), false);
  }

  private buildState(h: Header): VdaState {
    return stateMessage(h, {
      orderId: this.orderId,
      orderUpdateId: this.orderUpdateId,
      zoneSetId: this.zoneSetId,
      lastNodeId: this.lastNodeId,
      lastNodeSequenceId: this.lastNodeSequenceId,
      driving: this.driving,
      paused: this.paused,
      newBaseRequest: this.newBaseRequest(),
      nodeStates: this.nodeStates,
      edgeStates: this.edgeStates,
      agvPosition: {
        x: round3(this.x),
        y: round3(this.y),
        theta: round4(this.theta),
        mapId: this.mapId,
        positionInitialized: true,
      },
      vx: round3(this.v),
      omega: round4(this.omega),
      actionStates: this.actionStates,
      batteryCharge: this.reportedBattery,
      charging: this.charging,
      errors: this.errors(),
      eStop: this.faults.has('emergencyStop'),
      fieldViolation: this.faults.has('obstacle') || this.manualObstacle,
      information: [
        { infoType: TELEOP_INFO_TYPE, infoLevel: 'INFO', infoReferences: teleopInfoReferences(this.features.info()) },
      ],
      operatingMode: this.manual ? 'MANUAL' : 'AUTOMATIC',
    });
  }

  private publishVisualization(timestamp: string): void {
    this.headerIds.visualization += 1;
    this.emit(
      'visualization',
      visualizationJson(
        this.headerIds.visualization,
        timestamp,
        this.headerTail,
        round3(this.x),
        round3(this.y),
        round4(this.theta),
        this.mapIdJson,
        round3(this.v),
        round4(this.omega),
      ),
      false,
    );
  }

  private errors(): VdaError[] {
    const out: VdaError[] = [];
    for (const f of FAULTS) if (f !== 'lowBattery' && this.faults.has(f)) out.push(FAULT_ERRORS[f]);
    if (this.manualObstacle) out.push(MANUAL_OBSTACLE_ERROR);
    if (this.reportedBattery <= 0) out.push(EMPTY_BATTERY_ERROR);
    else if (this.reportedBattery < LOW_BATTERY_PERCENT) out.push(LOW_BATTERY_ERROR);
    for (const r of this.rejections) out.push(r.error);
    return out;
  }

  /** At the end of the base with a horizon waiting: ask master control for more. */
  private newBaseRequest(): boolean {
    const n = this.nodes;
    return n.length > 0 && !n[n.length - 1]!.released && !n.some((node, i) => i > 0 && node.released);
  }

  // ------------------------------------------------------------------ time

  /**
   * Advances the simulation to `now` (real ms) and publishes what is due. One shared timer calls
   * this for a whole fleet; `timestamp` is that tick's ISO time, shared by the fleet's messages.
   */
  tick(now: number, timestamp: string): void {
    if (this.lastTick === null) {
      this.lastTick = now;
      this.lastStateAt = now;
      // Spread the visualization messages of a fleet over the period.
      this.nextVisAt = now + Math.random() * this.visPeriod;
      return;
    }
    // A stalled event loop must not make robots jump.
    const dtReal = Math.min(now - this.lastTick, 500);
    this.lastTick = now;
    const dt = (dtReal / 1000) * this.opts.speedScale;
    this.simTime += dt;
    this.step(dt);
    this.features.step(dt);
    this.stepBattery(dt);
    if (this.mapping) this.stepMapping(now);
    if (this.rejections.length > 0 && this.rejections[0]!.until <= now) {
      this.rejections = this.rejections.filter((r) => r.until > now);
      this.dirty = true;
    }
    if (this.dirty || now - this.lastStateAt >= this.opts.stateIntervalMs) this.publishState();
    if (this.visPeriod > 0 && now >= this.nextVisAt) {
      this.publishVisualization(timestamp);
      this.nextVisAt += this.visPeriod;
      if (this.nextVisAt <= now) this.nextVisAt = now + this.visPeriod;
    }
  }

  // ------------------------------------------------------------------ physics

  private blocked(): boolean {
    return (
      this.paused ||
      this.faults.has('emergencyStop') ||
      this.faults.has('obstacle') ||
      this.faults.has('hardwareError') ||
      this.reportedBattery <= 0
    );
  }

  private setDriving(d: boolean): void {
    if (d !== this.driving) {
      this.driving = d;
      this.dirty = true;
    }
  }

  private stop(): void {
    this.v = 0;
    this.omega = 0;
    this.setDriving(false);
  }

  private step(dt: number): void {
    if (this.running.length > 0) {
      let left = 0;
      for (const r of this.running) {
        if (this.simTime >= r.until) {
          r.st.actionStatus = 'FINISHED';
          this.dirty = true;
        } else this.running[left++] = r;
      }
      this.running.length = left;
    }
    if (this.manual && (!this.hasActiveOrder() || this.paused) && this.manualAllowed()) {
      return this.stepManual(this.manual, dt);
    }
    if (this.blocked() || this.running.length > 0 || dt <= 0) return this.stop();
    if (this.thetaTarget !== null) {
      if (this.turnToward(this.thetaTarget, dt)) this.thetaTarget = null;
      return;
    }
    const target = this.nodes[0];
    if (!target?.released || !target.nodePosition) return this.stop();
    const edge = this.edges[0];
    if (edge && edge.endNodeId === target.nodeId) {
      if (!edge.released) return this.stop();
      if (this.enteredEdgeSeq !== edge.sequenceId) this.enterEdge(edge);
    }
    this.driveTo(target, edge?.endNodeId === target.nodeId ? edge : undefined, dt);
  }

  // ------------------------------------------------------------------ manual driving (teleop)

  /** Why manual driving is refused now (e-stop, hardware error, empty battery, a running order), or null. */
  manualBlock(): string | null {
    if (this.faults.has('emergencyStop')) return 'emergencyStop';
    if (this.faults.has('hardwareError')) return 'hardwareError';
    if (this.reportedBattery <= 0) return 'batteryEmpty';
    if (this.hasActiveOrder() && !this.paused) return 'orderRunning';
    if (this.manualObstacle) return 'obstacle';
    return null;
  }

  private manualAllowed(): boolean {
    return !this.faults.has('emergencyStop') && !this.faults.has('hardwareError') && this.reportedBattery > 0;
  }

  /**
   * The teleop controller's command: linear and angular speed as fractions (-1..1) of the model's
   * maxima, `scale` (slow mode) applied. null: no controller any more (the robot brakes to a stop).
   */
  teleopDrive(cmd: { vx: number; wz: number; scale: number } | null): void {
    const wasManual = this.manual !== null;
    if (!cmd) {
      this.manual = null;
      if (this.manualObstacle) {
        this.manualObstacle = false;
        this.dirty = true;
      }
      if (wasManual) this.dirty = true;
      return;
    }
    const clamp = (v: number) => Math.max(-1, Math.min(1, v));
    this.manual = {
      v: clamp(cmd.vx) * cmd.scale * this.spec.speedMax,
      omega: clamp(cmd.wz) * cmd.scale * this.spec.angularSpeedMax,
    };
    if (!wasManual) this.dirty = true;
  }

  /** Free space ahead: the robot's front edge plus the margin does not reach a wall. */
  private clearAhead(x: number, y: number, heading: number): boolean {
    const world = this.worldOf(this.mapId);
    const reach = this.spec.length / 2 + MANUAL_SAFETY_MARGIN;
    const half = this.spec.width / 2;
    const c = Math.cos(heading);
    const s = Math.sin(heading);
    for (const side of [-1, -0.5, 0, 0.5, 1]) {
      const px = x + c * reach - s * half * side;
      const py = y + s * reach + c * half * side;
      if (world.occupancyAt(px, py) === OCCUPANCY.occupied) return false;
    }
    return true;
  }

  private stepManual(cmd: { v: number; omega: number }, dt: number): void {
    if (dt <= 0) return;
    const s = this.spec;
    const hot = this.faults.has('motorTemperatureHigh') ? MOTOR_HOT_SPEED_FACTOR : 1;
    const target = cmd.v * hot;
    // Accelerate or brake toward the command within the model's limits.
    const dv = target - this.v;
    const limit = (Math.sign(dv) === Math.sign(this.v) || this.v === 0 ? s.accelerationMax : s.decelerationMax) * dt;
    let v = Math.abs(dv) <= limit ? target : this.v + Math.sign(dv) * limit;
    const omega = cmd.omega;
    const heading = wrap(this.theta + omega * dt);
    let blocked = false;
    if (v !== 0) {
      const dir = v > 0 ? heading : wrap(heading + Math.PI);
      // Standing inside a wall of the synthetic plan (a start point the plan does not know): let it out.
      const inside = this.worldOf(this.mapId).occupancyAt(this.x, this.y) === OCCUPANCY.occupied;
      const nx = this.x + Math.cos(heading) * v * dt;
      const ny = this.y + Math.sin(heading) * v * dt;
      if (!inside && !this.clearAhead(nx, ny, dir)) {
        blocked = true;
        v = 0;
      } else {
        this.distance += Math.abs(v * dt);
        this.x = nx;
        this.y = ny;
      }
    }
    if (blocked !== this.manualObstacle) {
      this.manualObstacle = blocked;
      this.dirty = true;
    }
    this.theta = heading;
    this.v = v;
    this.omega = omega;
    this.setDriving(v !== 0 || omega !== 0);
  }

  /** Turns in place; true once the heading is reached. */
  private turnToward(heading: number, dt: number): boolean {
    const diff = wrap(heading - this.theta);
    const max = this.spec.angularSpeedMax * dt;
    this.v = 0;
    if (Math.abs(diff) <= max) {
      this.theta = wrap(heading);
      this.omega = diff / dt;
      this.setDriving(true);
      return true;
    }
    const step = Math.sign(diff) * max;
    this.theta = wrap(this.theta + step);
    this.omega = step / dt;
    this.setDriving(true);
    return false;
  }

  private driveTo(node: OrderNode, edge: OrderEdge | undefined, dt: number): void {
    const p = node.nodePosition!;
    if (p.mapId !== this.mapId) {
      // Another floor: the simulator has no elevators, the robot appears on the node.
      this.setMap(p.mapId);
      return this.arrive(node);
    }
    const dx = p.x - this.x;
    const dy = p.y - this.y;
    const d = Math.hypot(dx, dy);
    if (d <= ARRIVE_EPS) return this.arrive(node);
    const heading = Math.atan2(dy, dx);
    if (this.v === 0 && Math.abs(wrap(heading - this.theta)) > HEADING_TOL) {
      this.turnToward(heading, dt);
      return;
    }
    this.theta = heading;
    this.omega = 0;
    const s = this.spec;
    let vmax = s.speedMax;
    if (edge?.maxSpeed !== undefined && edge.maxSpeed > 0) vmax = Math.min(vmax, edge.maxSpeed);
    if (this.faults.has('motorTemperatureHigh')) vmax *= MOTOR_HOT_SPEED_FACTOR;
    // Trapezoid profile: accelerate, cruise, brake so as to stop on the node.
    const vBrake = Math.sqrt(2 * s.decelerationMax * d);
    const vNew = Math.max(Math.min(vmax, this.v + s.accelerationMax * dt, vBrake), Math.min(s.speedMin, vmax));
    const ds = ((this.v + vNew) / 2) * dt;
    this.distance += Math.min(ds, d);
    if (ds >= d) {
      this.x = p.x;
      this.y = p.y;
      return this.arrive(node);
    }
    this.x += (dx / d) * ds;
    this.y += (dy / d) * ds;
    this.v = vNew;
    this.setDriving(true);
  }

  private setMap(mapId: string): void {
    this.mapId = mapId;
    this.mapIdJson = JSON.stringify(mapId);
  }

  private arrive(node: OrderNode): void {
    const p = node.nodePosition;
    if (p) {
      this.x = p.x;
      this.y = p.y;
      if (p.mapId !== this.mapId) this.setMap(p.mapId);
      if (p.theta !== undefined && Math.abs(wrap(p.theta - this.theta)) > 1e-3) this.thetaTarget = p.theta;
    }
    this.v = 0;
    this.lastNodeId = node.nodeId;
    this.lastNodeSequenceId = node.sequenceId;
    if (this.nodes[0] === node) this.nodes.shift();
    const edge = this.edges[0];
    if (edge && edge.sequenceId < node.sequenceId) {
      for (const st of this.edgeRunning) st.actionStatus = 'FINISHED';
      this.edgeRunning = [];
      this.edges.shift();
      this.enteredEdgeSeq = null;
    }
    for (const a of node.actions) this.startAction(a, true);
    this.refreshRouteStates();
    this.dirty = true;
  }

  private enterEdge(edge: OrderEdge): void {
    this.enteredEdgeSeq = edge.sequenceId;
    for (const a of edge.actions) this.startAction(a, false);
    this.dirty = true;
  }

  private startAction(a: VdaAction, onNode: boolean): void {
    let st = this.actionById.get(a.actionId);
    if (!st) st = this.addActionState(a);
    if (st.actionStatus !== 'WAITING') return;
    if (!this.known.has(a.actionType)) {
      st.actionStatus = 'FAILED';
      st.resultDescription = `Unknown action type '${a.actionType}'`;
      return;
    }
    st.actionStatus = 'RUNNING';
    if (!onNode) {
      this.edgeRunning.push(st);
      return;
    }
    let seconds = ACTION_SECONDS;
    if (a.actionType === 'wait') {
      const param = a.actionParameters?.find((p) => p.key === 'duration');
      if (typeof param?.value === 'number' && param.value >= 0) seconds = param.value;
    }
    this.running.push({ st, until: this.simTime + seconds });
  }

  private addActionState(a: VdaAction): ActionState {
    const st: ActionState = { actionId: a.actionId, actionType: a.actionType, actionStatus: 'WAITING' };
    if (a.actionDescription !== undefined) st.actionDescription = a.actionDescription;
    this.actionStates.push(st);
    this.actionById.set(a.actionId, st);
    return st;
  }

  private refreshRouteStates(): void {
    const v = this.opts.version;
    this.nodeStates = this.nodes.map((n) => nodeStateOf(v, n));
    this.edgeStates = this.edges.map((e) => {
      const s: VdaState['edgeStates'][number] = { edgeId: e.edgeId, sequenceId: e.sequenceId, released: e.released };
      if (e.edgeDescription !== undefined) s.edgeDescription = e.edgeDescription;
      return s;
    });
  }

  // ------------------------------------------------------------------ battery

  private onCharger(): boolean {
    for (const c of this.opts.chargers) {
      if (Math.hypot(c.x - this.x, c.y - this.y) <= CHARGER_RADIUS) return true;
    }
    return false;
  }

  private stepBattery(dt: number): void {
    if (dt <= 0) return;
    const charging = !this.driving && !this.hasActiveOrder() && this.onCharger();
    if (charging !== this.charging) {
      this.charging = charging;
      this.dirty = true;
    }
    let delta: number;
    if (charging) delta = CHARGE_PER_S * dt;
    else if (this.distance > 0) delta = -DRAIN_DRIVE_PER_M * this.distance - DRAIN_IDLE_PER_S * dt;
    else if (this.omega !== 0) delta = -DRAIN_TURN_PER_S * dt;
    else delta = -DRAIN_IDLE_PER_S * dt;
    this.distance = 0;
    this.setBatteryLevel(this.batteryLevel + delta);
  }

  private setBatteryLevel(level: number): void {
    this.batteryLevel = Math.min(100, Math.max(0, level));
    const reported = Math.round(this.batteryLevel);
    if (reported !== this.reportedBattery) {
      this.reportedBattery = reported;
      this.dirty = true;
    }
  }

  battery(): number {
    return this.batteryLevel;
  }

  setBattery(percent: number): void {
    this.setBatteryLevel(percent);
    this.charging = !this.driving && !this.hasActiveOrder() && this.onCharger();
    this.publishState();
  }

  // ------------------------------------------------------------------ faults

  injectFault(f: Fault): void {
    if (f === 'lowBattery') {
      this.batteryBeforeLowFault ??= this.batteryLevel;
      return this.setBattery(15);
    }
    if (this.faults.has(f)) return;
    this.faults.add(f);
    if (this.blocked()) this.stop();
    this.publishState();
  }

  clearFault(f: Fault): void {
    if (f === 'lowBattery') {
      const before = this.batteryBeforeLowFault;
      this.batteryBeforeLowFault = null;
      return this.setBattery(before !== null && before >= LOW_BATTERY_PERCENT ? before : 80);
    }
    if (!this.faults.delete(f)) return;
    this.publishState();
  }

  hasFault(f: Fault): boolean {
    return f === 'lowBattery' ? this.reportedBattery < LOW_BATTERY_PERCENT : this.faults.has(f);
  }

  // ------------------------------------------------------------------ orders

  private hasActiveOrder(): boolean {
    return this.nodes.length > 0 || this.running.length > 0;
  }

  private reject(
    topic: 'order' | 'instantActions',
    errorType: string,
    description: string,
    refs: Record<string, string>,
  ) {
    const errorReferences: Array<{ referenceKey: string; referenceValue: string }> = [
      { referenceKey: 'topic', referenceValue: topic },
    ];
    for (const [referenceKey, referenceValue] of Object.entries(refs))
      errorReferences.push({ referenceKey, referenceValue });
    this.rejections.push({
      error: { errorType, errorLevel: 'WARNING', errorDescription: description, errorReferences },
      until: (this.lastTick ?? 0) + REJECTION_TTL_MS,
    });
    this.dirty = true;
  }

  /** An `order` message arrived (raw MQTT payload). Publishes the resulting state. */
  handleOrder(payload: string | Buffer): void {
    this.processOrder(payload);
    this.publishState();
  }

  private processOrder(payload: string | Buffer): void {
    let raw: unknown;
    try {
      raw = JSON.parse(payload.toString());
    } catch {
      return this.reject('order', 'validationError', 'Order is not valid JSON', {});
    }
    const parsed = orderSchema.safeParse(raw);
    const idRef = (o: unknown): Record<string, string> => {
      const id = (o as { orderId?: unknown } | null)?.orderId;
      return typeof id === 'string' ? { orderId: id } : {};
    };
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      const where = issue ? `${issue.path.join('.')}: ${issue.message}` : 'invalid';
      return this.reject('order', 'validationError', `Invalid order (${where})`, idRef(raw));
    }
    const order = parsed.data;
    const problem = routeProblem(order);
    if (problem) return this.reject('order', 'validationError', `Invalid order (${problem})`, idRef(order));
    const refs = { orderId: order.orderId, orderUpdateId: String(order.orderUpdateId) };

    if (order.orderId === this.orderId) {
      if (order.orderUpdateId < this.orderUpdateId) {
        return this.reject('order', 'orderUpdateError', 'orderUpdateId lower than the current one', refs);
      }
      if (order.orderUpdateId === this.orderUpdateId) return; // a duplicate: answered with the state
      if (!this.stitches(order)) {
        return this.reject('order', 'orderUpdateError', 'Update does not start at the end of the current base', refs);
      }
      return this.stitch(order, false);
    }
    if (this.hasActiveOrder()) {
      if (!this.stitches(order)) {
        return this.reject(
          'order',
          'orderUpdateError',
          'An order is still active and the new one does not extend its base',
          refs,
        );
      }
      return this.stitch(order, true);
    }
    const first = order.nodes[0]!;
    if (first.nodePosition && first.nodePosition.mapId !== this.mapId) {
      return this.reject('order', 'noRouteError', `First node is on map ${first.nodePosition.mapId}`, refs);
    }
    this.accept(order);
  }

  /** The order starts with the last node of the current base (or the current node when none remains). */
  private stitches(order: VdaOrder): boolean {
    const first = order.nodes[0]!;
    let lastBase: { nodeId: string; sequenceId: number } = {
      nodeId: this.lastNodeId,
      sequenceId: this.lastNodeSequenceId,
    };
    for (const n of this.nodes) if (n.released) lastBase = n;
    return first.nodeId === lastBase.nodeId && first.sequenceId === lastBase.sequenceId;
  }

  private stitch(order: VdaOrder, newOrder: boolean): void {
    const seq = order.nodes[0]!.sequenceId;
    if (newOrder) {
      // Keep what is still in progress; results of the previous order go.
      this.actionStates = this.actionStates.filter((s) => s.actionStatus === 'WAITING' || s.actionStatus === 'RUNNING');
      this.actionById.clear();
      for (const s of this.actionStates) this.actionById.set(s.actionId, s);
      this.instantIds = [];
      this.rejections = [];
    }
    this.orderId = order.orderId;
    this.orderUpdateId = order.orderUpdateId;
    this.zoneSetId = order.zoneSetId;
    // The stitching node stays as it was; the old horizon is replaced.
    const nodes = sortBySeq(order.nodes).slice(1);
    const edges = sortBySeq(order.edges);
    this.nodes = this.nodes.filter((n) => n.sequenceId <= seq).concat(nodes);
    this.edges = this.edges.filter((e) => e.sequenceId < seq).concat(edges);
    for (const n of nodes) for (const a of n.actions) if (!this.actionById.has(a.actionId)) this.addActionState(a);
    for (const e of edges) for (const a of e.actions) if (!this.actionById.has(a.actionId)) this.addActionState(a);
    this.refreshRouteStates();
    this.dirty = true;
  }

  private accept(order: VdaOrder): void {
    this.rejections = [];
    this.actionStates = [];
    this.actionById.clear();
    this.instantIds = [];
    // A running startMapping outlives orders: the portal drives the mapping robot with them.
    // So do the robot features' instant actions still running (speech, recording, OS update).
    for (const m of [this.mapping?.actionState, ...this.features.pending()]) {
      if (!m) continue;
      this.actionStates.push(m);
      this.actionById.set(m.actionId, m);
      this.instantIds.push(m.actionId);
    }
    this.running = [];
    this.edgeRunning = [];
    this.enteredEdgeSeq = null;
    this.thetaTarget = null;
    this.orderId = order.orderId;
    this.orderUpdateId = order.orderUpdateId;
    this.zoneSetId = order.zoneSetId;
    this.nodes = sortBySeq(order.nodes);
    this.edges = sortBySeq(order.edges);
    for (const n of this.nodes) for (const a of n.actions) this.addActionState(a);
    for (const e of this.edges) for (const a of e.actions) this.addActionState(a);
    const first = this.nodes[0]!;
    const p = first.nodePosition;
    const near = p
      ? Math.hypot(p.x - this.x, p.y - this.y) <= (p.allowedDeviationXY ?? DEFAULT_DEVIATION_XY)
      : first.nodeId === this.lastNodeId;
    // Standing on the first node: it counts as reached. Otherwise the robot (autonomous) drives there.
    if (near) this.arrive(first);
    this.refreshRouteStates();
    this.dirty = true;
  }

  // ------------------------------------------------------------------ instant actions

  /** An `instantActions` message arrived (raw MQTT payload). Publishes the resulting state. */
  handleInstantActions(payload: string | Buffer): void {
    this.processInstantActions(payload);
    this.publishState();
  }

  private processInstantActions(payload: string | Buffer): void {
    let raw: unknown;
    try {
      raw = JSON.parse(payload.toString());
    } catch {
      return this.reject('instantActions', 'validationError', 'instantActions is not valid JSON', {});
    }
    // The official 2.0 schema names the field actionName; 2.1 actionType. Either is understood.
    const actions = (raw as { actions?: unknown } | null)?.actions;
    if (Array.isArray(actions)) {
      for (const a of actions as Array<Record<string, unknown> | null>) {
        if (a && a.actionType === undefined && typeof a.actionName === 'string') a.actionType = a.actionName;
      }
    }
    const parsed = instantActionsSchema.safeParse(raw);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      const where = issue ? `${issue.path.join('.')}: ${issue.message}` : 'invalid';
      return this.reject('instantActions', 'validationError', `Invalid instantActions (${where})`, {});
    }
    for (const a of parsed.data.actions) this.instant(a);
  }

  private instant(a: VdaAction): void {
    const st: ActionState = { actionId: a.actionId, actionType: a.actionType, actionStatus: 'FINISHED' };
    const previous = this.actionById.get(a.actionId);
    if (previous) this.actionStates.splice(this.actionStates.indexOf(previous), 1);
    this.actionStates.push(st);
    this.actionById.set(a.actionId, st);
    this.instantIds.push(a.actionId);
    if (this.instantIds.length > MAX_INSTANT_STATES) {
      // The oldest, unless it is the running startMapping.
      const at = this.instantIds[0] === this.mapping?.actionState.actionId ? 1 : 0;
      const old = this.actionById.get(this.instantIds.splice(at, 1)[0]!);
      if (old) {
        this.actionStates.splice(this.actionStates.indexOf(old), 1);
        this.actionById.delete(old.actionId);
      }
    }
    switch (a.actionType) {
      case 'startPause':
        this.paused = true;
        this.stop();
        break;
      case 'stopPause':
        this.paused = false;
        break;
      case 'cancelOrder':
        if (!this.hasActiveOrder()) {
          st.actionStatus = 'FAILED';
          st.resultDescription = 'No order to cancel';
          this.reject('instantActions', 'noOrderToCancel', 'cancelOrder without an active order', {
            actionId: a.actionId,
          });
        } else this.cancel();
        break;
      case 'stateRequest':
        break;
      case 'factsheetRequest':
        this.publishFactsheet();
        break;
      case MappingAction.start:
      case MappingAction.pause:
      case MappingAction.resume:
      case MappingAction.stop: {
        const problem = this.mappingAction(a, st);
        if (problem) {
          st.actionStatus = 'FAILED';
          st.resultDescription = problem;
        }
        break;
      }
      default:
        if (this.features.handles(a.actionType)) this.features.instant(a, st);
        else if (!this.known.has(a.actionType)) {
          st.actionStatus = 'FAILED';
          st.resultDescription = `Unknown action type '${a.actionType}'`;
        }
    }
    this.dirty = true;
  }

  private cancel(): void {
    const features = new Set(this.features.pending());
    for (const s of this.actionStates) {
      if (s === this.mapping?.actionState) continue; // mapping goes on without the order
      if (features.has(s)) continue; // so do speech, recording and an OS update
      if (s.actionStatus === 'WAITING' || s.actionStatus === 'RUNNING') {
        s.actionStatus = 'FAILED';
        s.resultDescription = 'Order cancelled';
      }
    }
    this.nodes = [];
    this.edges = [];
    this.running = [];
    this.edgeRunning = [];
    this.enteredEdgeSeq = null;
    this.thetaTarget = null;
    this.refreshRouteStates();
    this.stop();
  }

  // ------------------------------------------------------------------ mapping

  private worldOf(mapId: string): World {
    const w = this.opts.world;
    if (!w) return worldFor(mapId);
    return typeof w === 'function' ? w(mapId) : w;
  }

  /** Runs a mapping instant action; returns why it failed, or null. */
  private mappingAction(a: VdaAction, st: ActionState): string | null {
    const m = this.mapping;
    if (a.actionType === MappingAction.start) {
      if (m) return `Already mapping ${m.mapId} (action ${m.actionState.actionId})`;
      const mapId = param(a, 'mapId');
      if (typeof mapId !== 'string' || mapId === '') return 'Parameter mapId (string) is missing';
      if (mapId !== this.mapId) return `mapId ${mapId} is not the robot's current map ${this.mapId}`;
      let resolution: unknown = param(a, 'resolution') ?? MAPPING_RESOLUTION;
      if (typeof resolution === 'string' && resolution.trim() !== '') resolution = Number(resolution);
      if (typeof resolution !== 'number') return 'Parameter resolution must be a number (m per cell)';
      const world = this.worldOf(mapId);
      const problem = resolutionProblem(world, resolution);
      if (problem) return problem;
      st.actionStatus = 'RUNNING';
      this.mapping = new MappingSession(mapId, world, resolution, st);
      return null;
    }
    if (!m) return `Not mapping: ${a.actionType} needs a startMapping first`;
    switch (a.actionType) {
      case MappingAction.pause:
        if (m.state !== 'PAUSED') {
          m.state = 'PAUSED';
          this.publishMapping('PAUSED');
        }
        return null;
      case MappingAction.resume:
        if (m.state !== 'RECORDING') {
          m.state = 'RECORDING';
          this.publishMapping('RECORDING');
        }
        return null;
      default: {
        let save: unknown = param(a, 'save') ?? true;
        if (save === 'true' || save === 'false') save = save === 'true';
        if (typeof save !== 'boolean') return 'Parameter save must be a boolean';
        this.publishMapping(save ? 'FINISHED' : 'CANCELLED');
        m.actionState.actionStatus = 'FINISHED';
        m.actionState.resultDescription = save ? `Map ${m.mapId} finished` : `Map ${m.mapId} discarded`;
        this.mapping = null;
        return null;
      }
    }
  }

  /** Each tick while mapping: scan when due (recording, on the map being built), publish when due. */
  private stepMapping(now: number): void {
    const m = this.mapping!;
    if (m.state === 'RECORDING' && this.mapId === m.mapId) m.maybeScan(this.x, this.y, this.theta, now);
    if (m.due(now)) this.publishMapping(m.state);
  }

  private publishMapping(state: MappingState): void {
    const m = this.mapping;
    if (!m) return;
    const msg = m.message(this.header('mapping', true), state, this.lastTick ?? 0);
    this.emit('mapping', JSON.stringify(msg), false);
  }

  /** The map being built: null when not mapping. */
  mappingState(): { mapId: string; state: MappingState; knownCells: number; resolution: number } | null {
    const m = this.mapping;
    return m && { mapId: m.mapId, state: m.state, knownCells: m.knownCells, resolution: m.resolution };
  }

  /** A copy of the grid being built (width × height bytes, row 0 at the bottom); null when not mapping. */
  mappingGrid(): Uint8Array | null {
    return this.mapping ? this.mapping.grid.slice() : null;
  }

  // ------------------------------------------------------------------ misc

  /** What the robot's cameras see from: pose, floor plan and the features' camera settings. */
  cameraView(robotName: string) {
    return {
      pose: { x: this.x, y: this.y, theta: this.theta },
      world: this.worldOf(this.mapId),
      robotName,
      ...this.features.view(),
    };
  }

  position(): Pose & { mapId: string } {
    return { x: this.x, y: this.y, theta: this.theta, mapId: this.mapId };
  }
}

const param = (a: VdaAction, key: string): unknown => a.actionParameters?.find((p) => p.key === key)?.value;

const sortBySeq = <T extends { sequenceId: number }>(list: readonly T[]): T[] =>
  [...list].sort((a, b) => a.sequenceId - b.sequenceId);

/** Structural checks the JSON schema cannot express; null when the route is drivable. */
export function routeProblem(order: VdaOrder): string | null {
  const nodes = sortBySeq(order.nodes);
  const edges = sortBySeq(order.edges);
  if (edges.length !== nodes.length - 1) return 'edges must link consecutive nodes';
  if (!nodes[0]!.released) return 'the first node must be released';
  let horizon = false;
  for (let i = 0; i < nodes.length; i++) {
    const n = nodes[i]!;
    if (!n.released) horizon = true;
    else if (horizon) return `released node ${n.nodeId} after the horizon`;
    if (n.released && !n.nodePosition) return `released node ${n.nodeId} has no nodePosition`;
    const e = edges[i];
    if (!e) continue;
    const next = nodes[i + 1]!;
    if (e.startNodeId !== n.nodeId || e.endNodeId !== next.nodeId) return `edge ${e.edgeId} does not link its nodes`;
    if (!(e.sequenceId > n.sequenceId && e.sequenceId < next.sequenceId)) return `edge ${e.edgeId} is out of sequence`;
    if (e.released && !next.released) return `released edge ${e.edgeId} ends in the horizon`;
  }
  return null;
}
