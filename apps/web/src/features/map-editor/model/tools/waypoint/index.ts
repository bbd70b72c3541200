import type { Waypoint } from '@portal/contract';
import { addItems } from '../../commands';
import { angleTo } from '../../geometry';
import { defaultWaypointName, nextId } from '../../naming';
import type { Vec } from '../../types';
import type { ToolContext, ToolDefinition, ToolState } from '../tool';
import { isPrimary, movedBeyondSlop } from '../tool';

export interface WaypointMemory {
  downScreen: Vec;
  waypoint: Waypoint | null;
}

const round = (v: number, step: number) => Math.round(v / step) * step;

const show = (ctx: ToolContext, w: Waypoint) => ctx.transient(addItems('waypoints', [w]).apply(ctx.marked));

/** Waiting for a click where the new waypoint goes. */
const idle: ToolState<WaypointMemory> = {
  onEvent(ctx, m, e) {
    if (e.type !== 'pointerdown' || !isPrimary(e)) return;
    if (ctx.readOnly) {
      ctx.notice({ kind: 'readOnly' });
      return true;
    }
    ctx.mark();
    const id = nextId(ctx.marked.waypoints);
    const type = ctx.options.waypointType;
    m.downScreen = e.screen;
    m.waypoint = {
      id,
      name: defaultWaypointName(type, id),
      x: round(e.world.x, 0.001),
      y: round(e.world.y, 0.001),
      theta: 0,
      type,
    };
    return 'aiming';
  },
};

/** Pressed: the waypoint is placed; dragging away turns it to face the pointer. */
const aiming: ToolState<WaypointMemory> = {
  onEnter(ctx, m) {
    show(ctx, m.waypoint!);
  },
  onEvent(ctx, m, e) {
    const w = m.waypoint!;
    if (e.type === 'pointermove') {
      if (movedBeyondSlop(m.downScreen, e)) {
        m.waypoint = { ...w, theta: round(angleTo(w, e.world), 0.0001) };
        show(ctx, m.waypoint);
      }
      return true;
    }
    if (e.type === 'pointerup') {
      ctx.commit(addItems('waypoints', [w], 'add waypoint'));
      ctx.select([{ kind: 'waypoint', id: w.id }]);
      return 'idle';
    }
    return e.type === 'pointerdown' ? true : undefined;
  },
  onCancel(ctx) {
    ctx.bail();
  },
};

/** idle → aiming → idle: click places a waypoint of the chosen type, drag sets its direction. */
export const waypointTool: ToolDefinition<WaypointMemory> = {
  id: 'waypoint',
  createMemory: () => ({ downScreen: { x: 0, y: 0 }, waypoint: null }),
  states: { idle, aiming },
};
