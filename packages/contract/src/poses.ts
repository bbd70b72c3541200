import { z } from 'zod';

/**
 * Pose definitions and pose networks (spec sections 2 and 9; docs/poses.md). A pose definition is a
 * named arm posture for one arm model (100, 200, 300) and arm type (1, 2, 21, 22): joint angles in
 * degrees per arm and, for periscope types, a periscope height in millimetres. A pose network is a
 * directed graph of pose definitions of one model and type whose edges are the allowed transitions.
 *
 * Messages are i18n keys: generic ones under `validation.*` (core texts), pose-specific ones under
 * `poseValidation.*` (the web app's `poses` section).
 */
const id = z.number().int();

// ---------------------------------------------------------------- codes and limits

/** Arm models of spec section 9. */
export const ARM_MODELS = [100, 200, 300] as const;
export type ArmModel = (typeof ARM_MODELS)[number];
export const armModelSchema = z.union([z.literal(100), z.literal(200), z.literal(300)], {
  error: 'validation.required',
});

/** Arm types of spec section 9: 1 single arm, 2 dual arm, 21 single arm with periscope, 22 dual arm with periscope. */
export const ArmType = { single: 1, dual: 2, singlePeriscope: 21, dualPeriscope: 22 } as const;
export const ARM_TYPES = [1, 2, 21, 22] as const;
export type ArmTypeCode = (typeof ARM_TYPES)[number];
export const armTypeSchema = z.union([z.literal(1), z.literal(2), z.literal(21), z.literal(22)], {
  error: 'validation.required',
});

/** Number of arms of an arm type (1 or 2). */
export const armCountOf = (type: ArmTypeCode): 1 | 2 =>
  type === ArmType.dual || type === ArmType.dualPeriscope ? 2 : 1;
/** Whether an arm type has a periscope (types 21 and 22). */
export const hasPeriscope = (type: ArmTypeCode): boolean =>
  type === ArmType.singlePeriscope || type === ArmType.dualPeriscope;

/** A joint of an arm model: its name (an i18n key under `poseJoints.*` on the web) and its range in degrees. */
export interface JointSpec {
  key: string;
  min: number;
  max: number;
  /** The angle of the "home" pose, used as the default of a new pose. */
  home: number;
  /**
   * How the joint shows in the side view: `pitch` bends the chain in the drawing plane, `yaw`
   * and `roll` rotate about an axis the side view does not show (drawn as a marker only).
   */
  axis: 'pitch' | 'yaw' | 'roll';
}

export interface ArmModelSpec {
  /** Joints of one arm, from the shoulder outward. */
  joints: readonly JointSpec[];
  /** Link lengths in millimetres for the side view: one per pitch joint, shoulder outward. */
  linksMm: readonly number[];
  /** Highest periscope position in millimetres (types 21 and 22). */
  periscopeMaxMm: number;
}

/** The arm models as data: joints with their limits (degrees), link lengths and periscope travel. */
export const ARM_MODEL_SPECS: Record<ArmModel, ArmModelSpec> = {
  100: {
    joints: [
      { key: 'shoulderYaw', min: -90, max: 90, home: 0, axis: 'yaw' },
      { key: 'shoulderPitch', min: -90, max: 180, home: -80, axis: 'pitch' },
      { key: 'elbowPitch', min: 0, max: 135, home: 20, axis: 'pitch' },
      { key: 'wristPitch', min: -90, max: 90, home: 0, axis: 'pitch' },
    ],
    linksMm: [220, 200, 80],
    periscopeMaxMm: 300,
  },
  200: {
    joints: [
      { key: 'shoulderYaw', min: -90, max: 90, home: 0, axis: 'yaw' },
      { key: 'shoulderPitch', min: -90, max: 180, home: -80, axis: 'pitch' },
      { key: 'elbowPitch', min: 0, max: 150, home: 20, axis: 'pitch' },
      { key: 'wristPitch', min: -100, max: 100, home: 0, axis: 'pitch' },
      { key: 'wristRoll', min: -180, max: 180, home: 0, axis: 'roll' },
    ],
    linksMm: [260, 240, 90],
    periscopeMaxMm: 500,
  },
  300: {
    joints: [
      { key: 'shoulderYaw', min: -120, max: 120, home: 0, axis: 'yaw' },
      { key: 'shoulderPitch', min: -90, max: 180, home: -80, axis: 'pitch' },
      { key: 'elbowPitch', min: 0, max: 160, home: 20, axis: 'pitch' },
      { key: 'forearmRoll', min: -180, max: 180, home: 0, axis: 'roll' },
      { key: 'wristPitch', min: -120, max: 120, home: 0, axis: 'pitch' },
      { key: 'wristRoll', min: -180, max: 180, home: 0, axis: 'roll' },
    ],
    linksMm: [300, 280, 100],
    periscopeMaxMm: 800,
  },
};

