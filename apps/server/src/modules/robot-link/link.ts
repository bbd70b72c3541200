import { EventEmitter } from 'node:events';
import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import type { Kysely } from 'kysely';
import type { FastifyBaseLogger } from 'fastify';
import {
  isSystemAdmin,
  MAPPING_TOPIC,
  mappingMessageSchema,
  parseTeleopInfo,
  PHOTO_TOPIC,
  ROBOT_LOG_PAYLOAD_MAX,
  ROBOT_LOG_SIZE,
  robotPhotoMessageSchema,
  TELEOP_REPLY_TOPIC,
  TELEOP_TOPIC,
  teleopReplyMessageSchema,
  type RobotLogEntry,
  type TeleopRobotMessage,
  type VdaFactsheet,
  type VideoMode,
  OperatorType,
  parseVdaTopic,
  ROBOT_PUBLISHES,
  ROBOT_SILENCE_OFFLINE_MS,
  VDA_INTERFACE_NAME,
  VDA_MAJOR,
  vdaSchemas,
  vdaTopic,
  type FleetRobot,
  type RobotCommand,
  type RobotStatusCodeValue,
  type VdaConnection,
  type VdaInstantActions,
  type VdaState,
  type VdaVisualization,
  type VdaOrder,
} from '@portal/contract';
import type { Database } from '../../db/schema.ts';
import { AppError } from '../../lib/errors.ts';
import { sameHash, sha256 } from '../../lib/crypto.ts';
import { mqttUsernameOf } from '../robots/credentials.ts';
import type { Clock } from '../../lib/time.ts';
import type { TenantScope } from '../../lib/scope.ts';
import type { BrokerAuthority, BrokerIdentity } from './broker.ts';
import type { LinkTransport } from './transport.ts';
import { liveOf, positionOf, significantKey, type RobotEntry } from './fleet-state.ts';
import type {
  LiveEvent,
  MappingEvent,
  PhotoEvent,
  TeleopReplyEvent,
  OrderStop,
  PoseEvent,
  RegistryChange,
  RegistryEvent,
  RobotLink,
} from './types.ts';

const COMMAND_ACTIONS: Record<RobotCommand, string> = {
  pause: 'startPause',
  resume: 'stopPause',
  cancel: 'cancelOrder',
};
/** How often the last communication time is written to the database (one statement per flush). */
const PERSIST_EVERY_MS = 15_000;
const SILENCE_CHECK_MS = 1_000;
/** A robot's message log is kept while its console asks for it, and this long after the last ask. */
const LOG_WATCH_MS = 10 * 60_000;

/** The in-memory message log of one robot (only while an administrator's console watches it). */
interface RobotLogBuffer {
  entries: RobotLogEntry[];
  seq: number;
  until: number;
}

/** VDA 5050 wants orientations in [-π, π]. */
const normalizeAngle = (a: number) => Math.atan2(Math.sin(a), Math.cos(a));
const PENDING_THROTTLE_MS = 10_000;
/** Full registry re-read (building renames, changes another server made while this one was away). */
const REGISTRY_SYNC_MS = 60_000;
/**
 * Server-internal topic: a registry change made on one server reaches the others at once
 * (ARCHITECTURE.md: events between server instances go through the broker).
 */
export const REGISTRY_TOPIC = 'portal/v1/registry';
/** Server-internal topic: teleoperation lock claims between server instances (modules/teleop). */
export const TELEOP_SHARE_TOPIC = 'portal/v1/teleop';

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
};

/**
 * The portal's side of VDA 5050: one MQTT client that subscribes to every robot's state,
 * visualization, connection and factsheet, keeps the fleet's live state in memory, and publishes
 * orders and instant actions. Malformed messages are logged with the robot and dropped.
 */
