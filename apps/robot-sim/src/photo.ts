import { encodePng, FrameRenderer, type CameraView } from './video/index.ts';

/** What a photo shows: the camera's view from the robot's pose, without the video's small label. */
export type PhotoView = Omit<CameraView, 'label'>;

/** Size of a still (720p, the robots' high quality). */
export const PHOTO_WIDTH = 1280;
export const PHOTO_HEIGHT = 720;

/** One renderer for every still of the process (rendering is synchronous, so sharing is safe). */
let renderer: FrameRenderer | null = null;

/**
 * A still of a camera as PNG, rendered by the video renderer at 1280 × 720; with `width` (less than
 * 1280) scaled down to that many pixels wide, the aspect kept, as a camera's image pipeline scales
 * its sensor's picture: the burnt-in label and time shrink with it.
 */
export function capturePhoto(view: PhotoView, width = PHOTO_WIDTH): { png: Buffer; width: number; height: number } {
  renderer ??= new FrameRenderer(PHOTO_WIDTH, PHOTO_HEIGHT);
  const rgba = renderer.renderRgba(view);
  return stillPng(rgba, width);
}

/** A 1280 × 720 RGBA frame as a PNG `width` pixels wide (at most 1280; area averages when smaller). */
export function stillPng(rgba: Uint8ClampedArray, width = PHOTO_WIDTH): { png: Buffer; width: number; height: number } {
  const w = Math.max(16, Math.min(PHOTO_WIDTH, Math.round(width)));
  if (w === PHOTO_WIDTH)
    return { png: encodePng(PHOTO_WIDTH, PHOTO_HEIGHT, rgba), width: PHOTO_WIDTH, height: PHOTO_HEIGHT };
  const h = Math.max(9, Math.round((w * PHOTO_HEIGHT) / PHOTO_WIDTH));
  return { png: encodePng(w, h, downscaleRgba(rgba, PHOTO_WIDTH, PHOTO_HEIGHT, w, h)), width: w, height: h };
}

/** Area-average downscaling of an RGBA image (`sw` × `sh` to `dw` × `dh`, each no larger). */
export function downscaleRgba(
  src: Uint8ClampedArray,
  sw: number,
  sh: number,
  dw: number,
  dh: number,
): Uint8ClampedArray {
  const sums = new Float64Array(dw * dh * 4);
  const counts = new Float64Array(dw * dh);
  const colOf = new Int32Array(sw);
  for (let x = 0; x < sw; x++) colOf[x] = Math.min(dw - 1, Math.floor((x * dw) / sw));
  for (let y = 0; y < sh; y++) {
    const row = Math.min(dh - 1, Math.floor((y * dh) / sh)) * dw;
    for (let x = 0, p = y * sw * 4; x < sw; x++, p += 4) {
      const cell = row + colOf[x]!;
      const q = cell * 4;
      sums[q]! += src[p]!;
      sums[q + 1]! += src[p + 1]!;
      sums[q + 2]! += src[p + 2]!;
      sums[q + 3]! += src[p + 3]!;
      counts[cell]! += 1;
    }
  }
  const out = new Uint8ClampedArray(dw * dh * 4);
  for (let i = 0; i < counts.length; i++) {
    const n = counts[i]! || 1;
    for (let c = 0; c < 4; c++) out[i * 4 + c] = Math.round(sums[i * 4 + c]! / n);
  }
  return out;
}
