import type { MapImage } from '@portal/contract';
import type { Rect } from './geometry';
import type { Camera, Vec } from './types';

export const MIN_ZOOM = 0.5;
export const MAX_ZOOM = 2000;

/** Canvas pixels of a map point: x grows right, y grows down on screen. */
export const worldToScreen = (c: Camera, p: Vec): Vec => ({ x: (p.x - c.x) * c.zoom, y: (c.y - p.y) * c.zoom });
export const screenToWorld = (c: Camera, s: Vec): Vec => ({ x: c.x + s.x / c.zoom, y: c.y - s.y / c.zoom });

const clampZoom = (z: number) => Math.min(MAX_ZOOM, Math.max(MIN_ZOOM, z));

/** Zooms by `factor` keeping the map point under `screen` where it is. */
export function zoomAt(c: Camera, screen: Vec, factor: number): Camera {
  const anchor = screenToWorld(c, screen);
  const zoom = clampZoom(c.zoom * factor);
  return { zoom, x: anchor.x - screen.x / zoom, y: anchor.y + screen.y / zoom };
}

export const panBy = (c: Camera, dxScreen: number, dyScreen: number): Camera => ({
  ...c,
  x: c.x - dxScreen / c.zoom,
  y: c.y + dyScreen / c.zoom,
});

/** The camera showing `bounds` (map metres) centred in a viewport with a margin. */
export function fitCamera(bounds: Rect, viewport: { width: number; height: number }, margin = 24): Camera {
  const w = Math.max(bounds.width, 1);
  const h = Math.max(bounds.height, 1);
  const zoom = clampZoom(Math.min((viewport.width - margin * 2) / w, (viewport.height - margin * 2) / h) || MIN_ZOOM);
  const cx = bounds.x + bounds.width / 2;
  const cy = bounds.y + bounds.height / 2;
  return { zoom, x: cx - viewport.width / 2 / zoom, y: cy + viewport.height / 2 / zoom };
}

/** The map image's extent in map metres (its bottom-left pixel is at the origin). */
export const imageBounds = (img: MapImage): Rect => ({
  x: img.originX,
  y: img.originY,
  width: img.width * img.resolution,
  height: img.height * img.resolution,
});

/** The world rectangle the camera shows in a viewport. */
export function visibleWorld(c: Camera, viewport: { width: number; height: number }): Rect {
  return {
    x: c.x,
    y: c.y - viewport.height / c.zoom,
    width: viewport.width / c.zoom,
    height: viewport.height / c.zoom,
  };
}

const niceSteps = [0.05, 0.1, 0.2, 0.5, 1, 2, 5, 10, 20, 50, 100, 200, 500, 1000];
/** A round distance in metres that is at least `minPixels` long on screen (grid spacing, scale bar). */
export const niceStep = (zoom: number, minPixels: number): number =>
  niceSteps.find((s) => s * zoom >= minPixels) ?? 5000;
