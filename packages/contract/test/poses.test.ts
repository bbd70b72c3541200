import { describe, expect, it } from 'vitest';
import {
  ARM_MODEL_SPECS,
  ARM_MODELS,
  ARM_TYPES,
  JOINT_ANGLE_RANGE,
  armCountOf,
  armSideView,
  hasPeriscope,
  homeArms,
  planPoseTransition,
  poseDefInputSchema,
  poseNetworkInputSchema,
  type PoseDefInput,
} from '../src/index.ts';

const pose = (over: Partial<PoseDefInput> = {}) => ({
  name: 'Home',
  buildingId: null,
  armModel: 100,
  armType: 1,
  arms: homeArms(100, 1),
  periscopeMm: null,
  ...over,
});
const messages = (r: ReturnType<typeof poseDefInputSchema.safeParse>) =>
  r.success ? [] : r.error.issues.map((i) => `${i.path.join('.')}:${i.message}`);

describe('arm models as data', () => {
  it('has 4, 5 and 6 joints per arm within ±180 degrees, homes within limits', () => {
    expect(ARM_MODELS.map((m) => ARM_MODEL_SPECS[m].joints.length)).toEqual([4, 5, 6]);
    expect(ARM_MODELS.map((m) => ARM_MODEL_SPECS[m].periscopeMaxMm)).toEqual([300, 500, 800]);
    for (const m of ARM_MODELS)
      for (const j of ARM_MODEL_SPECS[m].joints) {
        expect(j.min).toBeGreaterThanOrEqual(JOINT_ANGLE_RANGE.min);
        expect(j.max).toBeLessThanOrEqual(JOINT_ANGLE_RANGE.max);
        expect(j.home).toBeGreaterThanOrEqual(j.min);
        expect(j.home).toBeLessThanOrEqual(j.max);
      }
  });

  it('knows arms and periscopes per type', () => {
    expect(ARM_TYPES.map(armCountOf)).toEqual([1, 2, 1, 2]);
    expect(ARM_TYPES.map(hasPeriscope)).toEqual([false, false, true, true]);
    expect(homeArms(300, 22)).toHaveLength(2);
  });

  it('accepts the home pose of every model and type', () => {
    for (const m of ARM_MODELS)
      for (const t of ARM_TYPES) {
        const r = poseDefInputSchema.safeParse(
          pose({ armModel: m, armType: t, arms: homeArms(m, t), periscopeMm: hasPeriscope(t) ? 0 : null }),
        );
        expect(messages(r)).toEqual([]);
      }
  });
});

describe('pose limits', () => {
  it('accepts each joint at its limits and refuses one degree beyond', () => {
    for (const m of ARM_MODELS) {
      ARM_MODEL_SPECS[m].joints.forEach((j, idx) => {
        for (const [angle, ok] of [
          [j.min, true],
          [j.max, true],
          [j.min - 1, false],
          [j.max + 1, false],
        ] as const) {
          const arm = homeArms(m, 1)[0]!;
          arm[idx] = angle;
          const r = poseDefInputSchema.safeParse(pose({ armModel: m, arms: [arm] }));
          expect({ m, idx, angle, ok: r.success }).toEqual({ m, idx, angle, ok });
          if (!ok) expect(messages(r)).toContain(`arms.0.${idx}:validation.range`);
        }
      });
    }
  });

  it('checks joint and arm counts and the periscope', () => {
    expect(messages(poseDefInputSchema.safeParse(pose({ arms: homeArms(200, 1) })))).toEqual([
      'arms.0:poseValidation.jointCount',
    ]);
    expect(messages(poseDefInputSchema.safeParse(pose({ armType: 2 })))).toEqual(['arms:poseValidation.armCount']);
    expect(messages(poseDefInputSchema.safeParse(pose({ periscopeMm: 0 })))).toEqual([
      'periscopeMm:poseValidation.periscopeNotAllowed',
    ]);
    expect(messages(poseDefInputSchema.safeParse(pose({ armType: 21 })))).toEqual([
      'periscopeMm:poseValidation.periscopeRequired',
    ]);
    expect(messages(poseDefInputSchema.safeParse(pose({ armType: 21, periscopeMm: 301 })))).toEqual([
      'periscopeMm:validation.range',
    ]);
    expect(poseDefInputSchema.safeParse(pose({ armType: 21, periscopeMm: 300 })).success).toBe(true);
    expect(messages(poseDefInputSchema.safeParse(pose({ armType: 21, periscopeMm: 1.5 })))).toEqual([
      'periscopeMm:validation.integer',
    ]);
    expect(messages(poseDefInputSchema.safeParse(pose({ name: '' })))).toEqual(['name:validation.required']);
    expect(messages(poseDefInputSchema.safeParse(pose({ name: 'x'.repeat(41) })))).toEqual(['name:validation.max40']);
    expect(poseDefInputSchema.safeParse(pose({ armModel: 150 as never })).success).toBe(false);
    expect(poseDefInputSchema.safeParse(pose({ armType: 3 as never })).success).toBe(false);
  });
});

