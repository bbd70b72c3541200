import type { CameraId, ThermalColorMap } from '@portal/contract';
import { encodePng, FrameRenderer } from './video/index.ts';
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

/** Size of a still (720p, the robots' high quality). */
export const PHOTO_WIDTH = 1280;
export const PHOTO_HEIGHT = 720;

/** One renderer for every still of the process (rendering is synchronous, so sharing is safe). */
let renderer: FrameRenderer | null = null;

/** A still of a camera as PNG, rendered by the video renderer. */
export function capturePhoto(view: PhotoView): { png: Buffer; width: number; height: number } {
  renderer ??= new FrameRenderer(PHOTO_WIDTH, PHOTO_HEIGHT);
  const rgba = renderer.renderRgba(view);
  return { png: encodePng(PHOTO_WIDTH, PHOTO_HEIGHT, rgba), width: PHOTO_WIDTH, height: PHOTO_HEIGHT };
}
