import {
  CAMERA_IDS,
  FACE_EXPRESSIONS,
  PHOTO_RESOLUTIONS,
  OS_UPDATE_ACTION,
  OS_UPDATE_MIN_BATTERY,
  PHOTO_MAX_BYTES,
  RECORDING_ACTIVE_STATES,
  robotPhotoMessageSchema,
  THERMAL_COLOR_MAPS,
  UPLOAD_QUALITIES,
  VOICE_LANGUAGES,
  type ActionState,
  type CallState,
  type CameraId,
  type RecordingState,
  type KnownRobotModel,
  type RobotPhotoMessage,
  type RobotTeleopInfo,
  type ThermalColorMap,
  type VdaAction,
  type VoiceLanguage,
} from '@portal/contract';
import { MODEL_FEATURES, MODEL_SPECS, type FeatureSpec } from './models.ts';
import type { PhotoView } from './photo.ts';
import type { ButtonTarget } from './buttons.ts';
import { DEPTH_CAMERA, DEPTH_HEIGHT, DEPTH_WIDTH } from './depth.ts';

/** What the robot features need from the robot core. */
export interface FeatureHost {
  /** Exact battery level, percent. */
  battery(): number;
  /** Renders a still of a camera (PNG) for takePhoto, `width` pixels wide when given (else full size). */
  capture(camera: CameraId, width?: number): { png: Buffer; width: number; height: number };
  /** Renders the depth camera's still (depth.ts) for takeDepthImage. */
  captureDepth?(): { png: Buffer; width: number; height: number };
  /**
   * Where the arm would press for the depth image's pixel (u, v): the button there when it is within
   * the arm's reach, else why not (`no button there`, `out of reach`).
   */
  aimArm?(arm: 'right' | 'left', u: number, v: number): { target: ButtonTarget } | { miss: string };
  /** The arm pressed the button: it lights and the building responds. */
  pressButton?(target: ButtonTarget): void;
  /** Sends a photo message (JSON text) on the robot's `photo` topic. */
  publishPhoto(payload: string): void;
  /** Header fields for custom messages (headerId bumps per call). */
  header(): { headerId: number; timestamp: string; version: string; manufacturer: string; serialNumber: string };
  /** Simulated OS update: the link goes down now and comes back after `downMs` (real time). */
  restart(downMs: number): void;
  /** Something the state reports changed: publish a state message on the next tick. */
  changed(): void;
}

/** Where a custom action may be sent: as an instant action, and (flow actions) as a node action too. */
export type FeatureScope = 'INSTANT' | 'NODE';

/** A factsheet action entry. */
export interface FeatureAction {
  actionType: string;
  actionDescription: string;
  actionScopes: FeatureScope[];
  actionParameters: Array<{
    key: string;
    valueDataType: 'STRING' | 'NUMBER' | 'BOOL';
    description: string;
    isOptional: boolean;
  }>;
}

/** The renderer inputs that depend on the features (photo.ts PhotoView, video/render.ts CameraView). */
export type FeatureView = Pick<PhotoView, 'gimbal' | 'eyeHeight' | 'thermal'>;

// ---------------------------------------------------------------- timing and limits (simulated seconds)

/** Text to speech: seconds per character, and the shortest utterance. */
export const SPEECH_SECONDS_PER_CHAR = 0.08;
export const SPEECH_MIN_SECONDS = 1;
export const SPEECH_MAX_CHARS = 500;
/** Long-term recording: `preparing` lasts this long (a real robot takes about a minute). */
export const RECORDING_PREPARE_SECONDS = 3;
/** After stopRecording: `compressing`, then `saved`, then `uploading`, then `uploaded` (which stays). */
export const RECORDING_COMPRESS_SECONDS = 2;
export const RECORDING_SAVED_SECONDS = 1;
export const RECORDING_UPLOAD_SECONDS = 3;
/** An unanswered call (call button pressed) goes back to idle after this long. */
export const CALL_RING_SECONDS = 60;
/** osUpdate: download (the action RUNNING, `updating` true), then the restart. */
export const OS_UPDATE_DOWNLOAD_SECONDS = 3;
/** Push-to-talk audio keeps `speaking` true this long after its last loud frame. */
export const OPERATOR_TALK_HOLD_SECONDS = 0.4;
/** takePhoto: focus and capture take this long (RUNNING), then the photo goes out and it FINISHES. */
export const PHOTO_CAPTURE_SECONDS = 1;
/** takeDepthImage: the depth camera's still takes this long (RUNNING). */
export const DEPTH_CAPTURE_SECONDS = 0.3;
/** pressButton: the arm reaches out, presses and comes back in this long (RUNNING). */
export const ARM_PRESS_SECONDS = 2;
/** pressButton's resultDescription: `pressed {target}` on a hit, else one of these. */
export const PRESS_MISSES = { noButton: 'no button there', outOfReach: 'out of reach' } as const;
/** takePhoto's smallest `width`. */
export const PHOTO_MIN_WIDTH = 64;
/** playAudio: how long a (simulated) audio file plays. */
export const PLAY_AUDIO_SECONDS = 2;
/** detectPerson: a simulated person comes within range after a random time in this span (seconds). */
export const PERSON_DETECTION_SECONDS = { min: 1, max: 4 } as const;
/** setCamera zoom and setSafetyMargin limits. */
export const CAMERA_ZOOM_LIMIT = { min: 1, max: 30 } as const;
export const SAFETY_MARGIN_LIMIT = { min: 0.1, max: 2 } as const;
export const DEFAULT_SAFETY_MARGIN = 0.3;
export const FACE_TEXT_MAX_CHARS = 100;
export const AUDIO_NAME_MAX_CHARS = 200;
/** resultDescription of an action failed by `actionFailRate`. */
export const SIMULATED_FAILURE = 'simulated failure';
/** osUpdate: how long the link stays down while the robot restarts (real ms). */
export const OS_UPDATE_RESTART_MS = 5000;
/** OS version of a freshly started simulated robot; every update bumps the patch number. */
export const INITIAL_OS_VERSION = '2.4.0';
/** Gimbal limits, degrees (pan > 0 turns right, tilt > 0 looks up). */
export const GIMBAL_PAN_LIMIT = { min: -170, max: 170 } as const;
export const GIMBAL_TILT_LIMIT = { min: -30, max: 60 } as const;
/** Thermal camera range limits, °C (as the contract's thermal presets). */
export const THERMAL_LIMIT = { min: -40, max: 500 } as const;
const DEFAULT_THERMAL = { colorMap: 'normal' as ThermalColorMap, rangeMin: 15, rangeMax: 40 };
const DEFAULT_AUDIO = { speakerVolume: 50, micGain: 50 };
const NETWORK_INTERFACE = 'wlan0';

