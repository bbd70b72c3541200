import type { MapDocument } from '@portal/contract';
import type { Camera } from '../model/types';
import type { DrawView } from './draw';

/** Above this many pixels (either side) the cache is not worth it: zoomed in, few items show anyway. */
const MAX_SIDE = 3072;
/** Room around the document's extent for labels, arrowheads and outlines, in screen pixels. */
const PAD_PX = 160;
/** A zoom change redraws the cache once the zoom has been still this long (the scaled one shows meanwhile). */
const SETTLE_MS = 150;

interface Extent {
  minX: number;
  maxX: number;
  minY: number;
  maxY: number;
}

function extentOf(doc: MapDocument): Extent | null {
  let minX = Infinity;
  let maxX = -Infinity;
  let minY = Infinity;
  let maxY = -Infinity;
  const add = (x: number, y: number) => {
    if (x < minX) minX = x;
    if (x > maxX) maxX = x;
    if (y < minY) minY = y;
    if (y > maxY) maxY = y;
  };
  for (const w of doc.waypoints) add(w.x, w.y);
  for (const e of doc.edges) for (const p of e.path ?? []) add(p.x, p.y);
  for (const a of doc.noGoAreas) for (const p of a.points) add(p.x, p.y);
  for (const r of doc.partialMaps) {
    add(r.x, r.y);
    add(r.x + r.width, r.y + r.height);
  }
  return minX === Infinity ? null : { minX, maxX, minY, maxY };
}

/**
 * The document layer drawn once into an offscreen canvas covering the whole document at the current
 * zoom, so panning only copies a bitmap (drawing thousands of waypoints and edges every frame is what
 * made panning a zoomed-out map slow in software rendering). A zoom change shows the scaled bitmap
 * and redraws it when the zoom settles. Used only while the whole document fits in MAX_SIDE pixels;
 * zoomed in further, the caller draws directly (culled to the viewport, which is cheap then).
 */
export class DocumentCache {
  private canvas: HTMLCanvasElement | null = null;
  private key: unknown[] = [];
  /** Camera of the cached bitmap: its top-left corner in map coordinates and its zoom. */
  private at: Camera | null = null;
  private width = 0;
  private height = 0;
  private settleTimer: ReturnType<typeof setTimeout> | null = null;

  constructor(private readonly onSettled: () => void) {}

  /**
   * Draws the document through the cache into `ctx` (whose transform is the stage's: map units with y
   * flipped). Answers false when the cache does not apply; the caller then draws directly.
   */
  draw(
    ctx: CanvasRenderingContext2D,
    view: DrawView,
    deps: readonly unknown[],
    render: (target: CanvasRenderingContext2D, v: DrawView) => void,
  ): boolean {
    const { zoom } = view.camera;
    const ext = extentOf(deps[0] as MapDocument);
    if (!ext) return true; // nothing to draw
    const pad = PAD_PX / zoom;
    const width = Math.ceil((ext.maxX - ext.minX) * zoom + 2 * PAD_PX);
    const height = Math.ceil((ext.maxY - ext.minY) * zoom + 2 * PAD_PX);
    const fits = width <= MAX_SIDE && height <= MAX_SIDE;
    const fresh = !!this.canvas && !!this.at && sameDeps(this.key, deps);
    if (!fresh) {
      if (!fits) {
        this.release();
        return false;
      }
      this.renderCache(ext, pad, width, height, view, deps, render);
      if (!this.canvas) return false;
    } else if (this.at!.zoom !== zoom) {
      // Zooming: show the scaled bitmap; redraw once the zoom has been still for a moment.
      if (!fits && !this.settleTimer) {
        this.release();
        return false;
      }
      this.scheduleSettle();
    }
    const at = this.at!;
    ctx.drawImage(this.canvas!, at.x, -at.y, this.width / at.zoom, this.height / at.zoom);
    return true;
  }

  private renderCache(
    ext: Extent,
    pad: number,
    width: number,
    height: number,
    view: DrawView,
    deps: readonly unknown[],
    render: (target: CanvasRenderingContext2D, v: DrawView) => void,
  ) {
    const { zoom } = view.camera;
    const canvas = this.canvas ?? document.createElement('canvas');
    canvas.width = width;
    canvas.height = height;
    const c = canvas.getContext('2d');
    if (!c) return;
    const camera: Camera = { x: ext.minX - pad, y: ext.maxY + pad, zoom };
    c.setTransform(zoom, 0, 0, zoom, -camera.x * zoom, camera.y * zoom);
    c.clearRect(camera.x, -camera.y, width / zoom, height / zoom);
    render(c, { camera, viewport: { width, height } });
    this.canvas = canvas;
    this.at = camera;
    this.width = width;
    this.height = height;
    this.key = [...deps];
  }

  private scheduleSettle() {
    if (this.settleTimer) clearTimeout(this.settleTimer);
    this.settleTimer = setTimeout(() => {
      this.settleTimer = null;
      this.key = []; // redraw at the new zoom
      this.onSettled();
    }, SETTLE_MS);
  }

  /** The next draw renders the cache again (document, selection or route highlight changed). */
  invalidate(): void {
    this.key = [];
  }

  release(): void {
    if (this.settleTimer) clearTimeout(this.settleTimer);
    this.settleTimer = null;
    this.canvas = null;
    this.at = null;
    this.key = [];
  }
}

const sameDeps = (a: readonly unknown[], b: readonly unknown[]) =>
  a.length === b.length && a.every((v, i) => Object.is(v, b[i]));
