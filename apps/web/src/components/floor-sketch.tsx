import { WaypointType, type MapDocument, type MapImage } from '@portal/contract';
import type { PointerEvent as ReactPointerEvent, ReactNode } from 'react';

type Waypoint = MapDocument['waypoints'][number];

/** Map coordinates → the sketch's SVG coordinates, and the sketch's unit size (`r`). */
export interface SketchFrame {
  px: (x: number) => number;
  py: (y: number) => number;
  r: number;
  byId: ReadonlyMap<number, Waypoint>;
}

/** A point on the map in metres (a waypoint, or a place that is not one, like a check item's). */
export interface SketchPoint {
  x: number;
  y: number;
}

/** A numbered target drawn over its waypoint or point (a flow's move), `highlighted` in orange. */
export interface SketchTarget {
  key: string | number;
  number: number;
  waypoint: SketchPoint;
  highlighted: boolean;
  /** A name written beside the target. */
  label?: string;
  /** The direction faced there (radians, counter-clockwise from the map's x axis): a short tick. */
  heading?: number;
  /** Size in units of `r` (default 1.6). */
  size?: number;
  title?: string;
  testId?: string;
  current?: boolean;
}

/** Whether a map has anything to sketch (a visible waypoint). */
export const canSketch = (doc: MapDocument | undefined): doc is MapDocument =>
  !!doc && doc.waypoints.some((w) => w.type !== WaypointType.invisible);

/** A pointer on the sketch in map coordinates (metres): pressed, moved while pressed, released. */
export type SketchPointer = (phase: 'down' | 'move' | 'up', point: { x: number; y: number }) => void;

/**
 * A small sketch of a floor's map as SVG (the flow builder's path preview, a flow run's map, a check
 * item's location): its visible waypoints and route graph in grey, a path over them, numbered targets,
 * and what the caller adds (`under`: after the path; `over`: on top). With `image` the floor's map
 * image lies beneath; `extent` names points the view must include; `onPointer` makes it a picker
 * (a press, drag and release reported in map coordinates). The map's y points up; the SVG's down.
 * Null when there is nothing to show: no visible waypoint, image or extent (`canSketch`: the caller
 * says so in words).
 */