// ---------------------------------------------------------------- the custom instant actions

type Hardware = 'periscope' | 'gimbal' | 'ringLight' | 'patrolLamp' | 'thermal' | 'arm';

/** Flow actions: sent as instant actions or as node actions of an order (docs/robot-protocol.md section 6). */
const FLOW: FeatureScope[] = ['INSTANT', 'NODE'];
/** Operator-only actions: instant actions only. */
const INSTANT_ONLY: FeatureScope[] = ['INSTANT'];

/** Every custom action; `needs` names the hardware a model must have (features of every model have none). */
const ACTION_DEFS: ReadonlyArray<FeatureAction & { needs?: Hardware }> = [
  {
    actionType: 'speak',

    actionScopes: FLOW,
    actionDescription: 'Text to speech: RUNNING while speaking (queued WAITING behind a running one)',
    actionParameters: [
      {
        key: 'text',
        valueDataType: 'STRING',
        description: `What to say, 1..${SPEECH_MAX_CHARS} characters`,
        isOptional: false,
      },
      {
        key: 'language',
        valueDataType: 'STRING',
        description: `One of ${VOICE_LANGUAGES.join(', ')} (default auto: detected from the text)`,
        isOptional: true,
      },
    ],
  },
  {
    actionType: 'startRecording',

    actionScopes: FLOW,
    actionDescription:
      'Start a long-term recording: preparing, then started (FINISHED); FAILED recordingAlreadyStarted while one runs',
    actionParameters: [
      {
        key: 'quality',
        valueDataType: 'STRING',
        description: `Upload quality: ${UPLOAD_QUALITIES.join(', ')} (accepted; the simulator uploads nothing)`,
        isOptional: true,
      },
    ],
  },
  {
    actionType: 'stopRecording',

    actionScopes: FLOW,
    actionDescription:
      'Stop the long-term recording: compressing, saved (FINISHED), uploading, uploaded; FAILED recordingNotStarted without one',
    actionParameters: [],
  },
  {
    actionType: 'takePhoto',

    actionScopes: FLOW,
    actionDescription:
      'Take a still with a camera: RUNNING while capturing, then the image goes out on the photo topic with this actionId and the action FINISHES',
    actionParameters: [
      { key: 'camera', valueDataType: 'STRING', description: 'Camera id (factsheet `cameras`)', isOptional: false },
      {
        key: 'resolution',
        valueDataType: 'STRING',
        description: `${PHOTO_RESOLUTIONS.join(', ')} (accepted; the simulator renders 1280x720)`,
        isOptional: true,
      },
      {
        key: 'width',
        valueDataType: 'NUMBER',
        description: `A smaller still: at most this many pixels wide (${PHOTO_MIN_WIDTH}-1280), the aspect kept (the portal's start-position check asks for 320)`,
        isOptional: true,
      },
    ],
  },
  {
    actionType: 'takeDepthImage',
    actionScopes: INSTANT_ONLY,
    needs: 'arm',
    actionDescription: `The depth camera's still (${DEPTH_WIDTH}x${DEPTH_HEIGHT} PNG, grey near = bright, lit buttons amber) goes out on the photo topic as camera '${DEPTH_CAMERA}' with this actionId; the action FINISHES`,
    actionParameters: [],
  },
  {
    actionType: 'pressButton',
    actionScopes: FLOW,
    needs: 'arm',
    actionDescription: `The arm presses where the depth image's pixel (u, v) shows: RUNNING while it moves, then FINISHED with resultDescription 'pressed {target}' (the button lights, the building responds) or '${PRESS_MISSES.noButton}' / '${PRESS_MISSES.outOfReach}' (nothing pressed)`,
    actionParameters: [
      { key: 'arm', valueDataType: 'STRING', description: 'right or left', isOptional: false },
      { key: 'u', valueDataType: 'NUMBER', description: `Pixel column, 0..${DEPTH_WIDTH - 1}`, isOptional: false },
      { key: 'v', valueDataType: 'NUMBER', description: `Pixel row, 0..${DEPTH_HEIGHT - 1}`, isOptional: false },
    ],
  },
  {
    actionType: 'gimbalJog',

    actionScopes: FLOW,
    needs: 'gimbal',
    actionDescription: `Turn the gimbal by pan/tilt degrees (pan ${GIMBAL_PAN_LIMIT.min}..${GIMBAL_PAN_LIMIT.max}, tilt ${GIMBAL_TILT_LIMIT.min}..${GIMBAL_TILT_LIMIT.max}, clamped)`,
    actionParameters: [
      { key: 'pan', valueDataType: 'NUMBER', description: 'Degrees to add to the pan, > 0 right', isOptional: false },
      { key: 'tilt', valueDataType: 'NUMBER', description: 'Degrees to add to the tilt, > 0 up', isOptional: false },
    ],
  },
  {
    actionType: 'setPeriscopeHeight',

    actionScopes: FLOW,
    needs: 'periscope',
    actionDescription: 'Raise or lower the periscope (camera head) to a height within heightMin..heightMax (clamped)',
    actionParameters: [{ key: 'height', valueDataType: 'NUMBER', description: 'Height, m', isOptional: false }],
  },
  {
    actionType: 'setRingLight',

    actionScopes: FLOW,
    needs: 'ringLight',
    actionDescription: 'Switch the ring light on or off',
    actionParameters: [{ key: 'on', valueDataType: 'BOOL', description: 'true: on, false: off', isOptional: false }],
  },
  {
    actionType: 'setPatrolLamp',

    actionScopes: FLOW,
    needs: 'patrolLamp',
    actionDescription: 'Switch the patrol lamp on or off',
    actionParameters: [{ key: 'on', valueDataType: 'BOOL', description: 'true: on, false: off', isOptional: false }],
  },
  {
    actionType: 'setThermal',

    actionScopes: FLOW,
    needs: 'thermal',
    actionDescription: 'Thermal camera settings: colour map and the temperature range it spans',
    actionParameters: [
      { key: 'colorMap', valueDataType: 'STRING', description: THERMAL_COLOR_MAPS.join(', '), isOptional: false },
      {
        key: 'rangeMin',
        valueDataType: 'NUMBER',
        description: `°C, ${THERMAL_LIMIT.min}..${THERMAL_LIMIT.max}, below rangeMax`,
        isOptional: false,
      },
      {
        key: 'rangeMax',
        valueDataType: 'NUMBER',
        description: `°C, ${THERMAL_LIMIT.min}..${THERMAL_LIMIT.max}, above rangeMin`,
        isOptional: false,
      },
    ],
  },
  {
    actionType: 'playAudio',
    actionScopes: FLOW,
    actionDescription: `Play an audio file of the robot: RUNNING while it plays (${PLAY_AUDIO_SECONDS} s in the simulator), then FINISHED`,
    actionParameters: [
      {
        key: 'audio',
        valueDataType: 'STRING',
        description: `Audio file name, 1..${AUDIO_NAME_MAX_CHARS} characters`,
        isOptional: false,
      },
      {
        key: 'volume',
        valueDataType: 'NUMBER',
        description: 'Integer 0..100 (default the speaker volume)',
        isOptional: true,
      },
    ],
  },
  {
    actionType: 'setFace',
    actionScopes: FLOW,
    actionDescription: 'Show a face expression (and optionally a text) on the robot display',
    actionParameters: [
      { key: 'expression', valueDataType: 'STRING', description: FACE_EXPRESSIONS.join(', '), isOptional: false },
      {
        key: 'text',
        valueDataType: 'STRING',
        description: `Text shown under the face, 1..${FACE_TEXT_MAX_CHARS} characters`,
        isOptional: true,
      },
    ],
  },
  {
    actionType: 'setPose',
    actionScopes: FLOW,
    actionDescription:
      'Move the gimbal (absolute pan/tilt, clamped to its limits), the periscope or the arm to a pose; FAILED when the model lacks that hardware',
    actionParameters: [
      { key: 'target', valueDataType: 'STRING', description: 'gimbal, periscope or arm', isOptional: false },
      {
        key: 'pan',
        valueDataType: 'NUMBER',
        description: `Gimbal pan, absolute degrees (${GIMBAL_PAN_LIMIT.min}..${GIMBAL_PAN_LIMIT.max}, clamped), > 0 right`,
        isOptional: true,
      },
      {
        key: 'tilt',
        valueDataType: 'NUMBER',
        description: `Gimbal tilt, absolute degrees (${GIMBAL_TILT_LIMIT.min}..${GIMBAL_TILT_LIMIT.max}, clamped), > 0 up`,
        isOptional: true,
      },
      {
        key: 'poseDefId',
        valueDataType: 'NUMBER',
        description: 'A pose definition of the organization (required for periscope and arm)',
        isOptional: true,
      },
    ],
  },
  {
    actionType: 'setCamera',
    actionScopes: FLOW,
    actionDescription: 'Camera settings: the zoom of one camera, the colour map of the thermal camera',
    actionParameters: [
      { key: 'camera', valueDataType: 'STRING', description: 'Camera id (factsheet `cameras`)', isOptional: false },
      {
        key: 'zoom',
        valueDataType: 'NUMBER',
        description: `Zoom factor ${CAMERA_ZOOM_LIMIT.min}..${CAMERA_ZOOM_LIMIT.max}`,
        isOptional: true,
      },
      {
        key: 'colorMap',
        valueDataType: 'STRING',
        description: `Thermal camera only: ${THERMAL_COLOR_MAPS.join(', ')}`,
        isOptional: true,
      },
    ],
  },
  {
    actionType: 'setSafetyMargin',
    actionScopes: FLOW,
    actionDescription: 'The minimum stopping distance of collision prevention',
    actionParameters: [
      {
        key: 'meters',
        valueDataType: 'NUMBER',
        description: `Metres, ${SAFETY_MARGIN_LIMIT.min}..${SAFETY_MARGIN_LIMIT.max}`,
        isOptional: false,
      },
    ],
  },
  {
    actionType: 'detectPerson',
    actionScopes: FLOW,
    actionDescription:
      'Wait until a person is detected within distanceM of the camera: RUNNING, then FINISHED; FAILED with resultDescription timeout after timeoutS',
    actionParameters: [
      { key: 'camera', valueDataType: 'STRING', description: 'Camera id (factsheet `cameras`)', isOptional: false },
      { key: 'distanceM', valueDataType: 'NUMBER', description: 'Detection range, m (above 0)', isOptional: false },
      {
        key: 'timeoutS',
        valueDataType: 'NUMBER',
        description: 'Seconds to wait at most; 0: no timeout',
        isOptional: false,
      },
    ],
  },
  {
    actionType: 'answerCall',

    actionScopes: INSTANT_ONLY,
    actionDescription: 'Answer the call-in customer service call (calling -> conversation)',
    actionParameters: [],
  },
  {
    actionType: 'endCall',

    actionScopes: INSTANT_ONLY,
    actionDescription: 'End the call-in customer service call (calling or conversation -> idle)',
    actionParameters: [],
  },
  {
    actionType: 'setAudio',

    actionScopes: FLOW,
    actionDescription: 'Speaker volume and microphone gain',
    actionParameters: [
      { key: 'speakerVolume', valueDataType: 'NUMBER', description: 'Integer 0..100', isOptional: false },
      { key: 'micGain', valueDataType: 'NUMBER', description: 'Integer 0..100', isOptional: false },
    ],
  },
  {
    actionType: OS_UPDATE_ACTION,

    actionScopes: INSTANT_ONLY,
    actionDescription: `Download and install the OS update, then restart (needs at least ${OS_UPDATE_MIN_BATTERY}% battery)`,
    actionParameters: [],
  },
];

