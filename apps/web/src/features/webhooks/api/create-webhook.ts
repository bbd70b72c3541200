import { webhookOps, type WebhookInput } from '@portal/contract';
import { useOpMutation } from '@/lib/api-hooks';

/** POST: answers the webhook and its signing secret in full (shown once). */
export const useCreateWebhook = () =>
  useOpMutation(webhookOps.createWebhook, {
    args: (body: WebhookInput) => ({ body }),
    invalidates: ['webhooks'],
  });
