import { z } from 'zod';
import {
  scheduleInputSchema,
  scheduleLogSchema,
  scheduleOccurrenceSchema,
  scheduleOccurrencesQuerySchema,
  scheduleSchema,
  updateScheduleBodySchema,
} from '../../schedules/resources.ts';
import { scheduleReferenceSchema } from '../../schedules/references.ts';
import { defineOperations, idParams, listQuery, noContent } from '../operation.ts';

/**
 * Schedules (docs/api-schedules.md). Reading within tenancy (general operators: their building).
 * Writing: administrators within their scope; general operators the entries of their own building.
 * The flow and the robot must be of one building; the service checks it.
 */
export const scheduleOps = defineOperations('schedules', {
  /** Entries in scope; filter on buildingId, robotId, flowId, repeat, enabled, title (search). */
  listSchedules: {
    method: 'GET',
    path: '/schedules',
    access: 'user',
    query: listQuery,
    list: true,
    responses: { 200: z.array(scheduleSchema) },
  },
  createSchedule: {
    method: 'POST',
    path: '/schedules',
    access: 'user',
    body: scheduleInputSchema,
    responses: { 201: scheduleSchema },
  },
  /** The occurrences of the entries in scope in a window (at most 62 days), for the calendar. */
  listScheduleOccurrences: {
    method: 'GET',
    path: '/schedules/occurrences',
    access: 'user',
    query: scheduleOccurrencesQuerySchema,
    responses: { 200: z.array(scheduleOccurrenceSchema) },
  },
  /** Every occurrence that came due, newest first; filter on buildingId, robotId, flowId, result, dueAt. */
  listScheduleLogs: {
    method: 'GET',
    path: '/schedule-logs',
    access: 'user',
    query: listQuery,
    list: true,
    responses: { 200: z.array(scheduleLogSchema) },
  },
  getSchedule: {
    method: 'GET',
    path: '/schedules/:id',
    access: 'user',
    params: idParams,
    responses: { 200: scheduleSchema },
  },
  updateSchedule: {
    method: 'PUT',
    path: '/schedules/:id',
    access: 'user',
    params: idParams,
    body: updateScheduleBodySchema,
    responses: { 200: scheduleSchema },
  },
  deleteSchedule: { method: 'DELETE', path: '/schedules/:id', access: 'user', params: idParams, responses: noContent },
  /** The entry's reference images of the start position (empty: the start position is not checked). */
  listScheduleReferences: {
    method: 'GET',
    path: '/schedules/:id/reference',
    access: 'user',
    params: idParams,
    responses: { 200: z.array(scheduleReferenceSchema) },
  },
  /**
   * Takes the reference images now with the entry's robot where it stands (the operator drove it to
   * the flow's start position), replacing the old ones. 409 ROBOT_OFFLINE when it is offline.
   */
  takeScheduleReferences: {
    method: 'POST',
    path: '/schedules/:id/reference',
    access: 'user',
    params: idParams,
    responses: { 200: z.array(scheduleReferenceSchema) },
  },
});
