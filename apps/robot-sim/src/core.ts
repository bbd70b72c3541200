import {
  MappingAction,
  TELEOP_INFO_TYPE,
  teleopInfoReferences,
  type ActionState,
  type MappingState,
  type KnownRobotModel,
  type VdaAction,
  type VdaState,
  type VdaVersion,
} from '@portal/contract';
import {
  connectionMessage,
  factsheetMessage,
  headerTailJson,
  isoNow,
  stateMessage,
  visualizationJson,
  type ConnectionState,
  type Header,
} from './messages.ts';
import { Battery, onCharger } from './battery.ts';
import { Faults, type Fault } from './faults.ts';
import { Kinematics, round3, round4, type Pose } from './kinematics.ts';
import { MappingControl } from './mapping-control.ts';
import { OrderExecutor } from './order-executor.ts';
import { PRESS_MISSES, RobotFeatures } from './features.ts';
import { capturePhoto } from './photo.ts';
import { ButtonBoard, type ButtonBuilding } from './buttons.ts';
import { captureDepth, depthAt, type DepthView } from './depth.ts';
import { ARM_REACH, ARM_SHOULDER, MODEL_SPECS, SIM_ORDER_ACTIONS, type ModelSpec } from './models.ts';
import { worldFor, type World } from './world.ts';

export { FAULTS, type Fault } from './faults.ts';
export { routeProblem } from './order-executor.ts';
export type { Pose } from './kinematics.ts';

export interface CoreOptions {
  manufacturer: string;
  serialNumber: string;
  model: KnownRobotModel;
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
  /** Message timestamps: default the wall clock; a robot on a test's ManualClock takes its time. */
  isoNow?: (() => string) | undefined;
  /** 0..1 (default 0): the share of flow actions that FAIL with `simulated failure` (features.ts). */
  actionFailRate?: number | undefined;
  /** detectPerson: seconds until a person comes (null: never); default random 1..4 s (features.ts). */
  personDetectionSeconds?: number | null | undefined;
  /** The building a pressed button reaches (elevators, doors); without it a button just lights. */
  building?: ButtonBuilding | undefined;
  /** takePhoto's still instead of a rendered one (benchmarks: rendering costs ~0.4 s of CPU a photo). */
  photo?: ((camera: string, width?: number) => { png: Buffer; width: number; height: number }) | undefined;
}

/** The VDA 5050 topics a robot publishes. */
export type OutTopic = 'state' | 'visualization' | 'connection' | 'factsheet';
/** Every topic a robot publishes: the VDA ones and the portal's custom `mapping`, `photo` and `teleopReply`. */
export type PublishTopic = OutTopic | 'mapping' | 'photo' | 'teleopReply';
/** Where the core sends its messages: the MQTT link, or a test that collects them. */
export type Emit = (topic: PublishTopic, payload: string, retain: boolean) => void;

