import mqtt, { type IClientOptions, type MqttClient } from 'mqtt';
import {
  MAPPING_TOPIC,
  PHOTO_TOPIC,
  TELEOP_REPLY_TOPIC,
  TELEOP_TOPIC,
  VDA_INTERFACE_NAME,
  VDA_MAJOR,
  vdaTopic,
  type MappingState,
  teleopRobotMessageSchema,
  type KnownRobotModel,
  type TeleopReplyMessage,
  type VdaState,
  type VdaVersion,
} from '@portal/contract';
import { RobotCore, type Fault, type OutTopic, type Pose, type PublishTopic } from './core.ts';
import { ticker as sharedTicker, type Ticker } from './ticker.ts';
import { TeleopController } from './teleop/controller.ts';
import type { TeleopEndpoint, TeleopProvider } from './teleop/webrtc.ts';
import type { World } from './world.ts';
import type { ButtonBuilding } from './buttons.ts';

export interface RobotOptions {
  /** mqtt://, mqtts://, ws:// or wss:// */
  brokerUrl: string;
  username: string;
  password: string;
  manufacturer: string;
  serialNumber: string;
  model: KnownRobotModel;
  /** VDA 5050 version the robot speaks; default 2.1.0. */
  version?: VdaVersion;
  /** VDA map id of the start floor, `floor-{floorId}`. */
  mapId: string;
  start?: Pose;
  /** percent, default 80 */
  battery?: number;
  /** Visualization messages per second (real time); default 5, 0 = off. At most one per 50 ms tick. */
  visualizationHz?: number;
  /** Longest gap between state messages (real time); default 5000. State also goes out on every change. */
  stateIntervalMs?: number;
  /** Charge points: standing within 0.3 m of one without an order means charging. */
  chargers?: ReadonlyArray<{ x: number; y: number }>;
  /** Simulated time per real time (physics, battery, action durations); default 1. */
  speedScale?: number;
  /** MQTT reconnect period after a lost connection; default 1000. */
  reconnectPeriodMs?: number;
  /** MQTT client id; default `{manufacturer}-{serialNumber}`. */
  clientId?: string;
  /** Extra node/edge action types the robot executes (the standard set is always known). */
  actionTypes?: readonly string[];
  /** startRobot fails when the first connection takes longer; default 15000. */
  connectTimeoutMs?: number;
  /** Errors of the MQTT link after the first connection (refused credentials...); default: ignored. */
  onError?: (err: Error) => void;
  /** What the sensor sees when mapping: default `worldFor(mapId)` (a synthetic plan per map id). */
  world?: World | ((mapId: string) => World);
  /** Name drawn into the camera view; default the serial number. */
  name?: string;
  /**
   * Teleoperation transport (`webrtcTeleop()` from `@portal/robot-sim/teleop`). Without it the robot
   * answers every teleop offer with `closed` (teleoperation not available).
   */
  teleop?: TeleopProvider;
  /**
   * 0..1 (default 0): the share of flow actions (the custom actions with the NODE scope, sent as
   * instant or node actions) that FAIL at once with resultDescription `simulated failure`.
   */
  actionFailRate?: number;
  /**
   * detectPerson: simulated seconds until a person comes within range; null: nobody comes (the action
   * runs until its timeout). Default: random, 1 to 4 s.
   */
  personDetectionSeconds?: number | null;
  /**
   * The building the arm's button presses reach (a `SimBuildingSystems`, or its banks and doors, with
   * the bank, door and floor index the robot's panels belong to): a hall call calls a car, a car
   * button sends one, the door opener unlocks the door. Without it a pressed button only lights.
   */
  building?: ButtonBuilding;
  /**
   * takePhoto's still (PNG) instead of rendering the camera's view: a benchmark's many robots would
   * otherwise spend ~0.4 s of CPU on each photo. Default: rendered.
   */
  photo?: (camera: string) => { png: Buffer; width: number; height: number };
  /**
   * The tick loop that drives the robot: default the process-wide one on real time. Tests pass
   * `new Ticker(new ManualClock())` and advance the clock by hand.
   */
  ticker?: Ticker;
}