/** A parameter problem: the action FAILS with this message as resultDescription. */
class ParamError extends Error {}

/** Instant action parameters: the portal sends every value as a string; JSON numbers and booleans work too. */
class Params {
  private readonly values = new Map<string, unknown>();

  constructor(a: VdaAction) {
    for (const p of a.actionParameters ?? []) this.values.set(p.key, p.value);
  }

  private raw(key: string, optional: boolean): unknown {
    const v = this.values.get(key);
    if (v === undefined || v === null || (typeof v === 'string' && v.trim() === '')) {
      if (optional) return undefined;
      throw new ParamError(`Parameter ${key} is missing`);
    }
    return v;
  }

  string(key: string): string;
  string(key: string, optional: true): string | undefined;
  string(key: string, optional = false): string | undefined {
    const v = this.raw(key, optional);
    if (v === undefined) return undefined;
    if (typeof v !== 'string') throw new ParamError(`Parameter ${key} must be a string`);
    return v;
  }

  oneOf<T extends string>(key: string, allowed: readonly T[]): T;
  oneOf<T extends string>(key: string, allowed: readonly T[], optional: true): T | undefined;
  oneOf<T extends string>(key: string, allowed: readonly T[], optional = false): T | undefined {
    const v = optional ? this.string(key, true) : this.string(key);
    if (v === undefined) return undefined;
    const s = v.trim();
    if (!(allowed as readonly string[]).includes(s)) {
      throw new ParamError(`Parameter ${key} must be one of ${allowed.join(', ')} (got '${s.slice(0, 40)}')`);
    }
    return s as T;
  }

