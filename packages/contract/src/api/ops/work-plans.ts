import { z } from 'zod';
import {
  updateWorkPlanBodySchema,
  updateWorkPlanTemplateBodySchema,
  workPlanInputSchema,
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
