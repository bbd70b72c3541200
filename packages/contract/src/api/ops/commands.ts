import { z } from 'zod';
import {
  commandInputSchema,
  commandSchema,
  commandUsageSchema,
  updateCommandBodySchema,
} from '../../flows/resources.ts';
import { defineOperations, idParams, listQuery, noContent } from '../operation.ts';

/**
 * The command library (docs/api-flows.md "Commands"). Reading: everyone in the organization sees the
 * published commands (their organization's and the system's); administrators also the others of
 * their organization. Writing: organization administrators (their organization's commands) and
 * system administrators (also system commands and the alpha and development scopes).
 */
export const commandOps = defineOperations('commands', {
  listCommands: {
    method: 'GET',
    path: '/commands',
    access: 'user',
    query: listQuery,
    list: true,
    responses: { 200: z.array(commandSchema) },
  },
  createCommand: {
    method: 'POST',
    path: '/commands',
    access: 'admin',
    body: commandInputSchema,
    responses: { 201: commandSchema },
  },
  getCommand: {
    method: 'GET',
    path: '/commands/:id',
    access: 'user',
    params: idParams,
    responses: { 200: commandSchema },
  },
  updateCommand: {
    method: 'PUT',
    path: '/commands/:id',
    access: 'admin',
    params: idParams,
    body: updateCommandBodySchema,
    responses: { 200: commandSchema },
  },
  deleteCommand: { method: 'DELETE', path: '/commands/:id', access: 'admin', params: idParams, responses: noContent },
  /** The flows that use a command (those the caller may see). */
  getCommandUsage: {
    method: 'GET',
    path: '/commands/:id/usage',
    access: 'admin',
    params: idParams,
    responses: { 200: z.array(commandUsageSchema) },
  },
});