export async function createRobotLink(opts: LinkOptions): Promise<RobotLinkService> {
  const { db, log, clock } = opts;
  const events = new EventEmitter();
  events.setMaxListeners(0);
  const byId = new Map<number, RobotEntry>();
  const byKey = new Map<string, RobotEntry>(); // `${manufacturer}/${serial}`
  const stats: LinkStats = { messagesIn: 0, dropped: 0 };
  const dirty = new Set<number>();
  const pendingSeen = new Map<string, number>();

  const keyOf = (manufacturer: string, serial: string) => `${manufacturer}/${serial}`;

  const registryQuery = () =>
    db
      .selectFrom('robots as r')
      .innerJoin('buildings as b', 'b.id', 'r.building_id')
      .leftJoin('robot_groups as g', 'g.id', 'r.group_id')
      .select([
        'r.id',
        'r.organization_id as organizationId',
        'r.building_id as buildingId',
        'b.name as buildingName',
        'r.floor_id as floorId',
        'r.group_id as groupId',
        'g.name as groupName',
        'r.serial_no as serialNo',
        'r.name',
        'r.model',
        'r.manufacturer',
        'r.status',
        'r.video_mode as videoMode',
        'r.last_communication_at as lastCommunicationAt',
      ])
      .where('r.deleted_at', 'is', null);
  type Row = Awaited<ReturnType<ReturnType<typeof registryQuery>['execute']>>[number];

  function upsert(row: Row): RobotEntry {
    const existing = byId.get(row.id);
    const facts = {
      id: row.id,
      organizationId: row.organizationId,
      buildingId: row.buildingId,
      buildingName: row.buildingName,
      floorId: row.floorId,
      groupId: row.groupId,
      groupName: row.groupName,
      serialNo: row.serialNo,
      name: row.name,
      model: row.model as RobotEntry['model'],
      manufacturer: row.manufacturer,
      status: row.status as RobotStatusCodeValue,
      videoMode: row.videoMode as VideoMode,
    };
    if (existing) {
      byKey.delete(keyOf(existing.manufacturer, existing.serialNo));
      Object.assign(existing, facts);
      byKey.set(keyOf(existing.manufacturer, existing.serialNo), existing);
      return existing;
    }
    const lastSeen = row.lastCommunicationAt ? Date.parse(row.lastCommunicationAt) : 0;
    const entry: RobotEntry = {
      ...facts,
      online: false,
      everSeen: lastSeen > 0,
      lastSeen,
      protocolVersion: null,
      state: null,
      factsheet: null,
      teleop: null,
      position: null,
      liveKey: '',
      headerIds: { order: 0, instantActions: 0 },
    };
    entry.liveKey = significantKey(liveOf(entry));
    byId.set(entry.id, entry);
    byKey.set(keyOf(entry.manufacturer, entry.serialNo), entry);
    return entry;
  }

  for (const row of await registryQuery().execute()) upsert(row);

  const emitLive = (e: RobotEntry, force = false) => {
    const live = liveOf(e);
    const key = significantKey(live);
    if (!force && key === e.liveKey) return;
    e.liveKey = key;
    const ev: LiveEvent = { robotId: e.id, organizationId: e.organizationId, buildingId: e.buildingId, live };
    events.emit('live', ev);
  };

  /** `at` is the robot's own timestamp of the position (the message header). */
  const emitPose = (e: RobotEntry, at: string) => {
    if (!e.position) return;
    const ev: PoseEvent = {
      robotId: e.id,
      organizationId: e.organizationId,
      buildingId: e.buildingId,
      position: e.position,
      at,
    };
    events.emit('pose', ev);
  };

  function heard(e: RobotEntry, version: string) {
    e.lastSeen = clock().getTime();
    e.everSeen = true;
    e.protocolVersion = version;
    dirty.add(e.id);
  }

  // ------------------------------------------------------------------ console message log
  const logs = new Map<number, RobotLogBuffer>();
  function record(robotId: number, direction: 'in' | 'out', topic: string, payload: Buffer | string) {
    const buf = logs.get(robotId);
    if (!buf) return;
    const now = clock().getTime();
    if (now > buf.until) {
      logs.delete(robotId);
      return;
    }
    let text = typeof payload === 'string' ? payload : payload.toString('utf8');
    const truncated = text.length > ROBOT_LOG_PAYLOAD_MAX;
    if (truncated) text = text.slice(0, ROBOT_LOG_PAYLOAD_MAX);
    buf.seq += 1;
    buf.entries.push({
      seq: buf.seq,
      at: new Date(now).toISOString(),
      direction,
      topic: topic.split('/').pop() ?? topic,
      payload: text,
      truncated,
    });
    if (buf.entries.length > ROBOT_LOG_SIZE) buf.entries.splice(0, buf.entries.length - ROBOT_LOG_SIZE);
  }
  /** Robot of a custom topic `uagv/v2/{manufacturer}/{serial}/{suffix}`. */
  const entryOfTopic = (topic: string): RobotEntry | undefined => {
    const [, , manufacturer, serial] = topic.split('/') as [string, string, string, string, string];
    return byKey.get(keyOf(manufacturer, serial));
  };

  function onMessage(topic: string, payload: Buffer) {
    stats.messagesIn++;
    const t = parseVdaTopic(topic);
    if (!t) return;
    const entry = byKey.get(keyOf(t.manufacturer, t.serialNumber));
    if (!entry) return; // a deleted robot's last words, or a retained message of one
    if (logs.size > 0) record(entry.id, 'in', topic, payload);
    let json: unknown;
    try {
      json = JSON.parse(payload.toString('utf8'));
    } catch {
      stats.dropped++;
      log.warn({ robot: entry.serialNo, topic: t.topic }, 'robot message dropped: not JSON');
      return;
    }
    const parsed = vdaSchemas[t.topic].safeParse(json);
    if (!parsed.success) {
      stats.dropped++;
      log.warn(
        { robot: entry.serialNo, topic: t.topic, issues: parsed.error.issues.slice(0, 5) },
        'robot message dropped: not a valid VDA 5050 message',
      );
      return;
    }
    const msg = parsed.data as { version: string };
    switch (t.topic) {
      case 'state': {
        const state = parsed.data as VdaState;
        heard(entry, msg.version);
        entry.online = true;
        entry.state = state;
        entry.teleop = parseTeleopInfo(state.information);
        const moved = !!state.agvPosition;
        if (state.agvPosition) entry.position = positionOf(state.agvPosition);
        emitLive(entry);
        if (moved) emitPose(entry, state.timestamp);
        break;
      }
      case 'visualization': {
        const vis = parsed.data as VdaVisualization;
        heard(entry, msg.version);
        if (!entry.online) {
          entry.online = true;
          emitLive(entry);
        }
        if (vis.agvPosition) {
          const before = entry.position?.floorId;
          entry.position = positionOf(vis.agvPosition);
          if (before !== entry.position.floorId) emitLive(entry);
          emitPose(entry, vis.timestamp);
        }
        break;
      }
      case 'connection': {
        const c = parsed.data as VdaConnection;
        // A retained ONLINE from long ago says nothing: only fresh news of the link counts.
        if (c.connectionState === 'ONLINE') {
          heard(entry, msg.version);
          entry.online = true;
        } else {
          entry.online = false;
          dirty.add(entry.id);
        }
        emitLive(entry);
        break;
      }
      case 'factsheet':
        heard(entry, msg.version);
        entry.factsheet = parsed.data as VdaFactsheet;
        break;
      default:
        break;
    }
  }

  /** A mapping message whose `cells` are base64 of exactly width × height bytes. */
  const mappingWithCells = mappingMessageSchema.refine(
    (m) => Buffer.from(m.cells, 'base64').length === m.width * m.height,
    { message: 'cells must hold width × height bytes', path: ['cells'] },
  );

  /** A custom robot topic carrying JSON checked by `schema`; null (logged, counted) when it is not. */
  function customMessage<T>(
    topic: string,
    payload: Buffer,
    schema: z.ZodType<T>,
    name: string,
  ): { entry: RobotEntry; message: T } | null {
    stats.messagesIn++;
    const entry = entryOfTopic(topic);
    if (!entry) return null;
    if (logs.size > 0) record(entry.id, 'in', topic, payload);
    let json: unknown;
    try {
      json = JSON.parse(payload.toString('utf8'));
    } catch {
      json = undefined;
    }
    const parsed = schema.safeParse(json);
    if (!parsed.success) {
      stats.dropped++;
      log.warn(
        { robot: entry.serialNo, topic: name, issues: parsed.error.issues.slice(0, 5) },
        `robot message dropped: not a valid ${name} message`,
      );
      return null;
    }
    entry.lastSeen = clock().getTime();
    return { entry, message: parsed.data };
  }

  const refOf = (e: RobotEntry) => ({ robotId: e.id, organizationId: e.organizationId, buildingId: e.buildingId });

  /** The custom `mapping` topic: checked, then handed to the map sessions as a `mapping` event. */
  function onMapping(topic: string, payload: Buffer) {
    const m = customMessage(topic, payload, mappingWithCells, MAPPING_TOPIC);
    if (!m) return;
    heard(m.entry, m.message.version);
    const ev: MappingEvent = { ...refOf(m.entry), message: m.message };
    events.emit('mapping', ev);
  }

  /** `teleopReply`: WebRTC answers and candidates for the teleop sessions. */
  function onTeleopReply(topic: string, payload: Buffer) {
    const m = customMessage(topic, payload, teleopReplyMessageSchema, TELEOP_REPLY_TOPIC);
    if (!m) return;
    const ev: TeleopReplyEvent = { ...refOf(m.entry), message: m.message };
    events.emit('teleopReply', ev);
  }

  /** `photo`: a picture a takePhoto action produced. */
  function onPhoto(topic: string, payload: Buffer) {
    const m = customMessage(topic, payload, robotPhotoMessageSchema, PHOTO_TOPIC);
    if (!m) return;
    const ev: PhotoEvent = { ...refOf(m.entry), message: m.message };
    events.emit('photo', ev);
  }

  // ------------------------------------------------------------------ broker authority
  const robotByUsername = (username: string) =>
    db
      .selectFrom('robots')
      .select(['id', 'manufacturer', 'serial_no', 'mqtt_password_hash'])
      .where('mqtt_username', '=', username)
      .where('deleted_at', 'is', null)
      .executeTakeFirst();

  const authority: BrokerAuthority = {
    async authenticate(username, password): Promise<BrokerIdentity | null> {
      if (!username || !password) return null;
      const row = await robotByUsername(username);
      if (!row || !sameHash(row.mqtt_password_hash, sha256(password))) return null;
      return { role: 'robot', robotId: row.id, manufacturer: row.manufacturer, serialNo: row.serial_no };
    },
    async identify(username): Promise<BrokerIdentity | null> {
      const row = username ? await robotByUsername(username) : undefined;
      return row ? { role: 'robot', robotId: row.id, manufacturer: row.manufacturer, serialNo: row.serial_no } : null;
    },
    unknownClient({ username, clientId, ip }) {
      const key = username || clientId;
      const now = clock().getTime();
      if (!key || now - (pendingSeen.get(key) ?? 0) < PENDING_THROTTLE_MS) return;
      pendingSeen.set(key, now);
      void recordPending(key.slice(0, 64), clientId.slice(0, 128), ip.slice(0, 64)).catch((err: unknown) =>
        log.error({ err }, 'could not record a robot awaiting registration'),
      );
    },
  };

  async function recordPending(username: string, clientId: string, ip: string) {
    // A registered robot with a wrong password is not "awaiting registration".
    const known = await db
      .selectFrom('robots')
      .select('id')
      .where('mqtt_username', '=', username)
      .where('deleted_at', 'is', null)
      .executeTakeFirst();
    if (known) return;
    const at = clock().toISOString();
    const updated = await db
      .updateTable('pending_robots')
      .set((eb) => ({ client_id: clientId, ip, last_seen_at: at, attempts: eb('attempts', '+', 1) }))
      .where('username', '=', username)
      .executeTakeFirst();
    if (Number(updated.numUpdatedRows) === 0) {
      await db
        .insertInto('pending_robots')
        .values({ username, client_id: clientId, ip, attempts: 1, first_seen_at: at, last_seen_at: at })
        .execute();
    }
  }

  // ------------------------------------------------------------------ broker session
  const filters = [...ROBOT_PUBLISHES, MAPPING_TOPIC, TELEOP_REPLY_TOPIC, PHOTO_TOPIC].map(
    (topic) => `${VDA_INTERFACE_NAME}/${VDA_MAJOR}/+/+/${topic}`,
  );
  const transport = opts.transport;
  const ready = transport.subscribe([...filters, REGISTRY_TOPIC, TELEOP_SHARE_TOPIC], (topic, payload) => {
    try {
      if (topic === REGISTRY_TOPIC) return onRegistryMessage(payload);
      if (topic === TELEOP_SHARE_TOPIC) return onTeleopShared(payload);
      if (topic.endsWith(`/${MAPPING_TOPIC}`)) return onMapping(topic, payload);
      if (topic.endsWith(`/${TELEOP_REPLY_TOPIC}`)) return onTeleopReply(topic, payload);
      if (topic.endsWith(`/${PHOTO_TOPIC}`)) return onPhoto(topic, payload);
      onMessage(topic, payload);
    } catch (err) {
      // One robot's odd message never stalls the link.
      stats.dropped++;
      log.error({ err, topic }, 'robot message failed');
    }
  });

  // ------------------------------------------------------------------ timers
  const silence = setInterval(() => {
    const now = clock().getTime();
    for (const e of byId.values()) {
      if (e.online && now - e.lastSeen > ROBOT_SILENCE_OFFLINE_MS) {
        e.online = false;
        dirty.add(e.id);
        emitLive(e);
      }
    }
  }, SILENCE_CHECK_MS);
  silence.unref();

  async function persist() {
    if (dirty.size === 0) return;
    const ids = [...dirty];
    dirty.clear();
    // Grouped by second so one statement covers most robots.
    const groups = new Map<string, number[]>();
    for (const id of ids) {
      const e = byId.get(id);
      if (!e || !e.everSeen) continue;
      const at = new Date(Math.floor(e.lastSeen / 1000) * 1000).toISOString();
      groups.set(at, [...(groups.get(at) ?? []), id]);
    }
    for (const [at, group] of groups) {
      await db.updateTable('robots').set({ last_communication_at: at }).where('id', 'in', group).execute();
    }
  }
  const persistTimer = setInterval(() => {
    void persist().catch((err: unknown) => log.error({ err }, 'could not save robots’ last communication'));
  }, PERSIST_EVERY_MS);
  persistTimer.unref();

  // ------------------------------------------------------------------ publishing
  const publish = (topic: string, message: object, robotId?: number): Promise<void> => {
    const text = JSON.stringify(message);
    if (robotId !== undefined && logs.size > 0) record(robotId, 'out', topic, text);
    return transport.publish(topic, text, 1);
  };

  function onlineEntry(robotId: number): RobotEntry {
    const e = byId.get(robotId);
    if (!e) throw new AppError('NOT_FOUND', 'Robot not found');
    if (!e.online) throw new AppError('ROBOT_OFFLINE', 'The robot is offline');
    return e;
  }

  const header = (e: RobotEntry, topic: 'order' | 'instantActions') => ({
    headerId: e.headerIds[topic]++,
    timestamp: clock().toISOString(),
    version: e.protocolVersion?.startsWith('2.0') ? '2.0.0' : '2.1.0',
    manufacturer: e.manufacturer,
    serialNumber: e.serialNo,
  });

  async function reload(robotId: number): Promise<RobotEntry | null> {
    const row = await registryQuery().where('r.id', '=', robotId).executeTakeFirst();
    return row ? upsert(row) : null;
  }

  const instanceId = randomUUID();

  /** Applies a registry change to the in-memory fleet (`local`: made on this server). */
  async function applyChange(change: RegistryChange, local: boolean): Promise<void> {
    const before = byId.get(change.robotId);
    const buildings = new Set<number>(before ? [before.buildingId] : []);
    if (change.kind === 'deleted') {
      if (before) {
        byId.delete(before.id);
        byKey.delete(keyOf(before.manufacturer, before.serialNo));
      }
      opts.disconnectRobot?.(change.robotId);
    } else {
      if (change.kind === 'credentials') opts.disconnectRobot?.(change.robotId);
      const e = await reload(change.robotId);
      if (e) {
        buildings.add(e.buildingId);
        if (change.kind === 'created' && local) {
          await db.deleteFrom('pending_robots').where('username', '=', mqttUsernameOf(e.serialNo)).execute();
        }
        emitLive(e, true);
      }
    }
    const orgId = before?.organizationId ?? byId.get(change.robotId)?.organizationId;
    if (orgId !== undefined) {
      const ev: RegistryEvent = { robotId: change.robotId, organizationId: orgId, buildingIds: [...buildings] };
      events.emit('registry', ev);
    }
  }

  const registryMessage = z.object({
    origin: z.string(),
    change: z.object({
      kind: z.enum(['created', 'updated', 'credentials', 'deleted']),
      robotId: z.number().int(),
    }),
  });
  function onRegistryMessage(payload: Buffer) {
    let parsed: z.infer<typeof registryMessage>;
    try {
      parsed = registryMessage.parse(JSON.parse(payload.toString('utf8')));
    } catch {
      log.warn('registry message dropped: malformed');
      return;
    }
    if (parsed.origin === instanceId) return;
    void applyChange(parsed.change, false).catch((err: unknown) => log.error({ err }, 'registry change failed'));
  }

  /** Another server's teleop lock message: handed to the teleop service as it is (it checks it). */
  function onTeleopShared(payload: Buffer) {
    let parsed: { origin: string; message: unknown };
    try {
      parsed = z.object({ origin: z.string(), message: z.unknown() }).parse(JSON.parse(payload.toString('utf8')));
    } catch {
      log.warn('teleop share message dropped: malformed');
      return;
    }
    if (parsed.origin === instanceId) return;
    events.emit('teleopShared', { origin: parsed.origin, message: parsed.message });
  }

  async function syncRegistry(): Promise<void> {
    const rows = await registryQuery().execute();
    const present = new Set(rows.map((r) => r.id));
    for (const row of rows) upsert(row);
    for (const e of [...byId.values()]) {
      if (!present.has(e.id)) await applyChange({ kind: 'deleted', robotId: e.id }, false);
    }
  }
  const syncTimer = setInterval(() => {
    void syncRegistry().catch((err: unknown) => log.error({ err }, 'robot registry sync failed'));
  }, REGISTRY_SYNC_MS);
  syncTimer.unref();

  const inScope = (scope: TenantScope, e: RobotEntry) =>
    isSystemAdmin(scope.type) ||
    (e.organizationId === scope.organizationId &&
      (scope.type !== OperatorType.general || e.buildingId === scope.buildingId));

  const fleetRobot = (e: RobotEntry): FleetRobot => ({
    id: e.id,
    serialNo: e.serialNo,
    name: e.name,
    model: e.model,
    organizationId: e.organizationId,
    buildingId: e.buildingId,
    buildingName: e.buildingName,
    groupId: e.groupId,
    groupName: e.groupName,
    status: e.status,
    live: liveOf(e),
  });

  return {
    authority,
    stats,
    ready,
    live(robot) {
      const e = byId.get(robot.id);
      if (!e) {
        return liveOf({
          ...({} as RobotEntry),
          id: robot.id,
          status: robot.status,
          online: false,
          everSeen: false,
          lastSeen: 0,
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
      for (const e of byId.values()) {
        if ((buildingId === null || e.buildingId === buildingId) && inScope(scope, e)) out.push(fleetRobot(e));
      }
      return out.sort((a, b) => a.name.localeCompare(b.name) || a.id - b.id);
    },
    robot(robotId) {
      const e = byId.get(robotId);
      return e
        ? { id: e.id, organizationId: e.organizationId, buildingId: e.buildingId, videoMode: e.videoMode }
        : null;
    },
    robotBrokerUrl: () => opts.robotBrokerUrl,
    async registryChanged(change: RegistryChange) {
      await applyChange(change, true);
      // Other servers on the same broker apply it too.
      await transport
        .publish(REGISTRY_TOPIC, JSON.stringify({ origin: instanceId, change }), 1)
        .catch((err: unknown) => log.warn({ err }, 'registry change not shared with other servers'));
    },
    async command(robotId, command) {
      const e = onlineEntry(robotId);
      const h = header(e, 'instantActions');
      const actionType = COMMAND_ACTIONS[command];
      const message: VdaInstantActions = {
        ...h,
        actions: [
          {
            actionId: `${command}-${randomUUID()}`,
            actionType,
            // The official 2.0 schema names the field actionName; 2.0 robots get both.
            ...(h.version === '2.0.0' ? { actionName: actionType } : {}),
            blockingType: 'HARD',
          },
        ],
      };
      await publish(vdaTopic(e.manufacturer, e.serialNo, 'instantActions'), message, e.id);
    },
    async instantAction(robotId, actionType, params) {
      const e = onlineEntry(robotId);
      const h = header(e, 'instantActions');
      const actionId = `${actionType}-${randomUUID()}`;
      const message: VdaInstantActions = {
        ...h,
        actions: [
          {
            actionId,
            actionType,
            ...(h.version === '2.0.0' ? { actionName: actionType } : {}),
            blockingType: 'NONE',
            actionParameters: Object.entries(params).map(([key, value]) => ({ key, value })),
          },
        ],
      };
      await publish(vdaTopic(e.manufacturer, e.serialNo, 'instantActions'), message, e.id);
      return actionId;
    },
    async sendOrder(robotId, stops: OrderStop[]) {
      const e = onlineEntry(robotId);
      if (stops.length === 0) throw new AppError('VALIDATION_FAILED', 'An order needs at least one stop');
      const orderId = randomUUID();
      const message: VdaOrder = {
        ...header(e, 'order'),
        orderId,
        orderUpdateId: 0,
        nodes: stops.map((s, i) => ({
          nodeId: s.nodeId,
          sequenceId: i * 2,
          released: true,
          nodePosition: {
            x: s.x,
            y: s.y,
            ...(s.theta === undefined ? {} : { theta: normalizeAngle(s.theta) }),
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
      await publish(vdaTopic(e.manufacturer, e.serialNo, 'order'), message, e.id);
      return orderId;
    },
    instanceId,
    async shareTeleop(message: unknown) {
      await transport.publish(TELEOP_SHARE_TOPIC, JSON.stringify({ origin: instanceId, message }), 1);
    },
    async publishTeleop(robotId: number, message: TeleopRobotMessage) {
      // A close goes out even to a robot that looks offline (it may only be late); the rest need it online.
      const e = message.kind === 'close' ? byId.get(robotId) : onlineEntry(robotId);
      if (!e) return;
      await publish(
        `${VDA_INTERFACE_NAME}/${VDA_MAJOR}/${e.manufacturer}/${e.serialNo}/${TELEOP_TOPIC}`,
        message,
        e.id,
      );
    },
    details(robotId) {
      const e = byId.get(robotId);
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
    watchLog(robotId, after) {
      const now = clock().getTime();
      let buf = logs.get(robotId);
      if (!buf || now > buf.until) {
        buf = { entries: [], seq: buf?.seq ?? 0, until: now + LOG_WATCH_MS };
        logs.set(robotId, buf);
      }
      buf.until = now + LOG_WATCH_MS;
      const from = after ?? 0;
      return { entries: buf.entries.filter((x) => x.seq > from), lastSeq: buf.seq };
    },
    on(
      event: 'live' | 'pose' | 'registry' | 'mapping' | 'teleopReply' | 'photo' | 'teleopShared',
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