  number(key: string, range?: { min: number; max: number; integer?: boolean }): number;
  number(
    key: string,
    range: { min: number; max: number; integer?: boolean } | undefined,
    optional: true,
  ): number | undefined;
  number(key: string, range?: { min: number; max: number; integer?: boolean }, optional = false): number | undefined {
    const v = this.raw(key, optional);
    if (v === undefined) return undefined;
    const n = typeof v === 'number' ? v : typeof v === 'string' ? Number(v.trim()) : NaN;
    const what = range?.integer ? 'an integer' : 'a number';
    const shown = typeof v === 'string' ? `'${v.slice(0, 40)}'` : JSON.stringify(v);
    if (!Number.isFinite(n) || (range?.integer && !Number.isInteger(n))) {
      throw new ParamError(`Parameter ${key} must be ${what} (got ${shown})`);
    }
    if (range && (n < range.min || n > range.max)) {
      throw new ParamError(`Parameter ${key} must be ${what} from ${range.min} to ${range.max} (got ${n})`);
    }
    return n;
  }

  bool(key: string): boolean {
    const v = this.raw(key, false);
    if (typeof v === 'boolean') return v;
    const s = typeof v === 'string' ? v.trim().toLowerCase() : '';
    if (s === 'true') return true;
    if (s === 'false') return false;
    throw new ParamError(`Parameter ${key} must be true or false (got ${JSON.stringify(v)})`);
  }
}

const clamp = (v: number, lo: number, hi: number): number => Math.min(hi, Math.max(lo, v));
const round3 = (v: number): number => Math.round(v * 1000) / 1000;

const finish = (st: ActionState, resultDescription?: string): void => {
  st.actionStatus = 'FINISHED';
  if (resultDescription !== undefined) st.resultDescription = resultDescription;
  else delete st.resultDescription;
};
const fail = (st: ActionState, resultDescription: string): void => {
  st.actionStatus = 'FAILED';
  st.resultDescription = resultDescription;
};

/** The next OS version: the patch number goes up ('2.4.0' -> '2.4.1'). */
export function nextOsVersion(version: string): string {
  const m = /^(.*?)(\d+)$/.exec(version);
  return m ? `${m[1]}${Number(m[2]) + 1}` : `${version}.1`;
}

/** Simulation options of the features (RobotOptions / CLI flags pass them on). */
export interface FeatureOptions {
  /**
   * 0..1 (default 0): the share of flow actions (every action with the NODE scope, sent as an instant
   * or a node action) that FAIL at once with resultDescription `simulated failure`.
   */
  actionFailRate?: number | undefined;
  /**
   * detectPerson: simulated seconds until a person comes within range; null: nobody ever comes (the
   * action runs until its timeout). Default: a random time of PERSON_DETECTION_SECONDS.
   */
  personDetectionSeconds?: number | null | undefined;
  /** Random numbers in [0, 1) (failures, detection times); default Math.random. */
  random?: (() => number) | undefined;
}

/** An action that runs for a while: `end` runs when `left` simulated seconds have passed. */
interface Timed {
  st: ActionState;
  left: number;
  end: () => void;
}

interface Utterance {
  st: ActionState;
  /** Seconds still to speak. */
  seconds: number;
  description: string;
}

/**
 * The robot's teleoperation features (speech, long-term recording, photos, gimbal, periscope,
 * lights, thermal camera, call-in customer service, audio levels, OS update) and flow actions
 * (audio, face, pose, camera settings, safety margin, person detection): the custom actions of
 * docs/robot-protocol.md section 6 and the `teleop` information entry of the state. The flow
 * actions (scope NODE) run the same way when the order executor hands them over as node actions.
 *
 * Every parameter may come as a string (the portal sends strings); a bad one FAILS the action with a
 * resultDescription naming it. Durations are simulated seconds (`step`), except the OS update's
 * restart, which the MQTT layer times in real time.
 */
export class RobotFeatures {
  readonly spec: FeatureSpec;
  private readonly defs: ReadonlyArray<FeatureAction>;
  private readonly types: ReadonlySet<string>;
  private readonly periscopeRange: { min: number; max: number } | null;

  private recording: RecordingState = 'idle';
  /** Seconds until the recording moves on (null: it stays). */
  private recordingTimer: number | null = null;
  private startAction: ActionState | null = null;
  private stopAction: ActionState | null = null;

  private call: CallState = 'idle';
  private callTimer = 0;

  /** Speech queue: the first one is being spoken. */
  private speech: Utterance[] = [];

  private ringLight: boolean | null;
  private patrolLamp: boolean | null;
  private periscopeHeight: number | null;
  private gimbal: { pan: number; tilt: number } | null;
  private thermal = { ...DEFAULT_THERMAL };
  private audio = { ...DEFAULT_AUDIO };
  private networkInterface: string | null = NETWORK_INTERFACE;

  private osVersion = INITIAL_OS_VERSION;
  private update: { st: ActionState; left: number } | null = null;

