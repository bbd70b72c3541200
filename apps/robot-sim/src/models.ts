import type { CameraId, KnownRobotModel } from '@portal/contract';

/** Physical data of a robot model: what the factsheet announces and what the physics honour. */
export interface ModelSpec {
  seriesName: string;
  seriesDescription: string;
  /** m/s */
  speedMin: number;
  speedMax: number;
  /** m/s² */
  accelerationMax: number;
  decelerationMax: number;
  /** rad/s, for turning in place */
  angularSpeedMax: number;
  /** m */
  heightMin: number;
  heightMax: number;
  width: number;
  length: number;
}

export const MODEL_SPECS: Record<KnownRobotModel, ModelSpec> = {
  pro: {
    seriesName: 'ugo Pro',
    seriesDescription: 'Dual-arm service robot with telescopic body',
    speedMin: 0.05,
    speedMax: 1.0,
    accelerationMax: 0.5,
    decelerationMax: 0.5,
    angularSpeedMax: 1.0,
    heightMin: 1.1,
    heightMax: 1.8,
    width: 0.6,
    length: 0.6,
  },
  mini: {
    seriesName: 'ugo mini',
    seriesDescription: 'Compact patrol and guidance robot',
    speedMin: 0.05,
    speedMax: 0.6,
    accelerationMax: 0.5,
    decelerationMax: 0.5,
    angularSpeedMax: 1.2,
    heightMin: 1.2,
    heightMax: 1.2,
    width: 0.45,
    length: 0.45,
  },
  ex: {
    seriesName: 'ugo Ex',
    seriesDescription: 'Security patrol robot',
    speedMin: 0.05,
    speedMax: 0.8,
    accelerationMax: 0.5,
    decelerationMax: 0.5,
    angularSpeedMax: 1.0,
    heightMin: 1.4,
    heightMax: 1.4,
    width: 0.6,
    length: 0.7,
  },
};

/**
 * Teleoperation hardware of a robot model (features.ts). Every model speaks, records, takes photos,
 * answers calls, sets its audio levels and updates its OS; the rest depends on the model. A
 * periscope's height range is the model's heightMin..heightMax.
 */
export interface FeatureSpec {
  cameras: CameraId[];
  periscope: boolean;
  gimbal: boolean;
  ringLight: boolean;
  patrolLamp: boolean;
  thermal: boolean;
  /** An arm that takes pose definitions (setPose target arm). */
  arm: boolean;
  /** m: camera height of the photos and video (a periscope robot starts there, clamped to its range). */
  cameraHeight: number;
}

export const MODEL_FEATURES: Record<KnownRobotModel, FeatureSpec> = {
  pro: {
    cameras: ['v1', 'v2', 'v3', 's1'],
    periscope: true,
    gimbal: false,
    ringLight: true,
    patrolLamp: false,
    thermal: false,
    arm: true,
    cameraHeight: 1.2,
  },
  mini: {
    cameras: ['v1', 'v2'],
    periscope: false,
    gimbal: false,
    ringLight: false,
    patrolLamp: false,
    thermal: false,
    arm: false,
    cameraHeight: 1.0,
  },
  ex: {
    cameras: ['v1', 'v2', 'g1', 'thermal'],
    periscope: false,
    gimbal: true,
    ringLight: true,
    patrolLamp: true,
    thermal: true,
    arm: false,
    cameraHeight: 1.3,
  },
};

/**
 * The simulated arms (pressButton): a shoulder `side` metres to the right or left of the robot's
 * centre at `height` above the floor, reaching ARM_REACH metres (spec section 9: arm model 100,
 * arm type 1 for the right arm and 2 for the left).
 */
export const ARM_SHOULDER = { side: 0.2, height: 1.0 } as const;
export const ARM_REACH = 0.85;

/** Instant actions every simulated robot understands (VDA 5050 standard set). */
export const SIM_INSTANT_ACTIONS = [
  'startPause',
  'stopPause',
  'cancelOrder',
  'factsheetRequest',
  'stateRequest',
  // The portal's custom action (docs/robot-protocol.md section 6): announced, so the portal sends it.
  'mapChanged',
] as const;

/** The portal's custom mapping actions (docs/robot-protocol.md section 6), as the factsheet announces them. */
export const SIM_MAPPING_ACTIONS: ReadonlyArray<{
  actionType: string;
  actionDescription: string;
  actionParameters: Array<{
    key: string;
    valueDataType: 'STRING' | 'NUMBER' | 'BOOL';
    description: string;
    isOptional: boolean;
  }>;
}> = [
  {
    actionType: 'startMapping',
    actionDescription: 'Start building an occupancy grid of the current map (topic mapping)',
    actionParameters: [
      { key: 'mapId', valueDataType: 'STRING', description: 'The current map id, floor-{floorId}', isOptional: false },
      { key: 'resolution', valueDataType: 'NUMBER', description: 'm per cell, default 0.05', isOptional: true },
    ],
  },
  { actionType: 'pauseMapping', actionDescription: 'Stop revealing cells until resumeMapping', actionParameters: [] },
  { actionType: 'resumeMapping', actionDescription: 'Reveal cells again after pauseMapping', actionParameters: [] },
  {
    actionType: 'stopMapping',
    actionDescription: 'End mapping: the final grid goes out FINISHED (save) or CANCELLED',
    actionParameters: [
      { key: 'save', valueDataType: 'BOOL', description: 'Keep the map (default true)', isOptional: true },
    ],
  },
];

/**
 * Node/edge actions the simulator executes (they just take a moment). Any other type FAILS, as on a
 * real robot that does not know it; `startRobot({ actionTypes })` adds more.
 */
export const SIM_ORDER_ACTIONS = ['wait', 'pick', 'drop', 'startCharging', 'stopCharging', 'finePositioning'] as const;
