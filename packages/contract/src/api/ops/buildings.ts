import { z } from 'zod';
import {
  buildingInputSchema,
  buildingLinksBodySchema,
  buildingLinksSchema,
  groupInputSchema,
  groupSchema,
  ipRestrictionBodySchema,
  ipRestrictionSchema,
  ipRuleInputSchema,
  ipRuleSchema,
  reorderBodySchema,
  speechTextInputSchema,
  speechTextSchema,
  updateBuildingBodySchema,
  updateGroupBodySchema,
  updateSpeechTextBodySchema,
} from '../../admin.ts';
import { buildingListSchema, buildingSchema } from '../../entities.ts';
import { defineOperations, idParams, listQuery, noContent } from '../operation.ts';

/**
 * Buildings and their sections: groups, speech texts, IP restriction, system links. Reading is for
 * any operator within scope; writing for organization and system administrators (`admin` stops
 * general operators, the services stop area managers).
 */
export const buildingOps = defineOperations('buildings', {
  listBuildings: {
    method: 'GET',
    path: '/buildings',
    access: 'user',
    query: listQuery,
    list: true,
    responses: { 200: buildingListSchema },
  },
  getBuilding: {
    method: 'GET',
    path: '/buildings/:id',
    access: 'user',
    params: idParams,
    responses: { 200: buildingSchema },
  },
  createBuilding: {
    method: 'POST',
    path: '/buildings',
    access: 'admin',
    body: buildingInputSchema,
    responses: { 201: buildingSchema },
  },
  updateBuilding: {
    method: 'PATCH',
    path: '/buildings/:id',
    access: 'admin',
    params: idParams,
    body: updateBuildingBodySchema,
    responses: { 200: buildingSchema },
  },
  deleteBuilding: { method: 'DELETE', path: '/buildings/:id', access: 'admin', params: idParams, responses: noContent },

  listSpeechTexts: {
    method: 'GET',
    path: '/buildings/:id/speech-texts',
    access: 'user',
    params: idParams,
    responses: { 200: z.array(speechTextSchema) },
  },
  createSpeechText: {
    method: 'POST',
    path: '/buildings/:id/speech-texts',
    access: 'admin',
    params: idParams,
    body: speechTextInputSchema,
    responses: { 201: speechTextSchema },
  },
  updateSpeechText: {
    method: 'PATCH',
    path: '/speech-texts/:id',
    access: 'admin',
    params: idParams,
    body: updateSpeechTextBodySchema,
    responses: { 200: speechTextSchema },
  },
  deleteSpeechText: {
    method: 'DELETE',
    path: '/speech-texts/:id',
    access: 'admin',
    params: idParams,
    responses: noContent,
  },

  getIpRestriction: {
    method: 'GET',
    path: '/buildings/:id/ip-restriction',
    access: 'user',
    params: idParams,
    responses: { 200: ipRestrictionSchema },
  },
  setIpRestriction: {
    method: 'PUT',
    path: '/buildings/:id/ip-restriction',
    access: 'admin',
    params: idParams,
    body: ipRestrictionBodySchema,
    responses: { 200: ipRestrictionSchema },
  },
  createIpRule: {
    method: 'POST',
    path: '/buildings/:id/ip-rules',
    access: 'admin',
    params: idParams,
    body: ipRuleInputSchema,
    responses: { 201: ipRuleSchema },
  },
  deleteIpRule: { method: 'DELETE', path: '/ip-rules/:id', access: 'admin', params: idParams, responses: noContent },

  getBuildingLinks: {
    method: 'GET',
    path: '/buildings/:id/links',
    access: 'user',
    params: idParams,
    responses: { 200: buildingLinksSchema },
  },
  updateBuildingLinks: {
    method: 'PUT',
    path: '/buildings/:id/links',
    access: 'admin',
    params: idParams,
    body: buildingLinksBodySchema,
    responses: { 200: buildingLinksSchema },
  },
});

/** The group operations of one kind: `/robot-groups` or `/flow-groups`, and a building's list and order of them. */
function groupOps<const P extends string, const N extends string>(path: P, noun: N) {
  const tags = ['buildings'] as const;
  return {
    list: {
      id: `list${noun}s`,
      tags,
      method: 'GET',
      path: `/buildings/:id/${path}`,
      access: 'user',
      params: idParams,
      responses: { 200: z.array(groupSchema) },
    },
    create: {
      id: `create${noun}`,
      tags,
      method: 'POST',
      path: `/${path}`,
      access: 'admin',
      body: groupInputSchema,
      responses: { 201: groupSchema },
    },
    get: {
      id: `get${noun}`,
      tags,
      method: 'GET',
      path: `/${path}/:id`,
      access: 'user',
      params: idParams,
      responses: { 200: groupSchema },
    },
    update: {
      id: `update${noun}`,
      tags,
      method: 'PATCH',
      path: `/${path}/:id`,
      access: 'admin',
      params: idParams,
      body: updateGroupBodySchema,
      responses: { 200: groupSchema },
    },
    remove: {
      id: `delete${noun}`,
      tags,
      method: 'DELETE',
      path: `/${path}/:id`,
      access: 'admin',
      params: idParams,
      responses: noContent,
    },
    reorder: {
      id: `reorder${noun}s`,
      tags,
      method: 'PUT',
      path: `/buildings/:id/${path}/order`,
      access: 'admin',
      params: idParams,
      body: reorderBodySchema,
      responses: { 200: z.array(groupSchema) },
    },
  } as const;
}

/** Robot groups and flow groups share one shape of operations. */
export const groupOpsByKind = {
  'robot-group': groupOps('robot-groups', 'RobotGroup'),
  'flow-group': groupOps('flow-groups', 'FlowGroup'),
} as const;
