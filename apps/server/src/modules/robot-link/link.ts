import { EventEmitter } from 'node:events';
import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { FastifyBaseLogger } from 'fastify';
import {
  MAPPING_TOPIC,
  parseVdaTopic,
  PHOTO_TOPIC,
  ROBOT_PUBLISHES,
  TELEOP_REPLY_TOPIC,
  TELEOP_TOPIC,
  VDA_INTERFACE_NAME,
  VDA_MAJOR,
  vdaTopic,
  type FleetRobot,
  type TeleopRobotMessage,
  type VdaFactsheet,
  type VdaOrder,
} from '@portal/contract';
import type { Database } from '../../db/schema.ts';
import { AppError } from '../../lib/errors.ts';
import type { Clock } from '../../lib/time.ts';
import type { BrokerAuthority } from './broker.ts';
import { createBrokerAuthority } from './broker-authority.ts';
import { CLUSTER_TOPICS, createClusterBus } from './cluster-bus.ts';
import { createFleet, fleetRobot, inScope } from './fleet.ts';
import { isBusy, liveOf, type RobotEntry } from './fleet-state.ts';
import {
  CUSTOM_TOPIC_NAMES,
  liveChange,
  sessionEnded,
  silenceCheck,
  takeCustomMessage,
  takeVdaMessage,
  type CustomTopic,
  type Intake,
  type LinkEvent,
} from './intake.ts';
import { createMessageLog } from './message-log.ts';
import { commandMessage, customActionMessage, nextHeader, orderMessage, startingAt } from './messages.ts';
import { registryRepo, type RegistryRepo } from './registry-repo.ts';
import type { LinkTransport } from './transport.ts';
import type { OrderStop, RegistryChange, RegistryEvent, RobotLink } from './types.ts';

export { REGISTRY_TOPIC, TELEOP_SHARE_TOPIC } from './cluster-bus.ts';

/** How often the last communication time is written to the database (one statement per flush). */
const PERSIST_EVERY_MS = 15_000;
const SILENCE_CHECK_MS = 1_000;
/** Full registry re-read (building renames, changes another server made while this one was away). */
const REGISTRY_SYNC_MS = 60_000;

export interface LinkOptions {
  db: Kysely<Database>;
  log: FastifyBaseLogger;
  clock: Clock;
  /** The broker session: in process with the embedded broker, an MQTT client otherwise. */
  transport: LinkTransport;
  /** Told to robots in their credentials. */
  robotBrokerUrl: string;
  /** Closes a robot's broker session (embedded broker only). */
  disconnectRobot?: (robotId: number) => void;
  /** The state interval (s) of a robot whose factsheet announces none (ROBOT_STATE_INTERVAL_S; default 30). */
  defaultStateIntervalS?: number;
}

export interface LinkStats {
  messagesIn: number;
  dropped: number;
}

export type RobotLinkService = RobotLink & {
  /** The broker's view of who may sign in (embedded broker only). */
  authority: BrokerAuthority;
  stats: LinkStats;
  /** Resolves once the link's MQTT session is subscribed. */
  ready: Promise<void>;
  /** Runs the silence check now (a timer runs it every second; tests call it after moving the clock). */
  checkSilence(): void;
  /** The robot's last broker session ended (embedded broker): it is offline at once. */
  sessionEnded(robotId: number): void;
};

/** The predefined actions of VDA 5050 (section 6.8): sent whatever the factsheet says (factsheetRequest asks for one). */
const STANDARD_ACTIONS = new Set([
  'startPause',
  'stopPause',
  'startCharging',
  'stopCharging',
  'initPosition',
  'stateRequest',
  'logReport',
  'pick',
  'drop',
  'detectObject',
  'finePositioning',
  'waitForTrigger',
  'cancelOrder',
  'factsheetRequest',
]);

/**
 * The robot may be sent this instant action: a standard one, or a custom one its factsheet announces
 * (`protocolFeatures.agvActions` with the INSTANT scope). A robot without a factsheet gets no custom action.
 */
const announcesAction = (factsheet: VdaFactsheet | null, actionType: string): boolean =>
  STANDARD_ACTIONS.has(actionType) ||
  (factsheet?.protocolFeatures.agvActions.some(
    (a) => a.actionType === actionType && a.actionScopes.includes('INSTANT'),
  ) ??
    false);

/** The custom topic of a robot topic `uagv/v2/{manufacturer}/{serial}/{suffix}`, if it is one. */
const customTopicOf = (topic: string): CustomTopic | undefined =>
  (Object.keys(CUSTOM_TOPIC_NAMES) as CustomTopic[]).find((t) => topic.endsWith(`/${CUSTOM_TOPIC_NAMES[t]}`));

