import { z } from 'zod';
import {
  flowInputSchema,
  flowSchema,
  reorderFlowsBodySchema,
  setFlowEnabledBodySchema,
  updateFlowBodySchema,
} from '../../flows/resources.ts';
import { defineOperations, idParams, listQuery, noContent } from '../operation.ts';

/**
 * Flows (docs/api-flows.md "Flows"). Reading within tenancy (general operators: their building).
 * Writing: administrators within their scope; general operators the flows of their own building
 * unless their flow editing is restricted (403 FLOW_EDIT_RESTRICTED). The service checks it.
 */
export const flowOps = defineOperations('flows', {
  listFlows: {
    method: 'GET',
    path: '/flows',
    access: 'user',
    query: listQuery,
    list: true,
    responses: { 200: z.array(flowSchema) },
  },
  createFlow: { method: 'POST', path: '/flows', access: 'user', body: flowInputSchema, responses: { 201: flowSchema } },
  /** The flows of one building and floor take the order of `ids` (display order 1, 2, ...). */
  reorderFlows: {
    method: 'PUT',
    path: '/flows/order',
    access: 'user',
    body: reorderFlowsBodySchema,
    responses: { 200: z.array(flowSchema) },
  },
  getFlow: { method: 'GET', path: '/flows/:id', access: 'user', params: idParams, responses: { 200: flowSchema } },
  updateFlow: {
    method: 'PUT',
    path: '/flows/:id',
    access: 'user',
    params: idParams,
    body: updateFlowBodySchema,
    responses: { 200: flowSchema },
  },
  setFlowEnabled: {
    method: 'PUT',
    path: '/flows/:id/enabled',
    access: 'user',
    params: idParams,
    body: setFlowEnabledBodySchema,
    responses: { 200: flowSchema },
  },
  deleteFlow: { method: 'DELETE', path: '/flows/:id', access: 'user', params: idParams, responses: noContent },
});