export interface SimRobot {
  readonly serialNumber: string;
  readonly manufacturer: string;
  readonly clientId: string;
  /** The MQTT link is up. */
  readonly connected: boolean;
  /** The current VDA 5050 state (as the next state message will report it). */
  state(): VdaState;
  position(): { x: number; y: number; theta: number; mapId: string };
  /** Exact battery level in percent (state messages report it rounded). */
  battery(): number;
  /** Resolves with the first state (checked every tick) that satisfies the predicate. */
  waitFor(predicate: (s: VdaState) => boolean, timeoutMs?: number): Promise<VdaState>;
  injectFault(fault: Fault): void;
  clearFault(fault: Fault): void;
  setBattery(percent: number): void;
  /** graceful (default true): connection OFFLINE first; otherwise the socket is destroyed and the broker sends the last will. */
  disconnect(opts?: { graceful?: boolean }): Promise<void>;
  reconnect(): Promise<void>;
  /** Publishes anything on `uagv/v2/{manufacturer}/{serialNumber}/{suffix}` (malformed-message tests). */
  publishRaw(suffix: string, payload: string | Buffer): Promise<void>;
  /** The map being built (startMapping until stopMapping), or null. */
  mappingState(): { mapId: string; state: MappingState; knownCells: number; resolution: number } | null;
  /** A copy of that grid (width × height bytes, row 0 at the bottom, OCCUPANCY values), or null. */
  mappingGrid(): Uint8Array | null;
  /** Teleoperation control on the robot side (roles, control input, dead-man). */
  readonly teleopController: TeleopController;
  /** Someone at the robot presses its call button (call-in customer service). */
  pressCallButton(): void;
  /** connection OFFLINE, then the client ends and the robot leaves the simulation. */
  stop(): Promise<void>;
}

interface Waiter {
  predicate: (s: VdaState) => boolean;
  resolve: (s: VdaState) => void;
  reject: (e: Error) => void;
  timer: NodeJS.Timeout;
}

const OFFLINE_TIMEOUT_MS = 2000;
/** RMS level (0..1) of operator audio that counts as speech rather than line noise. */
const OPERATOR_VOICE_LEVEL = 0.01;
// Retained messages go with QoS 1: aedes may drop a retained QoS 0 publish that arrives in the same
// read batch as later messages (its async retain store lets them overtake it, then dedupes it away).
const QOS: Record<PublishTopic, 0 | 1> = {
  state: 0,
  visualization: 0,
  connection: 1,
  factsheet: 1,
  mapping: 0,
  photo: 1,
  teleopReply: 1,
};

class SimRobotImpl implements SimRobot {
  readonly serialNumber: string;
  readonly manufacturer: string;
  readonly clientId: string;
  private readonly core: RobotCore;
  private readonly topics: Record<PublishTopic | 'order' | 'instantActions' | 'teleop', string>;
  private client: MqttClient | null = null;
  private readonly waiters = new Set<Waiter>();
  private stopped = false;
  readonly teleopController: TeleopController;
  private readonly teleop: TeleopEndpoint | null;
  private restartTimer: NodeJS.Timeout | null = null;
  private readonly ticker: Ticker;

