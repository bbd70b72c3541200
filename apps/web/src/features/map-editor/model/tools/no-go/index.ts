import { addItems } from '../../commands';
import { dist } from '../../geometry';
import { nextId } from '../../naming';
import type { Vec } from '../../types';
import type { Outcome, ToolContext, ToolDefinition, ToolState } from '../tool';
import { isPrimary } from '../tool';

export interface NoGoMemory {
  points: Vec[];
}

const CLOSE_PX = 8;
const round = (p: Vec): Vec => ({ x: Math.round(p.x * 1000) / 1000, y: Math.round(p.y * 1000) / 1000 });

/** Closes the polygon when it has at least three corners. */
function close(ctx: ToolContext, m: NoGoMemory): Outcome {
  if (m.points.length < 3) {
    ctx.notice({ kind: 'polygonTooSmall' });
    return true;
  }
  const id = nextId(ctx.doc.noGoAreas);
  if (ctx.commit(addItems('noGoAreas', [{ id, name: '', points: m.points }], 'add no-go area')))
    ctx.select([{ kind: 'noGo', id }]);
  return 'idle';
}

/** Waiting for the first corner. */
const idle: ToolState<NoGoMemory> = {
  onEvent(ctx, m, e) {
    if (e.type !== 'pointerdown' || !isPrimary(e)) return;
    if (ctx.readOnly) {
      ctx.notice({ kind: 'readOnly' });
      return true;
    }
    m.points = [round(e.world)];
    return 'drawing';
  },
};

/** Corners so far: click adds one; double-click, Enter or a click on the first corner closes. */
const drawing: ToolState<NoGoMemory> = {
  onEnter(ctx, m) {
    ctx.setPreview({ kind: 'polygon', points: m.points, cursor: null });
  },
  onEvent(ctx, m, e) {
    switch (e.type) {
      case 'pointermove':
        ctx.setPreview({ kind: 'polygon', points: m.points, cursor: e.world });
        return true;
      case 'pointerdown': {
        if (!isPrimary(e)) return true;
        const first = m.points[0]!;
        if (m.points.length >= 3 && dist(first, e.world) <= ctx.tolerance(CLOSE_PX)) return close(ctx, m);
        // The presses of a double-click land on the last corner: not a new one.
        if (dist(m.points.at(-1)!, e.world) <= ctx.tolerance(2)) return true;
        m.points = [...m.points, round(e.world)];
        ctx.setPreview({ kind: 'polygon', points: m.points, cursor: e.world });
        return true;
      }
      case 'doubleclick':
        return close(ctx, m);
      case 'keydown':
        if (e.key === 'Enter') return close(ctx, m);
        if (e.key === 'Backspace' || e.key === 'Delete') {
          m.points = m.points.slice(0, -1);
          if (m.points.length === 0) return 'idle';
          ctx.setPreview({ kind: 'polygon', points: m.points, cursor: null });
          return true;
        }
        return undefined;
      default:
        return e.type === 'pointerup' ? true : undefined;
    }
  },
};

/** idle → drawing → idle: corners by clicks, closed with double-click/Enter (at least three). */
export const noGoTool: ToolDefinition<NoGoMemory> = {
  id: 'noGo',
  createMemory: () => ({ points: [] }),
  states: { idle, drawing },
};
