import { organizationOps, type UpdateNotifTargetBody } from '@portal/contract';
import { useQueryClient } from '@tanstack/react-query';
import { useOpMutation } from '@/lib/api-hooks';
import { notifTargetQueryOptions } from './get-notif-target';

interface UpdateNotifTargetArgs {
  organizationId: number;
  id: number;
  body: UpdateNotifTargetBody;
}

/**
 * PATCH with the `updatedAt` it was based on. `botPassword` undefined keeps the stored one ('' clears it);
 * `address` undefined keeps a stored webhook or bot URL of the same type.
 */
export const useUpdateNotifTarget = () => {
  const queryClient = useQueryClient();
  return useOpMutation(organizationOps.updateNotifTarget, {
    args: ({ organizationId, id, body }: UpdateNotifTargetArgs) => ({ params: { id: organizationId, ntid: id }, body }),
    invalidates: ['organizations'],
    onSuccess: (target) =>
      queryClient.setQueryData(notifTargetQueryOptions(target.organizationId, target.id).queryKey, target),
  });
};