  constructor(private readonly opts: RobotOptions) {
    this.ticker = opts.ticker ?? sharedTicker;
    this.serialNumber = opts.serialNumber;
    this.manufacturer = opts.manufacturer;
    this.clientId = opts.clientId ?? `${opts.manufacturer}-${opts.serialNumber}`;
    const t = (name: 'order' | 'instantActions' | OutTopic) => vdaTopic(opts.manufacturer, opts.serialNumber, name);
    const custom = (suffix: string) =>
      `${VDA_INTERFACE_NAME}/${VDA_MAJOR}/${opts.manufacturer}/${opts.serialNumber}/${suffix}`;
    this.topics = {
      state: t('state'),
      visualization: t('visualization'),
      connection: t('connection'),
      factsheet: t('factsheet'),
      order: t('order'),
      instantActions: t('instantActions'),
      mapping: custom(MAPPING_TOPIC),
      photo: custom(PHOTO_TOPIC),
      teleopReply: custom(TELEOP_REPLY_TOPIC),
      teleop: custom(TELEOP_TOPIC),
    };
    this.core = new RobotCore(
      {
        manufacturer: opts.manufacturer,
        serialNumber: opts.serialNumber,
        model: opts.model,
        version: opts.version ?? '2.1.0',
        mapId: opts.mapId,
        start: opts.start ?? { x: 0, y: 0, theta: 0 },
        battery: opts.battery ?? 80,
        visualizationHz: opts.visualizationHz ?? 5,
        stateIntervalMs: opts.stateIntervalMs ?? 5000,
        chargers: opts.chargers ?? [],
        speedScale: opts.speedScale ?? 1,
        actionTypes: opts.actionTypes ?? [],
        world: opts.world,
        onRestart: (downMs) => void this.restart(downMs),
        isoNow: opts.ticker ? () => this.ticker.clock.isoNow() : undefined,
        actionFailRate: opts.actionFailRate,
        personDetectionSeconds: opts.personDetectionSeconds,
        photo: opts.photo,
        building: opts.building,
      },
      (topic, payload, retain) => {
        const c = this.client;
        // Offline messages are dropped, not queued: the robot reports afresh on reconnect.
        if (c?.connected) c.publish(this.topics[topic], payload, { qos: QOS[topic], retain });
      },
    );
    this.teleopController = new TeleopController(this.core);
    const core = this.core;
    this.teleop =
      opts.teleop?.({
        serialNumber: opts.serialNumber,
        controller: this.teleopController,
        reply: (m) => this.replyTeleop(m),
        cameras: () => core.features.cameras,
        view: () => core.cameraView(opts.name ?? opts.serialNumber),
        blocked: () => core.manualBlock(),
        // Push-to-talk: a loud enough frame plays through the robot's speaker.
        operatorAudio: (level) => {
          if (level > OPERATOR_VOICE_LEVEL) core.features.hearOperator();
        },
        callState: () => core.features.callState(),
      }) ?? null;
  }

  private replyTeleop(message: TeleopReplyMessage): void {
    const c = this.client;
    if (c?.connected) c.publish(this.topics.teleopReply, JSON.stringify(message), { qos: 1 });
  }

  private onTeleopMessage(payload: Buffer): void {
    let json: unknown;
    try {
      json = JSON.parse(payload.toString('utf8'));
    } catch {
      return;
    }
    const parsed = teleopRobotMessageSchema.safeParse(json);
    if (!parsed.success) return;
    const m = parsed.data;
    if (this.teleop) return this.teleop.handle(m);
    if (m.kind === 'offer')
      this.replyTeleop({ kind: 'closed', sessionId: m.sessionId, reason: 'teleoperation not available' });
    else if (m.kind === 'role') this.teleopController.setRole(m.sessionId, m.role);
    else if (m.kind === 'close') this.teleopController.close(m.sessionId);
  }

  /** Simulated OS update: teleop sessions end, the link goes down and comes back after `downMs`. */
  private async restart(downMs: number): Promise<void> {
    if (this.stopped || this.restartTimer) return;
    this.teleop?.close();
    await this.disconnect({ graceful: true });
    this.restartTimer = setTimeout(() => {
      this.restartTimer = null;
      if (this.stopped) return;
      this.reconnect().catch((err: unknown) => this.opts.onError?.(err as Error));
    }, downMs);
  }

  pressCallButton(): void {
    this.core.features.pressCallButton();
  }

  get connected(): boolean {
    return this.client?.connected ?? false;
  }

  async start(): Promise<void> {
    this.ticker.add(this);
    try {
      await this.connect();
    } catch (err) {
      this.ticker.remove(this);
      throw err;
    }
  }

