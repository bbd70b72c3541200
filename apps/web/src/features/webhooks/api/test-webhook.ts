import { webhookOps } from '@portal/contract';
import { useOpMutation } from '@/lib/api-hooks';

/** POST .../test: sends a test event now; the webhook's last delivery and failure count change. */
export const useTestWebhook = () =>
  useOpMutation(webhookOps.testWebhook, {
    args: (id: number) => ({ params: { id } }),
    invalidates: ['webhooks', 'deliveries'],
  });
