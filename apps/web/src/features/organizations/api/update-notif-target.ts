import { notifTargetSchema, type UpdateNotifTargetBody } from '@portal/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { notifTargetQueryOptions } from './get-notif-target';
import { notifTargetsQueryOptions } from './get-notif-targets';

interface UpdateNotifTargetArgs {
  organizationId: number;
  id: number;
  body: UpdateNotifTargetBody;
}

/**
 * PATCH with the `updatedAt` it was based on. `botPassword` undefined keeps the stored one ('' clears it);
 * `address` undefined keeps a stored webhook or bot URL of the same type.
 */
export const updateNotifTarget = ({ organizationId, id, body }: UpdateNotifTargetArgs) =>
  api.send('PATCH', `/organizations/${organizationId}/notif-targets/${id}`, notifTargetSchema, { body });

export const useUpdateNotifTarget = () => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateNotifTarget,
    onSuccess: async (target) => {
      queryClient.setQueryData(notifTargetQueryOptions(target.organizationId, target.id).queryKey, target);
      await queryClient.invalidateQueries({
        queryKey: notifTargetsQueryOptions(target.organizationId).queryKey,
        exact: true,
      });
    },
  });
};
