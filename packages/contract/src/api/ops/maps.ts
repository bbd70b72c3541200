import { z } from 'zod';
import {
  floorMapSchema,
  gotoBodySchema,
  mapRevisionSummarySchema,
  navigationOrderSchema,
  saveFloorMapBodySchema,
  trialRunBodySchema,
  updateWaypointBodySchema,
  waypointEntrySchema,
  waypointInputSchema,
} from '../../maps.ts';
import { defineOperations, idParams, idString, noContent } from '../operation.ts';

/** Revisions answered at most by the revision list (newest first). */
export const MAP_REVISIONS_MAX = 500;

const revisionParams = z.object({ id: idString, rev: idString });
const floorParams = z.object({ floorId: idString });
const waypointParams = z.object({ floorId: idString, id: idString });
const revisionsQuery = z.object({ limit: z.coerce.number().int().min(1).max(MAP_REVISIONS_MAX).default(100) });

/**
 * Floor maps, their revisions, the waypoint API (spec `/waypoint/{mapId}/...`, mapId = floor id)
 * and driving over the route graph (docs/api-maps.md). Writes to maps are for organization and
 * system administrators (`admin` stops general operators, the service area managers); driving is
 * for anyone who can see the robot and the floor.
 */
export const mapOps = defineOperations('maps', {
  getFloorMap: {
    method: 'GET',
    path: '/floors/:id/map',
    access: 'user',
    params: idParams,
    responses: { 200: floorMapSchema },
  },
  /** A whole map document can be large (recorded paths): the server takes a larger body here. */
  saveFloorMap: {
    method: 'PUT',
    path: '/floors/:id/map',
    access: 'admin',
    params: idParams,
    body: saveFloorMapBodySchema,
    responses: { 200: floorMapSchema },
  },
  listFloorMapRevisions: {
    method: 'GET',
    path: '/floors/:id/map/revisions',
    access: 'user',
    params: idParams,
    query: revisionsQuery,
    responses: { 200: z.array(mapRevisionSummarySchema) },
  },
  getFloorMapRevision: {
    method: 'GET',
    path: '/floors/:id/map/revisions/:rev',
    access: 'user',
    params: revisionParams,
    responses: { 200: floorMapSchema },
  },
  restoreFloorMapRevision: {
    method: 'POST',
    path: '/floors/:id/map/revisions/:rev/restore',
    access: 'admin',
    params: revisionParams,
    responses: { 200: floorMapSchema },
  },

  listWaypoints: {
    method: 'GET',
    path: '/maps/:floorId/waypoints',
    access: 'user',
    params: floorParams,
    responses: { 200: z.array(waypointEntrySchema) },
  },
  createWaypoint: {
    method: 'POST',
    path: '/maps/:floorId/waypoints',
    access: 'admin',
    params: floorParams,
    body: waypointInputSchema,
    responses: { 201: waypointEntrySchema },
  },
  getWaypoint: {
    method: 'GET',
    path: '/maps/:floorId/waypoints/:id',
    access: 'user',
    params: waypointParams,
    responses: { 200: waypointEntrySchema },
  },
  updateWaypoint: {
    method: 'PUT',
    path: '/maps/:floorId/waypoints/:id',
    access: 'admin',
    params: waypointParams,
    body: updateWaypointBodySchema,
    responses: { 200: waypointEntrySchema },
  },
  deleteWaypoint: {
    method: 'DELETE',
    path: '/maps/:floorId/waypoints/:id',
    access: 'admin',
    params: waypointParams,
    responses: noContent,
  },

  gotoWaypoint: {
    method: 'POST',
    path: '/robots/:id/goto',
    tags: ['robots', 'maps'],
    access: 'user',
    params: idParams,
    body: gotoBodySchema,
    responses: { 202: navigationOrderSchema },
  },
  trialRunRoute: {
    method: 'POST',
    path: '/robots/:id/trial-run',
    tags: ['robots', 'maps'],
    access: 'user',
    params: idParams,
    body: trialRunBodySchema,
    responses: { 202: navigationOrderSchema },
  },
});