  tick(now: number, timestamp: string): void {
    this.teleopController.check();
    this.core.tick(now, timestamp);
    if (this.waiters.size > 0) this.checkWaiters();
  }

  private will(): NonNullable<IClientOptions['will']> {
    return {
      topic: this.topics.connection,
      payload: Buffer.from(this.core.connectionPayload('CONNECTIONBROKEN')),
      qos: 1,
      retain: true,
    };
  }

  private connect(): Promise<void> {
    const o = this.opts;
    const client = mqtt.connect(o.brokerUrl, {
      protocolVersion: 4,
      clientId: this.clientId,
      username: o.username,
      password: o.password,
      clean: true,
      reconnectPeriod: o.reconnectPeriodMs ?? 1000,
      connectTimeout: 10_000,
      queueQoSZero: false,
      will: this.will(),
    });
    this.client = client;
    client.on('message', (topic, payload) => {
      if (topic === this.topics.order) this.core.handleOrder(payload);
      else if (topic === this.topics.instantActions) this.core.handleInstantActions(payload);
      else if (topic === this.topics.teleop) return this.onTeleopMessage(payload);
      else return;
      this.checkWaiters();
    });
    // A fresh last will (timestamp, headerId) for the next connection attempt.
    client.on('close', () => {
      if (this.client === client) client.options.will = this.will();
    });
    return new Promise<void>((resolve, reject) => {
      let first = true;
      const fail = (err: Error) => {
        if (!first) return;
        first = false;
        clearTimeout(timer);
        if (this.client === client) this.client = null;
        client.end(true);
        reject(new Error(`robot ${this.serialNumber}: ${err.message}`));
      };
      const timer = setTimeout(
        () => fail(new Error(`no MQTT connection to ${o.brokerUrl} within ${o.connectTimeoutMs ?? 15_000} ms`)),
        o.connectTimeoutMs ?? 15_000,
      );
      client.on('error', (err) => {
        if (first) fail(err);
        else o.onError?.(err);
      });
      client.on('connect', () => {
        this.announce(client).then(
          () => {
            if (!first) return;
            first = false;
            clearTimeout(timer);
            resolve();
          },
          (err: unknown) => (first ? fail(err as Error) : o.onError?.(err as Error)),
        );
      });
    });
  }

  /** After each (re)connection: subscribe first so nothing sent on seeing ONLINE is missed. */
  private async announce(client: MqttClient): Promise<void> {
    await client.subscribeAsync([this.topics.order, this.topics.instantActions, this.topics.teleop], { qos: 1 });
    await client.publishAsync(this.topics.connection, this.core.connectionPayload('ONLINE'), { qos: 1, retain: true });
    this.core.publishFactsheet();
    this.core.publishState();
  }

  private checkWaiters(): void {
    const s = this.core.state();
    for (const w of this.waiters) {
      if (!w.predicate(s)) continue;
      clearTimeout(w.timer);
      this.waiters.delete(w);
      w.resolve(s);
    }
  }

  state(): VdaState {
    return this.core.state();
  }

  position() {
    return this.core.position();
  }

  battery(): number {
    return this.core.battery();
  }

  waitFor(predicate: (s: VdaState) => boolean, timeoutMs = 10_000): Promise<VdaState> {
    const now = this.core.state();
    if (predicate(now)) return Promise.resolve(now);
    return new Promise((resolve, reject) => {
      const w: Waiter = {
        predicate,
        resolve,
        reject,
        timer: setTimeout(() => {
          this.waiters.delete(w);
          const s = this.core.state();
          const summary = JSON.stringify({
            orderId: s.orderId,
            lastNodeId: s.lastNodeId,
            driving: s.driving,
            paused: s.paused,
            nodeStates: s.nodeStates.length,
            battery: s.batteryState,
            errors: s.errors.map((e) => e.errorType),
            position: s.agvPosition,
          });
          reject(new Error(`${this.serialNumber}: waitFor timed out after ${timeoutMs} ms; state ${summary}`));
        }, timeoutMs),
      };
      this.waiters.add(w);
    });
  }