describe('network graph rules', () => {
  const net = (nodes: number[], edges: Array<[number, number, boolean?]>) =>
    poseNetworkInputSchema.safeParse({
      name: 'Net',
      buildingId: null,
      armModel: 100,
      armType: 1,
      nodes,
      edges: edges.map(([from, to, bidirectional = false]) => ({ from, to, bidirectional })),
    });
  const issues = (r: ReturnType<typeof net>) =>
    r.success ? [] : r.error.issues.map((i) => `${i.path.join('.')}:${i.message}`);

  it('accepts a valid graph and refuses self-loops, missing nodes, duplicates', () => {
    expect(
      issues(
        net(
          [1, 2, 3],
          [
            [1, 2, true],
            [2, 3],
          ],
        ),
      ),
    ).toEqual([]);
    expect(issues(net([1, 2], [[1, 1]]))).toEqual(['edges.0:poseValidation.selfLoop']);
    expect(issues(net([1, 2], [[1, 3]]))).toEqual(['edges.0:poseValidation.edgeNodeMissing']);
    expect(issues(net([1, 2, 1], []))).toEqual(['nodes.2:poseValidation.duplicateNode']);
    expect(
      issues(
        net(
          [1, 2],
          [
            [1, 2],
            [1, 2],
          ],
        ),
      ),
    ).toEqual(['edges.1:poseValidation.duplicateEdge']);
    expect(
      issues(
        net(
          [1, 2],
          [
            [1, 2],
            [2, 1, true],
          ],
        ),
      ),
    ).toEqual(['edges.1:poseValidation.duplicateEdge']);
    const long = { name: 'x'.repeat(49), buildingId: null, armModel: 100, armType: 1, nodes: [], edges: [] };
    expect(issues(poseNetworkInputSchema.safeParse(long))).toEqual(['name:validation.max48']);
  });
});

describe('planPoseTransition', () => {
  const network = {
    nodes: [1, 2, 3, 4, 5, 6],
    edges: [
      { from: 1, to: 2, bidirectional: false },
      { from: 2, to: 3, bidirectional: false },
      { from: 3, to: 4, bidirectional: true },
      { from: 1, to: 4, bidirectional: false },
      { from: 5, to: 4, bidirectional: false },
    ],
  };

  it('finds the fewest steps', () => {
    expect(planPoseTransition(network, 1, 3)).toEqual({ found: true, path: [1, 2, 3], steps: 2 });
    expect(planPoseTransition(network, 1, 4)).toEqual({ found: true, path: [1, 4], steps: 1 });
    // Both ways on 3-4.
    expect(planPoseTransition(network, 4, 3)).toEqual({ found: true, path: [4, 3], steps: 1 });
    expect(planPoseTransition(network, 5, 3)).toEqual({ found: true, path: [5, 4, 3], steps: 2 });
    expect(planPoseTransition(network, 2, 2)).toEqual({ found: true, path: [2], steps: 0 });
  });

  it('respects direction and says when there is no way', () => {
    expect(planPoseTransition(network, 2, 1)).toEqual({ found: false, reason: 'noPath' });
    expect(planPoseTransition(network, 1, 6)).toEqual({ found: false, reason: 'noPath' });
    expect(planPoseTransition(network, 1, 99)).toEqual({ found: false, reason: 'unknownPose' });
    expect(planPoseTransition({ nodes: [{ id: 1 }, { id: 2 }], edges: [] }, 1, 2)).toEqual({
      found: false,
      reason: 'noPath',
    });
  });
});

describe('armSideView', () => {
  it('draws the chain from the pitch joints and link lengths', () => {
    const flat = armSideView(100, [0, 0, 0, 0]);
    expect(flat).toHaveLength(4);
    expect(flat.at(-1)!.x).toBeCloseTo(500);
    expect(flat.at(-1)!.y).toBeCloseTo(0);
    const up = armSideView(100, [45, 90, 0, 0]);
    expect(up[1]!.x).toBeCloseTo(0);
    expect(up[1]!.y).toBeCloseTo(220);
  });
});