/** Every joint of every model lies within this (the documented outer range). */
export const JOINT_ANGLE_RANGE = { min: -180, max: 180 } as const;

export const POSE_NAME_MAX = 40;
export const POSE_NETWORK_NAME_MAX = 48;
/** A network holds at most this many poses and transitions. */
export const POSE_NETWORK_MAX_NODES = 200;
export const POSE_NETWORK_MAX_EDGES = 1000;

/** Joint angles of the home pose of a model and type (one array per arm). */
export const homeArms = (model: ArmModel, type: ArmTypeCode): number[][] =>
  Array.from({ length: armCountOf(type) }, () => ARM_MODEL_SPECS[model].joints.map((j) => j.home));

// ---------------------------------------------------------------- rules

export interface PoseIssue {
  path: string;
  message: string;
}

/**
 * Arms, joints and periscope against the model and type. Used by the input schema (so the form and
 * the server agree) and callable on its own.
 */
export function poseShapeIssues(p: {
  armModel: ArmModel;
  armType: ArmTypeCode;
  arms: readonly (readonly number[])[];
  periscopeMm: number | null;
}): PoseIssue[] {
  const issues: PoseIssue[] = [];
  const spec = ARM_MODEL_SPECS[p.armModel];
  if (p.arms.length !== armCountOf(p.armType)) issues.push({ path: 'arms', message: 'poseValidation.armCount' });
  p.arms.forEach((arm, a) => {
    if (arm.length !== spec.joints.length) {
      issues.push({ path: `arms.${a}`, message: 'poseValidation.jointCount' });
      return;
    }
    arm.forEach((angle, j) => {
      const joint = spec.joints[j]!;
      if (angle < joint.min || angle > joint.max) issues.push({ path: `arms.${a}.${j}`, message: 'validation.range' });
    });
  });
  if (hasPeriscope(p.armType)) {
    if (p.periscopeMm === null) issues.push({ path: 'periscopeMm', message: 'poseValidation.periscopeRequired' });
    else if (p.periscopeMm < 0 || p.periscopeMm > spec.periscopeMaxMm)
      issues.push({ path: 'periscopeMm', message: 'validation.range' });
  } else if (p.periscopeMm !== null) {
    issues.push({ path: 'periscopeMm', message: 'poseValidation.periscopeNotAllowed' });
  }
  return issues;
}

/** A required name. Not aborting, so the pose and graph rules still report alongside a missing name. */
const requiredText = (max: number) =>
  z.string({ error: 'validation.required' }).trim().min(1, 'validation.required').max(max, `validation.max${max}`);

/** A joint angle in degrees, at most one decimal. */
const angleSchema = z
  .number({ error: 'validation.number' })
  .finite('validation.number')
  .min(JOINT_ANGLE_RANGE.min, 'validation.range')
  .max(JOINT_ANGLE_RANGE.max, 'validation.range');

const toPath = (path: string) => path.split('.').map((s) => (/^\d+$/.test(s) ? Number(s) : s));