  /** Actions that take a while (takePhoto, playAudio, detectPerson). */
  private timed: Timed[] = [];
  private face: { expression: (typeof FACE_EXPRESSIONS)[number]; text: string | null } = {
    expression: 'normal',
    text: null,
  };
  private readonly poses: { periscope: number | null; arm: number | null; gimbal: number | null } = {
    periscope: null,
    arm: null,
    gimbal: null,
  };
  private readonly zoom = new Map<CameraId, number>();
  private safetyMargin = DEFAULT_SAFETY_MARGIN;
  private readonly flowTypes: ReadonlySet<string>;
  private readonly failRate: number;
  private readonly random: () => number;

  constructor(
    readonly model: KnownRobotModel,
    private readonly host: FeatureHost,
    private readonly options: FeatureOptions = {},
  ) {
    const spec = MODEL_FEATURES[model];
    this.spec = spec;
    this.failRate = clamp(options.actionFailRate ?? 0, 0, 1);
    this.random = options.random ?? Math.random;
    this.defs = ACTION_DEFS.filter((d) => !d.needs || spec[d.needs]).map(({ needs: _needs, ...d }) => d);
    this.types = new Set(this.defs.map((d) => d.actionType));
    this.flowTypes = new Set(this.defs.filter((d) => d.actionScopes.includes('NODE')).map((d) => d.actionType));
    const body = MODEL_SPECS[model];
    this.periscopeRange = spec.periscope ? { min: body.heightMin, max: body.heightMax } : null;
    this.periscopeHeight = this.periscopeRange
      ? clamp(spec.cameraHeight, this.periscopeRange.min, this.periscopeRange.max)
      : null;
    this.ringLight = spec.ringLight ? false : null;
    this.patrolLamp = spec.patrolLamp ? false : null;
    this.gimbal = spec.gimbal ? { pan: 0, tilt: 0 } : null;
  }

  /** Cameras of the model (factsheet extension `cameras`). */
  get cameras(): CameraId[] {
    return CAMERA_IDS.filter((c) => this.spec.cameras.includes(c));
  }

  /** The custom actions the model supports (factsheet), with their scopes. */
  get actions(): FeatureAction[] {
    return this.defs.map((d) => ({
      ...d,
      actionScopes: [...d.actionScopes],
      actionParameters: d.actionParameters.map((p) => ({ ...p })),
    }));
  }

  /** The action may come as a node action of an order (scope NODE). */
  handlesOnNode(actionType: string): boolean {
    return this.flowTypes.has(actionType);
  }

  handles(actionType: string): boolean {
    return this.types.has(actionType);
  }

  /**
   * Runs one action, instant or node action alike: sets `st` (WAITING, RUNNING, FINISHED or FAILED
   * with resultDescription); a RUNNING or WAITING one moves on as `step` advances time.
   */
  instant(a: VdaAction, st: ActionState): void {
    if (!this.handles(a.actionType)) {
      fail(st, `Action ${a.actionType} is not supported by the ${this.model} model`);
      return;
    }
    if (this.failRate > 0 && this.flowTypes.has(a.actionType) && this.random() < this.failRate) {
      fail(st, SIMULATED_FAILURE);
      this.host.changed();
      return;
    }
    try {
      this.run(a, new Params(a), st);
    } catch (err) {
      if (err instanceof ParamError) fail(st, err.message);
      else fail(st, `${a.actionType} failed: ${err instanceof Error ? err.message : String(err)}`);
    }
    this.host.changed();
  }

  private run(a: VdaAction, p: Params, st: ActionState): void {
    switch (a.actionType) {
      case 'speak':
        return this.speak(p, st);
      case 'startRecording':
        p.oneOf('quality', UPLOAD_QUALITIES, true);
        return this.startRecording(st);
      case 'stopRecording':
        return this.stopRecording(st);
      case 'takePhoto':
        return this.takePhoto(a, p, st);
      case 'takeDepthImage':
        return this.runFor(st, DEPTH_CAPTURE_SECONDS, 'Capturing the depth image', () => {
          try {
            if (!this.host.captureDepth) return fail(st, 'No depth camera');
            this.publishStill(a, DEPTH_CAMERA, st, this.host.captureDepth());
          } catch (err) {
            fail(st, `takeDepthImage failed: ${err instanceof Error ? err.message : String(err)}`);
          }
        });
      case 'pressButton':
        return this.pressButton(p, st);
      case 'gimbalJog': {
        const pan = p.number('pan');
        const tilt = p.number('tilt');
        const g = this.gimbal!;
        const wantPan = g.pan + pan;
        const wantTilt = g.tilt + tilt;
        g.pan = round3(clamp(wantPan, GIMBAL_PAN_LIMIT.min, GIMBAL_PAN_LIMIT.max));
        g.tilt = round3(clamp(wantTilt, GIMBAL_TILT_LIMIT.min, GIMBAL_TILT_LIMIT.max));
        const limited = Math.abs(g.pan - wantPan) > 1e-9 || Math.abs(g.tilt - wantTilt) > 1e-9;
        return finish(st, limited ? `Gimbal at its limit: pan ${g.pan}°, tilt ${g.tilt}°` : undefined);
      }
      case 'setPeriscopeHeight': {
        const want = p.number('height');
        const r = this.periscopeRange!;
        this.periscopeHeight = round3(clamp(want, r.min, r.max));
        return finish(
          st,
          this.periscopeHeight !== want
            ? `Height limited to ${r.min}..${r.max} m: ${this.periscopeHeight} m`
            : undefined,
        );
      }
      case 'setRingLight':
        this.ringLight = p.bool('on');
        return finish(st);
      case 'setPatrolLamp':
        this.patrolLamp = p.bool('on');
        return finish(st);
      case 'setThermal': {
        const colorMap = p.oneOf('colorMap', THERMAL_COLOR_MAPS);
        const rangeMin = p.number('rangeMin', THERMAL_LIMIT);
        const rangeMax = p.number('rangeMax', THERMAL_LIMIT);
        if (rangeMin >= rangeMax) {
          throw new ParamError(`rangeMin (${rangeMin}) must be below rangeMax (${rangeMax})`);
        }
        this.thermal = { colorMap, rangeMin, rangeMax };
        return finish(st);
      }
      case 'answerCall':
        if (this.call !== 'calling') return fail(st, `No call to answer (call is ${this.call})`);
        this.call = 'conversation';
        return finish(st);
      case 'endCall':
        if (this.call === 'idle') return fail(st, 'No call to end (call is idle)');
        this.call = 'idle';
        return finish(st);
      case 'setAudio': {
        const speakerVolume = p.number('speakerVolume', { min: 0, max: 100, integer: true });
        const micGain = p.number('micGain', { min: 0, max: 100, integer: true });
        this.audio = { speakerVolume, micGain };
        return finish(st);
      }
      case OS_UPDATE_ACTION:
        return this.startUpdate(st);
      case 'playAudio': {
        const audio = p.string('audio').trim();
        if (audio.length === 0) throw new ParamError('Parameter audio is missing');
        if (audio.length > AUDIO_NAME_MAX_CHARS) {
          throw new ParamError(
            `Parameter audio is too long (${audio.length} characters, at most ${AUDIO_NAME_MAX_CHARS})`,
          );
        }
        const volume = p.number('volume', { min: 0, max: 100, integer: true }, true) ?? this.audio.speakerVolume;
        return this.runFor(st, PLAY_AUDIO_SECONDS, `Playing ${audio.slice(0, 40)} (volume ${volume})`, () =>
          finish(st),
        );
      }
      case 'setFace': {
        const expression = p.oneOf('expression', FACE_EXPRESSIONS);
        const text = p.string('text', true)?.trim();
        if (text !== undefined && text.length > FACE_TEXT_MAX_CHARS) {
          throw new ParamError(
            `Parameter text is too long (${text.length} characters, at most ${FACE_TEXT_MAX_CHARS})`,
          );
        }
        this.face = { expression, text: text ? text : null };
        return finish(st);
      }
      case 'setPose':
        return this.setPose(p, st);
      case 'setCamera': {
        const camera = this.camera(p);
        const zoom = p.number('zoom', CAMERA_ZOOM_LIMIT, true);
        const colorMap = p.oneOf('colorMap', THERMAL_COLOR_MAPS, true);
        if (colorMap !== undefined && camera !== 'thermal') {
          throw new ParamError(`Parameter colorMap is for the thermal camera only (camera is ${camera})`);
        }
        if (zoom !== undefined) this.zoom.set(camera, zoom);
        if (colorMap !== undefined) this.thermal = { ...this.thermal, colorMap };
        return finish(st);
      }
      case 'setSafetyMargin':
        this.safetyMargin = p.number('meters', SAFETY_MARGIN_LIMIT);
        return finish(st);
      case 'detectPerson':
        return this.detectPerson(p, st);
    }
  }

