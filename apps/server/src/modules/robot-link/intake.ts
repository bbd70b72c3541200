import type { z } from 'zod';
import {
  MAPPING_TOPIC,
  mappingMessageSchema,
  parseTeleopInfo,
  PHOTO_TOPIC,
  robotPhotoMessageSchema,
  ROBOT_DEFAULT_STATE_INTERVAL_S,
  ROBOT_NOT_REPORTING_INTERVALS,
  TELEOP_REPLY_TOPIC,
  teleopReplyMessageSchema,
  vdaSchemas,
  type VdaConnection,
  type VdaFactsheet,
  type VdaState,
  type VdaTopic,
  type VdaVisualization,
} from '@portal/contract';
import { holdsOrder, liveOf, positionOf, significantKey, type RobotEntry, type SentOrderTrack } from './fleet-state.ts';
import type {
  ConnectionEvent,
  LiveEvent,
  MappingEvent,
  PhotoEvent,
  PoseEvent,
  RobotRef,
  TeleopReplyEvent,
} from './types.ts';

/**
 * Message intake: what one robot message does to the robot's live state, as a pure function. A
 * message in, the robot's new entry and the events to emit out; no MQTT, no clock, no database (the
 * link stores the entry, emits the events and writes the last communication of `dirty` robots).
 */

/** An event of the link, by name (the names of `RobotLink.on`). */
export type LinkEvent =
  | { type: 'live'; event: LiveEvent }
  | { type: 'pose'; event: PoseEvent }
  | { type: 'mapping'; event: MappingEvent }
  | { type: 'teleopReply'; event: TeleopReplyEvent }
  | { type: 'photo'; event: PhotoEvent }
  | { type: 'connection'; event: ConnectionEvent };

export type Intake =
  | {
      ok: true;
      /** The robot's entry after the message (a new object; the input is left as it was). */
      entry: RobotEntry;
      events: LinkEvent[];
      /** The last communication time changed and is to be written to the database. */
      dirty: boolean;
    }
  | { ok: false; reason: 'notJson' | 'invalid'; issues: z.core.$ZodIssue[] };

/** The custom robot topics (docs/robot-protocol.md section 6) and their names in the logs. */
export type CustomTopic = 'mapping' | 'teleopReply' | 'photo';
export const CUSTOM_TOPIC_NAMES: Record<CustomTopic, string> = {
  mapping: MAPPING_TOPIC,
  teleopReply: TELEOP_REPLY_TOPIC,
  photo: PHOTO_TOPIC,
};

/** A mapping message whose `cells` are base64 of exactly width × height bytes. */
const mappingWithCells = mappingMessageSchema.refine(
  (m) => Buffer.from(m.cells, 'base64').length === m.width * m.height,
  { message: 'cells must hold width × height bytes', path: ['cells'] },
);

export const refOf = (e: RobotEntry): RobotRef => ({
  robotId: e.id,
  organizationId: e.organizationId,
  buildingId: e.buildingId,
});

/**
 * The live event of the entry when its significant live state changed since the last one sent
 * (always when `force`); records the new key in the entry.
 */
export function liveChange(e: RobotEntry, force = false): LinkEvent | null {
  const live = liveOf(e);
  const key = significantKey(live);
  if (!force && key === e.liveKey) return null;
  e.liveKey = key;
  return { type: 'live', event: { ...refOf(e), live } };
}

/** `at` is the robot's own timestamp of the position (the message header). */
const poseOf = (e: RobotEntry, at: string): LinkEvent[] =>
  e.position ? [{ type: 'pose', event: { ...refOf(e), position: e.position, at } }] : [];

/** Error types with which VDA 5050 robots refuse an order. */
const ORDER_REJECTIONS = new Set(['validationError', 'noRouteError', 'orderError', 'orderUpdateError']);

const refersTo = (err: VdaState['errors'][number], key: string, value: string): boolean =>
  (err.errorReferences ?? []).some((r) => r.referenceKey === key && r.referenceValue === value);
const sameError = (a: VdaState['errors'][number], b: VdaState['errors'][number]) =>
  a.errorType === b.errorType && a.errorDescription === b.errorDescription;

/**
 * What the robot's new state says of the order the portal last sent it: accepted (the state names
 * it, unfinished), finished (named, nothing left), rejected (an error refers to its orderId; or, from
 * a robot that gives no references, a new order-rejection error while it is still unanswered).
 */
