import { z } from 'zod';
import {
  poseDefInputSchema,
  poseDefSchema,
  poseNetworkInputSchema,
  poseNetworkSchema,
  updatePoseDefBodySchema,
  updatePoseNetworkBodySchema,
} from '../../poses.ts';
import { defineOperations, idParams, listQuery, noContent } from '../operation.ts';

/**
 * Pose definitions (docs/api-poses.md). Reading for anyone within scope; writing for organization
 * and system administrators (`admin` stops general operators, the service area managers).
 */
export const poseDefOps = defineOperations('pose-defs', {
  listPoseDefs: {
    method: 'GET',
    path: '/pose-defs',
    access: 'user',
    query: listQuery,
    list: true,
    responses: { 200: z.array(poseDefSchema) },
  },
  createPoseDef: {
    method: 'POST',
    path: '/pose-defs',
    access: 'admin',
    body: poseDefInputSchema,
    responses: { 201: poseDefSchema },
  },
  getPoseDef: {
    method: 'GET',
    path: '/pose-defs/:id',
    access: 'user',
    params: idParams,
    responses: { 200: poseDefSchema },
  },
  updatePoseDef: {
    method: 'PUT',
    path: '/pose-defs/:id',
    access: 'admin',
    params: idParams,
    body: updatePoseDefBodySchema,
    responses: { 200: poseDefSchema },
  },
  deletePoseDef: { method: 'DELETE', path: '/pose-defs/:id', access: 'admin', params: idParams, responses: noContent },
});

/** Pose networks (docs/api-poses.md): the same access as pose definitions. */
export const poseNetworkOps = defineOperations('pose-networks', {
  listPoseNetworks: {
    method: 'GET',
    path: '/pose-networks',
    access: 'user',
    query: listQuery,
    list: true,
    responses: { 200: z.array(poseNetworkSchema) },
  },
  createPoseNetwork: {
    method: 'POST',
    path: '/pose-networks',
    access: 'admin',
    body: poseNetworkInputSchema,
    responses: { 201: poseNetworkSchema },
  },
  getPoseNetwork: {
    method: 'GET',
    path: '/pose-networks/:id',
    access: 'user',
    params: idParams,
    responses: { 200: poseNetworkSchema },
  },
  updatePoseNetwork: {
    method: 'PUT',
    path: '/pose-networks/:id',
    access: 'admin',
    params: idParams,
    body: updatePoseNetworkBodySchema,
    responses: { 200: poseNetworkSchema },
  },
  deletePoseNetwork: {
    method: 'DELETE',
    path: '/pose-networks/:id',
    access: 'admin',
    params: idParams,
    responses: noContent,
  },
});