export function FloorSketch({
  document: doc,
  unit,
  maxHeight,
  label,
  path,
  pathColor,
  pathTestId,
  targets,
  waypoint,
  under,
  over,
  image,
  extent = [],
  onPointer,
  testId,
}: {
  document: MapDocument;
  /** The unit size as a share of the map's larger side. */
  unit: number;
  maxHeight: number;
  label: string;
  path: ReadonlyArray<SketchPoint>;
  pathColor: string;
  pathTestId?: string;
  targets: SketchTarget[];
  /** Per waypoint: its size in units of `r` (default 0.7) and what a click on it does. */
  waypoint?: (w: Waypoint) => { size?: number; fill?: string; onClick?: () => void; label?: string; testId?: string };
  under?: (frame: SketchFrame) => ReactNode;
  over?: (frame: SketchFrame) => ReactNode;
  /** The floor's map image, drawn beneath (when it has a URL) and included in the view. */
  image?: MapImage | null;
  /** Points (map metres) the view includes besides the waypoints. */
  extent?: ReadonlyArray<{ x: number; y: number }>;
  onPointer?: SketchPointer;
  testId?: string;
}) {
  const waypoints = doc.waypoints.filter((w) => w.type !== WaypointType.invisible);
  const imageCorners = image
    ? [
        { x: image.originX, y: image.originY },
        { x: image.originX + image.width * image.resolution, y: image.originY + image.height * image.resolution },
      ]
    : [];
  const points = [...waypoints, ...imageCorners, ...extent];
  if (points.length === 0) return null;
  const byId = new Map(doc.waypoints.map((w) => [w.id, w]));
  const xs = points.map((w) => w.x);
  const ys = points.map((w) => w.y);
  const minX = Math.min(...xs);
  const maxX = Math.max(...xs);
  const minY = Math.min(...ys);
  const maxY = Math.max(...ys);
  const span = Math.max(maxX - minX, maxY - minY, 1);
  const pad = span * 0.08;
  const frame: SketchFrame = {
    px: (x) => x - minX + pad,
    py: (y) => maxY - y + pad,
    r: span * unit,
    byId,
  };
  const { px, py, r } = frame;
  /** The pointer's map position: SVG user units back through px and py (both of slope ±1). */
  const pointer = (phase: 'down' | 'move' | 'up') => (e: ReactPointerEvent<SVGSVGElement>) => {
    const svg = e.currentTarget;
    const ctm = svg.getScreenCTM();
    if (!onPointer || !ctm) return;
    if (phase === 'move' && e.buttons === 0) return;
    if (phase === 'down') svg.setPointerCapture?.(e.pointerId);
    const at = new DOMPoint(e.clientX, e.clientY).matrixTransform(ctm.inverse());
    onPointer(phase, { x: at.x - px(0), y: py(0) - at.y });
  };
  return (
    <svg
      viewBox={`0 0 ${maxX - minX + 2 * pad} ${maxY - minY + 2 * pad}`}
      width="100%"
      style={{
        maxHeight,
        background: 'var(--mantine-color-gray-0)',
        borderRadius: 4,
        ...(onPointer ? { cursor: 'crosshair', touchAction: 'none' } : {}),
      }}
      role="img"
      aria-label={label}
      data-testid={testId}
      onPointerDown={onPointer ? pointer('down') : undefined}
      onPointerMove={onPointer ? pointer('move') : undefined}
      onPointerUp={onPointer ? pointer('up') : undefined}
    >
      {image?.url && (
        <image
          href={image.url}
          x={px(image.originX)}
          y={py(image.originY + image.height * image.resolution)}
          width={image.width * image.resolution}
          height={image.height * image.resolution}
          preserveAspectRatio="none"
        />
      )}
      {doc.edges.map((e) => {
        const a = byId.get(e.from);
        const b = byId.get(e.to);
        if (!a || !b) return null;
        return (
          <line
            key={e.id}
            x1={px(a.x)}
            y1={py(a.y)}
            x2={px(b.x)}
            y2={py(b.y)}
            stroke="var(--mantine-color-gray-4)"
            strokeWidth={r * 0.4}
          />
        );
      })}
      {path.length > 1 && (
        <polyline
          points={path.map((w) => `${px(w.x)},${py(w.y)}`).join(' ')}
          fill="none"
          stroke={pathColor}
          strokeWidth={r * 0.5}
          strokeLinejoin="round"
          data-testid={pathTestId}
        />
      )}
      {under?.(frame)}
      {waypoints.map((w) => {
        const o = waypoint?.(w) ?? {};
        return (
          <circle
            key={w.id}
            cx={px(w.x)}
            cy={py(w.y)}
            r={r * (o.size ?? 0.7)}
            fill={o.fill ?? 'var(--mantine-color-gray-5)'}
            style={o.onClick ? { cursor: 'pointer' } : undefined}
            onClick={o.onClick}
            role={o.onClick ? 'button' : undefined}
            aria-label={o.label}
            data-testid={o.testId}
          >
            <title>{w.name}</title>
          </circle>
        );
      })}
      {targets.map((x) => (
        <g
          key={x.key}
          data-testid={x.testId}
          data-current={x.current ? 'true' : undefined}
          // Without a title there is nothing to hover: clicks go through to the waypoint below.
          pointerEvents={x.title === undefined ? 'none' : undefined}
        >
          {x.title !== undefined && <title>{x.title}</title>}
          {x.heading !== undefined && Number.isFinite(x.heading) && (
            <line
              x1={px(x.waypoint.x)}
              y1={py(x.waypoint.y)}
              x2={px(x.waypoint.x) + Math.cos(x.heading) * r * 3.2}
              y2={py(x.waypoint.y) - Math.sin(x.heading) * r * 3.2}
              stroke={x.highlighted ? 'var(--mantine-color-orange-8)' : 'var(--mantine-color-blue-8)'}
              strokeWidth={r * 0.5}
              strokeLinecap="round"
            />
          )}
          <circle
            cx={px(x.waypoint.x)}
            cy={py(x.waypoint.y)}
            r={r * (x.size ?? 1.6)}
            fill={x.highlighted ? 'var(--mantine-color-orange-6)' : 'var(--mantine-color-blue-6)'}
            stroke="white"
            strokeWidth={r * 0.25}
          />
          <text
            x={px(x.waypoint.x)}
            y={py(x.waypoint.y)}
            fontSize={r * 1.8}
            fill="white"
            textAnchor="middle"
            dominantBaseline="central"
            fontWeight={700}
          >
            {x.number}
          </text>
          {x.label !== undefined && (
            <text
              x={px(x.waypoint.x) + r * ((x.size ?? 1.6) + 0.6)}
              y={py(x.waypoint.y) - r * ((x.size ?? 1.6) + 0.2)}
              fontSize={r * 1.6}
              fill="var(--mantine-color-dark-6)"
              stroke="white"
              strokeWidth={r * 0.35}
              paintOrder="stroke"
            >
              {x.label}
            </text>
          )}
        </g>
      ))}
      {over?.(frame)}
    </svg>
  );
}
