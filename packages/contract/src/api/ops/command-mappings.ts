import { z } from 'zod';
import {
  commandMappingInputSchema,
  commandMappingSchema,
  operatorCommandModeSchema,
  robotCommandMappingSchema,
  updateCommandMappingBodySchema,
} from '../../command-mappings.ts';
import { defineOperations, idParams, listQuery, noContent } from '../operation.ts';

/**
 * Command mappings (docs/api-command-mappings.md). Reading: everyone within tenancy (general
 * operators: their building). Writing: organization administrators (their organization's
 * buildings) and system administrators; others 403. Another tenant's mapping is 404. A mode is used
 * by one mapping per building (400 `commandMappingValidation.modeInUse` on `mode`).
 */
export const commandMappingOps = defineOperations('command-mappings', {
  /** Mappings in scope; filter on name (search), buildingId, mode, status; default order name. */
  listCommandMappings: {
    method: 'GET',
    path: '/command-mappings',
    access: 'user',
    query: listQuery,
    list: true,
    responses: { 200: z.array(commandMappingSchema) },
  },
  createCommandMapping: {
    method: 'POST',
    path: '/command-mappings',
    access: 'admin',
    body: commandMappingInputSchema,
    responses: { 201: commandMappingSchema },
  },
  getCommandMapping: {
    method: 'GET',
    path: '/command-mappings/:id',
    access: 'user',
    params: idParams,
    responses: { 200: commandMappingSchema },
  },
  updateCommandMapping: {
    method: 'PUT',
    path: '/command-mappings/:id',
    access: 'admin',
    params: idParams,
    body: updateCommandMappingBodySchema,
    responses: { 200: commandMappingSchema },
  },
  deleteCommandMapping: {
    method: 'DELETE',
    path: '/command-mappings/:id',
    access: 'admin',
    params: idParams,
    responses: noContent,
  },
  /** What the robot's controllers offer in an operator mode (10 to 13): its building's enabled mappings. */
  getRobotCommandMapping: {
    method: 'GET',
    path: '/robots/:id/command-mapping',
    access: 'user',
    params: idParams,
    query: z.object({ mode: operatorCommandModeSchema }),
    responses: { 200: robotCommandMappingSchema },
  },
});
