import type { MapImage, Waypoint } from '@portal/contract';
import type Konva from 'konva';
import { useEffect, useRef, useState } from 'react';
import { Image as KonvaImage, Layer, Shape, Stage } from 'react-konva';
import { waypointIndex } from '../model/geometry';
import type { EditorStore } from '../model/store';
import type { ToolId } from '../model/types';
import { drawSessionOverlay, type SessionOverlaySource } from '../components/session-overlay';
import {
  drawAreas,
  drawEdges,
  drawGrid,
  drawPreview,
  drawRobots,
  drawRoute,
  drawWaypoints,
  selectionKeys,
  type DrawView,
} from './draw';
import { DocumentCache } from './doc-cache';
import { drawWarnings } from './draw-warnings';
import { useMapWarnings } from './warning-source';
import type { LiveSource } from './live-source';
import { attachInput } from './pointer-input';

export interface MapCanvasProps {
  store: EditorStore;
  image: MapImage | null;
  live: LiveSource;
  /** A robot's map creation or route recording in progress, drawn between the image and the document. */
  overlay?: SessionOverlaySource;
  label: string;
  /** The canvas has its size (the first fit can happen). */
  onReady?: () => void;
}

const cursors: Record<ToolId, string> = {
  select: 'default',
  waypoint: 'crosshair',
  edge: 'crosshair',
  noGo: 'crosshair',
  partialMap: 'crosshair',
  pan: 'grab',
};

const native = (c: Konva.Context): CanvasRenderingContext2D => c._context;

/** Waypoint lookup per document version (the drawing runs every frame while panning). */
const indexCache = new WeakMap<readonly Waypoint[], Map<number, Waypoint>>();
const indexOf = (store: EditorStore) => {
  let idx = indexCache.get(store.doc.waypoints);
  if (!idx) {
    idx = waypointIndex(store.doc);
    indexCache.set(store.doc.waypoints, idx);
  }
  return idx;
};

/**
 * The map drawing (react-konva). The React tree is static: each layer's shape draws from the store
 * when Konva redraws, pan and zoom only change the stage transform, and input goes to the model
 * (which does its own hit testing), so no Konva node listens to events.
 */
