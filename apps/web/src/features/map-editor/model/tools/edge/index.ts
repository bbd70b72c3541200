import { addItems, removeItems } from '../../commands';
import { nextId } from '../../naming';
import type { ToolContext, ToolDefinition, ToolState } from '../tool';
import { isPrimary } from '../tool';

export interface EdgeMemory {
  fromId: number | null;
}

/** Adds an edge from the picked waypoint to `toId` unless the two are already connected. */
function connect(ctx: ToolContext, fromId: number, toId: number): void {
  const exists = ctx.doc.edges.some(
    (e) => (e.from === fromId && e.to === toId) || (e.from === toId && e.to === fromId),
  );
  if (exists) {
    ctx.notice({ kind: 'edgeExists' });
    return;
  }
  const id = nextId(ctx.doc.edges);
  const { oneWay, speed } = ctx.options;
  if (ctx.commit(addItems('edges', [{ id, from: fromId, to: toId, oneWay, speed, path: null }], 'add edge')))
    ctx.select([{ kind: 'edge', id }]);
}

/** Waiting for the first waypoint (add mode) or for an edge to remove (delete mode). */
const idle: ToolState<EdgeMemory> = {
  onEvent(ctx, m, e) {
    if (e.type !== 'pointerdown' || !isPrimary(e)) return;
    if (ctx.readOnly) {
      ctx.notice({ kind: 'readOnly' });
      return true;
    }
    if (ctx.options.edgeMode === 'delete') {
      const edge = ctx.hitEdge(e.world);
      if (edge && ctx.commit(removeItems(ctx.doc, 'edges', new Set([edge.id])))) {
        ctx.select([]);
        ctx.notice({ kind: 'deleted', count: 1 });
      }
      return true;
    }
    const from = ctx.hitWaypoint(e.world);
    if (!from) return true;
    m.fromId = from.id;
    return 'connecting';
  },
};

/** A waypoint is picked: a click (or a drag's release) on another one makes the edge. */
const connecting: ToolState<EdgeMemory> = {
  onEnter(ctx, m) {
    const from = ctx.doc.waypoints.find((w) => w.id === m.fromId)!;
    ctx.setPreview({ kind: 'edge', from, to: from });
  },
  onEvent(ctx, m, e) {
    const from = ctx.doc.waypoints.find((w) => w.id === m.fromId);
    if (!from) return 'idle';
    const target = e.type === 'keydown' ? null : ctx.hitWaypoint(e.world);
    if (e.type === 'pointermove') {
      ctx.setPreview({ kind: 'edge', from, to: target ?? e.world });
      return true;
    }
    if (e.type === 'pointerup' || e.type === 'pointerdown') {
      if (target && target.id !== from.id) {
        connect(ctx, from.id, target.id);
        return 'idle';
      }
      // A press on empty map gives up; a release on the first waypoint keeps waiting for a click.
      return e.type === 'pointerdown' && !target ? 'idle' : true;
    }
    return undefined;
  },
};

/** idle → connecting → idle (click, click; or drag from one waypoint to another). */
export const edgeTool: ToolDefinition<EdgeMemory> = {
  id: 'edge',
  createMemory: () => ({ fromId: null }),
  states: { idle, connecting },
};