  /** The `camera` parameter: one of the model's cameras. */
  private camera(p: Params): CameraId {
    const camera = p.string('camera').trim();
    if (!(this.spec.cameras as string[]).includes(camera)) {
      throw new ParamError(
        `Camera '${camera.slice(0, 40)}' is not one of this robot's cameras (${this.cameras.join(', ')})`,
      );
    }
    return camera as CameraId;
  }

  /** `st` RUNNING for `seconds` (simulated), then `end` decides how it ends. */
  private runFor(st: ActionState, seconds: number, description: string, end: () => void): void {
    st.actionStatus = 'RUNNING';
    st.resultDescription = description;
    this.timed.push({ st, left: seconds, end });
  }

  private setPose(p: Params, st: ActionState): void {
    const target = p.oneOf('target', ['gimbal', 'periscope', 'arm'] as const);
    const has = target === 'gimbal' ? this.spec.gimbal : target === 'periscope' ? this.spec.periscope : this.spec.arm;
    if (!has) return fail(st, `The ${this.model} model has no ${target}`);
    const poseDefId = p.number('poseDefId', { min: 1, max: Number.MAX_SAFE_INTEGER, integer: true }, true);
    if (target !== 'gimbal') {
      if (poseDefId === undefined) throw new ParamError('Parameter poseDefId is missing');
      this.poses[target] = poseDefId;
      return finish(st, `${target === 'arm' ? 'Arm' : 'Periscope'} at pose definition ${poseDefId}`);
    }
    const pan = p.number('pan', undefined, true);
    const tilt = p.number('tilt', undefined, true);
    if (pan === undefined && tilt === undefined && poseDefId === undefined) {
      throw new ParamError('Parameter pan, tilt or poseDefId is missing');
    }
    const g = this.gimbal!;
    if (poseDefId !== undefined) this.poses.gimbal = poseDefId;
    const wantPan = pan ?? g.pan;
    const wantTilt = tilt ?? g.tilt;
    g.pan = round3(clamp(wantPan, GIMBAL_PAN_LIMIT.min, GIMBAL_PAN_LIMIT.max));
    g.tilt = round3(clamp(wantTilt, GIMBAL_TILT_LIMIT.min, GIMBAL_TILT_LIMIT.max));
    const limited = Math.abs(g.pan - wantPan) > 1e-9 || Math.abs(g.tilt - wantTilt) > 1e-9;
    return finish(st, limited ? `Gimbal at its limit: pan ${g.pan}°, tilt ${g.tilt}°` : undefined);
  }

  private detectPerson(p: Params, st: ActionState): void {
    const camera = this.camera(p);
    const distanceM = p.number('distanceM', { min: 0, max: 100 });
    if (distanceM <= 0) throw new ParamError(`Parameter distanceM must be above 0 (got ${distanceM})`);
    const timeoutS = p.number('timeoutS', { min: 0, max: 86_400 });
    const configured = this.options.personDetectionSeconds;
    const span = PERSON_DETECTION_SECONDS;
    const detectAt =
      configured === undefined
        ? span.min + (span.max - span.min) * this.random()
        : configured === null
          ? null
          : configured;
    const timeout = timeoutS > 0 ? timeoutS : null;
    const description = `Watching for a person within ${distanceM} m (${camera})`;
    if (detectAt !== null && (timeout === null || detectAt < timeout)) {
      return this.runFor(st, detectAt, description, () => finish(st, `Person detected within ${distanceM} m`));
    }
    // Nobody comes in time: FAILED timeout, or (without a timeout) RUNNING until cancelled.
    this.runFor(st, timeout ?? Infinity, description, () => fail(st, 'timeout'));
  }

