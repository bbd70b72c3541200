import { updateItems } from '../../commands';
import type { ToolState } from '../tool';
import type { SelectMemory } from './memory';

const round = (v: number) => Math.round(v * 1000) / 1000;

const moves = (m: SelectMemory, dx: number, dy: number) =>
  m.dragged.map((before) => ({ before, after: { ...before, x: round(before.x + dx), y: round(before.y + dy) } }));

/** Moving the selected waypoints: shown live, recorded as one undo step on release. */
export const dragging: ToolState<SelectMemory> = {
  onEnter(ctx, m) {
    ctx.mark();
    const ids = new Set(ctx.selection.filter((s) => s.kind === 'waypoint').map((s) => s.id));
    m.dragged = ctx.marked.waypoints.filter((w) => ids.has(w.id));
  },
  onEvent(ctx, m, e) {
    if (e.type === 'pointermove') {
      const cmd = updateItems('waypoints', moves(m, e.world.x - m.downWorld.x, e.world.y - m.downWorld.y));
      ctx.transient(cmd.apply(ctx.marked));
      return true;
    }
    if (e.type === 'pointerup') {
      const dx = e.world.x - m.downWorld.x;
      const dy = e.world.y - m.downWorld.y;
      if (dx === 0 && dy === 0) ctx.bail();
      else {
        const n = m.dragged.length;
        ctx.commit(updateItems('waypoints', moves(m, dx, dy), `move ${n} waypoint${n === 1 ? '' : 's'}`));
        ctx.notice({ kind: 'moved', count: n });
      }
      return 'idle';
    }
    return e.type === 'pointerdown' ? true : undefined;
  },
  onCancel(ctx) {
    ctx.bail();
  },
};
