import { notifTargetSchema, type NotifTargetInput } from '@portal/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { notifTargetsQueryOptions } from './get-notif-targets';

export const createNotifTarget = ({ organizationId, body }: { organizationId: number; body: NotifTargetInput }) =>
  api.send('POST', `/organizations/${organizationId}/notif-targets`, notifTargetSchema, { body });

export const useCreateNotifTarget = () => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createNotifTarget,
    onSuccess: (target) =>
      queryClient.invalidateQueries({ queryKey: notifTargetsQueryOptions(target.organizationId).queryKey }),
  });
};
