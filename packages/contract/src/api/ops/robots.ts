import { z } from 'zod';
import {
  createdRobotSchema,
  fleetRobotSchema,
  pendingRobotSchema,
  robotCommandBodySchema,
  robotCredentialsSchema,
  createRobotBodySchema,
  robotSchema,
  robotSettingChangeSchema,
  updateRobotBodySchema,
} from '../../robots.ts';
import { defineOperations, idParams, listQuery, noContent } from '../operation.ts';

/** `?buildingId=` of the fleet: a database id. */
const fleetQuery = z.object({ buildingId: z.coerce.number().int().min(1).max(2_147_483_647).optional() });

/**
 * The robot registry (docs/api-robots.md, docs/decisions/0004-robot-roles.md). Reading and commands
 * for any operator within scope; registering, changing, deleting and issuing credentials for
 * organization and system administrators (`admin` stops general operators, the service area
 * managers); robots awaiting registration for system administrators.
 */
export const robotOps = defineOperations('robots', {
  listRobots: {
    method: 'GET',
    path: '/robots',
    access: 'user',
    query: listQuery,
    list: true,
    responses: { 200: z.array(robotSchema) },
  },
  listFleet: {
    method: 'GET',
    path: '/robots/fleet',
    access: 'user',
    query: fleetQuery,
    responses: { 200: z.array(fleetRobotSchema) },
  },
  listPendingRobots: {
    method: 'GET',
    path: '/robots/pending',
    access: 'system',
    responses: { 200: z.array(pendingRobotSchema) },
  },
  deletePendingRobot: {
    method: 'DELETE',
    path: '/robots/pending/:id',
    access: 'system',
    params: idParams,
    responses: noContent,
  },
  createRobot: {
    method: 'POST',
    path: '/robots',
    access: 'admin',
    body: createRobotBodySchema,
    responses: { 201: createdRobotSchema },
  },
  getRobot: { method: 'GET', path: '/robots/:id', access: 'user', params: idParams, responses: { 200: robotSchema } },
  updateRobot: {
    method: 'PUT',
    path: '/robots/:id',
    access: 'admin',
    params: idParams,
    body: updateRobotBodySchema,
    responses: { 200: robotSchema },
  },
  deleteRobot: { method: 'DELETE', path: '/robots/:id', access: 'admin', params: idParams, responses: noContent },
  rotateRobotCredentials: {
    method: 'POST',
    path: '/robots/:id/credentials',
    access: 'admin',
    params: idParams,
    responses: { 200: robotCredentialsSchema },
  },
  listRobotSettingHistory: {
    method: 'GET',
    path: '/robots/:id/setting-history',
    access: 'user',
    params: idParams,
    query: listQuery,
    list: true,
    responses: { 200: z.array(robotSettingChangeSchema) },
  },
  sendRobotCommand: {
    method: 'POST',
    path: '/robots/:id/commands',
    access: 'user',
    params: idParams,
    body: robotCommandBodySchema,
    responses: { 202: z.object({ ok: z.literal(true) }) },
  },
});