/**
 * The portal's side of VDA 5050: one MQTT client that subscribes to every robot's state,
 * visualization, connection and factsheet, keeps the fleet's live state in memory, and publishes
 * orders and instant actions. Malformed messages are logged with the robot and dropped.
 *
 * Composed of: the registry repository (SQL), the in-memory fleet, message intake (pure), the broker
 * authority, the message builders, the console message log and the cluster bus.
 */
export async function createRobotLink(opts: LinkOptions): Promise<RobotLinkService> {
  const { log, clock, transport } = opts;
  const repo: RegistryRepo = registryRepo(opts.db);
  const events = new EventEmitter();
  events.setMaxListeners(0);
  const fleet = createFleet();
  const stats: LinkStats = { messagesIn: 0, dropped: 0 };
  const dirty = new Set<number>();
  const messageLog = createMessageLog(clock);
  const instanceId = randomUUID();

  for (const row of await repo.robots()) fleet.upsert(row);

  const emit = (list: LinkEvent[]) => {
    for (const ev of list) events.emit(ev.type, ev.event);
  };
  const emitLive = (e: RobotEntry, force = false) => {
    const ev = liveChange(e, force);
    if (ev) emit([ev]);
  };

  /** Stores what intake made of the robot's entry and emits its events. */
  function apply(entry: RobotEntry, result: Extract<Intake, { ok: true }>) {
    fleet.update(entry, result.entry);
    if (result.dirty) dirty.add(entry.id);
    emit(result.events);
  }

  // ------------------------------------------------------------------ message intake
  function onRobotMessage(topic: string, payload: Buffer) {
    stats.messagesIn++;
    const custom = customTopicOf(topic);
    let entry: RobotEntry | undefined;
    let vda: ReturnType<typeof parseVdaTopic> = null;
    if (custom) {
      const [, , manufacturer, serial] = topic.split('/') as [string, string, string, string, string];
      entry = fleet.byTopic(manufacturer, serial);
    } else {
      vda = parseVdaTopic(topic);
      if (!vda) return;
      entry = fleet.byTopic(vda.manufacturer, vda.serialNumber);
    }
    if (!entry) return; // a deleted robot's last words, or a retained message of one
    if (messageLog.watching) messageLog.record(entry.id, 'in', topic, payload);
    const now = clock().getTime();
    const result = custom
      ? takeCustomMessage(entry, custom, payload, now)
      : takeVdaMessage(entry, vda!.topic, payload, now);
    if (!result.ok) {
      stats.dropped++;
      const name = custom ? CUSTOM_TOPIC_NAMES[custom] : vda!.topic;
      if (result.reason === 'notJson')
        log.warn({ robot: entry.serialNo, topic: name }, 'robot message dropped: not JSON');
      else
        log.warn(
          { robot: entry.serialNo, topic: name, issues: result.issues.slice(0, 5) },
          custom
            ? `robot message dropped: not a valid ${name} message`
            : 'robot message dropped: not a valid VDA 5050 message',
        );
      return;
    }
    apply(entry, result);
    // The flow runner follows each state message of the robots it drives.
    if (vda?.topic === 'state' && entry.state) events.emit('state', { robotId: entry.id, state: entry.state });
  }

  // ------------------------------------------------------------------ cluster bus (other servers)
  const bus = createClusterBus({
    transport,
    log,
    instanceId,
    onRegistryChange: (change) =>
      void applyChange(change, false).catch((err: unknown) => log.error({ err }, 'registry change failed')),
    onTeleopShared: (shared) => events.emit('teleopShared', shared),
    onOperatorChanged: (operatorId) => events.emit('operatorChanged', operatorId),
  });

  // ------------------------------------------------------------------ broker session
  const filters = [...ROBOT_PUBLISHES, MAPPING_TOPIC, TELEOP_REPLY_TOPIC, PHOTO_TOPIC].map(
    (topic) => `${VDA_INTERFACE_NAME}/${VDA_MAJOR}/+/+/${topic}`,
  );
  const ready = transport.subscribe([...filters, ...CLUSTER_TOPICS], (topic, payload) => {
    try {
      if (bus.receive(topic, payload)) return;
      onRobotMessage(topic, payload);
    } catch (err) {
      // One robot's odd message never stalls the link.
      stats.dropped++;
      log.error({ err, topic }, 'robot message failed');
    }
  });

  // ------------------------------------------------------------------ timers
  function checkSilence() {
    const now = clock().getTime();
    for (const e of fleet.entries()) {
      const result = silenceCheck(e, now, opts.defaultStateIntervalS);
      if (result) apply(e, result);
    }
  }
  const silence = setInterval(checkSilence, SILENCE_CHECK_MS);
  silence.unref();

  async function persist() {
    if (dirty.size === 0) return;
    const ids = [...dirty];
    dirty.clear();
    // Grouped by second so one statement covers most robots.
    const groups = new Map<string, number[]>();
    for (const id of ids) {
      const e = fleet.get(id);
      if (!e || !e.everSeen) continue;
      const at = new Date(Math.floor(e.lastSeen / 1000) * 1000).toISOString();
      groups.set(at, [...(groups.get(at) ?? []), id]);
    }
    for (const [at, group] of groups) await repo.saveLastCommunication(at, group);
  }
  const persistTimer = setInterval(() => {
    void persist().catch((err: unknown) => log.error({ err }, 'could not save robots’ last communication'));
  }, PERSIST_EVERY_MS);
  persistTimer.unref();

  // ------------------------------------------------------------------ registry changes
  async function reload(robotId: number): Promise<RobotEntry | null> {
    const row = await repo.robot(robotId);
    return row ? fleet.upsert(row) : null;
  }

  /** Applies a registry change to the in-memory fleet (`local`: made on this server). */
  async function applyChange(change: RegistryChange, local: boolean): Promise<void> {
    const before = fleet.get(change.robotId);
    const buildings = new Set<number>(before ? [before.buildingId] : []);
    if (change.kind === 'deleted') {
      if (before) fleet.remove(before);
      opts.disconnectRobot?.(change.robotId);
    } else {
      if (change.kind === 'credentials') opts.disconnectRobot?.(change.robotId);
      const e = await reload(change.robotId);
      if (e) {
        buildings.add(e.buildingId);
        if (change.kind === 'created' && local) await repo.forgetPending(e.id);
        emitLive(e, true);
      }
    }
    const orgId = before?.organizationId ?? fleet.get(change.robotId)?.organizationId;
    if (orgId !== undefined) {
      const ev: RegistryEvent = { robotId: change.robotId, organizationId: orgId, buildingIds: [...buildings] };
      events.emit('registry', ev);
    }
  }

  async function syncRegistry(): Promise<void> {
    const rows = await repo.robots();
    const present = new Set(rows.map((r) => r.id));
    for (const row of rows) fleet.upsert(row);
    for (const e of [...fleet.entries()]) {
      if (!present.has(e.id)) await applyChange({ kind: 'deleted', robotId: e.id }, false);
    }
  }
  const syncTimer = setInterval(() => {
    void syncRegistry().catch((err: unknown) => log.error({ err }, 'robot registry sync failed'));
  }, REGISTRY_SYNC_MS);
  syncTimer.unref();

  // ------------------------------------------------------------------ publishing
  const publish = (topic: string, message: object, robotId?: number): Promise<void> => {
    const text = JSON.stringify(message);
    if (robotId !== undefined && messageLog.watching) messageLog.record(robotId, 'out', topic, text);
    return transport.publish(topic, text, 1);
  };

  function onlineEntry(robotId: number): RobotEntry {
    const e = fleet.get(robotId);
    if (!e) throw new AppError('NOT_FOUND', 'Robot not found');
    if (!e.online) throw new AppError('ROBOT_OFFLINE', 'The robot is offline');
    return e;
  }
  const header = (e: RobotEntry, topic: 'order' | 'instantActions') => nextHeader(e, topic, clock().toISOString());

  return {
    authority: createBrokerAuthority({ repo, clock, log }),
    stats,
    ready,
    checkSilence,
    sessionEnded(robotId: number) {
      const e = fleet.get(robotId);
      const result = e ? sessionEnded(e) : null;
      if (e && result) apply(e, result);
    },
    live(robot) {
      const e = fleet.get(robot.id);
      if (!e) {
        return liveOf({
          ...({} as RobotEntry),
          id: robot.id,
          status: robot.status,
          online: false,
          everSeen: false,
          lastSeen: 0,
          notReporting: false,
          sentOrder: null,
          state: null,
          position: null,
          floorId: 0,
          protocolVersion: null,
        });
      }
      return liveOf(e);
    },
    fleet(scope, buildingId) {
      const out: FleetRobot[] = [];
      for (const e of fleet.entries()) {
        if ((buildingId === null || e.buildingId === buildingId) && inScope(scope, e)) out.push(fleetRobot(e));
      }
      return out.sort((a, b) => a.name.localeCompare(b.name) || a.id - b.id);
    },
    robot(robotId) {
      const e = fleet.get(robotId);
      return e
        ? { id: e.id, organizationId: e.organizationId, buildingId: e.buildingId, videoMode: e.videoMode }
        : null;
    },
    robotBrokerUrl: () => opts.robotBrokerUrl,
    busy(robotId: number) {
      const e = fleet.get(robotId);
      return !!e && e.online && isBusy(e, clock().getTime());
    },
    async registryChanged(change: RegistryChange) {
      await applyChange(change, true);
      // Other servers on the same broker apply it too.
      await bus.shareRegistryChange(change);
    },
    async command(robotId, command) {
      const e = onlineEntry(robotId);
      const message = commandMessage(header(e, 'instantActions'), command, randomUUID());
      await publish(vdaTopic(e.manufacturer, e.serialNo, 'instantActions'), message, e.id);
    },
    announces: (robotId: number, actionType: string) => {
      const e = fleet.get(robotId);
      return e ? announcesAction(e.factsheet, actionType) : false;
    },
    async instantAction(robotId, actionType, params) {
      const e = onlineEntry(robotId);
      // A custom action goes only to a robot whose factsheet announces it (a standard robot would answer an error).
      if (!announcesAction(e.factsheet, actionType))
        throw new AppError('CAPABILITY_MISSING', `The robot does not support ${actionType}`);
      const h = header(e, 'instantActions');
      const actionId = `${actionType}-${randomUUID()}`;
      await publish(
        vdaTopic(e.manufacturer, e.serialNo, 'instantActions'),
        customActionMessage(h, actionId, actionType, params),
        e.id,
      );
      return actionId;
    },
    async sendOrder(robotId, stops: OrderStop[], named?: string) {
      const e = onlineEntry(robotId);
      if (stops.length === 0) throw new AppError('VALIDATION_FAILED', 'An order needs at least one stop');
      const orderId = named ?? randomUUID();
      // The order starts where the robot is (a robot stopped mid-edge is sent from there).
      const from = startingAt(stops, e.position, `start-${orderId.slice(0, 8)}`);
      await publish(
        vdaTopic(e.manufacturer, e.serialNo, 'order'),
        orderMessage(header(e, 'order'), orderId, from),
        e.id,
      );
      // Tracked from send to acceptance, rejection or completion (intake.ts trackOrder).
      e.sentOrder = { orderId, sentAt: clock().getTime(), status: 'sent', error: null };
      emitLive(e);
      return orderId;
    },
    async publishOrder(robotId, body) {
      const e = onlineEntry(robotId);
      const h = header(e, 'order');
      const message: VdaOrder = { ...h, ...body };
      await publish(vdaTopic(e.manufacturer, e.serialNo, 'order'), message, e.id);
      if (body.orderUpdateId === 0) {
        e.sentOrder = { orderId: body.orderId, sentAt: clock().getTime(), status: 'sent', error: null };
        emitLive(e);
      }
      return h.version;
    },
    instanceId,
    shareTeleop: (message: unknown) => bus.shareTeleop(message),
    shareOperatorChange: (operatorId: number) => bus.shareOperatorChange(operatorId),
    async publishTeleop(robotId: number, message: TeleopRobotMessage) {
      // A close goes out even to a robot that looks offline (it may only be late); the rest need it online.
      const e = message.kind === 'close' ? fleet.get(robotId) : onlineEntry(robotId);
      if (!e) return;
      await publish(
        `${VDA_INTERFACE_NAME}/${VDA_MAJOR}/${e.manufacturer}/${e.serialNo}/${TELEOP_TOPIC}`,
        message,
        e.id,
      );
    },
    details(robotId) {
      const e = fleet.get(robotId);
      if (!e) return null;
      return {
        online: e.online,
        protocolVersion: e.protocolVersion,
        state: e.state,
        factsheet: e.factsheet,
        teleop: e.teleop,
        battery: e.state ? e.state.batteryState.batteryCharge : null,
      };
    },
    watchLog: (robotId, after) => messageLog.watch(robotId, after),
    on(
      event:
        | 'live'
        | 'pose'
        | 'registry'
        | 'mapping'
        | 'teleopReply'
        | 'photo'
        | 'connection'
        | 'teleopShared'
        | 'operatorChanged'
        | 'state',
      listener: (e: never) => void,
    ) {
      const l = listener as (...args: unknown[]) => void;
      events.on(event, l);
      return () => events.off(event, l);
    },
    async close() {
      clearInterval(silence);
      clearInterval(syncTimer);
      clearInterval(persistTimer);
      await persist().catch(() => undefined);
      await transport.close();
    },
  } as RobotLinkService;
}
