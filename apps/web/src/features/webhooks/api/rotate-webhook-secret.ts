import { webhookOps } from '@portal/contract';
import { useOpMutation } from '@/lib/api-hooks';

/** A new signing secret, answered in full this once. */
export const useRotateWebhookSecret = () =>
  useOpMutation(webhookOps.rotateWebhookSecret, {
    args: (id: number) => ({ params: { id } }),
    invalidates: ['webhooks'],
  });
