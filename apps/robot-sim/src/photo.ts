import type { CameraId, ThermalColorMap } from '@portal/contract';
import type { World } from './world.ts';

/** What a photo shows: the camera's view from the robot's pose (video/render.ts CameraView). */
export interface PhotoView {
  camera: CameraId;
  pose: { x: number; y: number; theta: number };
  world: World;
  gimbal: { pan: number; tilt: number };
  eyeHeight: number;
  thermal: { colorMap: ThermalColorMap; rangeMin: number; rangeMax: number };
  robotName: string;
  now: number;
}

/** A still of a camera as PNG (placeholder until the renderer is wired in). */
export function capturePhoto(_view: PhotoView): { png: Buffer; width: number; height: number } {
  throw new Error('photos are not available yet');
}