/**
 * One simulated robot without any I/O. The MQTT layer (robot.ts) feeds it messages and ticks; it
 * answers through `emit`. It ties together the order executor (order-executor.ts), pose and motion
 * (kinematics.ts), battery (battery.ts), faults (faults.ts), map creation (mapping-control.ts) and the
 * teleoperation features (features.ts), and builds the messages.
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

  private readonly kin: Kinematics;
  private readonly battery_: Battery;
  private readonly faults = new Faults();
  private readonly order: OrderExecutor;
  private readonly mapping: MappingControl;
  private paused = false;

  /** Teleoperation features: speech, recording, photos, gimbal, lights... (features.ts). */
  readonly features: RobotFeatures;
  /** The buttons this robot pressed and their lights (buttons.ts). */
  readonly buttons: ButtonBoard;
  /** Manual drive command from the teleop controller (m/s, rad/s), null when none. */
  private manual: { v: number; omega: number } | null = null;
  /** Manual driving is stopped short of a wall (F0005 while the operator pushes into it). */
  private manualObstacle = false;

  // Time.
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
    const changed = () => {
      this.dirty = true;
    };
    this.kin = new Kinematics(this.spec, opts.start, opts.mapId, changed);
    this.battery_ = new Battery(opts.battery, changed);
    this.visPeriod = opts.visualizationHz > 0 ? 1000 / opts.visualizationHz : 0;
    this.battery_.charging = this.onCharger();
    const now = () => this.lastTick ?? 0;
    this.order = new OrderExecutor({
      version: opts.version,
      known: this.known,
      kin: this.kin,
      now,
      changed,
      lasting: () => {
        const m = this.mapping.actionState;
        return m ? [m, ...this.features.pending()] : this.features.pending();
      },
      pinned: () => this.mapping.actionState,
      nodeAction: (a, st) => {
        if (!this.features.handlesOnNode(a.actionType)) return false;
        this.features.instant(a, st);
        return true;
      },
      abortAction: (st, reason) => this.features.abort(st, reason),
    });
    this.mapping = new MappingControl({
      pose: () => this.position(),
      worldOf: (mapId) => this.worldOf(mapId),
      now,
      header: () => this.header('mapping', true),
      publish: (payload) => this.emit('mapping', payload, false),
    });
    this.buttons = new ButtonBoard(opts.building ?? null);
    this.features = new RobotFeatures(
      opts.model,
      {
        battery: () => this.battery_.level,
        capture: (camera, width) =>
          opts.photo?.(camera, width) ??
          capturePhoto(
            {
              camera,
              pose: { x: this.kin.x, y: this.kin.y, theta: this.kin.theta },
              world: this.worldOf(this.kin.mapId),
              robotName: opts.serialNumber,
              now: Date.now(),
              ...this.features.view(),
              litButtons: this.buttons.litTargets(),
            },
            width,
          ),
        captureDepth: () => captureDepth(this.depthView()),
        aimArm: (arm, u, v) => {
          const hit = depthAt(this.depthView(), u, v);
          if (!hit?.button) return { miss: PRESS_MISSES.noButton };
          // The shoulder: ARM_SHOULDER.side to the arm's side of the centre, at ARM_SHOULDER.height.
          const side = arm === 'right' ? ARM_SHOULDER.side : -ARM_SHOULDER.side;
          const sx = this.kin.x + Math.sin(this.kin.theta) * side;
          const sy = this.kin.y - Math.cos(this.kin.theta) * side;
          const d = Math.hypot(hit.point.x - sx, hit.point.y - sy, hit.point.z - ARM_SHOULDER.height);
          return d > ARM_REACH ? { miss: PRESS_MISSES.outOfReach } : { target: hit.button.target };
        },
        pressButton: (target) => {
          this.buttons.press(target, opts.serialNumber);
          this.dirty = true;
        },
        publishPhoto: (payload) => this.emit('photo', payload, false),
        header: () => this.header('photo', true),
        restart: (downMs) => this.opts.onRestart?.(downMs),
        changed,
      },
      { actionFailRate: opts.actionFailRate, personDetectionSeconds: opts.personDetectionSeconds },
    );
  }

  get x(): number {
    return this.kin.x;
  }

  get y(): number {
    return this.kin.y;
  }

  get theta(): number {
    return this.kin.theta;
  }

  get mapId(): string {
    return this.kin.mapId;
  }

  // ------------------------------------------------------------------ messages

  private header(topic: PublishTopic, bump: boolean): Header {
    if (bump) this.headerIds[topic] += 1;
    return {
      headerId: this.headerIds[topic],
      timestamp: this.opts.isoNow ? this.opts.isoNow() : isoNow(),
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
    const k = this.kin;
    const b = this.battery_;
    return stateMessage(h, {
      ...this.order.fields(),
      driving: k.driving,
      paused: this.paused,
      agvPosition: {
        x: round3(k.x),
        y: round3(k.y),
        theta: round4(k.theta),
        mapId: k.mapId,
        positionInitialized: true,
      },
      vx: round3(k.v),
      omega: round4(k.omega),
      batteryCharge: b.reported,
      charging: b.charging,
      errors: [...this.faults.errors(this.manualObstacle, b.reported), ...this.order.rejectionErrors()],
      eStop: this.faults.has('emergencyStop'),
      fieldViolation: this.faults.has('obstacle') || this.manualObstacle,
      information: [
        { infoType: TELEOP_INFO_TYPE, infoLevel: 'INFO', infoReferences: teleopInfoReferences(this.features.info()) },
      ],
      operatingMode: this.manual ? 'MANUAL' : 'AUTOMATIC',
    });
  }

  private publishVisualization(timestamp: string): void {
    const k = this.kin;
    this.headerIds.visualization += 1;
    this.emit(
      'visualization',
      visualizationJson(
        this.headerIds.visualization,
        timestamp,
        this.headerTail,
        round3(k.x),
        round3(k.y),
        round4(k.theta),
        k.mapIdJson,
        round3(k.v),
        round4(k.omega),
      ),
      false,
    );
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
    // Features first: a feature node action that ends now lets the order move on in this tick.
    this.features.step(dt);
    this.buttons.step(dt);
    this.order.advance(dt);
    this.step(dt);
    if (dt > 0) {
      this.battery_.step(dt, {
        charging: !this.kin.driving && !this.order.active() && this.onCharger(),
        distance: this.kin.takeDistance(),
        turning: this.kin.omega !== 0,
      });
    }
    this.mapping.step(now);
    this.order.expireRejections(now);
    if (this.dirty || now - this.lastStateAt >= this.opts.stateIntervalMs) this.publishState();
    if (this.visPeriod > 0 && now >= this.nextVisAt) {
      this.publishVisualization(timestamp);
      this.nextVisAt += this.visPeriod;
      if (this.nextVisAt <= now) this.nextVisAt = now + this.visPeriod;
    }
  }

  /** Order driving is held: paused, a fault, an empty battery. */
  private blocked(): boolean {
    return this.paused || this.faults.holdsOrder() || this.battery_.empty;
  }

  /** One motion step: manual driving, standing (held or running node actions), or driving the order. */
  private step(dt: number): void {
    if (this.manual && (!this.order.active() || this.paused) && this.manualAllowed()) {
      if (dt <= 0) return;
      const blocked = this.kin.stepManual(this.manual, this.faults.speedFactor(), this.worldOf(this.kin.mapId), dt);
      if (blocked !== this.manualObstacle) {
        this.manualObstacle = blocked;
        this.dirty = true;
      }
      return;
    }
    if (this.blocked() || this.order.busy() || dt <= 0) return this.kin.stop();
    this.order.drive(dt, this.faults.speedFactor());
  }

  // ------------------------------------------------------------------ manual driving (teleop)

  /** Why manual driving is refused now (e-stop, hardware error, empty battery, a running order), or null. */
  manualBlock(): string | null {
    const fault = this.faults.holdsManual();
    if (fault) return fault;
    if (this.battery_.empty) return 'batteryEmpty';
    if (this.order.active() && !this.paused) return 'orderRunning';
    if (this.manualObstacle) return 'obstacle';
    return null;
  }

  private manualAllowed(): boolean {
    return this.faults.holdsManual() === null && !this.battery_.empty;
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

  // ------------------------------------------------------------------ battery

  private onCharger(): boolean {
    return onCharger(this.opts.chargers, this.kin.x, this.kin.y);
  }

  battery(): number {
    return this.battery_.level;
  }

  setBattery(percent: number): void {
    this.battery_.setLevel(percent);
    this.battery_.charging = !this.kin.driving && !this.order.active() && this.onCharger();
    this.publishState();
  }

  // ------------------------------------------------------------------ faults

  injectFault(f: Fault): void {
    if (f === 'lowBattery') {
      this.battery_.injectLowFault();
      this.battery_.charging = !this.kin.driving && !this.order.active() && this.onCharger();
      return this.publishState();
    }
    if (!this.faults.add(f)) return;
    if (this.blocked()) this.kin.stop();
    this.publishState();
  }

  clearFault(f: Fault): void {
    if (f === 'lowBattery') {
      this.battery_.clearLowFault();
      return this.setBattery(this.battery_.level);
    }
    if (!this.faults.delete(f)) return;
    this.publishState();
  }

  hasFault(f: Fault): boolean {
    return f === 'lowBattery' ? this.battery_.low : this.faults.has(f);
  }

  // ------------------------------------------------------------------ orders and instant actions

  /** An `order` message arrived (raw MQTT payload). Publishes the resulting state. */
  handleOrder(payload: string | Buffer): void {
    this.order.order(payload);
    this.publishState();
  }

  /** An `instantActions` message arrived (raw MQTT payload). Publishes the resulting state. */
  handleInstantActions(payload: string | Buffer): void {
    const actions = this.order.parseInstantActions(payload);
    if (actions) for (const a of actions) this.instant(a);
    this.publishState();
  }

  private instant(a: VdaAction): void {
    const st: ActionState = this.order.recordInstant(a);
    switch (a.actionType) {
      case 'startPause':
        this.paused = true;
        this.kin.stop();
        break;
      case 'stopPause':
        this.paused = false;
        break;
      case 'cancelOrder':
        if (!this.order.active()) {
          st.actionStatus = 'FAILED';
          st.resultDescription = 'No order to cancel';
          this.order.reject('instantActions', 'noOrderToCancel', 'cancelOrder without an active order', {
            actionId: a.actionId,
          });
        } else this.order.cancel();
        break;
      case 'stateRequest':
      case 'mapChanged': // noted: the map reaches the robot as node positions in orders
        break;
      case 'factsheetRequest':
        this.publishFactsheet();
        break;
      case MappingAction.start:
      case MappingAction.pause:
      case MappingAction.resume:
      case MappingAction.stop: {
        const problem = this.mapping.action(a, st);
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

  // ------------------------------------------------------------------ mapping

  private worldOf(mapId: string): World {
    const w = this.opts.world;
    if (!w) return worldFor(mapId);
    return typeof w === 'function' ? w(mapId) : w;
  }

  /** The map being built: null when not mapping. */
  mappingState(): { mapId: string; state: MappingState; knownCells: number; resolution: number } | null {
    return this.mapping.state();
  }

  /** A copy of the grid being built (width × height bytes, row 0 at the bottom); null when not mapping. */
  mappingGrid(): Uint8Array | null {
    return this.mapping.grid();
  }

  // ------------------------------------------------------------------ misc

  /** What the depth camera sees from: pose, eye height, floor plan, lit buttons. */
  depthView(): DepthView {
    return {
      pose: { x: this.kin.x, y: this.kin.y, theta: this.kin.theta },
      eyeHeight: this.features.view().eyeHeight,
      world: this.worldOf(this.kin.mapId),
      isLit: (t) => this.buttons.isLit(t),
    };
  }

  /** What the robot's cameras see from: pose, floor plan and the features' camera settings. */
  cameraView(robotName: string) {
    return {
      pose: { x: this.kin.x, y: this.kin.y, theta: this.kin.theta },
      world: this.worldOf(this.kin.mapId),
      robotName,
      ...this.features.view(),
      litButtons: this.buttons.litTargets(),
    };
  }

  position(): Pose & { mapId: string } {
    return { x: this.kin.x, y: this.kin.y, theta: this.kin.theta, mapId: this.kin.mapId };
  }
}
