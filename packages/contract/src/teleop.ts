import { z } from 'zod';
import { voiceLanguageSchema } from './admin.ts';
import { videoModeSchema } from './robots.ts';
import { robotTeleopInfoSchema } from './teleop-info.ts';

export * from './teleop-info.ts';

/**
 * Teleoperation (docs/architecture-decisions.md "Teleoperation", docs/teleoperation.md): video, audio and control
 * go peer to peer over WebRTC between the browser and the robot. The server relays signalling
 * (browser WebSocket <-> MQTT topics `teleop` / `teleopReply`) after checking that the operator may
 * reach the robot, and keeps the one-controller lock. Robot features (speech, recording, photo,
 * gimbal, lights...) are VDA 5050 instant actions sent through the REST API.
 */

const id = z.number().int();

// ---------------------------------------------------------------- constants (spec section 9)

/** Camera ids of spec section 9. */
export const CAMERA_IDS = ['v1', 'v2', 'v3', 's1', 'g1', 'thermal'] as const;
export const cameraIdSchema = z.enum(CAMERA_IDS);
export type CameraId = z.infer<typeof cameraIdSchema>;

/** Thermal camera colour maps of spec section 9. */
export const THERMAL_COLOR_MAPS = ['normal', 'mono', 'ir'] as const;
export const thermalColorMapSchema = z.enum(THERMAL_COLOR_MAPS);
export type ThermalColorMap = z.infer<typeof thermalColorMapSchema>;

/** Upload quality of long-term recordings: low 360p (s), high 720p (l). */
export const UPLOAD_QUALITIES = ['low', 'high'] as const;
export const uploadQualitySchema = z.enum(UPLOAD_QUALITIES);
export type UploadQuality = z.infer<typeof uploadQualitySchema>;

/** Remote voice languages of spec section 9 (text to speech, `auto` detects the text's language). */
export const VOICE_LANGUAGES = voiceLanguageSchema.options;
export type VoiceLanguage = z.infer<typeof voiceLanguageSchema>;

/** Drive speeds: `slow` scales the robot's maximum speeds by SLOW_SPEED_FACTOR. */
export const DRIVE_SPEEDS = ['normal', 'slow'] as const;
export const driveSpeedSchema = z.enum(DRIVE_SPEEDS);
export type DriveSpeed = z.infer<typeof driveSpeedSchema>;
export const SLOW_SPEED_FACTOR = 0.3;

/** Tele-operation states of spec section 4 (what the operator screen shows). */
export const TELEOP_STATES = ['connecting', 'running', 'stopped', 'paused', 'charging'] as const;
export type TeleopState = (typeof TELEOP_STATES)[number];

/** Thermal presets per robot: the same name overwrites; beyond this many the oldest is deleted. */
export const THERMAL_PRESET_LIMIT = 5;
/** OS update needs at least this much battery (spec section 9). */
export const OS_UPDATE_MIN_BATTERY = 20;

/** Control messages per second on the control channel while a controller is connected. */
export const CONTROL_RATE_HZ = 20;
export const CONTROL_INTERVAL_MS = 1000 / CONTROL_RATE_HZ;
/** The robot stops when no control message arrived for this long (dead-man). */
export const DEADMAN_MS = 500;

/** WebRTC data channel labels. */
export const CONTROL_CHANNEL = 'control'; // unordered, maxRetransmits 0: control input
export const COMMAND_CHANNEL = 'command'; // reliable, ordered: camera and video settings, robot status

// ---------------------------------------------------------------- data channels

/**
 * One control input (browser -> robot on CONTROL_CHANNEL, JSON), sent every CONTROL_INTERVAL_MS
 * while the controller is connected (also when idle: zeros). `vx` and `wz` are -1..1 of the robot's
 * maximum linear and angular speed; `t` is the sender's epoch time in ms (fractional) for latency.
 * `stop: true` (Space) stops at once and holds until an input with stop false and non-zero axes.
 */
