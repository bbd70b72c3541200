import { FLOW_DEFINITION_VERSION, FLOW_LIMITS, type FlowStep, type StepKind } from '@portal/contract';

/**
 * The visual builder's model: the definition's steps as a tree addressed by index paths
 * (`[1, 0]` is `steps.1.steps.0`). The builder never holds its own copy of the definition: it reads
 * the JSON text of the form (`parseDefinitionText`) and writes a new text after every edit, so the
 * blocks and the advanced JSON view cannot disagree.
 */

/** A step as the builder handles it: a loosely typed object (it may not pass the schema yet). */
export type Step = FlowStep & Record<string, unknown>;
export type StepPath = readonly number[];

/** `steps.1.steps.0`: the key of a step path (the prefix of the validation issues' paths). */
export const stepKey = (path: StepPath): string => path.map((i) => `steps.${i}`).join('.');

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * The steps of a definition text when it can be shown as blocks: JSON of `{ version, steps }` whose
 * steps (and loops' steps) are objects with a `kind`. Anything else (not JSON, another shape) is
 * null: the blocks wait until the JSON is fixed in the advanced view.
 */
export function parseDefinitionText(text: string): Step[] | null {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return null;
  }
  if (!isObject(value) || !Array.isArray(value.steps)) return null;
  const ok = (steps: unknown[], depth: number): boolean =>
    depth <= FLOW_LIMITS.loopDepth + 1 &&
    steps.every(
      (s) =>
        isObject(s) &&
        typeof s.kind === 'string' &&
        (s.kind !== 'loop' || (Array.isArray(s.steps) && ok(s.steps as unknown[], depth + 1))),
    );
  return ok(value.steps as unknown[], 0) ? (value.steps as Step[]) : null;
}

/** The definition text of steps (formatted as the JSON view shows it). */
export const definitionText = (steps: readonly Step[]): string =>
  JSON.stringify({ version: FLOW_DEFINITION_VERSION, steps }, null, 2);

/** The step at a path, or undefined. */
export function stepAt(steps: readonly Step[], path: StepPath): Step | undefined {
  let list: readonly Step[] = steps;
  let found: Step | undefined;
  for (const i of path) {
    found = list[i];
    if (!found) return undefined;
    list = found.kind === 'loop' ? (found.steps as Step[]) : [];
  }
  return found;
}

/** The list holding the step at `path` (a loop's steps or the top level) in a cloned tree. */
function listOf(root: Step[], parent: StepPath): Step[] {
  let list = root;
  for (const i of parent) {
    const s = list[i];
    if (!s || s.kind !== 'loop') throw new Error('not a loop');
    list = s.steps as Step[];
  }
  return list;
}

const clone = (steps: readonly Step[]): Step[] => structuredClone(steps) as Step[];

/** Every step id in the tree. */
export function allIds(steps: readonly Step[]): Set<string> {
  const ids = new Set<string>();
  const visit = (list: readonly Step[]) => {
    for (const s of list) {
      if (typeof s.id === 'string') ids.add(s.id);
      if (s.kind === 'loop' && Array.isArray(s.steps)) visit(s.steps as Step[]);
    }
  };
  visit(steps);
  return ids;
}

/** A fresh step id for `kind` (`takePhoto-3`), unused in `taken` (which it joins). */
export function freshId(kind: string, taken: Set<string>): string {
  const base = kind.slice(0, FLOW_LIMITS.stepId - 5);
  let n = 1;
  while (taken.has(`${base}-${n}`)) n++;
  const id = `${base}-${n}`;
  taken.add(id);
  return id;
}

/** Gives a step (and the steps of a loop) fresh ids. */
function renew(step: Step, taken: Set<string>): Step {
  const copy = { ...step, id: freshId(step.kind, taken) } as Step;
  if (copy.kind === 'loop')
    (copy as Record<string, unknown>).steps = (step.steps as Step[]).map((s) => renew(s, taken));
  return copy;
}

/** Where a new or moved step goes: the list (`parent`, a loop's path or [] for the top) and the index. */
export interface Slot {
  parent: StepPath;
  index: number;
}

/** Depth of loops a step at `parent` is inside. */
const depthOf = (steps: readonly Step[], parent: StepPath): number => {
  let d = 0;
  for (let i = 1; i <= parent.length; i++) if (stepAt(steps, parent.slice(0, i))?.kind === 'loop') d++;
  return d;
};