  private speak(p: Params, st: ActionState): void {
    const text = p.string('text').trim();
    if (text.length === 0) throw new ParamError('Parameter text is missing');
    if (text.length > SPEECH_MAX_CHARS) {
      throw new ParamError(`Parameter text is too long (${text.length} characters, at most ${SPEECH_MAX_CHARS})`);
    }
    const language: VoiceLanguage = p.oneOf('language', VOICE_LANGUAGES, true) ?? 'auto';
    const seconds = Math.max(SPEECH_MIN_SECONDS, text.length * SPEECH_SECONDS_PER_CHAR);
    const u: Utterance = { st, seconds, description: `Speaking (${language}, ${Math.round(seconds * 10) / 10} s)` };
    if (this.speech.length === 0) this.speakNow(u);
    else {
      st.actionStatus = 'WAITING';
      st.resultDescription = 'Waiting for the current speech to end';
    }
    this.speech.push(u);
  }

  private speakNow(u: Utterance): void {
    u.st.actionStatus = 'RUNNING';
    u.st.resultDescription = u.description;
  }

  private startRecording(st: ActionState): void {
    if (RECORDING_ACTIVE_STATES.includes(this.recording)) return fail(st, 'recordingAlreadyStarted');
    // The previous recording may still be compressing: its save completes in the background.
    if (this.stopAction?.actionStatus === 'RUNNING') finish(this.stopAction, 'Recording saved');
    this.stopAction = null;
    this.recording = 'preparing';
    this.recordingTimer = RECORDING_PREPARE_SECONDS;
    this.startAction = st;
    st.actionStatus = 'RUNNING';
    st.resultDescription = 'preparing';
  }

  private stopRecording(st: ActionState): void {
    if (!RECORDING_ACTIVE_STATES.includes(this.recording)) return fail(st, 'recordingNotStarted');
    if (this.startAction?.actionStatus === 'RUNNING') fail(this.startAction, 'Recording stopped while preparing');
    this.startAction = null;
    this.recording = 'compressing';
    this.recordingTimer = RECORDING_COMPRESS_SECONDS;
    this.stopAction = st;
    st.actionStatus = 'RUNNING';
    st.resultDescription = 'compressing';
  }

  /** The recording's next state when its timer runs out. */
  private advanceRecording(): void {
    switch (this.recording) {
      case 'preparing':
        this.recording = 'started';
        this.recordingTimer = null;
        if (this.startAction) finish(this.startAction, 'Recording started');
        this.startAction = null;
        break;
      case 'compressing':
        this.recording = 'saved';
        this.recordingTimer = RECORDING_SAVED_SECONDS;
        if (this.stopAction) finish(this.stopAction, 'Recording saved');
        this.stopAction = null;
        break;
      case 'saved':
        this.recording = 'uploading';
        this.recordingTimer = RECORDING_UPLOAD_SECONDS;
        break;
      case 'uploading':
        this.recording = 'uploaded';
        this.recordingTimer = null;
        break;
      default:
        this.recordingTimer = null;
    }
    this.host.changed();
  }

  private takePhoto(a: VdaAction, p: Params, st: ActionState): void {
    const id = this.camera(p);
    const resolution = p.oneOf('resolution', PHOTO_RESOLUTIONS, true);
    const width = p.number('width', { min: PHOTO_MIN_WIDTH, max: 1280, integer: true }, true);
    const size = width !== undefined ? ` (${width} wide)` : resolution ? ` (${resolution})` : '';
    this.runFor(st, PHOTO_CAPTURE_SECONDS, `Capturing ${id}${size}`, () => {
      try {
        this.capture(a, id, st, width);
      } catch (err) {
        fail(st, `takePhoto failed: ${err instanceof Error ? err.message : String(err)}`);
      }
    });
  }

  /** Aims at the pixel now (the image the operator clicked), presses when the arm gets there. */
  private pressButton(p: Params, st: ActionState): void {
    const arm = p.oneOf('arm', ['right', 'left'] as const);
    const u = p.number('u', { min: 0, max: DEPTH_WIDTH - 1 });
    const v = p.number('v', { min: 0, max: DEPTH_HEIGHT - 1 });
    if (!this.host.aimArm) return fail(st, 'No arm');
    const aim = this.host.aimArm(arm, u, v);
    this.runFor(st, ARM_PRESS_SECONDS, `Pressing with the ${arm} arm at (${Math.round(u)}, ${Math.round(v)})`, () => {
      if ('miss' in aim) return finish(st, aim.miss);
      this.host.pressButton?.(aim.target);
      finish(st, `pressed ${aim.target}`);
    });
  }

  /** Captures the still, publishes it on the photo topic and finishes `st` (or fails it). */
  private capture(a: VdaAction, id: CameraId, st: ActionState, width?: number): void {
    this.publishStill(a, id, st, this.host.capture(id, width));
  }

  private publishStill(
    a: VdaAction,
    id: CameraId | typeof DEPTH_CAMERA,
    st: ActionState,
    shot: { png: Buffer; width: number; height: number },
  ): void {
    if (shot.png.length > PHOTO_MAX_BYTES) {
      return fail(st, `Photo too large (${shot.png.length} bytes, at most ${PHOTO_MAX_BYTES})`);
    }
    const msg: RobotPhotoMessage = {
      ...this.host.header(),
      actionId: a.actionId,
      camera: id,
      contentType: 'image/png',
      width: shot.width,
      height: shot.height,
      data: shot.png.toString('base64'),
    };
    const check = robotPhotoMessageSchema.safeParse(msg);
    if (!check.success) {
      const issue = check.error.issues[0];
      return fail(st, `Photo message invalid (${issue ? `${issue.path.join('.')}: ${issue.message}` : 'invalid'})`);
    }
    this.host.publishPhoto(JSON.stringify(msg));
    finish(st, `Photo ${id} ${shot.width}x${shot.height}`);
  }

  private startUpdate(st: ActionState): void {
    if (this.update) return fail(st, 'OS update already running');
    const battery = this.host.battery();
    if (battery < OS_UPDATE_MIN_BATTERY) {
      return fail(st, `Battery must be at least ${OS_UPDATE_MIN_BATTERY}% for OS update`);
    }
    this.update = { st, left: OS_UPDATE_DOWNLOAD_SECONDS };
    st.actionStatus = 'RUNNING';
    st.resultDescription = 'downloading';
  }

