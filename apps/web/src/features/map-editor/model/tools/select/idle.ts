import type { ToolState } from '../tool';
import { isPrimary } from '../tool';
import type { SelectMemory } from './memory';

/** Waiting: a press on an item points at it, a press on empty map may start a rubber band. */
export const idle: ToolState<SelectMemory> = {
  onEvent(ctx, m, e) {
    if (e.type !== 'pointerdown' || !isPrimary(e)) return;
    m.downScreen = e.screen;
    m.downWorld = e.world;
    m.shiftKey = e.shiftKey;
    m.target = ctx.hitItem(e.world);
    return m.target ? 'pointingItem' : 'pointingCanvas';
  },
};
