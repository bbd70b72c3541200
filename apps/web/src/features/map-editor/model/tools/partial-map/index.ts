import { addItems } from '../../commands';
import { rectFrom, type Rect } from '../../geometry';
import { nextId } from '../../naming';
import type { Vec } from '../../types';
import type { ToolDefinition, ToolState } from '../tool';
import { isPrimary } from '../tool';

export interface PartialMapMemory {
  down: Vec;
  rect: Rect | null;
}

const MIN_PX = 6;
const r3 = (v: number) => Math.round(v * 1000) / 1000;

const idle: ToolState<PartialMapMemory> = {
  onEvent(ctx, m, e) {
    if (e.type !== 'pointerdown' || !isPrimary(e)) return;
    if (ctx.readOnly) {
      ctx.notice({ kind: 'readOnly' });
      return true;
    }
    m.down = e.world;
    return 'dragging';
  },
};

/** Drawing the rectangle; a release smaller than a few pixels is a stray click. */
const dragging: ToolState<PartialMapMemory> = {
  onEvent(ctx, m, e) {
    if (e.type === 'pointermove') {
      ctx.setPreview({ kind: 'rect', a: m.down, b: e.world });
      return true;
    }
    if (e.type === 'pointerup') {
      const r = rectFrom(m.down, e.world);
      if (r.width < ctx.tolerance(MIN_PX) || r.height < ctx.tolerance(MIN_PX)) return 'idle';
      m.rect = { x: r3(r.x), y: r3(r.y), width: r3(r.width), height: r3(r.height) };
      ctx.setPreview({ kind: 'rect', a: m.down, b: e.world });
      return 'naming';
    }
    return e.type === 'pointerdown' ? true : undefined;
  },
};

/** The rectangle waits for its name (the screen asks); Escape drops it. */
const naming: ToolState<PartialMapMemory> = {
  onEnter(ctx) {
    ctx.prompt('partialMapName');
  },
  onEvent(_ctx, _m, e) {
    return e.type.startsWith('pointer') ? true : undefined;
  },
  onSubmit(ctx, m, text) {
    const name = text.trim();
    if (!name || name.length > 40) return true;
    const id = nextId(ctx.doc.partialMaps);
    if (ctx.commit(addItems('partialMaps', [{ id, name, ...m.rect! }], 'add partial map')))
      ctx.select([{ kind: 'partialMap', id }]);
    return 'idle';
  },
};

/** idle → dragging → naming → idle. */
export const partialMapTool: ToolDefinition<PartialMapMemory> = {
  id: 'partialMap',
  createMemory: () => ({ down: { x: 0, y: 0 }, rect: null }),
  states: { idle, dragging, naming },
};
