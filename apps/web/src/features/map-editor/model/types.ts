import type { MapDocument } from '@portal/contract';

/** A point in map metres (x right, y up) or in screen pixels (y down), depending on the field. */
export interface Vec {
  x: number;
  y: number;
}

export type EditorEventType =
  'pointerdown' | 'pointermove' | 'pointerup' | 'doubleclick' | 'keydown' | 'keyup' | 'wheel' | 'cancel';

/** What the canvas sends the model: DOM-free, so tests can drive tools with plain objects. */
export interface EditorEvent {
  type: EditorEventType;
  /** Map metres under the pointer. */
  world: Vec;
  /** Canvas pixels under the pointer. */
  screen: Vec;
  /** 0 primary, 1 middle, 2 secondary. */
  button: number;
  shiftKey: boolean;
  key: string;
  /** Ctrl, or Cmd on macOS. */
  ctrlKey?: boolean;
  /** Wheel: positive scrolls down (zooms out). */
  deltaY?: number;
}

export type ToolId = 'select' | 'waypoint' | 'edge' | 'noGo' | 'partialMap' | 'pan';

export type SelectionKind = 'waypoint' | 'edge' | 'noGo' | 'partialMap';
export interface SelectionItem {
  kind: SelectionKind;
  id: number;
}

/** Pan and zoom: the world point at the canvas's top-left corner and pixels per metre. */
export interface Camera {
  x: number;
  y: number;
  zoom: number;
}

export type EdgeMode = 'add' | 'delete';

export interface ToolOptions {
  waypointType: MapDocument['waypoints'][number]['type'];
  oneWay: boolean;
  speed: MapDocument['edges'][number]['speed'];
  edgeMode: EdgeMode;
}

/**
 * Short messages for the operator: the spec's map editor states (saved, moved, copied, deleted)
 * and refusals. The UI translates them.
 */
export type EditorNotice =
  | { kind: 'moved'; count: number }
  | { kind: 'copied'; count: number }
  | { kind: 'pasted'; count: number }
  | { kind: 'deleted'; count: number }
  | { kind: 'inUse'; routes: string[] }
  | { kind: 'edgeExists' }
  | { kind: 'polygonTooSmall' }
  | { kind: 'readOnly' };

/** In-progress shapes a tool shows before they are part of the document. */
export type ToolPreview =
  | { kind: 'edge'; from: Vec; to: Vec }
  | { kind: 'polygon'; points: Vec[]; cursor: Vec | null }
  | { kind: 'rect'; a: Vec; b: Vec }
  | { kind: 'brush'; a: Vec; b: Vec };
