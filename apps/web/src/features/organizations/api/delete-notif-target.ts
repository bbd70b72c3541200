import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { notifTargetsQueryOptions } from './get-notif-targets';

export const deleteNotifTarget = ({ organizationId, id }: { organizationId: number; id: number }) =>
  api.command('DELETE', `/organizations/${organizationId}/notif-targets/${id}`);

export const useDeleteNotifTarget = () => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deleteNotifTarget,
    onSuccess: (_, { organizationId }) =>
      queryClient.invalidateQueries({ queryKey: notifTargetsQueryOptions(organizationId).queryKey, exact: true }),
  });
};
