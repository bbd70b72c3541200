import type { MapSession } from '@portal/contract';

/** The map a robot has built so far, decoded, with its frame (metres, origin at the bottom-left). */
export interface OverlayMap {
  bitmap: CanvasImageSource;
  width: number;
  height: number;
  resolution: number;
  originX: number;
  originY: number;
}

export interface SessionOverlay {
  map: OverlayMap | null;
  /** Route recording: the sampled points so far. */
  points: ReadonlyArray<{ x: number; y: number }>;
}

const empty: SessionOverlay = { map: null, points: [] };

/**
 * What a running map creation or route recording draws over the floor: written when a `mapSession`
 * message arrives, read by the canvas's session layer when it draws (like LiveSource: no React
 * render of the canvas per update).
 */
export class SessionOverlaySource {
  private value: SessionOverlay = empty;
  private readonly listeners = new Set<() => void>();

  get(): SessionOverlay {
    return this.value;
  }
  set(value: SessionOverlay): void {
    this.value = value;
    for (const l of this.listeners) l();
  }
  clear(): void {
    if (this.value !== empty) this.set(empty);
  }
  subscribe(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }
}

export const OVERLAY_ALPHA = 0.55;
const PATH_COLOR = '#f76707';

/** Draws the overlay in layer units (metres, y flipped), under the document. */
export function drawSessionOverlay(ctx: CanvasRenderingContext2D, overlay: SessionOverlay, zoom: number): void {
  const { map, points } = overlay;
  if (map) {
    ctx.save();
    ctx.globalAlpha = OVERLAY_ALPHA;
    ctx.imageSmoothingEnabled = false;
    const w = map.width * map.resolution;
    const h = map.height * map.resolution;
    ctx.drawImage(map.bitmap, map.originX, -(map.originY + h), w, h);
    ctx.restore();
  }
  if (points.length > 0) {
    ctx.beginPath();
    points.forEach((p, i) => (i === 0 ? ctx.moveTo(p.x, -p.y) : ctx.lineTo(p.x, -p.y)));
    ctx.strokeStyle = PATH_COLOR;
    ctx.lineWidth = 3 / zoom;
    ctx.lineJoin = 'round';
    ctx.lineCap = 'round';
    ctx.stroke();
    ctx.beginPath();
    const r = 3 / zoom;
    for (const p of points) {
      ctx.moveTo(p.x + r, -p.y);
      ctx.arc(p.x, -p.y, r, 0, Math.PI * 2);
    }
    ctx.fillStyle = PATH_COLOR;
    ctx.fill();
  }
}

/**
 * Feeds the source from a session: the PNG data URL is decoded off the render (the previous map
 * stays shown until the next one has loaded, so the overlay grows without flicker).
 */
export function feedOverlay(source: SessionOverlaySource, session: MapSession | null): () => void {
  const active = session !== null && session.state !== 'saved' && session.state !== 'cancelled';
  if (!session || !active) {
    source.clear();
    return () => undefined;
  }
  const points = session.kind === 'recording' ? session.points : [];
  const frame = session.kind === 'mapping' ? session.map : null;
  const current = source.get().map;
  source.set({ map: frame ? current : null, points });
  if (!frame) return () => undefined;
  const img = new window.Image();
  let live = true;
  img.onload = () => {
    if (!live) return;
    source.set({ map: { ...frame, bitmap: img }, points });
  };
  img.src = frame.image;
  return () => {
    live = false;
    img.onload = null;
  };
}