/** Loop depth of a step's own loops (0: no loop; 1: a loop without loops inside...). */
const loopHeight = (s: Step): number =>
  s.kind === 'loop' ? 1 + Math.max(0, ...(s.steps as Step[]).map(loopHeight)) : 0;

/** Whether `step` may go into the list at `parent` without nesting loops deeper than allowed. */
export const fits = (steps: readonly Step[], step: Step, parent: StepPath): boolean =>
  depthOf(steps, parent) + loopHeight(step) <= FLOW_LIMITS.loopDepth;

export function insertStep(steps: readonly Step[], slot: Slot, step: Step): Step[] {
  const root = clone(steps);
  const list = listOf(root, slot.parent);
  list.splice(Math.max(0, Math.min(slot.index, list.length)), 0, step);
  return root;
}

export function updateStep(steps: readonly Step[], path: StepPath, next: Step): Step[] {
  const root = clone(steps);
  const list = listOf(root, path.slice(0, -1));
  list[path[path.length - 1]!] = next;
  return root;
}

export function removeStep(steps: readonly Step[], path: StepPath): Step[] {
  const root = clone(steps);
  listOf(root, path.slice(0, -1)).splice(path[path.length - 1]!, 1);
  return root;
}

/** A copy of the step (fresh ids, loops' steps too) right after it; the copy's path. */
export function duplicateStep(steps: readonly Step[], path: StepPath): { steps: Step[]; path: number[] } {
  const s = stepAt(steps, path);
  if (!s) return { steps: [...steps], path: [...path] };
  const copy = renew(s, allIds(steps));
  const at = [...path.slice(0, -1), path[path.length - 1]! + 1];
  return { steps: insertStep(steps, { parent: path.slice(0, -1), index: at[at.length - 1]! }, copy), path: at };
}

const isPrefix = (a: StepPath, b: StepPath) => a.length <= b.length && a.every((v, i) => b[i] === v);

/**
 * Moves the step at `from` to `slot` (a position in the tree before the move). Refused (null) into
 * itself or past the loop depth. Answers the new tree and the step's new path.
 */
export function moveStep(steps: readonly Step[], from: StepPath, slot: Slot): { steps: Step[]; path: number[] } | null {
  const moving = stepAt(steps, from);
  if (!moving || isPrefix(from, slot.parent)) return null;
  if (!fits(steps, moving, slot.parent)) return null;
  // Where the slot ends up once the step is taken out of its list.
  const parent = [...slot.parent];
  const fromParent = from.slice(0, -1);
  const fromIndex = from[from.length - 1]!;
  if (isPrefix(fromParent, parent) && parent.length > fromParent.length && parent[fromParent.length]! > fromIndex)
    parent[fromParent.length] = parent[fromParent.length]! - 1;
  let index = slot.index;
  if (fromParent.length === slot.parent.length && isPrefix(fromParent, slot.parent) && fromIndex < index) index -= 1;
  const without = removeStep(steps, from);
  const list = listOf(without, parent);
  index = Math.max(0, Math.min(index, list.length));
  return { steps: insertStep(without, { parent, index }, moving), path: [...parent, index] };
}

/**
 * One move with the up/down buttons (keyboard and touch): past the neighbour, into a loop met on
 * the way (at its end going up, its start going down), and out of the loop at its ends.
 */
export function nudgeStep(
  steps: readonly Step[],
  path: StepPath,
  dir: -1 | 1,
): { steps: Step[]; path: number[] } | null {
  const parent = path.slice(0, -1);
  const i = path[path.length - 1]!;
  const siblings = parent.length === 0 ? steps : ((stepAt(steps, parent)?.steps as Step[] | undefined) ?? []);
  const moving = stepAt(steps, path);
  if (!moving) return null;
  const j = i + dir;
  const neighbour = siblings[j];
  if (neighbour) {
    if (neighbour.kind === 'loop' && fits(steps, moving, [...parent, j])) {
      const inner = neighbour.steps as Step[];
      return moveStep(steps, path, { parent: [...parent, j], index: dir < 0 ? inner.length : 0 });
    }
    return moveStep(steps, path, { parent, index: dir < 0 ? j : j + 1 });
  }
  if (parent.length === 0) return null;
  // Out of the loop: before it going up, after it going down.
  const loopIndex = parent[parent.length - 1]!;
  return moveStep(steps, path, { parent: parent.slice(0, -1), index: dir < 0 ? loopIndex : loopIndex + 1 });
}

