import { z } from 'zod';
import { languageSchema } from '../../codes.ts';
import {
  agreeTermsBodySchema,
  announcementSchema,
  auditLogSchema,
  changePasswordBodySchema,
  confirmEmailBodySchema,
  contractSchema,
  deviceSchema,
  languageBodySchema,
  locationBodySchema,
  messageSchema,
  paged,
  pageQuerySchema,
  profileSchema,
  termCheckSchema,
  updateProfileBodySchema,
  versionsSchema,
} from '../../my.ts';
import { sessionSchema } from '../../auth.ts';
import { defineOperations, idParams, noContent } from '../operation.ts';

/** Texts answered in a language: the query's, else the operator's. */
export const langQuery = z.object({ lang: languageSchema.optional() });

/** `/my/*`: the signed-in operator's own account, contract and term agreements. */
export const myOps = defineOperations('my', {
  getProfile: {
    method: 'GET',
    path: '/my/profile',
    access: 'user',
    allowDuringPasswordChange: true,
    responses: { 200: profileSchema },
  },
  updateProfile: {
    method: 'PATCH',
    path: '/my/profile',
    access: 'user',
    body: updateProfileBodySchema,
    responses: { 200: profileSchema },
  },
  /** The code mailed to the new address: the email changes now (200, the profile). */
  confirmEmailChange: {
    method: 'POST',
    path: '/my/email/confirm',
    access: 'user',
    body: confirmEmailBodySchema,
    responses: { 200: profileSchema },
  },
  /** Drops a pending email change (the email stays as it is). */
  cancelEmailChange: {
    method: 'DELETE',
    path: '/my/email/pending',
    access: 'user',
    responses: noContent,
  },
  setLanguage: {
    method: 'PUT',
    path: '/my/language',
    access: 'user',
    allowDuringPasswordChange: true,
    body: languageBodySchema,
    responses: noContent,
  },
  changePassword: {
    method: 'POST',
    path: '/my/password',
    access: 'user',
    allowDuringPasswordChange: true,
    body: changePasswordBodySchema,
    responses: noContent,
  },

  listDevices: { method: 'GET', path: '/my/devices', access: 'user', responses: { 200: z.array(deviceSchema) } },
  revokeDevice: { method: 'DELETE', path: '/my/devices/:id', access: 'user', params: idParams, responses: noContent },
  revokeOtherDevices: { method: 'DELETE', path: '/my/devices', access: 'user', responses: noContent },

  listMessages: {
    method: 'GET',
    path: '/my/messages',
    access: 'user',
    query: pageQuerySchema,
    responses: { 200: paged(messageSchema) },
  },
  markMessageRead: {
    method: 'POST',
    path: '/my/messages/:id/read',
    access: 'user',
    params: idParams,
    responses: noContent,
  },
  listMyAuditLogs: {
    method: 'GET',
    path: '/my/audit-logs',
    access: 'user',
    query: pageQuerySchema,
    responses: { 200: paged(auditLogSchema) },
  },
  listAnnouncements: {
    method: 'GET',
    path: '/my/announcements',
    access: 'user',
    query: langQuery,
    responses: { 200: z.array(announcementSchema) },
  },
  getVersions: { method: 'GET', path: '/my/versions', access: 'user', responses: { 200: versionsSchema } },

  getContract: {
    method: 'GET',
    path: '/my/contract',
    access: 'user',
    allowDuringPasswordChange: true,
    responses: { 200: contractSchema },
  },
  changeLocation: {
    method: 'POST',
    path: '/my/location',
    access: 'user',
    body: locationBodySchema,
    responses: { 200: sessionSchema },
  },
  checkTermAgreements: {
    method: 'GET',
    path: '/my/term-agreements/check',
    access: 'user',
    allowDuringPasswordChange: true,
    query: langQuery,
    responses: { 200: termCheckSchema },
  },
  agreeTerms: {
    method: 'POST',
    path: '/my/term-agreements',
    access: 'user',
    body: agreeTermsBodySchema,
    responses: noContent,
  },
});
