import type { ActionState, CameraId, RobotModel, RobotTeleopInfo, VdaAction } from '@portal/contract';

/** What the robot features need from the robot core. */
export interface FeatureHost {
  /** Exact battery level, percent. */
  battery(): number;
  /** Renders a still of a camera (PNG) for takePhoto. */
  capture(camera: CameraId): { png: Buffer; width: number; height: number };
  /** Sends a photo message (JSON text) on the robot's `photo` topic. */
  publishPhoto(payload: string): void;
  /** Header fields for custom messages (headerId bumps per call). */
  header(): { headerId: number; timestamp: string; version: string; manufacturer: string; serialNumber: string };
  /** Simulated OS update: the link goes down now and comes back after `downMs` (real time). */
  restart(downMs: number): void;
  /** Something the state reports changed: publish a state message on the next tick. */
  changed(): void;
}

/** A factsheet action entry (INSTANT scope is added by the factsheet builder). */
export interface FeatureAction {
  actionType: string;
  actionDescription: string;
  actionParameters: Array<{
    key: string;
    valueDataType: 'STRING' | 'NUMBER' | 'BOOL';
    description: string;
    isOptional: boolean;
  }>;
}

/**
 * The robot's teleoperation features (speech, long-term recording, photos, gimbal, periscope,
 * lights, thermal camera, call-in customer service, audio levels, OS update): the custom instant
 * actions of docs/robot-protocol.md section 7 and the `teleop` information entry of the state.
 */
export class RobotFeatures {
  constructor(
    readonly model: RobotModel,
    private readonly host: FeatureHost,
  ) {}

  /** Cameras of the model (factsheet extension `cameras`). */
  get cameras(): CameraId[] {
    return ['v1'];
  }

  /** The custom instant actions the model supports (factsheet). */
  get actions(): FeatureAction[] {
    return [];
  }

  handles(actionType: string): boolean {
    return this.actions.some((a) => a.actionType === actionType);
  }

  /** Runs one instant action: sets `st` (RUNNING, FINISHED or FAILED with resultDescription). */
  instant(_a: VdaAction, _st: ActionState): void {}

  /** Advances timers by `dt` simulated seconds. */
  step(_dt: number): void {}

  /** The `teleop` information entry as it is now. */
  info(): RobotTeleopInfo {
    return {
      recording: 'idle',
      call: 'idle',
      networkInterface: 'wlan0',
      ringLight: null,
      patrolLamp: null,
      periscopeHeight: null,
      gimbal: null,
      speaking: false,
      osVersion: '1.0.0',
      updating: false,
    };
  }

  /** Current camera-relevant settings (the video renderer reads them). */
  view(): {
    gimbal: { pan: number; tilt: number };
    eyeHeight: number;
    thermal: { colorMap: 'normal' | 'mono' | 'ir'; rangeMin: number; rangeMax: number };
  } {
    return { gimbal: { pan: 0, tilt: 0 }, eyeHeight: 1.2, thermal: { colorMap: 'normal', rangeMin: 15, rangeMax: 40 } };
  }
}
