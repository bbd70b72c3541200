import { z } from 'zod';
import { robotTeleopInfoSchema } from './teleop-info.ts';

/**
 * Robots: the registry (spec sections 3 and 5), the live fleet state (section 4) and the robot
 * messages (section 8). Validation messages are i18n keys under `validation.*`.
 */
const id = z.number().int();

// ---------------------------------------------------------------- codes

/**
 * The models the portal knows by name (ugo Pro, ugo mini, ugo Ex): shown with a localized label and
 * offered first. The model list is open (spec section 1: "Pro, mini, Ex and others"): a third-party
 * robot registers with its own model name, and what it can do comes from its factsheet, not its model.
 */
export const ROBOT_MODELS = ['pro', 'mini', 'ex'] as const;
export type KnownRobotModel = (typeof ROBOT_MODELS)[number];
export const isKnownRobotModel = (v: string | null | undefined): v is KnownRobotModel =>
  (ROBOT_MODELS as readonly (string | null | undefined)[]).includes(v);
/** A robot model: a known one or the maker's own model name (1 to 32 characters). */
export const ROBOT_MODEL_MAX = 32;
export type RobotModel = string;

/** Registered status codes: 0 unavailable, 1 available, 2 under maintenance, 9 in repair shop. */
export const RobotStatusCode = { unavailable: 0, available: 1, maintenance: 2, repairShop: 9 } as const;
export const robotStatusCodeSchema = z.union([z.literal(0), z.literal(1), z.literal(2), z.literal(9)], {
  error: 'validation.required',
});
export type RobotStatusCodeValue = z.infer<typeof robotStatusCodeSchema>;

/** Status labels shown to users: the registered code combined with the link (see robotStatusLabel). */
export const ROBOT_STATUS_LABELS = [
  'available',
  'unavailable',
  'maintenance',
  'repair',
  'repairShop',
  'offline',
  'unknown',
] as const;
export type RobotStatusLabel = (typeof ROBOT_STATUS_LABELS)[number];

/** Battery states of spec section 4. */
export const BATTERY_STATES = [
  'active',
  'charging',
  'fullyCharged',
  'protect',
  'bmError',
  'error',
  'lowVoltage',
] as const;
export type BatteryStateLabel = (typeof BATTERY_STATES)[number];

/** Low charge threshold (spec section 9): below it the robot reports "low battery". */
export const LOW_BATTERY_PERCENT = 20;

/** Video settings of spec section 9. */
export const VIDEO_MODES = ['high', 'highest', 'medium', 'low'] as const;
export const videoModeSchema = z.enum(VIDEO_MODES, { error: 'validation.required' });
export type VideoMode = z.infer<typeof videoModeSchema>;
export const VIDEO_MODE_SPECS: Record<VideoMode, { resolution: string; fps: number; kbps: number }> = {
  high: { resolution: '1920x1080', fps: 10, kbps: 2000 },
  highest: { resolution: '1920x1080', fps: 12, kbps: 4000 },
  medium: { resolution: '1280x720', fps: 8, kbps: 1000 },
  low: { resolution: '1280x720', fps: 8, kbps: 400 },
};

/**
 * Robot messages (spec section 8) and flow codes a robot reports in `state.errors[].errorType`.
 * Anything else is shown with its raw type and description.
 */
export const ROBOT_MESSAGE_CODES = [
  'emergencyStop',
  'hardwareError',
  'lowBattery',
  'motorTemperatureHigh',
  'F0001',
  'F0002',
  'F0003',
  'F0004',
  'F0005',
  'F0006',
  'F0007',
  'D0001',
] as const;
export type RobotMessageCode = (typeof ROBOT_MESSAGE_CODES)[number];
export const isRobotMessageCode = (v: string): v is RobotMessageCode =>
  (ROBOT_MESSAGE_CODES as readonly string[]).includes(v);

/**
 * The state interval of a robot whose factsheet announces none (`protocolLimits.timing.defaultStateInterval`,
 * seconds): VDA 5050 asks for a state at least every 30 s.
 */