  /** The download is done: install, restart (the link goes down), come back with the new version. */
  private finishUpdate(): void {
    const u = this.update!;
    this.update = null;
    this.osVersion = nextOsVersion(this.osVersion);
    // A restart ends what the robot was doing live.
    this.call = 'idle';
    for (const s of this.speech) fail(s.st, 'Interrupted by the OS update restart');
    this.speech = [];
    for (const t of this.timed) fail(t.st, 'Interrupted by the OS update restart');
    this.timed = [];
    finish(u.st, `Updated to ${this.osVersion}, restarted`);
    this.host.changed();
    this.host.restart(OS_UPDATE_RESTART_MS);
  }

  /** Someone at the robot presses its call button: an idle robot starts calling. False when a call is on. */
  pressCallButton(): boolean {
    if (this.call !== 'idle') return false;
    this.call = 'calling';
    this.callTimer = CALL_RING_SECONDS;
    this.host.changed();
    return true;
  }

  /** The teleop command channel's colour map choice (the same setting as setThermal's colorMap). */
  setThermalColorMap(colorMap: ThermalColorMap): void {
    if (!this.spec.thermal || this.thermal.colorMap === colorMap) return;
    this.thermal = { ...this.thermal, colorMap };
  }

  /** Speaker volume and microphone gain (0..100), as set by setAudio. */
  audioLevels(): { speakerVolume: number; micGain: number } {
    return { ...this.audio };
  }

  /**
   * Ends an action in progress that its order gave up (cancelOrder): FAILED with `reason`, the next
   * utterance starts. False when it is not one the features can stop (a recording step runs on).
   */
  abort(st: ActionState, reason: string): boolean {
    const t = this.timed.findIndex((x) => x.st === st);
    if (t >= 0) {
      this.timed.splice(t, 1);
    } else {
      const u = this.speech.findIndex((x) => x.st === st);
      if (u < 0) return false;
      this.speech.splice(u, 1);
      const next = this.speech[0];
      if (u === 0 && next) this.speakNow(next);
    }
    fail(st, reason);
    this.host.changed();
    return true;
  }

  /** Feature actions still in progress (RUNNING or WAITING): an order or cancelOrder should leave them be. */
  pending(): ActionState[] {
    const out: ActionState[] = this.speech.map((u) => u.st);
    for (const t of this.timed) out.push(t.st);
    if (this.startAction) out.push(this.startAction);
    if (this.stopAction) out.push(this.stopAction);
    if (this.update) out.push(this.update.st);
    return out;
  }

  /** Seconds the operator's push-to-talk voice still counts as "speaking" (through the robot's speaker). */
  private operatorTalk = 0;

  /** The operator's voice (push-to-talk) reached the robot's speaker: it speaks for a moment. */
  hearOperator(): void {
    const was = this.operatorTalk > 0;
    this.operatorTalk = OPERATOR_TALK_HOLD_SECONDS;
    if (!was) this.host.changed();
  }

  /** The call state (the teleop audio plays the caller's voice during a conversation). */
  callState(): RobotTeleopInfo['call'] {
    return this.call;
  }

  /** Advances timers by `dt` simulated seconds. */
  step(dt: number): void {
    if (!(dt > 0)) return;
    if (this.operatorTalk > 0) {
      this.operatorTalk -= dt;
      if (this.operatorTalk <= 0) {
        this.operatorTalk = 0;
        this.host.changed();
      }
    }
    this.stepSpeech(dt);
    this.stepTimed(dt);
    let t = dt;
    while (this.recordingTimer !== null) {
      if (t < this.recordingTimer) {
        this.recordingTimer -= t;
        break;
      }
      t -= this.recordingTimer;
      this.advanceRecording();
    }
    if (this.call === 'calling') {
      this.callTimer -= dt;
      if (this.callTimer <= 0) {
        this.call = 'idle';
        this.host.changed();
      }
    }
    if (this.update) {
      this.update.left -= dt;
      if (this.update.left <= 0) this.finishUpdate();
    }
  }

  private stepTimed(dt: number): void {
    if (this.timed.length === 0) return;
    const due: Timed[] = [];
    this.timed = this.timed.filter((x) => {
      x.left -= dt;
      if (x.left > 1e-9) return true;
      due.push(x);
      return false;
    });
    for (const x of due) x.end();
    if (due.length > 0) this.host.changed();
  }

  private stepSpeech(dt: number): void {
    let t = dt;
    while (this.speech.length > 0) {
      const u = this.speech[0]!;
      if (t < u.seconds) {
        u.seconds -= t;
        return;
      }
      t -= u.seconds;
      finish(u.st);
      this.speech.shift();
      const next = this.speech[0];
      if (next) this.speakNow(next);
      this.host.changed();
    }
  }

  /** The `teleop` information entry as it is now. */
  info(): RobotTeleopInfo {
    return {
      recording: this.recording,
      call: this.call,
      networkInterface: this.networkInterface,
      ringLight: this.ringLight,
      patrolLamp: this.patrolLamp,
      periscopeHeight: this.periscopeHeight,
      gimbal: this.gimbal && { ...this.gimbal },
      speaking: this.speech.length > 0 || this.operatorTalk > 0,
      osVersion: this.osVersion,
      updating: this.update !== null,
    };
  }

  /** The flow settings that the state does not report: face, poses, zoom, safety margin (tests read them). */
  settings(): {
    face: { expression: string; text: string | null };
    poses: { gimbal: number | null; periscope: number | null; arm: number | null };
    zoom: Partial<Record<CameraId, number>>;
    safetyMargin: number;
  } {
    return {
      face: { ...this.face },
      poses: { ...this.poses },
      zoom: Object.fromEntries(this.zoom),
      safetyMargin: this.safetyMargin,
    };
  }

  /** Current camera-relevant settings (the video renderer reads them). */
  view(): FeatureView {
    return {
      gimbal: this.gimbal ? { ...this.gimbal } : { pan: 0, tilt: 0 },
      eyeHeight: this.periscopeHeight ?? this.spec.cameraHeight,
      thermal: { ...this.thermal },
    };
  }
}
