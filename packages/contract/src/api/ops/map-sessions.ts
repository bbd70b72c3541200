import { z } from 'zod';
import { floorMapSchema } from '../../maps.ts';
import {
  mapSessionSchema,
  startMappingBodySchema,
  startRecordingBodySchema,
  stopMappingBodySchema,
  stopRecordingBodySchema,
} from '../../mapping.ts';
import { defineOperations, idParams } from '../operation.ts';

const session = { 200: mapSessionSchema } as const;

/**
 * Mapping by a robot and route recording (docs/api-maps.md "Mapping and route recording"), one
 * session per robot. Everything but reading is for organization and system administrators, as for
 * editing floor maps (`admin` stops general operators; the service stops area managers).
 */
export const mapSessionOps = defineOperations('maps', {
  /** 200 with null when the robot has no session: polling for one is not an error. */
  getMapSession: {
    method: 'GET',
    path: '/robots/:id/map-session',
    tags: ['robots', 'maps'],
    access: 'user',
    params: idParams,
    responses: { 200: mapSessionSchema.nullable() },
  },

  startMapping: {
    method: 'POST',
    path: '/robots/:id/mapping',
    tags: ['robots', 'maps'],
    access: 'admin',
    params: idParams,
    body: startMappingBodySchema,
    responses: { 202: mapSessionSchema },
  },
  pauseMapping: {
    method: 'POST',
    path: '/robots/:id/mapping/pause',
    tags: ['robots', 'maps'],
    access: 'admin',
    params: idParams,
    responses: session,
  },
  resumeMapping: {
    method: 'POST',
    path: '/robots/:id/mapping/resume',
    tags: ['robots', 'maps'],
    access: 'admin',
    params: idParams,
    responses: session,
  },
  stopMapping: {
    method: 'POST',
    path: '/robots/:id/mapping/stop',
    tags: ['robots', 'maps'],
    access: 'admin',
    params: idParams,
    body: stopMappingBodySchema,
    responses: session,
  },

  startRouteRecording: {
    method: 'POST',
    path: '/robots/:id/route-recording',
    tags: ['robots', 'maps'],
    access: 'admin',
    params: idParams,
    body: startRecordingBodySchema,
    responses: { 202: mapSessionSchema },
  },
  pauseRouteRecording: {
    method: 'POST',
    path: '/robots/:id/route-recording/pause',
    tags: ['robots', 'maps'],
    access: 'admin',
    params: idParams,
    responses: session,
  },
  resumeRouteRecording: {
    method: 'POST',
    path: '/robots/:id/route-recording/resume',
    tags: ['robots', 'maps'],
    access: 'admin',
    params: idParams,
    responses: session,
  },
  stopRouteRecording: {
    method: 'POST',
    path: '/robots/:id/route-recording/stop',
    tags: ['robots', 'maps'],
    summary: 'With `save`: answers the new floor map (the route and its two waypoints); else the session.',
    access: 'admin',
    params: idParams,
    body: stopRecordingBodySchema,
    responses: { 200: z.union([floorMapSchema, mapSessionSchema]) },
  },
});