export const ROBOT_DEFAULT_STATE_INTERVAL_S = 30;
/**
 * A robot silent (no message on any topic) for more than this many of its state intervals is shown
 * "not reporting". It stays online: online comes from its broker session and its `connection` topic.
 */
export const ROBOT_NOT_REPORTING_INTERVALS = 2;

/** VDA 5050 mapId of a floor: robots report their position on `floor-{floorId}`. */
export const floorMapId = (floorId: number): string => `floor-${floorId}`;
export const floorIdOfMap = (mapId: string): number | null => {
  const m = /^floor-(\d+)$/.exec(mapId);
  return m ? Number(m[1]) : null;
};

// ---------------------------------------------------------------- registry

const requiredText = (max: number) =>
  z
    .string({ error: 'validation.required' })
    .trim()
    .min(1, { error: 'validation.required', abort: true })
    .max(max, `validation.max${max}`);
/** A field of the wrong type: missing is `required`, anything else `invalid`. */
const typeError = (missing = 'validation.required') => ({
  error: (iss: { input?: unknown }) => (iss.input === undefined ? missing : 'validation.invalid'),
});
const optText = (max: number) => z.string(typeError()).trim().max(max, `validation.max${max}`);
/** A database id of the robot input: a whole number. */
const inputId = () => z.number(typeError()).int('validation.integer');

/** Serial numbers become MQTT topic levels: letters, digits, '-', '_' and '.' only. */
export const SERIAL_PATTERN = /^[A-Za-z0-9._-]+$/;
export const robotSerialSchema = requiredText(24).refine((v) => SERIAL_PATTERN.test(v), 'validation.serial');
export const robotModelSchema = requiredText(ROBOT_MODEL_MAX);

/** Every message is a `validation.*` key (docs/api-robots.md), type errors included. */
export const robotInputSchema = z.object(
  {
    serialNo: robotSerialSchema,
    name: requiredText(40),
    model: robotModelSchema,
    version: optText(32),
    /** Hardware revision: digits only, at most 3 ('' when unknown). */
    hardwareRevision: z
      .string({ error: 'validation.hardwareRevision' })
      .trim()
      .refine((v) => v === '' || /^\d{1,3}$/.test(v), 'validation.hardwareRevision'),
    buildingId: inputId(),
    floorId: inputId(),
    groupId: inputId().nullable(),
    status: robotStatusCodeSchema,
    longTermRecordingAutoStart: z.boolean(typeError()),
    videoMode: videoModeSchema,
    notes: optText(1000),
  },
  typeError('validation.invalid'),
);
export type RobotInput = z.infer<typeof robotInputSchema>;

/** The manufacturer topic level of robots registered without one (the ugo models). */
export const DEFAULT_ROBOT_MANUFACTURER = 'ugo';
/**
 * The robot's own VDA 5050 `manufacturer` (a topic level, like the serial: letters, digits, `.`, `_`,
 * `-`; at most 40). Set at registration only: it names the robot's topics and client id.
 */
export const robotManufacturerSchema = requiredText(40).refine(
  (v) => SERIAL_PATTERN.test(v),
  'validation.manufacturer',
);
/** Registration: the robot input and, optionally, its manufacturer (default `ugo`). */
export const createRobotBodySchema = robotInputSchema.extend({
  manufacturer: robotManufacturerSchema.default(DEFAULT_ROBOT_MANUFACTURER),
});
export type CreateRobotBody = z.infer<typeof createRobotBodySchema>;
export const updateRobotBodySchema = robotInputSchema.extend({
  updatedAt: z.string({ error: 'validation.required' }).min(1, 'validation.required').max(40, 'validation.tooLong'),
});
export type UpdateRobotBody = z.infer<typeof updateRobotBodySchema>;

