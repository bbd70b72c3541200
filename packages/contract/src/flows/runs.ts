import { z } from 'zod';
import { HEALTH_PROBLEMS } from '../flow-health.ts';

/**
 * Flow runs (issue 13; docs/flow-runner.md): one flow carried out by one robot. The record is what
 * reports, schedules and notifications read: the run's start, end and result, and each step's start,
 * end, result, error and data (a photo's file, a task event's message).
 */

/** A run's status: `running` and `paused` are active (one active run per robot), the rest final. */
export const FLOW_RUN_STATUSES = ['running', 'paused', 'done', 'fail', 'cancel', 'unknown'] as const;
export type FlowRunStatus = (typeof FLOW_RUN_STATUSES)[number];
export const ACTIVE_RUN_STATUSES = ['running', 'paused'] as const satisfies readonly FlowRunStatus[];
export const isActiveRun = (s: string): boolean => s === 'running' || s === 'paused';

/** A step's result: `skip` when it failed and its policy skipped it. */
export const FLOW_STEP_RESULTS = ['running', 'done', 'fail', 'skip', 'cancel', 'unknown'] as const;
export type FlowStepResult = (typeof FLOW_STEP_RESULTS)[number];

/**
 * Why a step failed: the robot error codes of spec section 8 (F0001-F0007, D0001) and the elevator and
 * security codes (A*, S*), or the runner's own (`RUN_*`).
 * - F0001 the robot rejected the order or an action (VDA 5050 validation/orderUpdate error)
 * - F0002 no way over the route graph / waypoint missing
 * - F0003 an action the robot reported FAILED
 * - F0004 the robot went offline during the step
 * - F0005 emergency stop pressed during the step
 * - F0006 a FATAL error in the robot's state
 * - F0007 the step did not finish in time
 * - D0001 the robot's model cannot do this step (capability missing)
 */
export const FLOW_ERROR_CODES = ['F0001', 'F0002', 'F0003', 'F0004', 'F0005', 'F0006', 'F0007', 'D0001'] as const;
export type FlowErrorCode = (typeof FLOW_ERROR_CODES)[number];

export const flowRunStepSchema = z.object({
  id: z.number().int(),
  /** Order of execution within the run (1, 2, ...); a loop's steps appear once per pass. */
  seq: z.number().int(),
  /** The definition step's id. */
  stepId: z.string(),
  kind: z.string(),
  /** Loop passes around it, outermost first ("2/1": third pass of the outer loop, second of the inner). */
  pass: z.string(),
  attempt: z.number().int(),
  result: z.enum(FLOW_STEP_RESULTS),
  startedAt: z.string(),
  endedAt: z.string().nullable(),
  errorCode: z.string().nullable(),
  message: z.string().nullable(),
  /** What the step produced or did: photoFileId, orderId, waypointId, phase, level, text... */
  data: z.record(z.string(), z.union([z.string(), z.number(), z.boolean(), z.null()])),
});
export type FlowRunStep = z.infer<typeof flowRunStepSchema>;

export const flowRunSchema = z.object({
  id: z.number().int(),
  flowId: z.number().int().nullable(),
  flowName: z.string(),
  robotId: z.number().int(),
  robotName: z.string(),
  organizationId: z.number().int(),
  buildingId: z.number().int(),
  floorId: z.number().int(),
  status: z.enum(FLOW_RUN_STATUSES),
  startedAt: z.string(),
  endedAt: z.string().nullable(),
  /** The operator who started it (null: a schedule or a deleted operator). */
  startedBy: z.number().int().nullable(),
  /** The step being carried out (null once the run ended). */
  currentStepId: z.string().nullable(),
  currentStepKind: z.string().nullable(),
  /** Steps started so far (a loop's steps once per pass). */
  stepsStarted: z.number().int(),
  errorCode: z.string().nullable(),
  message: z.string().nullable(),
});
export type FlowRun = z.infer<typeof flowRunSchema>;

export const flowRunDetailSchema = flowRunSchema.extend({
  steps: z.array(flowRunStepSchema),
  /** The definition as it was when the run started (the flow may have changed since). */
  definition: z.unknown(),
});
export type FlowRunDetail = z.infer<typeof flowRunDetailSchema>;

export const startFlowRunBodySchema = z.object({
  robotId: z.number({ error: 'validation.required' }).int('validation.integer').min(1, 'validation.required'),
});
export type StartFlowRunBody = z.infer<typeof startFlowRunBodySchema>;

/** Error details of a refused start: the health problems (path `robot`, message `healthProblem.<code>`). */
export const HEALTH_PROBLEM_DETAIL = (p: (typeof HEALTH_PROBLEMS)[number]) => ({
  path: 'robot',
  message: `healthProblem.${p}`,
  code: p,
});

/** Steps of a run's record answered at most (a long looping run keeps its newest steps). */
export const FLOW_RUN_STEPS_ANSWERED = 500;