const poseDefFields = z.object({
  name: requiredText(POSE_NAME_MAX),
  /** null: usable in the whole organization. */
  buildingId: id.nullable(),
  /** Only system administrators choose; others get their own organization (or the building's). */
  organizationId: id.optional(),
  armModel: armModelSchema,
  armType: armTypeSchema,
  /** Joint angles in degrees: one array per arm (left arm first on dual arms). */
  arms: z.array(z.array(angleSchema).max(6, 'poseValidation.jointCount')).min(1).max(2, 'poseValidation.armCount'),
  /** Periscope height in millimetres (types 21 and 22 only; null otherwise). */
  periscopeMm: z.number({ error: 'validation.integer' }).int('validation.integer').nullable(),
});
const refinePose = (v: z.infer<typeof poseDefFields>, ctx: z.RefinementCtx) => {
  for (const i of poseShapeIssues(v)) ctx.addIssue({ code: 'custom', path: toPath(i.path), message: i.message });
};
const version = { updatedAt: z.string({ error: 'validation.required' }).min(1).max(40) };

export const poseDefInputSchema = poseDefFields.superRefine(refinePose);
export type PoseDefInput = z.infer<typeof poseDefInputSchema>;

export const updatePoseDefBodySchema = poseDefFields.extend(version).superRefine(refinePose);
export type UpdatePoseDefBody = z.infer<typeof updatePoseDefBodySchema>;

