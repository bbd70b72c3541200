import { webhookOps, type UpdateWebhookBody } from '@portal/contract';
import { useQueryClient } from '@tanstack/react-query';
import { useOpMutation } from '@/lib/api-hooks';
import { webhookQueryOptions } from './get-webhook';

/** PATCH with the `updatedAt` it was based on; `url` and `authSecret` undefined keep the stored ones. */
export const useUpdateWebhook = () => {
  const queryClient = useQueryClient();
  return useOpMutation(webhookOps.updateWebhook, {
    args: ({ id, body }: { id: number; body: UpdateWebhookBody }) => ({ params: { id }, body }),
    invalidates: ['webhooks'],
    onSuccess: (w) => queryClient.setQueryData(webhookQueryOptions(w.id).queryKey, w),
  });
};
