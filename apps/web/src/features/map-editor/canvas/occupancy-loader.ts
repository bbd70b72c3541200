import type { MapImage } from '@portal/contract';
import { occupancyFromRgba, type Occupancy } from '../model/occupancy';

/** Larger images are read scaled down to this many pixels (a 100 MP image would be 400 MB of RGBA). */
const MAX_PIXELS = 25_000_000;

/**
 * The occupancy of the floor's map image (its dark pixels), read through an offscreen canvas; null
 * when the browser cannot read images back (no OffscreenCanvas, as in jsdom) or the image fails.
 */
export function loadOccupancy(image: MapImage): Promise<Occupancy | null> {
  const url = image.url;
  if (!url || typeof OffscreenCanvas === 'undefined') return Promise.resolve(null);
  return new Promise((resolve) => {
    const img = new window.Image();
    img.onload = () => {
      try {
        const scale = Math.min(1, Math.sqrt(MAX_PIXELS / (image.width * image.height)));
        const width = Math.max(1, Math.floor(image.width * scale));
        const height = Math.max(1, Math.floor(image.height * scale));
        const ctx = new OffscreenCanvas(width, height).getContext('2d', { willReadFrequently: true });
        if (!ctx) return resolve(null);
        ctx.drawImage(img, 0, 0, width, height);
        const { data } = ctx.getImageData(0, 0, width, height);
        resolve(
          occupancyFromRgba(data, {
            width,
            height,
            resolution: (image.resolution * image.width) / width,
            originX: image.originX,
            originY: image.originY,
          }),
        );
      } catch {
        resolve(null);
      }
    };
    img.onerror = () => resolve(null);
    img.src = url;
  });
}