export const controlInputSchema = z.object({
  seq: z.number().int().nonnegative(),
  t: z.number(),
  vx: z.number().min(-1).max(1),
  wz: z.number().min(-1).max(1),
  speed: driveSpeedSchema,
  stop: z.boolean().optional(),
});
export type ControlInput = z.infer<typeof controlInputSchema>;

/** Browser -> robot on COMMAND_CHANNEL. */
export const teleopCommandSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('camera'), camera: cameraIdSchema }),
  z.object({ type: z.literal('video'), mode: videoModeSchema }),
  z.object({ type: z.literal('thermalColorMap'), colorMap: thermalColorMapSchema }),
]);
export type TeleopCommand = z.infer<typeof teleopCommandSchema>;

/** Robot -> browser on COMMAND_CHANNEL: sent on open and on every change. */
export const teleopPeerStatusSchema = z.object({
  type: z.literal('status'),
  camera: cameraIdSchema,
  cameras: z.array(cameraIdSchema),
  video: videoModeSchema,
  thermalColorMap: thermalColorMapSchema,
  /** This peer's inputs drive the robot. */
  controller: z.boolean(),
  /** The robot stopped because control input stopped (dead-man) and has not been driven since. */
  deadmanStopped: z.boolean(),
  /** Driving is blocked: e-stop, obstacle in the way (F0004/F0005), paused, battery empty. */
  blocked: z.string().nullable(),
});
export type TeleopPeerStatus = z.infer<typeof teleopPeerStatusSchema>;

// ---------------------------------------------------------------- signalling

export const iceServerSchema = z.object({
  urls: z.union([z.string(), z.array(z.string())]),
  username: z.string().optional(),
  credential: z.string().optional(),
});
export type IceServer = z.infer<typeof iceServerSchema>;

const sdp = z.string().min(1).max(60_000);
const candidate = z.object({
  candidate: z.string().max(1000),
  sdpMid: z.string().max(64).nullable().optional(),
  sdpMLineIndex: z.number().int().min(0).max(64).nullable().optional(),
});

/** Browser -> robot signalling (through the server). */
export const browserSignalSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('offer'), sdp }),
  z.object({ kind: z.literal('candidate'), candidate }),
]);
export type BrowserSignal = z.infer<typeof browserSignalSchema>;
/** Robot -> browser signalling (through the server). */
export const robotSignalSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('answer'), sdp }),
  z.object({ kind: z.literal('candidate'), candidate }),
]);
export type RobotSignal = z.infer<typeof robotSignalSchema>;

export const TELEOP_ROLES = ['controller', 'viewer'] as const;
export type TeleopRole = (typeof TELEOP_ROLES)[number];
export const teleopOperatorSchema = z.object({ operatorId: id, name: z.string() });
export type TeleopOperator = z.infer<typeof teleopOperatorSchema>;

/** MQTT topic suffixes (`uagv/v2/{manufacturer}/{serialNumber}/{suffix}`): portal -> robot. */
export const TELEOP_TOPIC = 'teleop';
/** Robot -> portal. */
export const TELEOP_REPLY_TOPIC = 'teleopReply';

/** Portal -> robot on TELEOP_TOPIC (JSON). */
export const teleopRobotMessageSchema = z.discriminatedUnion('kind', [
  z.object({
    kind: z.literal('offer'),
    sessionId: z.string(),
    sdp,
    role: z.enum(TELEOP_ROLES),
    operator: teleopOperatorSchema,
    iceServers: z.array(iceServerSchema),
    /** The robot's registered video setting: the session starts with it (resolution, fps, bitrate). */
    video: videoModeSchema.optional(),
  }),
  z.object({ kind: z.literal('candidate'), sessionId: z.string(), candidate }),
  /** The session's role changed (takeover, release, grant): a demoted peer's input is ignored. */
  z.object({ kind: z.literal('role'), sessionId: z.string(), role: z.enum(TELEOP_ROLES) }),
  /** The browser left (tab closed, socket lost): close the peer; a controller's robot stops. */
  z.object({ kind: z.literal('close'), sessionId: z.string() }),
]);
export type TeleopRobotMessage = z.infer<typeof teleopRobotMessageSchema>;

