import type { Waypoint } from '@portal/contract';
import type { SelectionItem, Vec } from '../../types';

export interface SelectMemory {
  downScreen: Vec;
  downWorld: Vec;
  shiftKey: boolean;
  /** The item pressed on, if any. */
  target: SelectionItem | null;
  /** The press already changed the selection (so the release must not toggle it back). */
  selectedOnDown: boolean;
  /** Waypoints being dragged, as they were at the mark. */
  dragged: Waypoint[];
}

export const createSelectMemory = (): SelectMemory => ({
  downScreen: { x: 0, y: 0 },
  downWorld: { x: 0, y: 0 },
  shiftKey: false,
  target: null,
  selectedOnDown: false,
  dragged: [],
});

export const sameItem = (a: SelectionItem, b: SelectionItem): boolean => a.kind === b.kind && a.id === b.id;
