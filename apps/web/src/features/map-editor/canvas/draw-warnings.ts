import type { MapWarning } from '../model/occupancy';

const WARNING_COLOR = '#f76707';

/**
 * The warnings' marks on the canvas (layer units: metres, y flipped): an orange ring with a "!" at a
 * waypoint on an obstacle and where an edge first meets one. Sizes are screen pixels over the zoom.
 */
export function drawWarnings(ctx: CanvasRenderingContext2D, warnings: readonly MapWarning[], zoom: number): void {
  if (warnings.length === 0) return;
  const r = 11 / zoom;
  ctx.save();
  ctx.strokeStyle = WARNING_COLOR;
  ctx.fillStyle = WARNING_COLOR;
  ctx.lineWidth = 2.5 / zoom;
  ctx.font = `bold ${12 / zoom}px sans-serif`;
  ctx.textAlign = 'center';
  ctx.textBaseline = 'middle';
  for (const w of warnings) {
    const x = w.at.x;
    const y = -w.at.y;
    ctx.beginPath();
    ctx.arc(x, y, r, 0, Math.PI * 2);
    ctx.stroke();
    ctx.fillText('!', x + r * 1.3, y - r * 1.3);
  }
  ctx.restore();
}