export const poseDefSchema = z.object({
  id,
  organizationId: id,
  buildingId: id.nullable(),
  buildingName: z.string().nullable(),
  name: z.string(),
  armModel: armModelSchema,
  armType: armTypeSchema,
  arms: z.array(z.array(z.number())),
  periscopeMm: z.number().int().nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type PoseDef = z.infer<typeof poseDefSchema>;

// ---------------------------------------------------------------- networks

/** A transition from one pose to another; `bidirectional` allows it both ways. */
export const poseEdgeSchema = z.object({
  from: id,
  to: id,
  bidirectional: z.boolean(),
});
export type PoseEdge = z.infer<typeof poseEdgeSchema>;

/**
 * The graph rules that need no database: nodes once each, edges between nodes, no self-loops, and
 * one edge per pair of poses (A→B together with B→A is written as one edge with `bidirectional`).
 */
export function poseGraphIssues(g: { nodes: readonly number[]; edges: readonly PoseEdge[] }): PoseIssue[] {
  const issues: PoseIssue[] = [];
  const seen = new Set<number>();
  g.nodes.forEach((n, i) => {
    if (seen.has(n)) issues.push({ path: `nodes.${i}`, message: 'poseValidation.duplicateNode' });
    seen.add(n);
  });
  const pairs = new Set<string>();
  g.edges.forEach((e, i) => {
    if (!seen.has(e.from) || !seen.has(e.to)) {
      issues.push({ path: `edges.${i}`, message: 'poseValidation.edgeNodeMissing' });
      return;
    }
    if (e.from === e.to) {
      issues.push({ path: `edges.${i}`, message: 'poseValidation.selfLoop' });
      return;
    }
    const pair = e.from < e.to ? `${e.from}-${e.to}` : `${e.to}-${e.from}`;
    if (pairs.has(pair)) issues.push({ path: `edges.${i}`, message: 'poseValidation.duplicateEdge' });
    pairs.add(pair);
  });
  return issues;
}

const poseNetworkFields = z.object({
  name: requiredText(POSE_NETWORK_NAME_MAX),
  buildingId: id.nullable(),
  organizationId: id.optional(),
  armModel: armModelSchema,
  armType: armTypeSchema,
  /** Pose definition ids (same organization, model and type). */
  nodes: z.array(id).max(POSE_NETWORK_MAX_NODES, 'poseValidation.tooManyNodes'),
  edges: z.array(poseEdgeSchema).max(POSE_NETWORK_MAX_EDGES, 'poseValidation.tooManyEdges'),
});
const refineGraph = (v: z.infer<typeof poseNetworkFields>, ctx: z.RefinementCtx) => {
  for (const i of poseGraphIssues(v)) ctx.addIssue({ code: 'custom', path: toPath(i.path), message: i.message });
};

export const poseNetworkInputSchema = poseNetworkFields.superRefine(refineGraph);
export type PoseNetworkInput = z.infer<typeof poseNetworkInputSchema>;

export const updatePoseNetworkBodySchema = poseNetworkFields.extend(version).superRefine(refineGraph);
export type UpdatePoseNetworkBody = z.infer<typeof updatePoseNetworkBodySchema>;

export const poseNetworkSchema = z.object({
  id,
  organizationId: id,
  buildingId: id.nullable(),
  buildingName: z.string().nullable(),
  name: z.string(),
  armModel: armModelSchema,
  armType: armTypeSchema,
  /** The poses of the network, in the order they were added. */
  nodes: z.array(z.object({ id, name: z.string() })),
  edges: z.array(poseEdgeSchema),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type PoseNetwork = z.infer<typeof poseNetworkSchema>;

/** Details of 409 IN_USE when a pose definition is part of networks: `path` "networks", message the names. */
export const POSE_IN_USE_PATH = 'networks';

// ---------------------------------------------------------------- planning

export type PoseTransitionPlan =
  | { found: true; /** Pose ids from start to goal, both included. */ path: number[]; steps: number }
  | { found: false; reason: 'unknownPose' | 'noPath' };

/** The transitions that leave each pose (a bidirectional edge leaves both ends). */
export function poseAdjacency(network: {
  nodes: readonly (number | { id: number })[];
  edges: readonly PoseEdge[];
}): Map<number, number[]> {
  const adj = new Map<number, number[]>();
  for (const n of network.nodes) adj.set(typeof n === 'number' ? n : n.id, []);
  const add = (a: number, b: number) => {
    const list = adj.get(a);
    if (list && adj.has(b) && !list.includes(b)) list.push(b);
  };
  for (const e of network.edges) {
    add(e.from, e.to);
    if (e.bidirectional) add(e.to, e.from);
  }
  return adj;
}

/**
 * The shortest way (fewest transitions) from one pose to another along the network's edges,
 * breadth first; ties go to the edge listed first. Going from a pose to itself takes no steps.
 */
export function planPoseTransition(
  network: { nodes: readonly (number | { id: number })[]; edges: readonly PoseEdge[] },
  fromPoseId: number,
  toPoseId: number,
): PoseTransitionPlan {
  const adj = poseAdjacency(network);
  if (!adj.has(fromPoseId) || !adj.has(toPoseId)) return { found: false, reason: 'unknownPose' };
  const previous = new Map<number, number | null>([[fromPoseId, null]]);
  const queue = [fromPoseId];
  for (let i = 0; i < queue.length; i++) {
    const at = queue[i]!;
    if (at === toPoseId) break;
    for (const next of adj.get(at) ?? []) {
      if (previous.has(next)) continue;
      previous.set(next, at);
      queue.push(next);
    }
  }
  if (!previous.has(toPoseId)) return { found: false, reason: 'noPath' };
  const path: number[] = [];
  for (let at: number | null = toPoseId; at !== null; at = previous.get(at) ?? null) path.unshift(at);
  return { found: true, path, steps: path.length - 1 };
}

// ---------------------------------------------------------------- drawing

export interface Point2 {
  x: number;
  y: number;
}

/**
 * The side view of one arm: points of the kinematic chain (shoulder first) in millimetres, x
 * forward, y up, from the pitch joints and the model's link lengths. Shoulder pitch 0 points the
 * upper arm forward; positive angles lift it. Yaw and roll joints do not change the side view.
 */
export function armSideView(model: ArmModel, angles: readonly number[], shoulder: Point2 = { x: 0, y: 0 }): Point2[] {
  const spec = ARM_MODEL_SPECS[model];
  const points: Point2[] = [shoulder];
  let heading = 0;
  let link = 0;
  spec.joints.forEach((joint, j) => {
    if (joint.axis !== 'pitch') return;
    const angle = angles[j] ?? joint.home;
    // The elbow bends downward for positive angles (like a human elbow).
    heading += joint.key === 'elbowPitch' ? -angle : angle;
    const len = spec.linksMm[link++] ?? 0;
    const last = points[points.length - 1]!;
    const rad = (heading * Math.PI) / 180;
    points.push({ x: last.x + len * Math.cos(rad), y: last.y + len * Math.sin(rad) });
  });
  return points;
}
