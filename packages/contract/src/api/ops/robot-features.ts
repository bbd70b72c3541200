import { z } from 'zod';
import { robotSchema } from '../../robots.ts';
import {
  consoleActionBodySchema,
  robotActionResultSchema,
  robotActionSchema,
  robotConsoleSchema,
  robotLogQuerySchema,
  robotLogSchema,
  robotPhotoSchema,
  robotTeleopSchema,
  thermalPresetInputSchema,
  thermalPresetSaveResultSchema,
  thermalPresetSchema,
} from '../../teleop.ts';
import { defineOperations, idParams, idString, noContent } from '../operation.ts';

/** Photos of a robot answered by default and at most (`?limit=`). */
export const PHOTO_LIST_DEFAULT = 50;
export const PHOTO_LIST_MAX = 200;

const serialParams = z.object({ serialNo: z.string().min(1).max(100) });
const presetParams = z.object({ id: idString, presetId: idString });
const photosQuery = z.object({
  limit: z.coerce.number().int().min(1).max(PHOTO_LIST_MAX).default(PHOTO_LIST_DEFAULT),
});
const accepted = { 202: robotActionResultSchema } as const;

/**
 * Robot features of the operator screen and the console (docs/api.md "Robot features"): the robot
 * by serial number, capabilities and live teleop facts, feature actions (VDA 5050 instant
 * actions), photos, thermal presets; the console and the OS update for administrators
 * (`access: 'admin'`). Every robot is looked up within the caller's scope: another tenant's robot
 * is "not found".
 */
export const robotFeatureOps = defineOperations('robot-features', {
  getRobotBySerial: {
    method: 'GET',
    path: '/robots/by-serial/:serialNo',
    access: 'user',
    params: serialParams,
    responses: { 200: robotSchema },
  },
  getRobotTeleop: {
    method: 'GET',
    path: '/robots/:id/teleop',
    access: 'user',
    params: idParams,
    responses: { 200: robotTeleopSchema },
  },
  sendRobotAction: {
    method: 'POST',
    path: '/robots/:id/actions',
    access: 'user',
    params: idParams,
    body: robotActionSchema,
    responses: accepted,
  },
  listRobotPhotos: {
    method: 'GET',
    path: '/robots/:id/photos',
    access: 'user',
    params: idParams,
    query: photosQuery,
    responses: { 200: z.array(robotPhotoSchema) },
  },
  listThermalPresets: {
    method: 'GET',
    path: '/robots/:id/thermal-presets',
    access: 'user',
    params: idParams,
    responses: { 200: z.array(thermalPresetSchema) },
  },
  /** 200 when a preset of the same name was overwritten, 201 when a new one was made. */
  saveThermalPreset: {
    method: 'POST',
    path: '/robots/:id/thermal-presets',
    access: 'user',
    params: idParams,
    body: thermalPresetInputSchema,
    responses: { 200: thermalPresetSaveResultSchema, 201: thermalPresetSaveResultSchema },
  },
  deleteThermalPreset: {
    method: 'DELETE',
    path: '/robots/:id/thermal-presets/:presetId',
    access: 'user',
    params: presetParams,
    responses: noContent,
  },

  getRobotConsole: {
    method: 'GET',
    path: '/robots/:id/console',
    access: 'admin',
    params: idParams,
    responses: { 200: robotConsoleSchema },
  },
  getRobotConsoleLog: {
    method: 'GET',
    path: '/robots/:id/console/log',
    access: 'admin',
    params: idParams,
    query: robotLogQuerySchema,
    responses: { 200: robotLogSchema },
  },
  sendRobotConsoleAction: {
    method: 'POST',
    path: '/robots/:id/console/actions',
    access: 'admin',
    params: idParams,
    body: consoleActionBodySchema,
    responses: accepted,
  },
  startRobotOsUpdate: {
    method: 'POST',
    path: '/robots/:id/os-update',
    access: 'admin',
    params: idParams,
    body: z.object({}).strict(),
    responses: accepted,
  },
});