/** Robot -> portal on TELEOP_REPLY_TOPIC (JSON). */
export const teleopReplyMessageSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('answer'), sessionId: z.string(), sdp }),
  z.object({ kind: z.literal('candidate'), sessionId: z.string(), candidate }),
  /** The robot closed the peer (or could not open it: reason). */
  z.object({ kind: z.literal('closed'), sessionId: z.string(), reason: z.string().max(500) }),
]);
export type TeleopReplyMessage = z.infer<typeof teleopReplyMessageSchema>;

/** Why a teleop session ended (server -> browser `teleop.closed`). */
export const TELEOP_CLOSE_REASONS = ['left', 'robotOffline', 'robotClosed', 'accessLost', 'robotDeleted'] as const;
export type TeleopCloseReason = (typeof TELEOP_CLOSE_REASONS)[number];

/** Browser -> server WebSocket messages (added to wsClientMessageSchema). */
export const teleopClientMessageSchemas = [
  /** Open a session: `control` asks for the controls (granted when free), `watch` only watches. */
  z.object({ type: z.literal('teleop.join'), robotId: id, want: z.enum(['control', 'watch']) }),
  z.object({ type: z.literal('teleop.signal'), sessionId: z.string().max(64), signal: browserSignalSchema }),
  /** Ask for the controls when nobody has them. */
  z.object({ type: z.literal('teleop.request'), sessionId: z.string().max(64) }),
  /** Administrators: take the controls from the current controller (who is told). */
  z.object({ type: z.literal('teleop.takeover'), sessionId: z.string().max(64) }),
  /** Give the controls up (stay watching). */
  z.object({ type: z.literal('teleop.release'), sessionId: z.string().max(64) }),
  z.object({ type: z.literal('teleop.leave'), sessionId: z.string().max(64) }),
] as const;

/** Server -> browser WebSocket messages (added to wsServerMessageSchema). */
export const teleopServerMessageSchemas = [
  z.object({
    type: z.literal('teleop.joined'),
    robotId: id,
    sessionId: z.string(),
    role: z.enum(TELEOP_ROLES),
    controller: teleopOperatorSchema.nullable(),
    iceServers: z.array(iceServerSchema),
  }),
  z.object({ type: z.literal('teleop.signal'), sessionId: z.string(), signal: robotSignalSchema }),
  /**
   * The controls changed hands (sent to every session of the robot). `reason`: `takenOver` tells the
   * previous controller an administrator took over (`by`); `released`, `granted`, `left` explain others.
   */
  z.object({
    type: z.literal('teleop.controller'),
    robotId: id,
    sessionId: z.string(),
    role: z.enum(TELEOP_ROLES),
    controller: teleopOperatorSchema.nullable(),
    reason: z.enum(['takenOver', 'released', 'granted', 'left']),
    by: teleopOperatorSchema.nullable(),
  }),
  z.object({ type: z.literal('teleop.closed'), sessionId: z.string(), reason: z.enum(TELEOP_CLOSE_REASONS) }),
  /** A teleop request was refused (robotId or sessionId say which). */
  z.object({
    type: z.literal('teleop.error'),
    robotId: id.optional(),
    sessionId: z.string().optional(),
    code: z.string(),
    message: z.string(),
  }),
] as const;

// ---------------------------------------------------------------- robot features (REST)

