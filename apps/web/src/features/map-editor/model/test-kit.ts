import type { MapDocument, Waypoint } from '@portal/contract';
import { emptyMapDocument } from '@portal/contract';
import { worldToScreen } from './camera';
import { EditorStore, type EditorStoreOptions } from './store';
import type { EditorEvent, EditorEventType } from './types';

/** Drives an editor store like a pointer and keyboard would, without a DOM (model tests). */
export function driver(doc: MapDocument = emptyMapDocument(), options: EditorStoreOptions = {}) {
  const store = new EditorStore(doc, options);
  store.setCamera({ x: -10, y: 10, zoom: 20 });
  const event = (type: EditorEventType, x = 0, y = 0, over: Partial<EditorEvent> = {}): EditorEvent => ({
    type,
    world: { x, y },
    screen: worldToScreen(store.camera, { x, y }),
    button: 0,
    shiftKey: false,
    key: '',
    ...over,
  });
  const send = (type: EditorEventType, x = 0, y = 0, over: Partial<EditorEvent> = {}) =>
    store.send(event(type, x, y, over));
  return {
    store,
    down: (x: number, y: number, over: Partial<EditorEvent> = {}) => send('pointerdown', x, y, over),
    move: (x: number, y: number, over: Partial<EditorEvent> = {}) => send('pointermove', x, y, over),
    up: (x: number, y: number, over: Partial<EditorEvent> = {}) => send('pointerup', x, y, over),
    click(x: number, y: number, over: Partial<EditorEvent> = {}) {
      this.down(x, y, over);
      this.up(x, y, over);
    },
    drag(from: [number, number], to: [number, number], over: Partial<EditorEvent> = {}) {
      this.down(from[0], from[1], over);
      this.move((from[0] + to[0]) / 2, (from[1] + to[1]) / 2, over);
      this.move(to[0], to[1], over);
      this.up(to[0], to[1], over);
    },
    key: (key: string, over: Partial<EditorEvent> = {}) => send('keydown', 0, 0, { key, ...over }),
    dblclick: (x: number, y: number) => send('doubleclick', x, y),
    /** The states entered since the last call. */
    path(): string[] {
      return store.transitions.splice(0);
    },
  };
}

export const wp = (id: number, x: number, y: number, over: Partial<Waypoint> = {}): Waypoint => ({
  id,
  name: `WP ${id}`,
  x,
  y,
  theta: 0,
  type: 1,
  ...over,
});

/** Three waypoints in a row, 1–2 connected, and a route through 2 and 3. */
export const sampleDoc = (): MapDocument => ({
  ...emptyMapDocument(),
  waypoints: [wp(1, 0, 0), wp(2, 5, 0), wp(3, 10, 0)],
  edges: [{ id: 1, from: 1, to: 2, oneWay: false, speed: 'normal', path: null }],
  routes: [{ id: 1, name: 'Lobby loop', waypointIds: [2, 3], recorded: null }],
});
