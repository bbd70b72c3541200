import { z } from 'zod';

/**
 * The teleoperation facts of a robot's live state (kept apart from teleop.ts so that robots.ts can
 * use them without an import cycle).
 */

/** Call-in customer service (someone at the robot presses its call button). */
export const CALL_STATES = ['idle', 'calling', 'conversation'] as const;
export const callStateSchema = z.enum(CALL_STATES);
export type CallState = z.infer<typeof callStateSchema>;

/** Long-term recording states of spec section 4 (`idle`: no recording). */
export const RECORDING_STATES = [
  'idle',
  'preparing',
  'started',
  'compressing',
  'saved',
  'uploading',
  'uploaded',
] as const;
export const recordingStateSchema = z.enum(RECORDING_STATES);
export type RecordingState = z.infer<typeof recordingStateSchema>;
/** Recording states in which a recording is under way (stop is possible, start is "already started"). */
export const RECORDING_ACTIVE_STATES: readonly RecordingState[] = ['preparing', 'started'];

/** Live teleoperation facts a robot reports in `state.information` (docs/robot-protocol.md 7). */
export const robotTeleopInfoSchema = z.object({
  recording: recordingStateSchema,
  call: callStateSchema,
  /** Network interface in use (wlan0, usb0, eth1...), null when unknown. */
  networkInterface: z.string().nullable(),
  ringLight: z.boolean().nullable(),
  patrolLamp: z.boolean().nullable(),
  /** Periscope height, m; null without a periscope. */
  periscopeHeight: z.number().nullable(),
  gimbal: z.object({ pan: z.number(), tilt: z.number() }).nullable(),
  /** The robot is speaking (text to speech or push-to-talk). */
  speaking: z.boolean(),
  osVersion: z.string().nullable(),
  /** An OS update is running (the robot restarts afterwards). */
  updating: z.boolean(),
});
export type RobotTeleopInfo = z.infer<typeof robotTeleopInfoSchema>;

/**
 * A robot reports its teleoperation facts as one `state.information` entry of this type whose
 * `infoReferences` are key/value strings (docs/robot-protocol.md section 7): recording, call,
 * networkInterface, ringLight, patrolLamp, periscopeHeight, gimbalPan, gimbalTilt, speaking,
 * osVersion, updating. Keys a robot does not have are left out.
 */
export const TELEOP_INFO_TYPE = 'teleop';

type InfoReference = { referenceKey: string; referenceValue: string };

/** The `infoReferences` of a robot's teleop information entry. */
export function teleopInfoReferences(info: RobotTeleopInfo): InfoReference[] {
  const refs: InfoReference[] = [
    { referenceKey: 'recording', referenceValue: info.recording },
    { referenceKey: 'call', referenceValue: info.call },
    { referenceKey: 'speaking', referenceValue: String(info.speaking) },
    { referenceKey: 'updating', referenceValue: String(info.updating) },
  ];
  const add = (key: string, v: string | number | boolean | null) => {
    if (v !== null) refs.push({ referenceKey: key, referenceValue: String(v) });
  };
  add('networkInterface', info.networkInterface);
  add('ringLight', info.ringLight);
  add('patrolLamp', info.patrolLamp);
  add('periscopeHeight', info.periscopeHeight);
  add('gimbalPan', info.gimbal?.pan ?? null);
  add('gimbalTilt', info.gimbal?.tilt ?? null);
  add('osVersion', info.osVersion);
  return refs;
}

/** Reads the teleop entry of `state.information`; null when the robot reports none. Lenient: odd values fall back. */
export function parseTeleopInfo(
  information:
    ReadonlyArray<{ infoType: string; infoReferences?: ReadonlyArray<InfoReference> | undefined }> | undefined,
): RobotTeleopInfo | null {
  const entry = information?.find((i) => i.infoType === TELEOP_INFO_TYPE);
  if (!entry) return null;
  const m = new Map((entry.infoReferences ?? []).map((r) => [r.referenceKey, r.referenceValue]));
  const bool = (k: string): boolean | null => (m.has(k) ? m.get(k) === 'true' : null);
  const num = (k: string): number | null => {
    const v = m.get(k);
    if (v === undefined || v.trim() === '') return null;
    const n = Number(v);
    return Number.isFinite(n) ? n : null;
  };
  const recording = recordingStateSchema.safeParse(m.get('recording'));
  const call = callStateSchema.safeParse(m.get('call'));
  const pan = num('gimbalPan');
  const tilt = num('gimbalTilt');
  return {
    recording: recording.success ? recording.data : 'idle',
    call: call.success ? call.data : 'idle',
    networkInterface: m.get('networkInterface')?.slice(0, 32) ?? null,
    ringLight: bool('ringLight'),
    patrolLamp: bool('patrolLamp'),
    periscopeHeight: num('periscopeHeight'),
    gimbal: pan !== null || tilt !== null ? { pan: pan ?? 0, tilt: tilt ?? 0 } : null,
    speaking: bool('speaking') ?? false,
    osVersion: m.get('osVersion')?.slice(0, 64) ?? null,
    updating: bool('updating') ?? false,
  };
}

/** Extension of the factsheet (top level): the robot's cameras, in CAMERA_IDS terms. */
export const FACTSHEET_CAMERAS_KEY = 'cameras';
