import { panBy, zoomAt } from '../model/camera';
import type { EditorStore } from '../model/store';
import type { EditorEvent, EditorEventType, ToolId, Vec } from '../model/types';

/** Single-key tool shortcuts. */
const toolKeys: Record<string, ToolId> = {
  v: 'select',
  w: 'waypoint',
  e: 'edge',
  n: 'noGo',
  p: 'partialMap',
  h: 'pan',
};

/**
 * Turns DOM pointer, wheel and key events on the canvas element into editor events. Two touch
 * pointers pinch-zoom (the tool's gesture is cancelled). Returns a function that detaches it.
 */
export function attachInput(el: HTMLElement, store: EditorStore): () => void {
  const pointers = new Map<number, Vec>();
  let pinch: { dist: number; mid: Vec } | null = null;

  const screenOf = (e: { clientX: number; clientY: number }): Vec => {
    const r = el.getBoundingClientRect();
    return { x: e.clientX - r.left, y: e.clientY - r.top };
  };
  const send = (
    type: EditorEventType,
    e: MouseEvent | KeyboardEvent | null,
    screen: Vec,
    over: Partial<EditorEvent> = {},
  ) =>
    store.send({
      type,
      screen,
      world: store.toWorld(screen),
      button: e instanceof MouseEvent ? e.button : 0,
      shiftKey: e?.shiftKey ?? false,
      ctrlKey: e ? e.ctrlKey || e.metaKey : false,
      key: e instanceof KeyboardEvent ? e.key : '',
      ...over,
    });
  const pinchOf = (): { dist: number; mid: Vec } => {
    const [a, b] = [...pointers.values()] as [Vec, Vec];
    return { dist: Math.hypot(a.x - b.x, a.y - b.y) || 1, mid: { x: (a.x + b.x) / 2, y: (a.y + b.y) / 2 } };
  };

  const onDown = (e: PointerEvent) => {
    el.focus({ preventScroll: true });
    const screen = screenOf(e);
    pointers.set(e.pointerId, screen);
    el.setPointerCapture?.(e.pointerId);
    if (pointers.size === 2) {
      send('cancel', e, screen);
      pinch = pinchOf();
      return;
    }
    if (pointers.size > 2 || pinch) return;
    e.preventDefault();
    send('pointerdown', e, screen);
  };
  const onMove = (e: PointerEvent) => {
    const screen = screenOf(e);
    if (pointers.has(e.pointerId)) pointers.set(e.pointerId, screen);
    if (pinch && pointers.size === 2) {
      const next = pinchOf();
      const moved = panBy(store.camera, next.mid.x - pinch.mid.x, next.mid.y - pinch.mid.y);
      store.setCamera(zoomAt(moved, next.mid, next.dist / pinch.dist));
      pinch = next;
      return;
    }
    send('pointermove', e, screen, { button: 0 });
  };
  const onUp = (e: PointerEvent) => {
    const had = pointers.delete(e.pointerId);
    if (pinch) {
      if (pointers.size === 0) pinch = null;
      return;
    }
    if (had) send(e.type === 'pointercancel' ? 'cancel' : 'pointerup', e, screenOf(e));
  };
  const onDouble = (e: MouseEvent) => send('doubleclick', e, screenOf(e));
  const onWheel = (e: WheelEvent) => {
    e.preventDefault();
    const scale = e.deltaMode === 1 ? 33 : e.deltaMode === 2 ? 400 : 1;
    send('wheel', e, screenOf(e), { deltaY: e.deltaY * scale });
  };
  const onKeyDown = (e: KeyboardEvent) => {
    const ctrl = e.ctrlKey || e.metaKey;
    const tool = !ctrl && !e.altKey && !e.shiftKey ? toolKeys[e.key.toLowerCase()] : undefined;
    if (tool && !store.prompt) {
      store.setTool(tool);
      e.preventDefault();
      return;
    }
    const handled =
      [' ', 'Escape', 'Enter', 'Delete', 'Backspace'].includes(e.key) ||
      (ctrl && ['z', 'y', 'c', 'v', 'a'].includes(e.key.toLowerCase()));
    if (handled) e.preventDefault();
    if (e.repeat && e.key === ' ') return;
    send('keydown', e, { x: 0, y: 0 });
  };
  const onKeyUp = (e: KeyboardEvent) => send('keyup', e, { x: 0, y: 0 });
  const onContext = (e: Event) => e.preventDefault();
  const onLeave = () => {
    if (pointers.size === 0) store.clearPointer();
  };

  el.addEventListener('pointerdown', onDown);
  el.addEventListener('pointermove', onMove);
  el.addEventListener('pointerup', onUp);
  el.addEventListener('pointercancel', onUp);
  el.addEventListener('pointerleave', onLeave);
  el.addEventListener('dblclick', onDouble);
  el.addEventListener('wheel', onWheel, { passive: false });
  el.addEventListener('keydown', onKeyDown);
  el.addEventListener('keyup', onKeyUp);
  el.addEventListener('contextmenu', onContext);
  return () => {
    el.removeEventListener('pointerdown', onDown);
    el.removeEventListener('pointermove', onMove);
    el.removeEventListener('pointerup', onUp);
    el.removeEventListener('pointercancel', onUp);
    el.removeEventListener('pointerleave', onLeave);
    el.removeEventListener('dblclick', onDouble);
    el.removeEventListener('wheel', onWheel);
    el.removeEventListener('keydown', onKeyDown);
    el.removeEventListener('keyup', onKeyUp);
    el.removeEventListener('contextmenu', onContext);
  };
}
