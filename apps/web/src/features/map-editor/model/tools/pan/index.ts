import { panBy } from '../../camera';
import type { Vec } from '../../types';
import type { ToolDefinition, ToolState } from '../tool';

export interface PanMemory {
  last: Vec;
}

const idle: ToolState<PanMemory> = {
  onEvent(_ctx, m, e) {
    if (e.type !== 'pointerdown') return;
    m.last = e.screen;
    return 'panning';
  },
};

/** Dragging the map: only the camera changes. */
const panning: ToolState<PanMemory> = {
  onEvent(ctx, m, e) {
    if (e.type === 'pointermove') {
      ctx.setCamera(panBy(ctx.camera, e.screen.x - m.last.x, e.screen.y - m.last.y));
      m.last = e.screen;
      return true;
    }
    if (e.type === 'pointerup') return 'idle';
    return e.type === 'pointerdown' ? true : undefined;
  },
};

/** idle → panning → idle. Also runs over any tool for middle-button or Space+drag. */
export const panTool: ToolDefinition<PanMemory> = {
  id: 'pan',
  createMemory: () => ({ last: { x: 0, y: 0 } }),
  states: { idle, panning },
};