  injectFault(fault: Fault): void {
    this.core.injectFault(fault);
    this.checkWaiters();
  }

  clearFault(fault: Fault): void {
    this.core.clearFault(fault);
    this.checkWaiters();
  }

  setBattery(percent: number): void {
    this.core.setBattery(percent);
    this.checkWaiters();
  }

  async disconnect(opts: { graceful?: boolean } = {}): Promise<void> {
    const client = this.client;
    if (!client) return;
    this.client = null;
    if ((opts.graceful ?? true) && client.connected) {
      const offline = client.publishAsync(this.topics.connection, this.core.connectionPayload('OFFLINE'), {
        qos: 1,
        retain: true,
      });
      // A broker that stops answering must not hold up a shutdown.
      let timer: NodeJS.Timeout | undefined;
      const timeout = new Promise<void>((ok) => (timer = setTimeout(ok, OFFLINE_TIMEOUT_MS)));
      try {
        await Promise.race([offline.then(() => undefined), timeout]);
      } catch {
        // The connection broke meanwhile: the broker sends the last will instead.
      } finally {
        clearTimeout(timer);
      }
      await client.endAsync(!client.connected);
    } else {
      // No DISCONNECT packet: the broker treats it as a lost connection and publishes the will.
      await client.endAsync(true);
    }
  }

  async reconnect(): Promise<void> {
    if (this.stopped) throw new Error(`${this.serialNumber}: stopped`);
    if (this.client) return;
    await this.connect();
  }

  async publishRaw(suffix: string, payload: string | Buffer): Promise<void> {
    const c = this.client;
    if (!c?.connected) throw new Error(`${this.serialNumber}: not connected`);
    await c.publishAsync(
      `${VDA_INTERFACE_NAME}/${VDA_MAJOR}/${this.manufacturer}/${this.serialNumber}/${suffix}`,
      payload,
    );
  }

  mappingState() {
    return this.core.mappingState();
  }

  mappingGrid(): Uint8Array | null {
    return this.core.mappingGrid();
  }

  async stop(): Promise<void> {
    if (this.stopped) return;
    this.stopped = true;
    this.ticker.remove(this);
    if (this.restartTimer) clearTimeout(this.restartTimer);
    this.teleop?.close();
    for (const w of this.waiters) {
      clearTimeout(w.timer);
      w.reject(new Error(`${this.serialNumber}: robot stopped`));
    }
    this.waiters.clear();
    await this.disconnect({ graceful: true });
  }
}

/** Starts one simulated robot; resolves once it is connected and has announced itself. */
export async function startRobot(opts: RobotOptions): Promise<SimRobot> {
  const robot = new SimRobotImpl(opts);
  await robot.start();
  return robot;
}

export interface SimFleet {
  robots: SimRobot[];
  stop(): Promise<void>;
}

/**
 * Starts many robots, a few at a time so the broker is not flooded with simultaneous connections.
 * If one fails, the ones already started are stopped and the error is thrown.
 */
export async function startFleet(
  list: readonly RobotOptions[],
  opts: { concurrency?: number } = {},
): Promise<SimFleet> {
  const robots: SimRobot[] = [];
  const stopAll = async () => {
    await Promise.allSettled(robots.map((r) => r.stop()));
  };
  const concurrency = Math.max(1, opts.concurrency ?? 50);
  try {
    for (let i = 0; i < list.length; i += concurrency) {
      const batch = await Promise.allSettled(list.slice(i, i + concurrency).map((o) => startRobot(o)));
      for (const r of batch) if (r.status === 'fulfilled') robots.push(r.value);
      const failed = batch.find((r) => r.status === 'rejected');
      if (failed) throw failed.reason;
    }
  } catch (err) {
    await stopAll();
    throw err;
  }
  return { robots, stop: stopAll };
}
