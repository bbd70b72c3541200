import { webhookOps } from '@portal/contract';
import { useOpMutation } from '@/lib/api-hooks';

export const useDeleteWebhook = () =>
  useOpMutation(webhookOps.deleteWebhook, {
    args: (id: number) => ({ params: { id } }),
    invalidates: ['webhooks'],
  });