/** What a robot can do (from its factsheet): the operator screen hides what it cannot. */
export const robotCapabilitiesSchema = z.object({
  cameras: z.array(cameraIdSchema),
  actions: z.array(z.string()),
  gimbal: z.boolean(),
  periscope: z.object({ min: z.number(), max: z.number() }).nullable(),
  ringLight: z.boolean(),
  patrolLamp: z.boolean(),
  thermal: z.boolean(),
  recording: z.boolean(),
  photo: z.boolean(),
  speech: z.boolean(),
  callService: z.boolean(),
  osUpdate: z.boolean(),
  workPlan: z.boolean(),
});
export type RobotCapabilities = z.infer<typeof robotCapabilitiesSchema>;

/** GET /robots/:id/teleop: what the operator screen needs besides the live fleet state. */
export const robotTeleopSchema = z.object({
  robotId: id,
  serialNo: z.string(),
  name: z.string(),
  buildingId: id,
  capabilities: robotCapabilitiesSchema,
  info: robotTeleopInfoSchema,
  controller: teleopOperatorSchema.nullable(),
});
export type RobotTeleop = z.infer<typeof robotTeleopSchema>;

const thermalRange = {
  /** °C */
  rangeMin: z.number().min(-40).max(500),
  rangeMax: z.number().min(-40).max(500),
};

/**
 * POST /robots/:id/actions: one robot feature. The server checks access, the capability (factsheet)
 * and the rules (recording notices, OS update battery), then sends a VDA 5050 instant action of the
 * same type (parameters as strings).
 */
export const robotActionSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('speak'), text: z.string().trim().min(1).max(500), language: voiceLanguageSchema }),
  z.object({ type: z.literal('startRecording') }),
  z.object({ type: z.literal('stopRecording') }),
  z.object({ type: z.literal('takePhoto'), camera: cameraIdSchema }),
  z.object({ type: z.literal('gimbalJog'), pan: z.number().min(-45).max(45), tilt: z.number().min(-45).max(45) }),
  z.object({ type: z.literal('setPeriscopeHeight'), height: z.number().min(0).max(3) }),
  z.object({ type: z.literal('setRingLight'), on: z.boolean() }),
  z.object({ type: z.literal('setPatrolLamp'), on: z.boolean() }),
  z.object({ type: z.literal('setThermal'), colorMap: thermalColorMapSchema, ...thermalRange }),
  z.object({ type: z.literal('answerCall') }),
  z.object({ type: z.literal('endCall') }),
  z
    .object({
      type: z.literal('setAudio'),
      speakerVolume: z.number().int().min(0).max(100),
      micGain: z.number().int().min(0).max(100),
    })
    .strict(),
]);
export type RobotAction = z.infer<typeof robotActionSchema>;
export type RobotActionType = RobotAction['type'];
export const ROBOT_ACTION_TYPES = robotActionSchema.options.map((o) => o.shape.type.value);
/** 202 answer of POST /robots/:id/actions. */
export const robotActionResultSchema = z.object({ actionId: z.string() });

/** Console instant actions (administrators): the VDA 5050 standard set. */
export const CONSOLE_ACTIONS = ['startPause', 'stopPause', 'cancelOrder', 'stateRequest', 'factsheetRequest'] as const;
export const consoleActionBodySchema = z.object({ action: z.enum(CONSOLE_ACTIONS) });
export type ConsoleAction = (typeof CONSOLE_ACTIONS)[number];

/** Custom instant action types (docs/robot-protocol.md section 7). */
export const OS_UPDATE_ACTION = 'osUpdate';

/** GET /robots/:id/console: the robot as it reports itself. */
export const robotConsoleSchema = z.object({
  robotId: id,
  serialNo: z.string(),
  online: z.boolean(),
  protocolVersion: z.string().nullable(),
  /** The last state message, as received (null before the first). */
  state: z.record(z.string(), z.unknown()).nullable(),
  /** The last factsheet, as received. */
  factsheet: z.record(z.string(), z.unknown()).nullable(),
  info: robotTeleopInfoSchema,
  battery: z.number().nullable(),
});
export type RobotConsole = z.infer<typeof robotConsoleSchema>;

