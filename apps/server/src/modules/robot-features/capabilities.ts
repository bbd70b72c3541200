import {
  CAMERA_IDS,
  FACTSHEET_CAMERAS_KEY,
  OS_UPDATE_ACTION,
  type CameraId,
  type RobotCapabilities,
  type RobotTeleopInfo,
  type VdaFactsheet,
} from '@portal/contract';

/** A robot that names no cameras still has its main one. */
const DEFAULT_CAMERAS: CameraId[] = ['v1'];
/** Action types answered at most (a factsheet is the robot's word; the screen needs only a few). */
const ACTIONS_MAX = 200;

/** What the operator screen shows while a robot reports no teleop information. */
export const NEUTRAL_TELEOP_INFO: RobotTeleopInfo = {
  recording: 'idle',
  call: 'idle',
  networkInterface: null,
  ringLight: null,
  patrolLamp: null,
  periscopeHeight: null,
  gimbal: null,
  speaking: false,
  osVersion: null,
  updating: false,
};

const isCamera = (v: unknown): v is CameraId => typeof v === 'string' && (CAMERA_IDS as readonly string[]).includes(v);

/**
 * The action types the robot can run as instant actions (factsheet `protocolFeatures.agvActions`
 * with the INSTANT scope), in the factsheet's order without repeats.
 */
export function instantActionsOf(factsheet: VdaFactsheet | null): string[] {
  const out = new Set<string>();
  for (const a of factsheet?.protocolFeatures.agvActions ?? []) {
    if (out.size >= ACTIONS_MAX) break;
    if (a.actionScopes.includes('INSTANT')) out.add(a.actionType);
  }
  return [...out];
}

/** The factsheet extension `cameras`, kept to the spec's camera ids; the main camera when it says nothing. */
export function camerasOf(factsheet: VdaFactsheet | null): CameraId[] {
  const listed = (factsheet as Record<string, unknown> | null)?.[FACTSHEET_CAMERAS_KEY];
  const cameras = Array.isArray(listed) ? [...new Set(listed.filter(isCamera))] : [];
  return cameras.length > 0 ? cameras : [...DEFAULT_CAMERAS];
}

/** What a robot can do, from its factsheet (nothing but the main camera before the first one). */
export function capabilitiesOf(factsheet: VdaFactsheet | null): RobotCapabilities {
  const actions = instantActionsOf(factsheet);
  const has = (type: string) => actions.includes(type);
  const cameras = camerasOf(factsheet);
  const physical = factsheet?.physicalParameters;
  return {
    cameras,
    actions,
    gimbal: has('gimbalJog'),
    periscope:
      has('setPeriscopeHeight') && physical
        ? { min: physical.heightMin ?? physical.heightMax, max: physical.heightMax }
        : null,
    ringLight: has('setRingLight'),
    patrolLamp: has('setPatrolLamp'),
    thermal: has('setThermal') || cameras.includes('thermal'),
    recording: has('startRecording') && has('stopRecording'),
    photo: has('takePhoto'),
    speech: has('speak'),
    callService: has('answerCall'),
    osUpdate: has(OS_UPDATE_ACTION),
    // Work plans are operator-paced (issue 14): any robot that has reported can run one.
    workPlan: factsheet !== null,
  };
}
