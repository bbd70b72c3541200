import type { ToolState } from '../tool';
import { movedBeyondSlop } from '../tool';
import type { SelectMemory } from './memory';

/** Pressed on empty map: a release clears the selection, moving on draws a rubber band. */
export const pointingCanvas: ToolState<SelectMemory> = {
  onEvent(ctx, m, e) {
    if (e.type === 'pointermove') return movedBeyondSlop(m.downScreen, e) ? 'brushing' : true;
    if (e.type === 'pointerup') {
      if (!m.shiftKey) ctx.select([]);
      return 'idle';
    }
    return e.type === 'pointerdown' ? true : undefined;
  },
};
