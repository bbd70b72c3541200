import type { FlowStep, LoopStep, StepKind } from '@portal/contract';

/**
 * Where a run is in its definition (docs/flow-runner.md): one frame per list the runner is in, the
 * outermost first. `index` is the step's position in that list; `pass` the pass of the loop that
 * holds the list (0-based; the top level has pass 0).
 */
export interface Frame {
  index: number;
  pass: number;
}
export type Frames = Frame[];

export interface AtStep {
  step: Exclude<FlowStep, LoopStep>;
  frames: Frames;
}

/** The loop passes around the step, outermost first, 1-based ("2/1"); "" at the top level. */
export const passOf = (frames: Frames): string =>
  frames
    .slice(1)
    .map((f) => f.pass + 1)
    .join('/');

const listAt = (steps: readonly FlowStep[], frames: Frames, depth: number): readonly FlowStep[] => {
  let list = steps;
  for (let d = 0; d < depth; d++) list = (list[frames[d]!.index] as LoopStep).steps;
  return list;
};

/**
 * The leaf step at `frames`, or the next one when `frames` points at a loop or past the end of a
 * list (a loop's pass ends: it starts again or is left). Null when the definition is done. Pure.
 */
export function resolve(steps: readonly FlowStep[], start: Frames): AtStep | null {
  const frames = start.map((f) => ({ ...f }));
  if (frames.length === 0) frames.push({ index: 0, pass: 0 });
  for (;;) {
    const depth = frames.length - 1;
    const list = listAt(steps, frames, depth);
    const top = frames[depth]!;
    if (top.index >= list.length) {
      if (depth === 0) return null;
      const loop = listAt(steps, frames, depth - 1)[frames[depth - 1]!.index] as LoopStep;
      if (loop.count === null || top.pass + 1 < loop.count) {
        top.index = 0;
        top.pass += 1;
      } else {
        frames.pop();
        frames[depth - 1]!.index += 1;
      }
      continue;
    }
    const step = list[top.index]!;
    if (step.kind === 'loop') {
      frames.push({ index: 0, pass: 0 });
      continue;
    }
    return { step, frames };
  }
}

/** The step after the one at `frames`. */
export function next(steps: readonly FlowStep[], frames: Frames): AtStep | null {
  const after = frames.map((f) => ({ ...f }));
  after[after.length - 1]!.index += 1;
  return resolve(steps, after);
}

/** The leaf steps directly after the one at `frames` in the same list (not crossing a loop's end). */
export function followingSiblings(
  steps: readonly FlowStep[],
  frames: Frames,
): Array<{ step: FlowStep; frames: Frames }> {
  const depth = frames.length - 1;
  const list = listAt(steps, frames, depth);
  const out: Array<{ step: FlowStep; frames: Frames }> = [];
  for (let i = frames[depth]!.index + 1; i < list.length; i++) {
    out.push({ step: list[i]!, frames: [...frames.slice(0, depth), { index: i, pass: frames[depth]!.pass }] });
  }
  return out;
}

/** A library command's definition and parameters, as the run expands it. */
export interface CommandBody {
  steps: FlowStep[];
  /** Parameter presets by name. */
  presets: Record<string, string | number | boolean>;
}

const PLACEHOLDER = /^\{\{([A-Za-z][A-Za-z0-9_]*)\}\}$/;

/** A value `"{{name}}"` becomes the parameter's value (the flow's, else the command's preset). */
function substitute(value: unknown, params: Record<string, string | number | boolean>): unknown {
  if (typeof value === 'string') {
    const m = PLACEHOLDER.exec(value);
    return m && m[1]! in params ? params[m[1]!] : value;
  }
  if (Array.isArray(value)) return value.map((v) => substitute(v, params));
  if (value && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, substitute(v, params)]));
  }
  return value;
}

/**
 * The definition as the runner carries it out: each `command` step becomes a loop of one pass
 * holding the command's steps (ids prefixed with the step's id, parameters substituted), so the
 * record names the flow's step and the command's. A command missing from `commands` stays as it is
 * (the runner fails that step).
 */
export function expandCommands(steps: readonly FlowStep[], commands: ReadonlyMap<number, CommandBody>): FlowStep[] {
  return steps.map((s): FlowStep => {
    if (s.kind === 'loop') return { ...s, steps: expandCommands(s.steps, commands) };
    if (s.kind !== 'command') return s;
    const body = commands.get(s.commandId);
    if (!body) return s;
    const params = { ...body.presets, ...(s.parameters ?? {}) };
    const inner = (substitute(body.steps, params) as FlowStep[]).map((c) => ({ ...c, id: `${s.id}-${c.id}` }));
    const loop: LoopStep = {
      kind: 'loop',
      id: s.id,
      count: 1,
      steps: expandCommands(inner, new Map()),
      ...(s.onError ? { onError: s.onError } : {}),
    };
    return loop;
  });
}

/** Step kinds the robot carries out as an action (node action after a move, else an instant action). */
export const ROBOT_ACTION_KINDS: ReadonlySet<StepKind> = new Set<StepKind>([
  'speak',
  'playAudio',
  'takePhoto',
  'recording',
  'cameraSettings',
  'pose',
  'face',
  'lights',
  'safetyMargin',
]);
/** Step kinds that drive the robot over a floor's route graph. */
export const MOVE_KINDS: ReadonlySet<StepKind> = new Set<StepKind>([
  'moveToWaypoint',
  'followRoute',
  'returnToCharger',
]);