/** Every step with its path, depth first in order. */
export function* eachStep(steps: readonly Step[], parent: number[] = []): Generator<{ step: Step; path: number[] }> {
  for (let i = 0; i < steps.length; i++) {
    const s = steps[i]!;
    const path = [...parent, i];
    yield { step: s, path };
    if (s.kind === 'loop' && Array.isArray(s.steps)) yield* eachStep(s.steps as Step[], path);
  }
}

/**
 * The floor the robot is on at each step (by step key), as `validateFlowDefinition` follows it: the
 * flow's floor until a `moveToFloor` changes it (a loop's steps once, in order).
 */
export function floorsAtSteps(steps: readonly Step[], startFloorId: number | null): Map<string, number | null> {
  const at = new Map<string, number | null>();
  let floor = startFloorId;
  for (const { step, path } of eachStep(steps)) {
    at.set(stepKey(path), floor);
    if (step.kind === 'moveToFloor') floor = typeof step.floorId === 'number' ? step.floorId : null;
  }
  return at;
}

/** The kinds the palette offers, by category (launchWorkPlan waits for work plans). */
export const PALETTE: ReadonlyArray<{ category: string; kinds: readonly StepKind[] }> = [
  {
    category: 'movement',
    kinds: ['moveToWaypoint', 'followRoute', 'moveToFloor', 'passSecurityDoor', 'returnToCharger'],
  },
  { category: 'camera', kinds: ['takePhoto', 'meterCheck', 'recording', 'cameraSettings'] },
  { category: 'speech', kinds: ['speak', 'playAudio'] },
  { category: 'body', kinds: ['pose', 'face', 'lights', 'safetyMargin'] },
  { category: 'task', kinds: ['taskStart', 'taskComplete', 'taskEvent', 'notification'] },
  { category: 'control', kinds: ['wait', 'loop'] },
];

/** What a new step starts with: the data the builder has (the floor's map, the building's texts). */
export interface StepDefaults {
  waypointId?: number;
  routeId?: number;
  otherFloorId?: number;
  /** A check item on the step's floor (meterCheck). */
  checkItemId?: number;
  speechTextId?: number;
  language: 'ja' | 'en';
  speech: string;
  taskName: string;
  message: string;
}

/** A new step of `kind` with sensible parameters (and a fresh id). */
export function newStep(kind: StepKind, id: string, d: StepDefaults): Step {
  const base = { kind, id };
  const opt = <T>(key: string, v: T | undefined) => (v === undefined ? {} : { [key]: v });
  switch (kind) {
    case 'moveToWaypoint':
      return { ...base, ...opt('waypointId', d.waypointId) } as Step;
    case 'followRoute':
      return { ...base, ...opt('routeId', d.routeId) } as Step;
    case 'moveToFloor':
      return { ...base, ...opt('floorId', d.otherFloorId) } as Step;
    case 'passSecurityDoor':
      return { ...base, doorId: '' } as Step;
    case 'wait':
      return { ...base, seconds: 10 } as Step;
    case 'speak':
      return (
        d.speechTextId !== undefined
          ? { ...base, speechTextId: d.speechTextId }
          : { ...base, text: d.speech, language: d.language }
      ) as Step;
    case 'playAudio':
      return { ...base, audio: '', volume: 80 } as Step;
    case 'takePhoto':
      return { ...base, camera: 'v1', resolution: '1080p', saveAsTaskImage: false } as Step;
    case 'meterCheck':
      return { ...base, ...opt('checkItemId', d.checkItemId) } as Step;
    case 'recording':
      return { ...base, action: 'start' } as Step;
    case 'cameraSettings':
      return { ...base, camera: 'v1', zoom: 1 } as Step;
    case 'pose':
      return { ...base, target: 'gimbal', pan: 0, tilt: 0 } as Step;
    case 'face':
      return { ...base, expression: 'smile' } as Step;
    case 'lights':
      return { ...base, ringLight: true } as Step;
    case 'safetyMargin':
      return { ...base, meters: 0.5 } as Step;
    case 'taskStart':
      return { ...base, name: d.taskName } as Step;
    case 'taskEvent':
    case 'notification':
      return { ...base, level: 0, message: d.message } as Step;
    case 'loop':
      return { ...base, count: 2, steps: [] } as unknown as Step;
    case 'launchWorkPlan':
      return { ...base } as Step;
    default:
      return base as Step;
  }
}