/** One message of a robot's log (kept in memory, newest last). */
export const robotLogEntrySchema = z.object({
  seq: z.number().int(),
  at: z.string(),
  direction: z.enum(['in', 'out']),
  topic: z.string(),
  /** The payload, cut at ROBOT_LOG_PAYLOAD_MAX characters. */
  payload: z.string(),
  truncated: z.boolean(),
});
export type RobotLogEntry = z.infer<typeof robotLogEntrySchema>;
export const ROBOT_LOG_SIZE = 300;
export const ROBOT_LOG_PAYLOAD_MAX = 4000;
/** GET /robots/:id/console/log?after={seq}&topics=state,order... */
export const robotLogQuerySchema = z.object({
  after: z.coerce.number().int().min(0).optional(),
});
export const robotLogSchema = z.object({ entries: z.array(robotLogEntrySchema), lastSeq: z.number().int() });
export type RobotLog = z.infer<typeof robotLogSchema>;

// ---------------------------------------------------------------- photos and thermal presets

export const robotPhotoSchema = z.object({
  id,
  robotId: id,
  camera: cameraIdSchema,
  /** A signed address an <img> can load without the bearer header. */
  url: z.string(),
  width: z.number().int(),
  height: z.number().int(),
  takenAt: z.string(),
  operatorId: id.nullable(),
  operatorName: z.string().nullable(),
});
export type RobotPhoto = z.infer<typeof robotPhotoSchema>;

export const thermalPresetInputSchema = z
  .object({
    name: z
      .string({ error: 'validation.required' })
      .trim()
      .min(1, { error: 'validation.required', abort: true })
      .max(40, 'validation.max40'),
    colorMap: thermalColorMapSchema,
    ...thermalRange,
  })
  .refine((p) => p.rangeMin < p.rangeMax, { path: ['rangeMax'], error: 'validation.range' });
export type ThermalPresetInput = z.infer<typeof thermalPresetInputSchema>;
export const thermalPresetSchema = z.object({
  id,
  robotId: id,
  name: z.string(),
  colorMap: thermalColorMapSchema,
  rangeMin: z.number(),
  rangeMax: z.number(),
  updatedAt: z.string(),
});
export type ThermalPreset = z.infer<typeof thermalPresetSchema>;
/** Answer of POST /robots/:id/thermal-presets: the saved preset and the names deleted to stay at 5. */
export const thermalPresetSaveResultSchema = z.object({
  preset: thermalPresetSchema,
  overwritten: z.boolean(),
  deleted: z.array(z.string()),
});
export type ThermalPresetSaveResult = z.infer<typeof thermalPresetSaveResultSchema>;

// ---------------------------------------------------------------- robot -> portal photo upload

/** MQTT topic suffix: a photo taken by a takePhoto instant action (robot -> portal). */
export const PHOTO_TOPIC = 'photo';
/** Largest photo a robot may send over MQTT (decoded bytes). */
export const PHOTO_MAX_BYTES = 4 * 1024 * 1024;
/**
 * The camera name of a depth-camera still (the answer to a takeDepthImage action, apps/robot-sim/README.md
 * "Button panels and the arm"): not one of CAMERA_IDS, never stored among the robot's photos.
 */
export const DEPTH_CAMERA = 'depth';
export const robotPhotoMessageSchema = z.object({
  headerId: z.number().int(),
  timestamp: z.string(),
  version: z.string(),
  manufacturer: z.string(),
  serialNumber: z.string(),
  /** The takePhoto action this answers. */
  actionId: z.string().max(200),
  camera: z.union([cameraIdSchema, z.literal(DEPTH_CAMERA)]),
  contentType: z.enum(['image/png', 'image/jpeg']),
  width: z.number().int().positive().max(8192),
  height: z.number().int().positive().max(8192),
  /** base64 of the image */
  data: z.string().max(Math.ceil(PHOTO_MAX_BYTES / 3) * 4),
});
export type RobotPhotoMessage = z.infer<typeof robotPhotoMessageSchema>;
