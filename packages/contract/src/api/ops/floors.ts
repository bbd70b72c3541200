import { floorDetailSchema, floorInputSchema, updateFloorBodySchema } from '../../admin.ts';
import { floorListSchema } from '../../entities.ts';
import { defineOperations, idParams, listQuery, noContent } from '../operation.ts';

/**
 * Floors of a building and their map images. Reading is for any operator within scope; writing for
 * organization and system administrators (`admin` stops general operators, the services stop area
 * managers).
 */
export const floorOps = defineOperations('floors', {
  listFloors: {
    method: 'GET',
    path: '/buildings/:id/floors',
    tags: ['buildings'],
    access: 'user',
    params: idParams,
    query: listQuery,
    list: true,
    responses: { 200: floorListSchema },
  },
  getFloor: {
    method: 'GET',
    path: '/floors/:id',
    access: 'user',
    params: idParams,
    responses: { 200: floorDetailSchema },
  },
  createFloor: {
    method: 'POST',
    path: '/buildings/:id/floors',
    access: 'admin',
    params: idParams,
    body: floorInputSchema,
    responses: { 201: floorDetailSchema },
  },
  updateFloor: {
    method: 'PATCH',
    path: '/floors/:id',
    access: 'admin',
    params: idParams,
    body: updateFloorBodySchema,
    responses: { 200: floorDetailSchema },
  },
  deleteFloor: { method: 'DELETE', path: '/floors/:id', access: 'admin', params: idParams, responses: noContent },
  uploadFloorMapImage: {
    method: 'PUT',
    path: '/floors/:id/map-image',
    summary: 'multipart/form-data with one file field `file` (PNG or JPEG, at most 10 MB)',
    access: 'admin',
    params: idParams,
    multipart: true,
    responses: { 200: floorDetailSchema },
  },
  deleteFloorMapImage: {
    method: 'DELETE',
    path: '/floors/:id/map-image',
    access: 'admin',
    params: idParams,
    responses: noContent,
  },
});
