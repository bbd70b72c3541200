import { describe, expect, it } from 'vitest';
import type { FlowStep } from '@portal/contract';
import {
  expandCommands,
  followingSiblings,
  next,
  passOf,
  resolve,
  type Frames,
} from '../src/modules/flow-runs/cursor.ts';

const wait = (id: string): FlowStep => ({ kind: 'wait', id, seconds: 0 });

/** Every step the cursor visits, with its passes, until the definition ends (or `max` steps). */
function walk(steps: FlowStep[], max = 50): string[] {
  const out: string[] = [];
  let at = resolve(steps, []);
  while (at && out.length < max) {
    const pass = passOf(at.frames);
    out.push(pass ? `${at.step.id}@${pass}` : at.step.id);
    at = next(steps, at.frames);
  }
  return out;
}

describe('the run cursor', () => {
  it('visits nested loops pass by pass, outermost first in the pass label', () => {
    const steps: FlowStep[] = [
      wait('a'),
      {
        kind: 'loop',
        id: 'outer',
        count: 2,
        steps: [wait('b'), { kind: 'loop', id: 'inner', count: 2, steps: [wait('c')] }],
      },
      wait('d'),
    ];
    expect(walk(steps)).toEqual(['a', 'b@1', 'c@1/1', 'c@1/2', 'b@2', 'c@2/1', 'c@2/2', 'd']);
  });

  it('loops until cancelled when the count is null', () => {
    const steps: FlowStep[] = [{ kind: 'loop', id: 'l', count: null, steps: [wait('x'), wait('y')] }];
    expect(walk(steps, 7)).toEqual(['x@1', 'y@1', 'x@2', 'y@2', 'x@3', 'y@3', 'x@4']);
  });

  it('resumes from stored frames, and is done past the end', () => {
    const steps: FlowStep[] = [wait('a'), { kind: 'loop', id: 'l', count: 3, steps: [wait('b')] }];
    const frames: Frames = [
      { index: 1, pass: 0 },
      { index: 0, pass: 1 },
    ];
    expect(resolve(steps, frames)?.step.id).toBe('b');
    expect(passOf(resolve(steps, frames)!.frames)).toBe('2');
    expect(resolve(steps, [{ index: 2, pass: 0 }])).toBeNull();
  });

  it('lists the steps after one in the same list, not past the end of its loop', () => {
    const steps: FlowStep[] = [
      { kind: 'loop', id: 'l', count: 2, steps: [wait('a'), wait('b'), wait('c')] },
      wait('d'),
    ];
    const at = resolve(steps, [])!;
    expect(followingSiblings(steps, at.frames).map((s) => s.step.id)).toEqual(['b', 'c']);
  });

  it('expands a library command into a one-pass loop with prefixed ids and the parameters put in', () => {
    const steps: FlowStep[] = [
      { kind: 'command', id: 'greet', commandId: 7, parameters: { words: 'Good evening' } },
      { kind: 'command', id: 'gone', commandId: 8 },
    ];
    const body = {
      steps: [
        { kind: 'speak', id: 's', text: '{{words}}', language: 'en' },
        { kind: 'face', id: 'f', expression: 'smile', text: '{{label}}' },
      ] as unknown as FlowStep[],
      presets: { words: 'Hello', label: 'Hi' },
    };
    const out = expandCommands(steps, new Map([[7, body]]));
    expect(out[0]).toEqual({
      kind: 'loop',
      id: 'greet',
      count: 1,
      steps: [
        { kind: 'speak', id: 'greet-s', text: 'Good evening', language: 'en' },
        { kind: 'face', id: 'greet-f', expression: 'smile', text: 'Hi' },
      ],
    });
    // A command that no longer exists stays as it is: the runner fails that step.
    expect(out[1]).toEqual(steps[1]);
  });
});