export const robotSchema = z.object({
  id,
  serialNo: z.string(),
  name: z.string(),
  model: z.string(),
  version: z.string(),
  hardwareRevision: z.string(),
  organizationId: id,
  buildingId: id,
  buildingName: z.string(),
  floorId: id,
  floorName: z.string(),
  groupId: id.nullable(),
  groupName: z.string().nullable(),
  status: robotStatusCodeSchema,
  longTermRecordingAutoStart: z.boolean(),
  videoMode: videoModeSchema,
  notes: z.string(),
  /** The MQTT user name the robot signs in with (its password is shown once, at issue). */
  mqttUsername: z.string(),
  manufacturer: z.string(),
  lastCommunicationAt: z.string().nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type Robot = z.infer<typeof robotSchema>;

/** Broker credentials, answered once at registration and at rotation; never readable again. */
export const robotCredentialsSchema = z.object({
  mqttUrl: z.string(),
  username: z.string(),
  password: z.string(),
  manufacturer: z.string(),
  serialNumber: z.string(),
  interfaceName: z.string(),
});
export type RobotCredentials = z.infer<typeof robotCredentialsSchema>;
export const createdRobotSchema = z.object({ robot: robotSchema, credentials: robotCredentialsSchema });
export type CreatedRobot = z.infer<typeof createdRobotSchema>;

export const robotSettingChangeSchema = z.object({
  id,
  robotId: id,
  field: z.string(),
  oldValue: z.string().nullable(),
  newValue: z.string().nullable(),
  operatorId: id.nullable(),
  operatorName: z.string().nullable(),
  changedAt: z.string(),
});
export type RobotSettingChange = z.infer<typeof robotSettingChangeSchema>;

/** A robot that tried to connect with credentials the portal does not know (system admins see them). */
export const pendingRobotSchema = z.object({
  id,
  clientId: z.string(),
  username: z.string(),
  ip: z.string(),
  attempts: z.number().int(),
  firstSeenAt: z.string(),
  lastSeenAt: z.string(),
});
export type PendingRobot = z.infer<typeof pendingRobotSchema>;

// ---------------------------------------------------------------- live state

export const robotPositionSchema = z.object({
  x: z.number(),
  y: z.number(),
  theta: z.number(),
  mapId: z.string(),
  floorId: id.nullable(),
});
export type RobotPosition = z.infer<typeof robotPositionSchema>;

/**
 * `driving`: on an order (moving, or between two edges); `waiting`: holds an unfinished order but
 * stands still for a reason (an obstacle or another flow code, a protective field, the end of its
 * released route); `idle`: no unfinished order.
 */
export const ROBOT_ACTIVITIES = ['idle', 'driving', 'waiting', 'paused', 'charging', 'emergencyStop', 'error'] as const;
export type RobotActivity = (typeof ROBOT_ACTIVITIES)[number];

export const robotIssueSchema = z.object({
  /** A RobotMessageCode, or the robot's own errorType. */
  code: z.string(),
  level: z.enum(['WARNING', 'FATAL']),
  description: z.string().nullable(),
});
export type RobotIssue = z.infer<typeof robotIssueSchema>;

/**
 * What the running order is, for orders the portal sent (goto a waypoint, a route's trial run, the
 * demo fleet's patrol or its way home to charge): shown instead of the order's id. `name` is the
 * waypoint's or route's name. Orders the portal does not know (the robot's own) have none.
 */
export const ORDER_KINDS = ['goto', 'trialRun', 'patrol', 'charge'] as const;
export const orderLabelSchema = z.object({ kind: z.enum(ORDER_KINDS), name: z.string().nullable() });
export type OrderLabel = z.infer<typeof orderLabelSchema>;

/**
 * What became of the last order the portal sent a robot: `sent` (no answer yet), `accepted` (the
 * robot's state names it and it is unfinished), `rejected` (the robot reported an error about it:
 * `error` says which), `finished` (done, or cancelled).
 */
export const ORDER_RESULTS = ['sent', 'accepted', 'rejected', 'finished'] as const;
export type OrderResultStatus = (typeof ORDER_RESULTS)[number];
export const sentOrderSchema = z.object({
  orderId: z.string(),
  label: orderLabelSchema.nullable(),
  status: z.enum(ORDER_RESULTS),
  /** The robot's error when it refused the order: its errorType (e.g. noRouteError) and description. */
  error: z.object({ type: z.string(), description: z.string().nullable() }).nullable(),
  sentAt: z.string(),
});
export type SentOrder = z.infer<typeof sentOrderSchema>;

/** What the fleet views show of a robot, kept live by the server (WebSocket deltas). */
export const robotLiveSchema = z.object({
  robotId: id,
  online: z.boolean(),
  /** Has the robot ever spoken to this portal? */
  everSeen: z.boolean(),
  statusLabel: z.enum(ROBOT_STATUS_LABELS),
  battery: z.number().nullable(),
  batteryState: z.enum(BATTERY_STATES).nullable(),
  activity: z.enum(ROBOT_ACTIVITIES).nullable(),
  orderId: z.string().nullable(),
  /** What the running order is when the portal sent it (null: the robot's own, or no order). */
  orderLabel: orderLabelSchema.nullable().optional(),
  /** The last order this server sent the robot and what became of it (absent: none since the server started). */
  lastOrder: sentOrderSchema.nullable().optional(),
  floorId: id.nullable(),
  position: robotPositionSchema.nullable(),
  issues: z.array(robotIssueSchema),
  lastCommunicationAt: z.string().nullable(),
  /**
   * Online, but silent for longer than ROBOT_NOT_REPORTING_INTERVALS state intervals (its factsheet's,
   * else ROBOT_DEFAULT_STATE_INTERVAL_S): what is shown may be old. Absent: reporting.
   */
  notReporting: z.boolean().optional(),
  protocolVersion: z.string().nullable(),
  /** Teleoperation facts the robot reports (recording, call, lights...); absent before its first state. */
  teleop: robotTeleopInfoSchema.nullable().optional(),
});
export type RobotLive = z.infer<typeof robotLiveSchema>;

/** A fleet member: registry row plus live state (GET /api/robots/fleet). */
export const fleetRobotSchema = z.object({
  id,
  serialNo: z.string(),
  name: z.string(),
  model: z.string(),
  organizationId: id,
  buildingId: id,
  buildingName: z.string(),
  groupId: id.nullable(),
  groupName: z.string().nullable(),
  status: robotStatusCodeSchema,
  live: robotLiveSchema,
});
export type FleetRobot = z.infer<typeof fleetRobotSchema>;

/** Robots needing attention: errors, emergency stop, low battery, offline. */
export function needsAttention(live: RobotLive): boolean {
  if (live.statusLabel === 'offline') return true;
  if (live.issues.length > 0) return true;
  return live.battery !== null && live.battery < LOW_BATTERY_PERCENT;
}

/**
 * The label users see: the registered code wins for maintenance and the repair shop; otherwise the
 * link decides (never seen: unknown; not connected: offline), then the robot's own errors.
 */
export function robotStatusLabel(
  status: RobotStatusCodeValue,
  link: { online: boolean; everSeen: boolean; issues: readonly RobotIssue[] },
): RobotStatusLabel {
  if (status === RobotStatusCode.repairShop) return 'repairShop';
  if (status === RobotStatusCode.maintenance) return 'maintenance';
  if (!link.everSeen) return 'unknown';
  if (!link.online) return 'offline';
  if (status === RobotStatusCode.unavailable) return 'unavailable';
  if (link.issues.some((i) => i.code === 'hardwareError' && i.level === 'FATAL')) return 'repair';
  if (link.issues.some((i) => i.level === 'FATAL')) return 'unavailable';
  return 'available';
}

/** Commands an operator can send to a robot now (more arrive with flows and teleoperation). */
export const ROBOT_COMMANDS = ['pause', 'resume', 'cancel'] as const;
export const robotCommandBodySchema = z.object({ command: z.enum(ROBOT_COMMANDS) });
export type RobotCommand = (typeof ROBOT_COMMANDS)[number];