export function trackOrder(
  sent: SentOrderTrack | null,
  state: VdaState,
  before: VdaState | null,
): SentOrderTrack | null {
  if (!sent || sent.status === 'rejected' || sent.status === 'finished') return sent;
  if (state.orderId === sent.orderId) {
    const status = holdsOrder(state) ? 'accepted' : 'finished';
    return status === sent.status ? sent : { ...sent, status };
  }
  if (sent.status !== 'sent') return sent;
  const refused =
    state.errors.find((err) => refersTo(err, 'orderId', sent.orderId)) ??
    state.errors.find(
      (err) =>
        ORDER_REJECTIONS.has(err.errorType) &&
        !(err.errorReferences ?? []).some((r) => r.referenceKey === 'orderId') &&
        !(before?.errors ?? []).some((b) => sameError(b, err)),
    );
  if (!refused) return sent;
  return {
    ...sent,
    status: 'rejected',
    error: { type: refused.errorType, description: refused.errorDescription ?? null },
  };
}

/** The robot spoke: last communication now, in this protocol version; it reports again. */
function heard(e: RobotEntry, version: string, now: number): void {
  e.lastSeen = now;
  e.everSeen = true;
  e.notReporting = false;
  e.protocolVersion = version;
}

/** A robot that was "not reporting" and spoke again: the live state changes. */
function reportsAgain(before: Readonly<RobotEntry>, e: RobotEntry, events: LinkEvent[]): void {
  if (!before.notReporting || e.notReporting) return;
  const ev = liveChange(e);
  if (ev) events.push(ev);
}

/** A shallow copy: the message fields are replaced, never changed in place. */
const copyOf = (e: Readonly<RobotEntry>): RobotEntry => ({ ...e });

function parseJson(payload: Buffer): { ok: true; json: unknown } | { ok: false } {
  try {
    return { ok: true, json: JSON.parse(payload.toString('utf8')) };
  } catch {
    return { ok: false };
  }
}

/** A standard VDA 5050 message (`topic` the last topic level) of the robot, received at `now` (epoch ms). */
export function takeVdaMessage(current: Readonly<RobotEntry>, topic: VdaTopic, payload: Buffer, now: number): Intake {
  const json = parseJson(payload);
  if (!json.ok) return { ok: false, reason: 'notJson', issues: [] };
  const parsed = vdaSchemas[topic].safeParse(json.json);
  if (!parsed.success) return { ok: false, reason: 'invalid', issues: parsed.error.issues };
  const head = parsed.data as { version: string; manufacturer: string; serialNumber: string };
  // A message on robot A's topic that names robot B in its header is not A's: dropped like a malformed one.
  if (head.manufacturer !== current.manufacturer || head.serialNumber !== current.serialNo)
    return {
      ok: false,
      reason: 'invalid',
      issues: [
        {
          code: 'custom',
          path: [head.serialNumber !== current.serialNo ? 'serialNumber' : 'manufacturer'],
          message: `header names ${head.manufacturer}/${head.serialNumber}, not the topic's robot`,
          input: head.serialNumber !== current.serialNo ? head.serialNumber : head.manufacturer,
        },
      ],
    };
  const version = head.version;
  const e = copyOf(current);
  const events: LinkEvent[] = [];
  const live = (force = false) => {
    const ev = liveChange(e, force);
    if (ev) events.push(ev);
  };
  let dirty = false;
  switch (topic) {
    case 'state': {
      const state = parsed.data as VdaState;
      heard(e, version, now);
      dirty = true;
      e.online = true;
      e.sentOrder = trackOrder(e.sentOrder, state, e.state);
      e.state = state;
      e.teleop = parseTeleopInfo(state.information);
      if (state.agvPosition) e.position = positionOf(state.agvPosition);
      live();
      if (state.agvPosition) events.push(...poseOf(e, state.timestamp));
      break;
    }
    case 'visualization': {
      const vis = parsed.data as VdaVisualization;
      heard(e, version, now);
      dirty = true;
      if (!e.online) {
        e.online = true;
        live();
      }
      if (vis.agvPosition) {
        const before = e.position?.floorId;
        e.position = positionOf(vis.agvPosition);
        if (before !== e.position.floorId) live();
        events.push(...poseOf(e, vis.timestamp));
      }
      break;
    }
    case 'connection': {
      const c = parsed.data as VdaConnection;
      // Before the live event, so a listener knows how the robot went offline (activity log).
      events.push({ type: 'connection', event: { ...refOf(e), state: c.connectionState, timestamp: c.timestamp } });
      // A retained ONLINE from long ago says nothing: only fresh news of the link counts.
      if (c.connectionState === 'ONLINE') {
        heard(e, version, now);
        e.online = true;
      } else {
        e.online = false;
      }
      dirty = true;
      live();
      break;
    }
    case 'factsheet':
      heard(e, version, now);
      dirty = true;
      e.factsheet = parsed.data as VdaFactsheet;
      break;
    default:
      break;
  }
  reportsAgain(current, e, events);
  return { ok: true, entry: e, events, dirty };
}

