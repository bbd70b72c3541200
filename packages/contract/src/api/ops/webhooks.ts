import { z } from 'zod';
import {
  updateWebhookBodySchema,
  webhookDeliveryResultSchema,
  webhookInputSchema,
  webhookSchema,
  webhookWithSecretSchema,
} from '../../webhooks.ts';
import { defineOperations, idParams, noContent } from '../operation.ts';

/**
 * Webhooks (`/system/webhooks/*` screens): system administrators only, every other operator 403.
 * docs/api-webhooks.md.
 */
export const webhookOps = defineOperations('system', {
  listWebhooks: {
    method: 'GET',
    path: '/webhooks',
    access: 'system',
    responses: { 200: z.array(webhookSchema) },
  },
  getWebhook: {
    method: 'GET',
    path: '/webhooks/:id',
    access: 'system',
    params: idParams,
    responses: { 200: webhookSchema },
  },
  /** Answers the signing secret in full, this once. */
  createWebhook: {
    method: 'POST',
    path: '/webhooks',
    access: 'system',
    body: webhookInputSchema,
    responses: { 201: webhookWithSecretSchema },
  },
  updateWebhook: {
    method: 'PATCH',
    path: '/webhooks/:id',
    access: 'system',
    params: idParams,
    body: updateWebhookBodySchema,
    responses: { 200: webhookSchema },
  },
  deleteWebhook: {
    method: 'DELETE',
    path: '/webhooks/:id',
    access: 'system',
    params: idParams,
    responses: noContent,
  },
  /** A new signing secret replaces the old one at once; answered in full, this once. */
  rotateWebhookSecret: {
    method: 'POST',
    path: '/webhooks/:id/signing-secret',
    access: 'system',
    params: idParams,
    responses: { 200: webhookWithSecretSchema },
  },
  /** Sends a `webhook.test` event now (whatever the status) and answers the outcome. */
  testWebhook: {
    method: 'POST',
    path: '/webhooks/:id/test',
    access: 'system',
    params: idParams,
    responses: { 200: webhookDeliveryResultSchema },
  },
});
