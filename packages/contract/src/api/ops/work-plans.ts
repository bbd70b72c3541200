import { z } from 'zod';
import {
  confirmWorkPlanStepBodySchema,
  moveWorkPlanStepBodySchema,
  startWorkPlanRunBodySchema,
  updateWorkPlanBodySchema,
  updateWorkPlanTemplateBodySchema,
  workPlanInputSchema,
  workPlanRunSchema,
  workPlanSchema,
  workPlanTemplateInputSchema,
  workPlanTemplateSchema,
} from '../../work-plans.ts';
import { defineOperations, idParams, listQuery, noContent } from '../operation.ts';

/**
 * Work plans and their templates (docs/api-work-plans.md). Reading within tenancy (general
 * operators: their building; templates: the shipped ones and the organization's). Writing:
 * organization and system administrators within their scope (the service checks it).
 */
export const workPlanOps = defineOperations('work-plans', {
  listWorkPlans: {
    method: 'GET',
    path: '/work-plans',
    access: 'user',
    query: listQuery,
    list: true,
    responses: { 200: z.array(workPlanSchema) },
  },
  createWorkPlan: {
    method: 'POST',
    path: '/work-plans',
    access: 'user',
    body: workPlanInputSchema,
    responses: { 201: workPlanSchema },
  },
  getWorkPlan: {
    method: 'GET',
    path: '/work-plans/:id',
    access: 'user',
    params: idParams,
    responses: { 200: workPlanSchema },
  },
  updateWorkPlan: {
    method: 'PUT',
    path: '/work-plans/:id',
    access: 'user',
    params: idParams,
    body: updateWorkPlanBodySchema,
    responses: { 200: workPlanSchema },
  },
  deleteWorkPlan: { method: 'DELETE', path: '/work-plans/:id', access: 'user', params: idParams, responses: noContent },
  listWorkPlanTemplates: {
    method: 'GET',
    path: '/work-plan-templates',
    access: 'user',
    query: listQuery,
    list: true,
    responses: { 200: z.array(workPlanTemplateSchema) },
  },
  createWorkPlanTemplate: {
    method: 'POST',
    path: '/work-plan-templates',
    access: 'user',
    body: workPlanTemplateInputSchema,
    responses: { 201: workPlanTemplateSchema },
  },
  getWorkPlanTemplate: {
    method: 'GET',
    path: '/work-plan-templates/:id',
    access: 'user',
    params: idParams,
    responses: { 200: workPlanTemplateSchema },
  },
  updateWorkPlanTemplate: {
    method: 'PUT',
    path: '/work-plan-templates/:id',
    access: 'user',
    params: idParams,
    body: updateWorkPlanTemplateBodySchema,
    responses: { 200: workPlanTemplateSchema },
  },
  deleteWorkPlanTemplate: {
    method: 'DELETE',
    path: '/work-plan-templates/:id',
    access: 'user',
    params: idParams,
    responses: noContent,
  },
});

/**
 * Work plan runs (docs/api-work-plans.md "Runs"): any operator who may see the robot and the plan
 * starts one (one open run per robot), confirms its steps and closes it.
 */
export const workPlanRunOps = defineOperations('work-plan-runs', {
  listWorkPlanRuns: {
    method: 'GET',
    path: '/work-plan-runs',
    access: 'user',
    query: listQuery,
    list: true,
    responses: { 200: z.array(workPlanRunSchema) },
  },
  startWorkPlanRun: {
    method: 'POST',
    path: '/work-plan-runs',
    access: 'user',
    body: startWorkPlanRunBodySchema,
    responses: { 201: workPlanRunSchema },
  },
  getWorkPlanRun: {
    method: 'GET',
    path: '/work-plan-runs/:id',
    access: 'user',
    params: idParams,
    responses: { 200: workPlanRunSchema },
  },
  confirmWorkPlanStep: {
    method: 'POST',
    path: '/work-plan-runs/:id/steps',
    access: 'user',
    params: idParams,
    body: confirmWorkPlanStepBodySchema,
    responses: { 200: workPlanRunSchema },
  },
  /** Sends the robot to a movement step's waypoint (the teleop controls rule, as a goto); 202. */
  moveWorkPlanStep: {
    method: 'POST',
    path: '/work-plan-runs/:id/move',
    access: 'user',
    params: idParams,
    body: moveWorkPlanStepBodySchema,
    responses: { 202: workPlanRunSchema },
  },
  closeWorkPlanRun: {
    method: 'POST',
    path: '/work-plan-runs/:id/close',
    access: 'user',
    params: idParams,
    responses: { 200: workPlanRunSchema },
  },
});
