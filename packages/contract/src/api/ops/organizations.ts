import { z } from 'zod';
import {
  notifTargetInputSchema,
  notifTargetSchema,
  organizationInputSchema,
  testNotificationResultSchema,
  updateNotifTargetBodySchema,
  updateOrganizationBodySchema,
} from '../../admin.ts';
import { organizationListSchema, organizationSchema } from '../../entities.ts';
import { defineOperations, idParams, idString, listQuery, noContent } from '../operation.ts';

/** `/organizations/:id/notif-targets/:ntid`: the organization and one of its notification targets. */
const targetParams = z.object({ id: idString, ntid: idString });

/**
 * Organizations and their notification targets. The list is for any operator (their own scope);
 * the rest for organization and system administrators (`admin`; the services stop area managers),
 * creating and deleting an organization for system administrators only.
 */
export const organizationOps = defineOperations('organizations', {
  listOrganizations: {
    method: 'GET',
    path: '/organizations',
    access: 'user',
    query: listQuery,
    list: true,
    responses: { 200: organizationListSchema },
  },
  getOrganization: {
    method: 'GET',
    path: '/organizations/:id',
    access: 'admin',
    params: idParams,
    responses: { 200: organizationSchema },
  },
  createOrganization: {
    method: 'POST',
    path: '/organizations',
    access: 'system',
    body: organizationInputSchema,
    responses: { 201: organizationSchema },
  },
  updateOrganization: {
    method: 'PATCH',
    path: '/organizations/:id',
    access: 'admin',
    params: idParams,
    body: updateOrganizationBodySchema,
    responses: { 200: organizationSchema },
  },
  deleteOrganization: {
    method: 'DELETE',
    path: '/organizations/:id',
    access: 'system',
    params: idParams,
    responses: noContent,
  },

  listNotifTargets: {
    method: 'GET',
    path: '/organizations/:id/notif-targets',
    access: 'admin',
    params: idParams,
    responses: { 200: z.array(notifTargetSchema) },
  },
  getNotifTarget: {
    method: 'GET',
    path: '/organizations/:id/notif-targets/:ntid',
    access: 'admin',
    params: targetParams,
    responses: { 200: notifTargetSchema },
  },
  createNotifTarget: {
    method: 'POST',
    path: '/organizations/:id/notif-targets',
    access: 'admin',
    params: idParams,
    body: notifTargetInputSchema,
    responses: { 201: notifTargetSchema },
  },
  updateNotifTarget: {
    method: 'PATCH',
    path: '/organizations/:id/notif-targets/:ntid',
    access: 'admin',
    params: targetParams,
    body: updateNotifTargetBodySchema,
    responses: { 200: notifTargetSchema },
  },
  deleteNotifTarget: {
    method: 'DELETE',
    path: '/organizations/:id/notif-targets/:ntid',
    access: 'admin',
    params: targetParams,
    responses: noContent,
  },
  /** Sends a test message now: sent, stored (no SMTP) or failed. */
  testNotifTarget: {
    method: 'POST',
    path: '/organizations/:id/notif-targets/:ntid/test',
    access: 'admin',
    params: targetParams,
    responses: { 200: testNotificationResultSchema },
  },
});
