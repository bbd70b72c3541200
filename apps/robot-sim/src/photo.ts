import { encodePng, FrameRenderer, type CameraView } from './video/index.ts';

/** What a photo shows: the camera's view from the robot's pose, without the video's small label. */
export type PhotoView = Omit<CameraView, 'label'>;

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
