import { z } from 'zod';
import { flowRunDetailSchema, flowRunSchema, startFlowRunBodySchema } from '../../flows/runs.ts';
import { defineOperations, idParams, listQuery } from '../operation.ts';

/**
 * Flow runs (docs/flow-runner.md). Anyone who can see the flow and the robot (same building for
 * general operators) may start, pause, resume and cancel a run; the robot must not be held by another
 * operator's controls. One active run per robot: a second start is 409 FLOW_ALREADY_RUNNING; a
 * failing health check 409 HEALTH_CHECK_FAILED with the problems as details.
 */
export const flowRunOps = defineOperations('flowRuns', {
  startFlowRun: {
    method: 'POST',
    path: '/flows/:id/runs',
    access: 'user',
    params: idParams,
    body: startFlowRunBodySchema,
    responses: { 201: flowRunSchema },
  },
  /** Runs in scope, newest first; filter on robotId, flowId, buildingId, status, startedAt. */
  listFlowRuns: {
    method: 'GET',
    path: '/flow-runs',
    access: 'user',
    query: listQuery,
    list: true,
    responses: { 200: z.array(flowRunSchema) },
  },
  getFlowRun: {
    method: 'GET',
    path: '/flow-runs/:id',
    access: 'user',
    params: idParams,
    responses: { 200: flowRunDetailSchema },
  },
  pauseFlowRun: {
    method: 'POST',
    path: '/flow-runs/:id/pause',
    access: 'user',
    params: idParams,
    responses: { 200: flowRunSchema },
  },
  resumeFlowRun: {
    method: 'POST',
    path: '/flow-runs/:id/resume',
    access: 'user',
    params: idParams,
    responses: { 200: flowRunSchema },
  },
  cancelFlowRun: {
    method: 'POST',
    path: '/flow-runs/:id/cancel',
    access: 'user',
    params: idParams,
    responses: { 200: flowRunSchema },
  },
});
