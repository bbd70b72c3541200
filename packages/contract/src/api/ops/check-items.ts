import { z } from 'zod';
import { checkItemInputSchema, checkItemSchema, updateCheckItemBodySchema } from '../../check-items.ts';
import { defineOperations, idParams, listQuery, noContent } from '../operation.ts';

/**
 * Check items (docs/api-check-items.md). Reading within tenancy (general operators: their building).
 * Writing: administrators (any non-general type) within their scope; the service checks the scope.
 */
export const checkItemOps = defineOperations('check-items', {
  /** Items in scope; filter on buildingId, floorId, status, type, name (search), thresholdRuleId. */
  listCheckItems: {
    method: 'GET',
    path: '/check-items',
    access: 'user',
    query: listQuery,
    list: true,
    responses: { 200: z.array(checkItemSchema) },
  },
  createCheckItem: {
    method: 'POST',
    path: '/check-items',
    access: 'admin',
    body: checkItemInputSchema,
    responses: { 201: checkItemSchema },
  },
  getCheckItem: {
    method: 'GET',
    path: '/check-items/:id',
    access: 'user',
    params: idParams,
    responses: { 200: checkItemSchema },
  },
  updateCheckItem: {
    method: 'PUT',
    path: '/check-items/:id',
    access: 'admin',
    params: idParams,
    body: updateCheckItemBodySchema,
    responses: { 200: checkItemSchema },
  },
  deleteCheckItem: {
    method: 'DELETE',
    path: '/check-items/:id',
    access: 'admin',
    params: idParams,
    responses: noContent,
  },
});
