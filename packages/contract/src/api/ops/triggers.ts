import { z } from 'zod';
import { triggerFiringSchema, triggerInputSchema, triggerSchema, updateTriggerBodySchema } from '../../triggers.ts';
import { defineOperations, idParams, listQuery, noContent } from '../operation.ts';

/**
 * Triggers of a building and their firings (docs/api-triggers.md). Reading: every operator who sees
 * the building. Writing: organization administrators of the building's organization and system
 * administrators; others 403. A trigger of a building the caller does not see is 404.
 */
export const triggerOps = defineOperations('triggers', {
  /** Triggers in scope; filter on buildingId, name (search), status, eventType, targetType; default order name. */
  listTriggers: {
    method: 'GET',
    path: '/triggers',
    access: 'user',
    query: listQuery,
    list: true,
    responses: { 200: z.array(triggerSchema) },
  },
  createTrigger: {
    method: 'POST',
    path: '/triggers',
    access: 'admin',
    body: triggerInputSchema,
    responses: { 201: triggerSchema },
  },
  getTrigger: {
    method: 'GET',
    path: '/triggers/:id',
    access: 'user',
    params: idParams,
    responses: { 200: triggerSchema },
  },
  updateTrigger: {
    method: 'PUT',
    path: '/triggers/:id',
    access: 'admin',
    params: idParams,
    body: updateTriggerBodySchema,
    responses: { 200: triggerSchema },
  },
  /** The trigger's firings stay in the log, naming it. */
  deleteTrigger: {
    method: 'DELETE',
    path: '/triggers/:id',
    access: 'admin',
    params: idParams,
    responses: noContent,
  },
  /** The trigger log, newest first; filter on triggerId, buildingId, status, eventKind, createdAt. */
  listTriggerFirings: {
    method: 'GET',
    path: '/trigger-firings',
    access: 'user',
    query: listQuery,
    list: true,
    responses: { 200: z.array(triggerFiringSchema) },
  },
});