/** A custom topic's JSON message of the robot (checked by its schema), received at `now`. */
export function takeCustomMessage(
  current: Readonly<RobotEntry>,
  topic: CustomTopic,
  payload: Buffer,
  now: number,
): Intake {
  const json = parseJson(payload);
  const e = copyOf(current);
  switch (topic) {
    case 'mapping': {
      const parsed = mappingWithCells.safeParse(json.ok ? json.json : undefined);
      if (!parsed.success) return { ok: false, reason: 'invalid', issues: parsed.error.issues };
      heard(e, parsed.data.version, now);
      const events: LinkEvent[] = [{ type: 'mapping', event: { ...refOf(e), message: parsed.data } }];
      reportsAgain(current, e, events);
      return { ok: true, entry: e, events, dirty: true };
    }
    case 'teleopReply': {
      const parsed = teleopReplyMessageSchema.safeParse(json.ok ? json.json : undefined);
      if (!parsed.success) return { ok: false, reason: 'invalid', issues: parsed.error.issues };
      e.lastSeen = now;
      e.notReporting = false;
      const events: LinkEvent[] = [{ type: 'teleopReply', event: { ...refOf(e), message: parsed.data } }];
      reportsAgain(current, e, events);
      return { ok: true, entry: e, events, dirty: false };
    }
    case 'photo': {
      const parsed = robotPhotoMessageSchema.safeParse(json.ok ? json.json : undefined);
      if (!parsed.success) return { ok: false, reason: 'invalid', issues: parsed.error.issues };
      e.lastSeen = now;
      e.notReporting = false;
      const events: LinkEvent[] = [{ type: 'photo', event: { ...refOf(e), message: parsed.data } }];
      reportsAgain(current, e, events);
      return { ok: true, entry: e, events, dirty: false };
    }
  }
}

/**
 * The robot's state interval (ms): its factsheet's `protocolLimits.timing.defaultStateInterval`
 * (seconds), else `fallbackS`: the configured ROBOT_STATE_INTERVAL_S, by default
 * ROBOT_DEFAULT_STATE_INTERVAL_S (VDA 5050's 30 s).
 */
export function stateIntervalMs(e: Pick<RobotEntry, 'factsheet'>, fallbackS = ROBOT_DEFAULT_STATE_INTERVAL_S): number {
  const timing = (e.factsheet?.protocolLimits as { timing?: { defaultStateInterval?: unknown } } | undefined)?.timing;
  const s = timing?.defaultStateInterval;
  return (typeof s === 'number' && Number.isFinite(s) && s > 0 ? s : fallbackS) * 1000;
}

/**
 * An online robot silent for longer than ROBOT_NOT_REPORTING_INTERVALS of its state intervals at
 * `now` is marked "not reporting"; it stays online (online comes from its broker session and its
 * `connection` topic). null when nothing changes.
 */
export function silenceCheck(
  current: Readonly<RobotEntry>,
  now: number,
  fallbackIntervalS = ROBOT_DEFAULT_STATE_INTERVAL_S,
): Extract<Intake, { ok: true }> | null {
  if (!current.online || current.notReporting) return null;
  if (now - current.lastSeen <= ROBOT_NOT_REPORTING_INTERVALS * stateIntervalMs(current, fallbackIntervalS))
    return null;
  const e = copyOf(current);
  e.notReporting = true;
  const ev = liveChange(e);
  return { ok: true, entry: e, events: ev ? [ev] : [], dirty: false };
}

/** The robot's broker sessions all ended (the embedded broker says so): offline at once. */
export function sessionEnded(current: Readonly<RobotEntry>): Extract<Intake, { ok: true }> | null {
  if (!current.online) return null;
  const e = copyOf(current);
  e.online = false;
  e.notReporting = false;
  const ev = liveChange(e);
  const ended: LinkEvent = { type: 'connection', event: { ...refOf(e), state: 'SESSION_ENDED', timestamp: null } };
  return { ok: true, entry: e, events: ev ? [ended, ev] : [ended], dirty: true };
}
