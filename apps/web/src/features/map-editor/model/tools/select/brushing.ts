import { inRect, rectFrom } from '../../geometry';
import type { SelectionItem } from '../../types';
import type { ToolState } from '../tool';
import { sameItem, type SelectMemory } from './memory';

/** Rubber band: waypoints inside the rectangle are selected on release (shift adds them). */
export const brushing: ToolState<SelectMemory> = {
  onEvent(ctx, m, e) {
    if (e.type === 'pointermove') {
      ctx.setPreview({ kind: 'brush', a: m.downWorld, b: e.world });
      return true;
    }
    if (e.type === 'pointerup') {
      const rect = rectFrom(m.downWorld, e.world);
      const inside: SelectionItem[] = ctx.doc.waypoints
        .filter((w) => inRect(w, rect))
        .map((w) => ({ kind: 'waypoint', id: w.id }));
      const base = m.shiftKey ? ctx.selection.filter((s) => !inside.some((i) => sameItem(i, s))) : [];
      ctx.select([...base, ...inside]);
      return 'idle';
    }
    return e.type === 'pointerdown' ? true : undefined;
  },
};
