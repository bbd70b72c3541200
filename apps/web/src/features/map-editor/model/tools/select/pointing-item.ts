import type { ToolState } from '../tool';
import { movedBeyondSlop } from '../tool';
import { sameItem, type SelectMemory } from './memory';

/** Pressed on an item: a release selects (shift toggles), moving on drags selected waypoints. */
export const pointingItem: ToolState<SelectMemory> = {
  onEnter(ctx, m) {
    const target = m.target!;
    if (ctx.selection.some((s) => sameItem(s, target))) return;
    ctx.select(m.shiftKey ? [...ctx.selection, target] : [target]);
    m.selectedOnDown = true;
  },
  onEvent(ctx, m, e) {
    if (e.type === 'pointermove') {
      const draggable = ctx.selection.some((s) => s.kind === 'waypoint');
      if (!ctx.readOnly && draggable && movedBeyondSlop(m.downScreen, e)) return 'dragging';
      return true;
    }
    if (e.type === 'pointerup') {
      const target = m.target!;
      if (!m.selectedOnDown) ctx.select(m.shiftKey ? ctx.selection.filter((s) => !sameItem(s, target)) : [target]);
      return 'idle';
    }
    return e.type === 'pointerdown' ? true : undefined;
  },
};
