import { parentPort } from 'node:worker_threads';
import { createWorld, type Rect, type World } from '../world.ts';
import { FrameRenderer, type CameraView } from './render.ts';

/** A floor plan as plain data (a World's functions do not cross threads). */
export interface WorldData {
  mapId: string;
  bounds: Rect;
  walls: readonly Rect[];
  pillars: readonly Rect[];
}
export interface RenderRequest {
  id: number;
  width: number;
  height: number;
  /** Cache key of the world: the same key means the same plan. */
  worldKey: string;
  world: WorldData | null;
  view: Omit<CameraView, 'world'>;
}
export interface RenderReply {
  id: number;
  width: number;
  height: number;
  /** I420 */
  data: Uint8Array;
}

/**
 * Renders camera frames off the simulator's main thread, so that a robot's event loop stays free
 * for its control channel (control input must not wait behind a 1080p frame).
 */
const worlds = new Map<string, World>();
const renderers = new Map<string, FrameRenderer>();

parentPort?.on('message', (req: RenderRequest) => {
  let world = worlds.get(req.worldKey);
  if (!world && req.world) {
    world = createWorld(req.world.mapId, req.world.bounds, req.world.walls, req.world.pillars);
    worlds.set(req.worldKey, world);
  }
  if (!world) return;
  const key = `${req.width}x${req.height}`;
  let renderer = renderers.get(key);
  if (!renderer) renderers.set(key, (renderer = new FrameRenderer(req.width, req.height)));
  const frame = renderer.render({ ...req.view, world });
  const data = new Uint8Array(frame.length);
  data.set(frame);
  const reply: RenderReply = { id: req.id, width: req.width, height: req.height, data };
  parentPort!.postMessage(reply, [data.buffer]);
});

parentPort?.postMessage({ ready: true });
