import { createOperatorBodySchema, operatorListSchema, operatorSchema, updateOperatorBodySchema } from '../../admin.ts';
import { defineOperations, idParams, listQuery, noContent } from '../operation.ts';

/**
 * Operator management: organization and system administrators only (`admin`; the services stop
 * area managers and keep organization administrators to their own organization).
 */
export const operatorOps = defineOperations('operators', {
  listOperators: {
    method: 'GET',
    path: '/operators',
    access: 'admin',
    query: listQuery,
    list: true,
    responses: { 200: operatorListSchema },
  },
  getOperator: {
    method: 'GET',
    path: '/operators/:id',
    access: 'admin',
    params: idParams,
    responses: { 200: operatorSchema },
  },
  createOperator: {
    method: 'POST',
    path: '/operators',
    access: 'admin',
    body: createOperatorBodySchema,
    responses: { 201: operatorSchema },
  },
  updateOperator: {
    method: 'PATCH',
    path: '/operators/:id',
    access: 'admin',
    params: idParams,
    body: updateOperatorBodySchema,
    responses: { 200: operatorSchema },
  },
  deleteOperator: { method: 'DELETE', path: '/operators/:id', access: 'admin', params: idParams, responses: noContent },
  /** Locked until unlocked; the operator's sessions end at once. */
  lockOperator: {
    method: 'POST',
    path: '/operators/:id/lock',
    access: 'admin',
    params: idParams,
    responses: { 200: operatorSchema },
  },
  /** Also resets the failed login count. */
  unlockOperator: {
    method: 'POST',
    path: '/operators/:id/unlock',
    access: 'admin',
    params: idParams,
    responses: { 200: operatorSchema },
  },
  /** A new password at the next sign-in. */
  forcePasswordChange: {
    method: 'POST',
    path: '/operators/:id/force-password-change',
    access: 'admin',
    params: idParams,
    responses: { 200: operatorSchema },
  },
});