export function MapCanvas({ store, image, live, overlay, label, onReady }: MapCanvasProps) {
  const box = useRef<HTMLDivElement>(null);
  const stage = useRef<Konva.Stage>(null);
  const mapLayer = useRef<Konva.Layer>(null);
  const liveLayer = useRef<Konva.Layer>(null);
  const overlayLayer = useRef<Konva.Layer>(null);
  const [size, setSize] = useState<{ width: number; height: number } | null>(null);
  const [loaded, setLoaded] = useState<{ url: string; img: HTMLImageElement } | null>(null);
  const bitmap = loaded && loaded.url === image?.url ? loaded.img : null;
  const docCache = useRef<DocumentCache | null>(null);
  // Warnings against the image's obstacles, marked over the document (issue 12 item 10).
  const warnings = useMapWarnings(store, image);
  const warningsRef = useRef(warnings);
  useEffect(() => {
    warningsRef.current = warnings;
    mapLayer.current?.batchDraw();
  }, [warnings]);
  useEffect(() => {
    // It asks for a redraw of the map layer when a zoom has settled.
    const cache = new DocumentCache(() => mapLayer.current?.batchDraw());
    docCache.current = cache;
    return () => {
      cache.release();
      docCache.current = null;
    };
  }, []);
  const readyRef = useRef(onReady);
  useEffect(() => {
    readyRef.current = onReady;
  }, [onReady]);

  useEffect(() => {
    const el = box.current!;
    const measure = () => {
      const r = el.getBoundingClientRect();
      const next = { width: Math.max(1, Math.floor(r.width)), height: Math.max(1, Math.floor(r.height)) };
      store.setViewport(next.width, next.height);
      setSize((prev) => (prev && prev.width === next.width && prev.height === next.height ? prev : next));
    };
    measure();
    const ro = new ResizeObserver(measure);
    ro.observe(el);
    return () => ro.disconnect();
  }, [store]);

  const hasSize = size !== null;
  useEffect(() => {
    if (hasSize) readyRef.current?.();
  }, [hasSize]);

  useEffect(() => attachInput(box.current!, store), [store]);

  useEffect(() => {
    const url = image?.url;
    if (!url) return;
    const img = new window.Image();
    img.onload = () => setLoaded({ url, img });
    img.src = url;
    return () => {
      img.onload = null;
    };
  }, [image?.url]);

  // Camera → stage transform; model → redraw of the map layer; live → redraw of the live layer.
  useEffect(() => {
    const apply = () => {
      const s = stage.current;
      if (!s) return;
      const { x, y, zoom } = store.camera;
      s.scale({ x: zoom, y: zoom });
      s.position({ x: -x * zoom, y: y * zoom });
      s.batchDraw();
    };
    apply();
    const offCamera = store.subscribe('camera', apply);
    const offModel = store.subscribe('model', () => {
      mapLayer.current?.batchDraw();
      if (box.current) box.current.style.cursor = cursors[store.toolId];
    });
    const offLive = live.subscribe(() => liveLayer.current?.batchDraw());
    const offOverlay = overlay?.subscribe(() => overlayLayer.current?.batchDraw());
    return () => {
      offCamera();
      offModel();
      offLive();
      offOverlay?.();
    };
  }, [store, live, overlay, size]);

  // Each layer's canvas says which it is (tests and the editor benchmark read them by name).
  const hasOverlay = !!overlay;
  useEffect(() => {
    for (const layer of stage.current?.getLayers() ?? []) layer.getNativeCanvasElement().dataset.layer = layer.name();
  }, [size, hasOverlay]);

  const view = () => ({ camera: store.camera, viewport: store.getViewport() });

  return (
    <div
      ref={box}
      tabIndex={0}
      role="application"
      aria-label={label}
      data-testid="map-canvas"
      style={{ position: 'absolute', inset: 0, outline: 'none', touchAction: 'none', cursor: cursors[store.toolId] }}
    >
      {size && (
        <Stage ref={stage} width={size.width} height={size.height} listening={false}>
          <Layer name="base" listening={false}>
            {image && bitmap && (
              <KonvaImage
                image={bitmap}
                x={image.originX}
                y={-(image.originY + image.height * image.resolution)}
                width={image.width * image.resolution}
                height={image.height * image.resolution}
                listening={false}
              />
            )}
            <Shape listening={false} sceneFunc={(c) => drawGrid(native(c), view())} />
          </Layer>
          {overlay && (
            <Layer ref={overlayLayer} name="overlay" listening={false}>
              <Shape
                listening={false}
                sceneFunc={(c) => drawSessionOverlay(native(c), overlay.get(), store.camera.zoom)}
              />
            </Layer>
          )}
          <Layer ref={mapLayer} name="document" listening={false}>
            <Shape
              listening={false}
              sceneFunc={(c) => {
                const ctx = native(c);
                const v = view();
                const doc = store.doc;
                const sel = selectionKeys(store.selection);
                const byId = indexOf(store);
                const drawDocument = (target: CanvasRenderingContext2D, dv: DrawView) => {
                  drawAreas(target, doc, dv, sel);
                  const route = doc.routes.find((r) => r.id === store.selectedRouteId);
                  if (route) drawRoute(target, route.waypointIds, byId, dv.camera.zoom);
                  drawEdges(target, doc, byId, dv, sel);
                  drawWaypoints(target, doc, dv, sel);
                };
                // Zoomed out, the whole document is one cached bitmap that panning only moves.
                const deps = [doc, [...sel].sort().join(','), store.selectedRouteId];
                const cache = docCache.current;
                if (!cache || !cache.draw(ctx, v, deps, drawDocument)) drawDocument(ctx, v);
                drawPreview(ctx, store.preview, v.camera.zoom);
                drawWarnings(ctx, warningsRef.current, v.camera.zoom);
              }}
            />
          </Layer>
          <Layer ref={liveLayer} name="live" listening={false}>
            <Shape listening={false} sceneFunc={(c) => drawRobots(native(c), live.get(), store.camera.zoom)} />
          </Layer>
        </Stage>
      )}
    </div>
  );
}
